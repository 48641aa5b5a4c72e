"""A ``pubpoker`` command shows on a running kiosk's screen at once (real processes).

The kiosk sleeps until something must change; another process's commit to
the store is one of its wake-up sources (kiosk.store.watch). Without it the
screen would follow the terminal only at the loop's next second. Observed
from outside through ``PUBPOKER_FRAME_LOG``: one line per frame shown, with
the store rowid the frame was drawn from.
"""

from __future__ import annotations

import os
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

PUBPOKER = [sys.executable, "-m", "kiosk.cli"]


def _cli(data: Path, *argv: str) -> None:
    subprocess.run([*PUBPOKER, *argv, "--data-dir", str(data)], check=True,
                   capture_output=True, timeout=60)


def _frames(log: Path) -> list[tuple[float, str, int, int]]:
    if not log.exists():
        return []
    rows = []
    for line in log.read_text(encoding="ascii").splitlines():
        at, how, rowid, running = line.split()
        rows.append((float(at), how, int(rowid), int(running)))
    return rows


def test_a_cli_command_reaches_the_screen_without_waiting_for_the_next_second(
        tmp_path: Path) -> None:
    data, log = tmp_path / "data", tmp_path / "frames.log"
    _cli(data, "tournament", "new")
    for name in ("Ada", "Bo", "Cy"):
        _cli(data, "checkin", "--new", name)
    _cli(data, "seat", "draw")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "PUBPOKER_FRAME_LOG": str(log)}
    kiosk = subprocess.Popen([*PUBPOKER, "kiosk", "--headless", "--size", "800x480",
                              "--data-dir", str(data)], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while not _frames(log) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _frames(log), "the kiosk drew no frame"
        delays = []
        # The clock stands still between commands: nothing but the write wakes the loop
        # (and the watchdog's second, which these delays must stay well inside).
        for command in ("start", "pause", "resume", "pause", "resume", "pause"):
            written = time.monotonic()
            _cli(data, "clock", command)
            with sqlite3.connect(data / "pubpoker.db") as conn:
                rowid, received = conn.execute(
                    "SELECT rowid, received_at FROM events ORDER BY rowid DESC").fetchone()
            # The commit's moment on the monotonic clock the frame log uses.
            committed = received - (time.time() - time.monotonic())
            shown = None
            while shown is None and time.monotonic() < written + 10:
                shown = next((at for at, _, r, _ in _frames(log) if r >= rowid), None)
                time.sleep(0.005)
            assert shown is not None, f"clock {command} never reached the screen"
            delays.append(shown - committed)
            time.sleep(0.3)
    finally:
        kiosk.terminate()
        kiosk.wait(timeout=30)
    print(f"\nCLI commit → on the screen: median {statistics.median(delays) * 1000:.0f} ms, "
          f"max {max(delays) * 1000:.0f} ms")
    # Waiting for the loop's next second would make the median about half a second.
    assert statistics.median(delays) < 0.15
