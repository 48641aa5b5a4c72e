"""``pubpoker kiosk --speed``: a fast-forwarded appliance (the soak runs a night at 60×).

Timing asserts are loose on purpose (other tests share the machine): 60×
must show as at least 30× over a real second.
"""

from __future__ import annotations

import doctest
import json
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import kiosk.bootstrap
import kiosk.cli.screen_options
from kiosk.app import App
from kiosk.bootstrap import Options, bootstrap
from kiosk.cli import build_parser, main
from kiosk.cli.kiosk_cmd import _source
from kiosk.station import CHECKPOINT_EVERY
from kiosk.status_file import StatusFile, snapshot
from kiosk.sync.auth import parse_key
from kiosk.sync.stats import Drop
from kiosk.wiring import SyncSettings
from rules import clock as clocks
from rules.commands import CheckIn, CreateTournament, DrawSeats, StartClock
from rules.structure import preset

KEY = parse_key("22" * 32)


def test_the_speed_parser_doctests() -> None:
    assert doctest.testmod(kiosk.cli.screen_options).failed == 0


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "fast"])
def test_a_speed_of_zero_or_less_is_refused_with_a_clear_message(
        value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        build_parser().parse_args(["--lang", "en", "kiosk", "--headless", "--speed", value])
    assert exited.value.code == 2
    assert "--speed must be a number above 0" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        build_parser().parse_args(["kiosk", "--headless", "--speed", value])
    assert exited.value.code == 2
    assert "--speed må vere eit tal over 0" in capsys.readouterr().err


def test_the_default_speed_is_real_time() -> None:
    args = build_parser().parse_args(["kiosk", "--headless"])
    assert args.speed == 1.0
    assert _source(args)[1]["speed"] == 1.0


def _started(app: App) -> None:
    """A tournament with four players seated and the clock running."""
    station = app.station
    assert station.submit(CreateTournament("Fort", preset("pubpoker"))).ok
    for n in range(4):
        player = station.store.players.add(f"P{n}")
        assert station.submit(CheckIn(player.id, player.name)).ok
    assert station.submit(DrawSeats()).ok and station.submit(StartClock()).ok


def _remaining(app: App) -> float:
    state = app.station.state
    assert state.config is not None
    reading = clocks.read(state.config.structure, state.clock, app.station.now())
    assert reading.remaining is not None
    return reading.remaining


@pytest.fixture
def fast_app(tmp_path: Path) -> Iterator[App]:
    args = build_parser().parse_args(["kiosk", "--role", "display+console", "--data-dir",
                                      str(tmp_path / "data"), "--headless", "--size",
                                      "320x240", "--speed", "60"])
    source, overrides = _source(args)
    app = bootstrap(source, overrides={**overrides, "watchdog": False})
    try:
        yield app
    finally:
        app.close()


def test_at_60x_the_clock_runs_down_a_minute_per_real_second(fast_app: App) -> None:
    assert fast_app.clock.speed == 60.0
    _started(fast_app)
    before, began = _remaining(fast_app), time.monotonic()
    time.sleep(1.0)
    fast_app.loop.step(block=False)
    after, took = _remaining(fast_app), time.monotonic() - began
    # The level started at 20:00; one real second later at least 30 s are gone.
    assert before - after >= 30.0 * min(took, 1.0), (before, after, took)
    assert before - after <= 60.0 * took + 1.0


def test_the_kiosk_command_checkpoints_every_few_real_seconds_at_speed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[App] = []
    real = kiosk.bootstrap.bootstrap

    def keep(*args: Any, **kwargs: Any) -> App:
        kwargs["overrides"] = {**kwargs.get("overrides", {}), "watchdog": False}
        app = real(*args, **kwargs)
        built.append(app)
        return app

    monkeypatch.setattr(kiosk.bootstrap, "bootstrap", keep)
    status = main(["kiosk", "--role", "display", "--data-dir", str(tmp_path / "data"),
                   "--headless", "--size", "320x240", "--speed", "60", "--frames", "1"])
    assert status == 0
    (app,) = built
    assert app.clock.speed == 60.0
    # Every CHECKPOINT_EVERY real seconds: 60 times as many shared ones.
    assert app.station.checkpoint_every == pytest.approx(60.0 * CHECKPOINT_EVERY)


@pytest.mark.realproc
def test_two_devices_at_60x_agree_on_shared_time_through_time_sync() -> None:
    """Round trips are 60 times longer in shared seconds; the estimate must still be
    trusted (before, a 1 s sample interval was 60 shared seconds: always stale)."""
    options = Options(headless=True, temp_data=True, sound=False, size=(320, 180),
                      max_wait_ms=20, speed=60.0)
    display = bootstrap(options, sync=SyncSettings(KEY, addresses=("127.0.0.1",),
                                                   discover=False))
    time.sleep(0.2)  # a later origin: 11.8 shared seconds apart at 60×
    console = bootstrap(replace(options, role="console"),
                        sync=SyncSettings(KEY, addresses=("127.0.0.1",), discover=False,
                                          peers=(("127.0.0.1", display.sync.port),)))
    try:
        assert abs(display.station.now() - console.station.now()) > 5.0

        def agreed() -> bool:
            display.loop.step(block=False)
            console.loop.step(block=False)
            estimate = console.sync.estimate
            return (not estimate.uncertain and estimate.reference != console.store.device_id
                    and abs(display.station.now() - console.station.now()) < 2.0)

        deadline = time.monotonic() + 15.0
        while not agreed():
            assert time.monotonic() < deadline, console.sync.estimate
            time.sleep(0.02)
        # And it stays trusted between samples (1 real second apart: 60 shared ones).
        time.sleep(1.5)
        display.loop.step(block=False)
        console.loop.step(block=False)
        assert not console.sync.estimate.uncertain
        console.sync.stats.drop(Drop.BAD_MAC)
        seen = snapshot(console)
        assert seen["time"]["uncertain"] is False and seen["speed"] == 60.0
        assert seen["drops"] == {"bad-mac": 1} and seen["moved"]["frames_out"] > 0
    finally:
        display.close()
        console.close()


def test_the_status_file_reports_the_speed_players_left_and_hands(
        fast_app: App, tmp_path: Path) -> None:
    _started(fast_app)
    status = StatusFile(fast_app, tmp_path / "status.json")
    status.tick()
    data = json.loads((tmp_path / "status.json").read_text())
    assert data["speed"] == 60.0
    assert data["drops"] == {} and data["moved"] == {} and data["time"] is None
    # What a soak acknowledges its inputs by, without folding the store itself.
    assert data["remaining"] == 4 and data["hands"] == {"1": 0} and data["moves"] == {}
