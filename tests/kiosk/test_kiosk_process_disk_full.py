"""A real ``pubpoker kiosk`` process on a disk that fills up, with the TD's CLI beside it.

The kiosk runs headless on a real tmpfs; the disk is filled with a real file.
Seen from outside: the TD's first command after the disk fills lands (the
reserve), the next is refused in one sentence (exit 2) while the kiosk keeps
drawing its running clock and its own checkpoints fail quietly, and once the
file is deleted the next command lands and reaches the screen. Root only (the
mount); marked slow.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kiosk.store import DiskFull
from tests.kiosk.store.disk import fill, pubpoker, tmpfs
from tests.kiosk.store.helpers import ROOT, child_env

pytestmark = pytest.mark.slow


def _frames(log: Path) -> list[tuple[float, int, int]]:
    if not log.exists():
        return []
    rows = []
    for line in log.read_text(encoding="ascii").splitlines():
        at, _, rowid, running = line.split()
        rows.append((float(at), int(rowid), int(running)))
    return rows


def _top_rowid(db: Path) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return int(conn.execute("SELECT MAX(rowid) FROM events").fetchone()[0])


def _wait_for(what: str, ok: object, timeout: float = 15.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if callable(ok) and ok():
            return
        time.sleep(0.05)
    raise AssertionError(f"never saw {what}")


def test_the_kiosk_process_draws_on_through_a_full_disk_and_the_td_carries_on(
        tmp_path: Path) -> None:
    log = tmp_path / "frames.log"
    with tmpfs("8m") as data:
        d = str(data)
        for argv in (("tournament", "new", "--name", "Fredag"), ("checkin", "Ada"),
                     ("checkin", "Bo"), ("checkin", "Cy"), ("seat", "draw"),
                     ("clock", "start")):
            done = pubpoker(*argv, "--data-dir", d)
            assert done.returncode == 0, done.stderr
        env = {**child_env(), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
               "PUBPOKER_FRAME_LOG": str(log)}
        env.pop("PUBPOKER_LANG", None)
        kiosk = subprocess.Popen(
            [sys.executable, "-m", "kiosk.cli", "kiosk", "--headless", "--size", "800x480",
             "--data-dir", d], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, text=True)
        fillers: list[Path] = []
        try:
            _wait_for("a frame", lambda: bool(_frames(log)), timeout=30.0)
            # Alone after a start the kiosk pauses a running clock (a power cut, as
            # far as it knows); the TD resumes it.
            done = pubpoker("clock", "resume", "--data-dir", d)
            assert done.returncode == 0, done.stderr
            _wait_for("the running clock", lambda: _frames(log)[-1][2] == 1)
            fillers.append(fill(data))
            # The first write on the full disk is the reserve's.
            done = pubpoker("clock", "add", "60", "--data-dir", d)
            assert done.returncode == 0, done.stderr
            fillers.append(fill(data, "filler2"))
            top = _top_rowid(data / "pubpoker.db")
            done = pubpoker("clock", "add", "60", "--data-dir", d)
            assert done.returncode == 2 and "Traceback" not in done.stderr
            # With the kiosk holding SQLite's -shm the store opens (and warns), then
            # the write is refused.
            *before, last = done.stderr.strip().splitlines()
            assert last == DiskFull().translate("nn")
            assert all(line.startswith("Lite plass på minnekortet") for line in before)
            # Long enough for the kiosk's own clock checkpoints to fail (every 5 s).
            full_since = time.monotonic()
            time.sleep(7.0)
            assert kiosk.poll() is None, kiosk.stderr.read() if kiosk.stderr else ""
            drawn = [at for at, _, running in _frames(log) if at > full_since + 1.0]
            assert len(drawn) >= 4, ("the running clock stopped being drawn", _frames(log),
                                     full_since)
            assert _top_rowid(data / "pubpoker.db") == top
            for filler in fillers:
                filler.unlink()
            freed = time.monotonic()
            done = pubpoker("clock", "pause", "--data-dir", d)
            assert done.returncode == 0, done.stderr
            paused = _top_rowid(data / "pubpoker.db")
            _wait_for("the pause on the screen", lambda: any(
                r >= paused and not running for _, r, running in _frames(log)))
            print(f"\nfreed → the next command on the screen: "
                  f"{time.monotonic() - freed:.2f} s (one CLI process)")
            assert kiosk.poll() is None
        finally:
            kiosk.terminate()
            code = kiosk.wait(timeout=30)
            for filler in fillers:
                if filler.exists():
                    filler.unlink()
        err = kiosk.stderr.read() if kiosk.stderr else ""
        print(f"kiosk log lines while full: {err.count('not saved')} checkpoint(s) not saved, "
              f"{err.count('DISK FULL')} reserve release(s)")
        assert "Traceback" not in err, err
        assert code in (0, -15), err
        assert not list(data.glob("*.corrupt-*"))
        assert os.path.getsize(data / "pubpoker.db") > 0
