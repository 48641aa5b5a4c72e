"""The bootstrap's real parts attached to a running app: buttons on mock pins, a
card reader on a pty, and peer sync between two apps over loopback."""

from __future__ import annotations

import os
import threading
import time
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from hardware.inputs import Action, ButtonPressed
from hardware.readers.rdm6300 import encode_frame
from kiosk.app import App
from kiosk.bootstrap import Options, bootstrap
from kiosk.sync.auth import parse_key
from kiosk.wiring import SyncSettings, attach_buttons, attach_reader
from rules.commands import CreateTournament, DrawSeats, StartClock
from rules.fold import state_digest
from rules.structure import preset

KEY = parse_key("11" * 32)



@pytest.fixture()
def app() -> Iterator[App]:
    made = bootstrap(Options(headless=True, temp_data=True, sound=False, size=(640, 360),
                             role="display+console", max_wait_ms=20), fake=True)
    yield made
    made.close()


def step_until(app: App, done: object, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        app.loop.step(block=False)
        if done():  # type: ignore[operator]
            return
        time.sleep(0.01)
    raise AssertionError("timed out")


def test_buttons_on_mock_pins_run_the_clock_and_close_with_the_app(app: App) -> None:
    factory = MockFactory()
    attach_buttons(app, {"pause": 17, "next_level": 27}, pin_factory=factory)
    station = app.station
    assert station.submit(CreateTournament("F", preset("pubpoker"))).ok
    for n in range(4):
        station.store.players.add(f"P{n}")
    from rules.commands import CheckIn

    for player in station.store.players.list():
        assert station.submit(CheckIn(player.id, player.name)).ok
    assert station.submit(DrawSeats()).ok and station.submit(StartClock()).ok
    pin = factory.pin(17)
    pin.drive_low()
    assert app.time is not None
    app.time.advance(0.1)
    pin.drive_high()
    app.time.advance(0.1)
    step_until(app, lambda: not app.station.state.clock.running)


def test_a_card_on_the_pty_reader_checks_the_player_in(app: App) -> None:
    station = app.station
    assert station.submit(CreateTournament("F", preset("pubpoker"))).ok
    station.store.players.add("Kari Nordmann", card="0A1B2C3D4E")
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        attach_reader(app, os.ttyname(slave), "rdm6300")

        def tag_on_reader() -> bool:
            # An RDM6300 repeats its frame while the tag lies on it; the first
            # may come before the port is open (opening clears the buffer).
            os.write(master, encode_frame("0A1B2C3D4E"))
            return app.station.state.entrants == 1

        step_until(app, tag_on_reader)
        assert app.station.state.find("Kari Nordmann") is not None
        # A corrupt frame (its checksum) is dropped and counted in the status file.
        from kiosk.status_file import snapshot

        before = snapshot(app)["readers"]["reader"]
        assert before["connected"] and before["reads"] == 1 and before["rejected"] == 0
        os.write(master, encode_frame("0A1B2C3D4E")[:11] + b"00\x03")
        step_until(app, lambda: snapshot(app)["readers"]["reader"]["rejected"] == 1)
        assert snapshot(app)["readers"]["reader"]["reads"] == 1
    finally:
        app.close()
        os.close(master)
        os.close(slave)


def test_two_apps_replicate_over_a_loopback_link() -> None:
    a = bootstrap(Options(headless=True, temp_data=True, sound=False, size=(320, 180),
                          max_wait_ms=20), fake=True,
                  sync=SyncSettings(KEY, addresses=("127.0.0.1",), discover=False))
    assert a.sync is not None
    b = bootstrap(Options(headless=True, temp_data=True, sound=False, size=(320, 180),
                          max_wait_ms=20, role="console"), fake=True,
                  sync=SyncSettings(KEY, addresses=("127.0.0.1",), discover=False,
                                    peers=(("127.0.0.1", a.sync.port),)))
    try:
        assert a.station.submit(CreateTournament("Fredag", preset("pubpoker"))).ok

        def both() -> bool:
            a.loop.step(block=False)
            b.loop.step(block=False)
            return (b.station.state.config is not None
                    and state_digest(a.station.state) == state_digest(b.station.state))

        step_until(a, both, seconds=15.0)
        assert b.station.state.config is not None and b.station.state.config.name == "Fredag"
        step_until(a, lambda: a.loop.peers() == 1 and b.loop.peers() == 1, seconds=10.0)
    finally:
        a.close()
        b.close()


def test_on_fake_time_the_clocks_move_emits_the_press_and_the_loop_does_not_poll() -> None:
    """Issue 50: nothing polls the panel from the loop on fake time either. The
    release settles when the clock moves past the debounce, and that move puts
    the press on the queue, before the loop's next turn."""
    app = bootstrap(Options(headless=True, temp_data=True, sound=False, size=(320, 180)),
                    fake=True)
    try:
        assert app.time is not None
        hooks, deadlines = list(app.hooks.on_tick), list(app.hooks.deadlines)
        idle = app.loop.timeout_ms()
        factory = MockFactory()
        attach_buttons(app, {"pause": 17}, pin_factory=factory)
        assert app.hooks.on_tick == hooks and app.hooks.deadlines == deadlines
        pin = factory.pin(17)
        pin.drive_low()
        pin.drive_high()
        # Not settled while the clock stands still, and the loop is not kept awake for it.
        assert app.inputs.empty()
        assert app.loop.timeout_ms() == idle
        app.time.advance(0.01)
        assert app.inputs.empty(), "settled before the debounce time had passed"
        app.time.advance(0.05)
        press = app.inputs.get_nowait()
        assert isinstance(press, ButtonPressed) and press.action is Action.pause
        assert not press.long
        assert app.inputs.empty()
    finally:
        app.close()
    assert app.time.on_step == [], "the closed panel is still moved by the clock"


def test_on_the_real_clock_the_panel_pushes_and_the_loop_does_not_poll_it(
        tmp_path: Path) -> None:
    """Issue 50: the loop, asleep, is woken by the press the panel's thread puts."""
    app = bootstrap(Options(data_dir=str(tmp_path), headless=True, sound=False,
                            size=(320, 180)))
    try:
        assert app.time is None
        hooks, deadlines = list(app.hooks.on_tick), list(app.hooks.deadlines)
        factory = MockFactory()
        before = set(threading.enumerate())
        attach_buttons(app, {"next_screen": 16}, pin_factory=factory)
        (pusher,) = [t for t in threading.enumerate()
                     if t.name == "button-panel" and t not in before]
        assert app.hooks.on_tick == hooks and app.hooks.deadlines == deadlines
        from kiosk.display.wake import sleep_until_woken

        waker = app.inputs.waker
        waker.drain()
        pin = factory.pin(16)
        pin.drive_low()
        edge_from = time.monotonic()
        pin.drive_high()
        released = time.monotonic()
        # The loop's wake-up pipe, as its sleep waits on it: readable once the
        # press is queued, and not before (an edge alone no longer wakes it). The
        # long press (1.5 s) is as late as a thread the edge never woke would be.
        assert sleep_until_woken(1.4, [waker]) == [waker]
        woken = time.monotonic()
        pressed = app.inputs.get_nowait()
        assert pressed == ButtonPressed(Action.next_screen, long=False, at=pressed.at)
        assert edge_from + 0.03 <= pressed.at <= released + 0.03 and pressed.at <= woken
    finally:
        app.close()
    assert not pusher.is_alive()  # closed with the app
