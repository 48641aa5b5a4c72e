"""The gpiod pin factory's own logic, through a fake of libgpiod v2 (tests/hardware/fake_gpiod.py).

This host has no GPIO chip (no /dev/gpiochip*, no gpio-sim), so these prove
what the factory asks of libgpiod and what it does with the answers: the
line configuration (pull-up, edges), edges on its own thread to gpiozero's
callbacks, values, releasing the lines, and that no thread outlives the
pins. The kernel's side is proven against a real chip elsewhere.
"""

from __future__ import annotations

import threading
import tomllib
from collections.abc import Iterator
from pathlib import Path
from queue import Queue
from typing import Any

import pytest
from gpiozero import Button, DigitalOutputDevice  # type: ignore[import-untyped]

from hardware.buttons import ButtonPanel
from hardware.errors import HardwareError, NoGpio
from hardware.gpiod_factory import GpiodFactory, find_chip, gpio_chips
from hardware.inputs import Action, ButtonPressed, Input
from tests.hardware.conftest import FakeClock
from tests.hardware.fake_gpiod import Bias, Direction, Edge, FakeGpiod, Value

PI4 = 0xC03111  # a Raspberry Pi 4 B: gpiozero names the pins from this
ROOT = Path(__file__).resolve().parents[2]


def edge_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "gpiod-edges"]


@pytest.fixture
def dev(tmp_path: Path) -> Path:
    for n in (0, 1, 4, 10):
        (tmp_path / f"gpiochip{n}").touch()
    (tmp_path / "ttyS0").touch()
    return tmp_path


@pytest.fixture
def gpiod(dev: Path) -> Iterator[FakeGpiod]:
    fake = FakeGpiod({str(dev / "gpiochip0"): "pinctrl-bcm2711",
                      str(dev / "gpiochip1"): "raspberrypi-exp-gpio"})
    yield fake
    fake.close_all()


@pytest.fixture
def factory(gpiod: FakeGpiod, dev: Path) -> Iterator[GpiodFactory]:
    factory = GpiodFactory(gpiod=gpiod, revision=PI4, dev=str(dev))
    yield factory
    factory.close()
    assert not edge_threads(), "the edge thread outlived the factory"


def wait_for(event: threading.Event) -> None:
    assert event.wait(5.0), "no callback within 5 s"


# --- finding the chip ------------------------------------------------------

def test_chips_are_listed_in_number_order(dev: Path) -> None:
    assert [Path(p).name for p in gpio_chips(str(dev))] == [
        "gpiochip0", "gpiochip1", "gpiochip4", "gpiochip10"]


def test_the_chip_behind_the_header_is_found_by_its_label(dev: Path) -> None:
    # A Pi 5 on an older kernel: the RP1's header chip is gpiochip4, not gpiochip0.
    fake = FakeGpiod({str(dev / "gpiochip0"): "gpio-brcmstb@107d508500",
                      str(dev / "gpiochip1"): "gpio-brcmstb@107d517c00",
                      str(dev / "gpiochip4"): "pinctrl-rp1"})
    assert find_chip(fake, str(dev)) == (str(dev / "gpiochip4"), "pinctrl-rp1")
    fake.chips[str(dev / "gpiochip4")] = "pinctrl-bcm2835"
    assert find_chip(fake, str(dev))[1] == "pinctrl-bcm2835"


def test_an_unknown_board_gets_gpiochip0(dev: Path) -> None:
    fake = FakeGpiod({str(dev / "gpiochip1"): "other", str(dev / "gpiochip0"): "gpio-mockup-A"})
    assert find_chip(fake, str(dev)) == (str(dev / "gpiochip0"), "gpio-mockup-A")


def test_no_chip_is_a_translated_hardware_error(tmp_path: Path) -> None:
    with pytest.raises(NoGpio) as caught:
        GpiodFactory(gpiod=FakeGpiod(), revision=PI4, dev=str(tmp_path))
    err = caught.value
    assert isinstance(err, HardwareError) and isinstance(err, OSError)
    assert err.translate("nn") == "Ingen GPIO: knappane er av, tastaturet verkar framleis"
    assert err.translate("nb") == "Ingen GPIO: knappene er av, tastaturet virker fortsatt"
    assert err.translate("da") == "Ingen GPIO: knapperne er slået fra, tastaturet virker stadig"
    assert str(err) == "No GPIO: buttons off, the keyboard still works"


def test_the_v1_bindings_are_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import types

    v1 = types.ModuleType("gpiod")  # Debian 12's python3-libgpiod 1.6: Chip, no request_lines
    v1.Chip = object  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "gpiod", v1)
    with pytest.raises(ImportError, match="v1 API"):
        GpiodFactory(revision=PI4)


# --- one pin -----------------------------------------------------------------

def test_a_button_asks_for_an_input_with_pull_up_and_both_edges(
    factory: GpiodFactory, gpiod: FakeGpiod, dev: Path
) -> None:
    with Button(17, pull_up=True, bounce_time=None, pin_factory=factory) as button:
        button.when_pressed = lambda: None
        request = gpiod.request_for(17)
        assert request.chip_name == str(dev / "gpiochip0")
        assert request.consumer == "pubpoker"
        settings = request.settings[17]
        assert (settings.direction, settings.bias, settings.edge_detection) == (
            Direction.INPUT, Bias.PULL_UP, Edge.BOTH)
        assert not button.is_pressed  # pulled up: high, not pressed
        request.drive(17, 0)
        assert button.is_pressed
        assert request.get_value(17) is Value.INACTIVE


@pytest.mark.parametrize(("pull_up", "bias"), [(False, Bias.PULL_DOWN), (None, Bias.DISABLED)])
def test_pull_down_and_floating(factory: GpiodFactory, gpiod: FakeGpiod, pull_up: bool | None,
                                bias: Bias) -> None:
    active = None if pull_up is not None else True
    with Button(27, pull_up=pull_up, active_state=active, pin_factory=factory):
        assert gpiod.request_for(27).settings[27].bias is bias


def test_no_edges_are_asked_for_until_someone_listens(factory: GpiodFactory,
                                                       gpiod: FakeGpiod) -> None:
    pin = factory.pin(22)
    pin.function = "input"
    pin.pull = "up"
    assert gpiod.request_for(22).settings[22].edge_detection is Edge.NONE
    assert factory.edge_thread is None
    pin.when_changed = lambda ticks, state: None
    assert gpiod.request_for(22).settings[22].edge_detection is Edge.BOTH
    assert factory.edge_thread is not None
    pin.when_changed = None
    assert gpiod.request_for(22).settings[22].edge_detection is Edge.NONE
    assert factory.edge_thread is None and not edge_threads()


def test_falling_and_rising_edges_reach_when_pressed_and_when_released(
    factory: GpiodFactory, gpiod: FakeGpiod
) -> None:
    pressed, released = threading.Event(), threading.Event()
    threads: list[str] = []

    def on_press() -> None:
        threads.append(threading.current_thread().name)
        pressed.set()

    with Button(17, pull_up=True, bounce_time=None, pin_factory=factory) as button:
        button.when_pressed = on_press
        button.when_released = released.set
        request = gpiod.request_for(17)
        assert request.drive(17, 0)
        wait_for(pressed)
        assert not released.is_set()
        assert request.drive(17, 1)
        wait_for(released)
    assert threads == ["gpiod-edges"]  # one thread of the factory's own


def test_edges_carry_the_kernel_timestamp_as_ticks(factory: GpiodFactory,
                                                   gpiod: FakeGpiod) -> None:
    seen: list[tuple[float, int]] = []
    done = threading.Event()

    def changed(ticks: float, state: int) -> None:
        seen.append((ticks, state))
        if len(seen) == 3:
            done.set()

    pin = factory.pin(5)
    pin.function = "input"
    pin.pull = "up"
    pin.when_changed = changed
    request = gpiod.request_for(5)
    for level in (0, 1, 0):
        request.drive(5, level)
    wait_for(done)
    pin.when_changed = None
    assert [state for _, state in seen] == [0, 1, 0]
    ticks = [t for t, _ in seen]
    assert ticks == sorted(ticks)
    assert abs(factory.ticks_diff(factory.ticks(), ticks[0])) < 5.0  # the same clock


def test_edges_of_several_pins_go_to_their_own_callbacks(factory: GpiodFactory,
                                                         gpiod: FakeGpiod) -> None:
    got: dict[int, threading.Event] = {n: threading.Event() for n in (17, 27, 22)}
    buttons = [Button(n, pull_up=True, bounce_time=None, pin_factory=factory) for n in got]
    try:
        for button, event in zip(buttons, got.values(), strict=True):
            button.when_pressed = event.set
        gpiod.request_for(27).drive(27, 0)
        wait_for(got[27])
        assert not got[17].is_set() and not got[22].is_set()
        gpiod.request_for(22).drive(22, 0)
        wait_for(got[22])
        assert not got[17].is_set()
        assert len(edge_threads()) == 1
    finally:
        for button in buttons:
            button.close()


def test_bounce_is_stored_but_not_asked_of_the_kernel(factory: GpiodFactory,
                                                      gpiod: FakeGpiod) -> None:
    with Button(6, pull_up=True, bounce_time=0.05, pin_factory=factory) as button:
        button.when_pressed = lambda: None
        assert button.pin.bounce == 0.05
        assert all(s[6].debounce_period is None for s in gpiod.request_for(6).history)


def test_close_releases_the_line_and_stops_the_thread(factory: GpiodFactory,
                                                      gpiod: FakeGpiod) -> None:
    button = Button(13, pull_up=True, bounce_time=None, pin_factory=factory)
    button.when_pressed = lambda: None
    request = gpiod.request_for(13)
    assert len(edge_threads()) == 1
    button.close()
    assert request.released
    assert factory.edge_thread is None and not edge_threads()
    # The pin is used again: a fresh request, edges and all.
    pressed = threading.Event()
    with Button(13, pull_up=True, bounce_time=None, pin_factory=factory) as again:
        again.when_pressed = pressed.set
        gpiod.request_for(13).drive(13, 0)
        wait_for(pressed)
    assert not edge_threads()


def test_closing_the_factory_stops_the_thread_of_pins_still_watched(
    gpiod: FakeGpiod, dev: Path
) -> None:
    factory = GpiodFactory(gpiod=gpiod, revision=PI4, dev=str(dev))
    button = Button(17, pull_up=True, bounce_time=None, pin_factory=factory)
    button.when_pressed = lambda: None
    assert edge_threads()
    factory.close()
    assert not edge_threads()
    assert all(r.released for r in gpiod.requests)
    button.close()


def test_a_callback_may_close_its_own_button(factory: GpiodFactory, gpiod: FakeGpiod) -> None:
    done = threading.Event()
    button = Button(23, pull_up=True, bounce_time=None, pin_factory=factory)

    def close_me() -> None:
        button.close()
        done.set()

    button.when_pressed = close_me
    gpiod.request_for(23).drive(23, 0)
    wait_for(done)
    for thread in edge_threads():
        thread.join(5.0)
    assert not edge_threads()


def test_a_failing_callback_does_not_stop_the_thread(factory: GpiodFactory,
                                                     gpiod: FakeGpiod) -> None:
    released = threading.Event()

    def boom() -> None:
        raise RuntimeError("boom")

    with Button(24, pull_up=True, bounce_time=None, pin_factory=factory) as button:
        button.when_pressed = boom
        button.when_released = released.set
        request = gpiod.request_for(24)
        request.drive(24, 0)
        request.drive(24, 1)
        wait_for(released)


def test_an_output_pin(factory: GpiodFactory, gpiod: FakeGpiod) -> None:
    with DigitalOutputDevice(25, pin_factory=factory) as out:
        request = gpiod.request_for(25)
        assert request.settings[25].direction is Direction.OUTPUT
        out.on()
        assert request.levels[25] == 1 and out.value == 1
        out.off()
        assert request.levels[25] == 0


# --- the panel on this factory ---------------------------------------------------

def test_a_falling_edge_is_a_button_press_through_our_debounce(
    factory: GpiodFactory, gpiod: FakeGpiod, clock: FakeClock
) -> None:
    queue: Queue[Input] = Queue()
    edges = threading.Semaphore(0)
    with ButtonPanel({Action.pause: 17, Action.next_level: 27}, queue,
                     pin_factory=factory, clock=clock) as panel:
        panel.on_edge = edges.release
        assert gpiod.request_for(17).settings[17].bias is Bias.PULL_UP
        request = gpiod.request_for(17)
        start = clock.now
        request.drive(17, 0)  # pressed: the pin is pulled to ground
        assert edges.acquire(timeout=5.0)
        assert panel.is_held(Action.pause)
        clock.advance(0.2)
        request.drive(17, 1)
        assert edges.acquire(timeout=5.0)
        clock.advance(0.05)
        panel.poll()
        assert list(queue.queue) == [ButtonPressed(Action.pause, long=False,
                                                   at=start + 0.2 + 0.03)]
    assert all(r.released for r in gpiod.requests)
    assert not edge_threads()


# --- packaging -----------------------------------------------------------------

def test_registered_under_gpiozeros_entry_point_as_gpiod() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    target = project["entry-points"]["gpiozero_pin_factories"]["gpiod"]
    module, _, name = target.partition(":")
    assert getattr(__import__(module, fromlist=[name]), name) is GpiodFactory


def test_the_fake_speaks_the_real_api() -> None:
    """The names the factory uses exist in the real bindings (where installed)."""
    real: Any = pytest.importorskip("gpiod")
    line = real.line
    for enum_name, members in [("Direction", Direction), ("Bias", Bias), ("Edge", Edge),
                               ("Value", Value)]:
        for member in members:
            assert hasattr(getattr(line, enum_name), member.name)
    assert {"RISING_EDGE", "FALLING_EDGE"} <= set(real.EdgeEvent.Type.__members__)
    assert {"event_type", "timestamp_ns", "line_offset"} <= set(
        real.EdgeEvent.__dataclass_fields__)
    real.LineSettings(direction=line.Direction.INPUT, bias=line.Bias.PULL_UP,
                      edge_detection=line.Edge.BOTH)
    for method in ("fd", "get_value", "set_value", "read_edge_events", "reconfigure_lines",
                   "release"):
        assert hasattr(real.LineRequest, method)
    assert callable(real.request_lines) and callable(real.is_gpiochip_device)
    assert hasattr(real.Chip, "get_info") and "label" in real.ChipInfo.__dataclass_fields__


PROBE = """
import os, sys
from gpiozero import Device
from hardware.errors import NoGpio
try:
    Device._default_pin_factory()
except NoGpio as err:
    print("ours:", err.translate("nn"))
except ImportError as err:
    print("ours, without bindings:", err)
"""


def test_gpiozero_finds_the_factory_by_its_entry_point(tmp_path: Path) -> None:
    """GPIOZERO_PIN_FACTORY=gpiod reaches GpiodFactory through the installed metadata.

    A dist-info holding the entry point of pyproject.toml stands in for the
    installed app (this venv's own install may predate the entry point). The
    factory then finds no chip on this host (or no bindings), and says so.
    """
    import os
    import subprocess
    import sys

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    dist = tmp_path / "pubpoker_gpiod_probe-0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: pubpoker-gpiod-probe\n"
                                   "Version: 0\n")
    (dist / "entry_points.txt").write_text(
        "[gpiozero_pin_factories]\n" + "".join(
            f"{name} = {target}\n"
            for name, target in project["entry-points"]["gpiozero_pin_factories"].items()))
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "gpiod",
           "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT),
                                          os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", PROBE], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ours"), done.stdout
    if not gpio_chips():
        assert done.stdout in ("ours: Ingen GPIO: knappane er av, tastaturet verkar framleis\n",
                               "ours, without bindings: No module named 'gpiod'\n")


def test_a_request_that_cannot_be_read_is_dropped_not_spun_on(
    factory: GpiodFactory, gpiod: FakeGpiod, caplog: pytest.LogCaptureFixture
) -> None:
    pin = factory.pin(17)
    pin.pull = "up"
    pin.when_changed = lambda ticks, state: None
    request = gpiod.request_for(17)

    def broken(max_events: int | None = None) -> list[Any]:
        raise OSError(5, "Input/output error")

    request.read_edge_events = broken  # type: ignore[method-assign]
    thread = factory.edge_thread
    assert thread is not None
    request.drive(17, 0)
    thread.join(5.0)
    assert not thread.is_alive() and factory.edge_thread is None
    assert "edges cannot be read; this button is off" in caplog.text
    pin.when_changed = None
