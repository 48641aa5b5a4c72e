"""A real ``pubpoker kiosk`` stopped and started again: a cut, a clean stop, or none.

The kiosk records how it stopped beside its store (:mod:`kiosk.last_stop`).
Seen from outside, through its status file: after systemd's SIGTERM the next
start shows the clock exactly where the log has it, running, with no banner
and no second lost; after SIGKILL (what a power cut looks like to the store)
it comes back paused with the power-cut banner; and a clock the TD started
from the terminal, with no kiosk running, was never cut.
"""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk import last_stop
from kiosk.store import open_store
from tests.kiosk.cli_run import pubpoker
from tests.kiosk.store.helpers import ROOT, child_env

pytestmark = pytest.mark.realproc


def _status(path: Path) -> dict[str, Any] | None:
    try:
        return json.loads(path.read_text())  # type: ignore[no-any-return]
    except (OSError, ValueError):
        return None


def _wait(what: str, ok: Callable[[], Any], timeout: float = 60.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = ok()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"never saw {what}")


@contextlib.contextmanager
def _kiosk(data: Path, status: Path) -> Iterator[subprocess.Popen[str]]:
    """``pubpoker kiosk --role display`` on ``data``, headless, writing ``status``."""
    status.unlink(missing_ok=True)
    env = {**child_env(), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "PUBPOKER_STATUS_FILE": str(status)}
    env.pop("PUBPOKER_LANG", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "kiosk.cli", "kiosk", "--headless", "--size", "320x240",
         "--role", "display", "--data-dir", str(data)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
        if proc.stderr is not None:
            proc.stderr.close()


def _first(status: Path) -> dict[str, Any]:
    """The first status with the tournament's clock in it."""
    return _wait("the kiosk's clock", lambda: (s := _status(status)) and s["clock"] and s)


def _night(data: Path, *, pause: bool) -> None:
    pubpoker(data, "tournament", "new", "--name", "Fredag")
    for name in ("Ada", "Bo", "Cy"):
        pubpoker(data, "checkin", "--new", name)
    pubpoker(data, "seat", "draw")
    pubpoker(data, "clock", "start")
    if pause:
        pubpoker(data, "clock", "pause")


def _left_at_mono(status: dict[str, Any]) -> float:
    """When (monotonic, every process's) the level ends if the clock runs on: constant
    for a running clock, however often and by whichever process it is read."""
    return float(status["mono"]) + float(status["clock"]["remaining"])


def _level_seconds(data: Path) -> float:
    """The first level's length, as the store's tournament has it."""
    store = open_store(data_dir=data)
    try:
        tid = store.current_tournament()
        assert tid is not None
        config = store.fold(tid).state.config
        assert config is not None
        return float(config.structure.periods[0].seconds)
    finally:
        store.close()


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_after_a_clean_stop_the_clock_goes_on_with_no_banner_and_no_lost_time(
        tmp_path: Path, stop: signal.Signals) -> None:
    data, status = tmp_path / "data", tmp_path / "status.json"
    _night(data, pause=True)
    with _kiosk(data, status) as first:
        _first(status)
        pubpoker(data, "clock", "resume")
        before = _wait("the resumed clock", lambda: (s := _status(status)) and s["clock"]
                       and s["clock"]["running"] and s)
        time.sleep(1.0)
        first.send_signal(stop)  # systemd's stop; Ctrl-C
        assert first.wait(15) == 0
    assert last_stop.read(data).kind == "clean"
    time.sleep(2.0)  # the clock runs on while no kiosk shows it
    with _kiosk(data, status) as again:
        after = _first(status)
        assert after["notices"] == [], after
        assert after["clock"]["running"] is True, after
        assert abs(_left_at_mono(after) - _left_at_mono(before)) < 0.5, (before, after)
        assert again.poll() is None
    # Killed, it never said it stopped: the record still says it runs.
    assert last_stop.read(data).kind == "cut"


def test_after_sigkill_the_clock_comes_back_paused_with_the_banner(tmp_path: Path) -> None:
    data, status = tmp_path / "data", tmp_path / "status.json"
    _night(data, pause=True)
    with _kiosk(data, status) as first:
        _first(status)
        pubpoker(data, "clock", "resume")
        _wait("the resumed clock", lambda: (s := _status(status)) and s["clock"]
              and s["clock"]["running"])
        time.sleep(1.0)
        first.send_signal(signal.SIGKILL)
        first.wait(15)
    assert last_stop.read(data).kind == "cut"
    with _kiosk(data, status):
        after = _first(status)
        assert after["notices"] == ["clock-restored"], after
        assert after["clock"]["running"] is False, after
        # The banner's button resumes the clock; the terminal's command too.
        pubpoker(data, "clock", "resume")
        resumed = _wait("the resumed clock", lambda: (s := _status(status)) and
                        s["clock"]["running"] and s)
        _wait("the banner gone", lambda: (s := _status(status)) and s["notices"] == [])
        assert resumed["clock"]["running"] is True


def test_a_clock_started_from_the_terminal_with_no_kiosk_running_was_not_cut(
        tmp_path: Path) -> None:
    data, status = tmp_path / "data", tmp_path / "status.json"
    _night(data, pause=False)
    started = time.monotonic()  # the clock started a moment before this
    time.sleep(1.0)
    with _kiosk(data, status):
        shown = _first(status)
        assert shown["notices"] == [], shown
        assert shown["clock"]["running"] is True, shown
        # Nothing lost: the level ends when it would have from the terminal's start.
        seen = _wait("the clock a second on", lambda: (s := _status(status))
                     and s["mono"] > shown["mono"] + 1.0 and s)
        assert abs(_left_at_mono(seen) - _left_at_mono(shown)) < 0.3
        assert started - 60.0 < _left_at_mono(shown) - _level_seconds(data) <= started
