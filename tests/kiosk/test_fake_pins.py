"""``kiosk.fake_pins``: a scenario test drives a kiosk's mock pins through a FIFO."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from kiosk.bootstrap import bootstrap
from kiosk.config import parse_config
from kiosk.fake_pins import ENV, LOG_ENV, FakePins, from_env
from rules.commands import CheckIn, CreateTournament, DrawSeats, StartClock
from rules.structure import preset


def wait(check: object, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def send(path: Path, *lines: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, "".join(f"{line}\n" for line in lines).encode())
    finally:
        os.close(fd)


def test_lines_drive_the_pins_and_are_recorded(tmp_path: Path) -> None:
    fifo, record = tmp_path / "pins", tmp_path / "pins.log"
    factory = MockFactory()
    fake = FakePins(fifo, record=str(record), factory=factory)
    try:
        pin = factory.pin(17)
        send(fifo, "low 17")
        wait(lambda: fake.done == 1)
        assert pin.state == 0
        send(fifo, "high 17", "nonsense 17", "low", "press 17 0.05", "hold 18 0.1")
        wait(lambda: fake.done == 4)
        assert pin.state == 1 and factory.pin(18).state == 1
        done = [line.split(" ", 1)[1] for line in record.read_text().splitlines()]
        assert done == ["low 17", "high 17", "press 17 0.05", "hold 18 0.1"]
    finally:
        fake.close()
    assert not fake._thread.is_alive()


def test_no_environment_no_fake_pins(tmp_path: Path) -> None:
    assert from_env({}) is None
    made = from_env({ENV: str(tmp_path / "p"), LOG_ENV: ""})
    assert made is not None
    made.close()
    assert (tmp_path / "p").exists()


def test_a_file_that_is_no_fifo_is_refused(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("")
    with pytest.raises(ValueError):
        FakePins(tmp_path / "f", factory=MockFactory())


def test_bootstrap_puts_the_configs_buttons_on_the_fifos_pins(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fifo = tmp_path / "pins"
    monkeypatch.setenv(ENV, str(fifo))
    monkeypatch.setenv(LOG_ENV, str(tmp_path / "pins.log"))
    config = parse_config('[device]\nrole = ["display", "console"]\n'
                          f'data_dir = "{tmp_path / "data"}"\n'
                          '[venue]\nkey = "' + "ab" * 32 + '"\n[buttons]\npause = 17\n',
                          hostname="pi")
    # No phones' page: the config's port 8080 is any other kiosk's beside it on
    # another worker, and the page's retry line would end the status line.
    app = bootstrap(config, fake=True, overrides={"headless": True, "viewer_port": None,
                                                  "size": (320, 180), "max_wait_ms": 20,
                                                  "sound": False})
    try:
        station = app.station
        assert station.submit(CreateTournament("F", preset("pubpoker"))).ok
        for n in range(4):
            player = station.store.players.add(f"P{n}")
            assert station.submit(CheckIn(player.id, player.name)).ok
        assert station.submit(DrawSeats()).ok and station.submit(StartClock()).ok
        assert app.time is not None
        send(fifo, "low 17")
        wait(lambda: (tmp_path / "pins.log").exists())
        app.time.advance(0.1)
        send(fifo, "high 17")
        wait(lambda: len((tmp_path / "pins.log").read_text().splitlines()) == 2)
        app.time.advance(0.1)
        deadline = time.monotonic() + 5
        while app.station.state.clock.running:
            assert time.monotonic() < deadline, "the press did not pause the clock"
            app.loop.step(block=False)
            time.sleep(0.01)
    finally:
        app.close()


def test_the_controls_are_built_knowing_the_configs_buttons_in_their_order(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 50: the help screen names the configured buttons; the controls get them
    when they are made, before the loop, not set on them after the devices start."""
    monkeypatch.setenv(ENV, str(tmp_path / "pins"))
    config = parse_config('[device]\nrole = ["display", "console"]\n'
                          f'data_dir = "{tmp_path / "data"}"\n'
                          '[venue]\nkey = "' + "ab" * 32 + '"\n'
                          '[buttons]\nprev_level = 22\npause = 17\n', hostname="pi")
    app = bootstrap(config, fake=True, overrides={"headless": True, "viewer_port": None,
                                                  "size": (320, 180), "sound": False})
    try:
        assert tuple(app.loop.controls.buttons) == ("prev_level", "pause")
    finally:
        app.close()
