"""The button panel on gpiozero's MockFactory, with a clock moved by hand."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from queue import Queue

import pytest
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from hardware.buttons import ButtonPanel
from hardware.errors import HardwareError, PinInUse
from hardware.inputs import Action, ButtonHint, ButtonPressed, ButtonsHeld, Input
from tests.hardware.conftest import FakeClock

PINS = {
    Action.pause: 17,
    Action.next_level: 27,
    Action.prev_level: 22,
    Action.add_minute: 23,
    Action.remove_minute: 24,
    Action.next_screen: 25,
    Action.undo: 5,
    Action.start: 6,
    Action.new: 13,
}


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory()


@pytest.fixture
def queue() -> Queue[Input]:
    return Queue()


@pytest.fixture
def panel(factory: MockFactory, queue: Queue[Input], clock: FakeClock) -> Iterator[ButtonPanel]:
    with ButtonPanel(PINS, queue, pin_factory=factory, clock=clock) as panel:
        yield panel


def drain(queue: Queue[Input]) -> list[Input]:
    out = []
    while not queue.empty():
        out.append(queue.get_nowait())
    return out


def tap(factory: MockFactory, clock: FakeClock, pin: int, held: float) -> None:
    factory.pin(pin).drive_low()
    clock.advance(held)
    factory.pin(pin).drive_high()


def test_bounce_storm_of_50_transitions_in_20_ms_is_one_press(
    panel: ButtonPanel, factory: MockFactory, queue: Queue[Input], clock: FakeClock
) -> None:
    pin = factory.pin(PINS[Action.next_level])
    start = clock.now
    for i in range(50):  # low, high, low, ... ending high: every 0.4 ms
        clock.now = start + i * 0.0004
        pin.drive_low() if i % 2 == 0 else pin.drive_high()
    pin.drive_low()  # the contact settles closed
    assert clock.now - start < 0.020
    for _ in range(10):
        clock.advance(0.01)
        panel.poll()
    pin.drive_high()  # released after about 120 ms, without bounce this time
    clock.advance(0.05)
    panel.poll()
    assert drain(queue) == [ButtonPressed(Action.next_level, long=False, at=clock.now - 0.02)]


def test_bounce_storm_that_ends_open_is_still_one_press(
    panel: ButtonPanel, factory: MockFactory, queue: Queue[Input], clock: FakeClock
) -> None:
    pin = factory.pin(PINS[Action.pause])
    start = clock.now
    for i in range(50):
        clock.now = start + i * 0.0004
        pin.drive_low() if i % 2 == 0 else pin.drive_high()
    for _ in range(20):
        clock.advance(0.005)
        panel.poll()
    (message,) = drain(queue)
    assert isinstance(message, ButtonPressed) and message.action is Action.pause


def test_release_bounce_after_a_long_hold_adds_nothing(
    panel: ButtonPanel, factory: MockFactory, queue: Queue[Input], clock: FakeClock
) -> None:
    pin = factory.pin(PINS[Action.start])
    pin.drive_low()
    clock.advance(2.0)
    panel.poll()
    for _ in range(25):  # open/close chatter as the contact lets go
        clock.advance(0.0005)
        pin.drive_high()
        clock.advance(0.0005)
        pin.drive_low()
    pin.drive_high()
    clock.advance(0.1)
    panel.poll()
    assert [(m.action, m.long) for m in drain(queue) if isinstance(m, ButtonPressed)] == [
        (Action.start, True)
    ]


def test_long_and_short_press_are_told_apart(
    panel: ButtonPanel, factory: MockFactory, queue: Queue[Input], clock: FakeClock
) -> None:
    pin = PINS[Action.pause]
    t0 = clock.now
    tap(factory, clock, pin, 1.4)
    clock.advance(0.05)
    panel.poll()
    assert drain(queue) == [ButtonPressed(Action.pause, long=False, at=t0 + 1.4 + 0.03)]

    factory.pin(pin).drive_low()
    t1 = clock.now
    clock.advance(1.49)
    panel.poll()
    assert drain(queue) == []
    clock.advance(0.02)  # past 1.5 s: reported while still held, not on release
    panel.poll()
    assert drain(queue) == [ButtonPressed(Action.pause, long=True, at=t1 + 1.5)]
    clock.advance(3.0)
    factory.pin(pin).drive_high()
    clock.advance(0.05)
    panel.poll()
    assert drain(queue) == []


def test_a_late_poll_still_reports_the_long_press_at_the_threshold(
    panel: ButtonPanel, factory: MockFactory, queue: Queue[Input], clock: FakeClock
) -> None:
    t0 = clock.now
    tap(factory, clock, PINS[Action.next_screen], 2.0)  # no poll while held
    clock.advance(0.1)
    panel.poll()
    assert drain(queue) == [ButtonPressed(Action.next_screen, long=True, at=t0 + 1.5)]


@pytest.mark.parametrize("action", [Action.prev_level, Action.undo, Action.new])
def test_destructive_action_pressed_short_only_hints(
    panel: ButtonPanel, factory: MockFactory, queue: Queue[Input], clock: FakeClock,
    action: Action,
) -> None:
    tap(factory, clock, PINS[action], 0.3)
    clock.advance(0.05)
    panel.poll()
    assert drain(queue) == [ButtonHint(action, at=clock.now - 0.02)]
    t0 = clock.now
    tap(factory, clock, PINS[action], 1.6)
    clock.advance(0.05)
    panel.poll()
    assert drain(queue) == [ButtonPressed(action, long=True, at=t0 + 1.5)]


def test_two_buttons_held_three_seconds_ask_for_help_and_nothing_else(
    panel: ButtonPanel, factory: MockFactory, queue: Queue[Input], clock: FakeClock
) -> None:
    factory.pin(PINS[Action.undo]).drive_low()
    clock.advance(0.1)
    factory.pin(PINS[Action.new]).drive_low()
    t1 = clock.now
    for _ in range(40):
        clock.advance(0.1)
        panel.poll()
    factory.pin(PINS[Action.undo]).drive_high()
    factory.pin(PINS[Action.new]).drive_high()
    clock.advance(0.1)
    panel.poll()
    assert drain(queue) == [ButtonsHeld(frozenset({Action.undo, Action.new}), at=t1 + 3.0)]


def test_auto_repeat_steps_minutes_and_goes_long_after_five(
    factory: MockFactory, queue: Queue[Input], clock: FakeClock
) -> None:
    with ButtonPanel(PINS, queue, pin_factory=factory, clock=clock, auto_repeat=True) as panel:
        factory.pin(PINS[Action.add_minute]).drive_low()
        for _ in range(26):  # held 2.6 s
            clock.advance(0.1)
            panel.poll()
        factory.pin(PINS[Action.add_minute]).drive_high()
        clock.advance(0.1)
        panel.poll()
        presses = [m for m in drain(queue) if isinstance(m, ButtonPressed)]
    assert [p.long for p in presses] == [False] * 5 + [True, True]
    assert {p.action for p in presses} == {Action.add_minute}


def test_a_pin_used_twice_is_refused_with_a_clear_message(
    factory: MockFactory, queue: Queue[Input]
) -> None:
    pins = dict(PINS) | {Action.new: PINS[Action.pause]}
    with pytest.raises(PinInUse) as caught:
        ButtonPanel(pins, queue, pin_factory=factory)
    assert str(caught.value) == (
        "GPIO 17 is used by both 'pause' and 'new'; each button needs its own pin"
    )
    assert isinstance(caught.value, ValueError)
    assert caught.value.translate("nb").startswith("GPIO 17 er brukt av både «pause» og «new»")
    # Nothing was claimed: the pins are free for a corrected panel.
    ButtonPanel(PINS, queue, pin_factory=factory).close()


def test_close_leaves_no_thread_and_frees_the_pins(
    factory: MockFactory, queue: Queue[Input], clock: FakeClock
) -> None:
    before = set(threading.enumerate())
    panel = ButtonPanel(PINS, queue, pin_factory=factory, clock=clock)
    factory.pin(PINS[Action.pause]).drive_low()  # gpiozero's hold thread is busy now
    panel.close()
    panel.close()
    assert set(threading.enumerate()) <= before
    again = ButtonPanel(PINS, queue, pin_factory=factory, clock=clock)
    again.close()


def test_callbacks_only_enqueue_and_poll_needs_no_thread(
    panel: ButtonPanel, factory: MockFactory, queue: Queue[Input], clock: FakeClock
) -> None:
    factory.pin(PINS[Action.pause]).drive_low()
    assert panel.is_held(Action.pause)
    assert panel.next_deadline() == pytest.approx(clock.now + 1.5)
    clock.advance(0.2)
    factory.pin(PINS[Action.pause]).drive_high()
    assert drain(queue) == []  # nothing acts until the release is certain
    clock.advance(0.03)
    panel.poll()
    assert [type(m) for m in drain(queue)] == [ButtonPressed]


def test_every_hardware_error_speaks_every_language() -> None:
    for error in (HardwareError, PinInUse):
        assert not error.missing_languages()
        assert error(pin=4, first="a", second="b").translate("da")


# --- a pushing panel: its own thread, the real clock, nobody calls poll() -----------


def pushers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "button-panel"]


def wakeups(thread: threading.Thread) -> int:
    """How often the thread has gone to sleep and been woken (Linux's count)."""
    status = Path(f"/proc/self/task/{thread.native_id}/status").read_text()
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    return int(fields["voluntary_ctxt_switches"]) + int(fields["nonvoluntary_ctxt_switches"])


@pytest.fixture
def pushing(factory: MockFactory, queue: Queue[Input]) -> Iterator[ButtonPanel]:
    with ButtonPanel(PINS, queue, pin_factory=factory) as panel:
        panel.start()
        yield panel


def test_a_pushing_panel_reports_a_tap_one_debounce_after_the_release_unpolled(
    pushing: ButtonPanel, factory: MockFactory, queue: Queue[Input]
) -> None:
    pin = factory.pin(PINS[Action.next_level])
    pin.drive_low()
    time.sleep(0.05)
    assert queue.empty()  # a press is only told once its release is certain
    released = time.monotonic()
    pin.drive_high()
    edged = time.monotonic()
    # The release's edge wakes the thread, which slept towards the long press
    # 1.5 s away: the press comes at the release's debounce, not then. The bounds
    # hold on a loaded machine too: only a thread the edge never woke is as late
    # as the long press.
    message = queue.get(timeout=1.4)
    arrived = time.monotonic()
    assert message == ButtonPressed(Action.next_level, long=False, at=message.at)
    assert released + 0.03 <= message.at <= edged + 0.03
    assert message.at <= arrived < released + 1.4
    time.sleep(0.1)
    assert queue.empty() and pushing.next_deadline() is None


def test_a_pushing_panel_reports_a_held_button_long_at_the_threshold(
    factory: MockFactory, queue: Queue[Input]
) -> None:
    with ButtonPanel(PINS, queue, pin_factory=factory, long_press=0.4) as panel:
        panel.start()
        pin = factory.pin(PINS[Action.pause])
        down = time.monotonic()
        pin.drive_low()
        message = queue.get(timeout=2.0)
        arrived = time.monotonic()
        assert message == ButtonPressed(Action.pause, long=True, at=message.at)
        assert panel.is_held(Action.pause)  # still held: it came on its own
        assert down + 0.4 <= message.at <= arrived
        pin.drive_high()
        time.sleep(0.1)
        assert queue.empty()  # the release of a long press adds nothing


def test_a_pushing_panel_at_rest_sleeps_and_close_stops_its_thread(
    factory: MockFactory, queue: Queue[Input]
) -> None:
    before = pushers()
    panel = ButtonPanel(PINS, queue, pin_factory=factory)
    assert pushers() == before  # no thread until asked for one
    panel.start()
    panel.start()
    (thread,) = [t for t in pushers() if t not in before]
    tap_pin = factory.pin(PINS[Action.start])
    tap_pin.drive_low()
    tap_pin.drive_high()
    assert isinstance(queue.get(timeout=1.0), ButtonPressed)
    time.sleep(0.05)  # back at rest: nothing pending
    assert panel.next_deadline() is None
    woken, cpu = wakeups(thread), time.process_time()
    time.sleep(1.0)
    # Blocked without a timeout: not once woken in a second, and no CPU spent.
    assert wakeups(thread) - woken == 0
    assert time.process_time() - cpu < 0.05
    panel.close()
    panel.close()
    assert not thread.is_alive() and pushers() == before
    with pytest.raises(RuntimeError):
        panel.start()
