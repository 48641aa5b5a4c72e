"""A real ``pubpoker kiosk`` process on a disk that fills up, with the TD's CLI beside it.

The kiosk runs headless on a real tmpfs; the disk is filled with a real file.
Seen from outside: the TD's first command after the disk fills lands (the
reserve), the next is refused in one sentence (exit 2) while the kiosk keeps
drawing its running clock and its own checkpoints fail quietly, and once the
file is deleted the next command lands and reaches the screen. Root only (the
mount); marked slow.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kiosk.store import DiskFull
from kiosk.store.errors import Notice
from kiosk.sync.auth import new_key
from tests.bench.realproc import Kiosk
from tests.kiosk.store.disk import fill, pubpoker, tmpfs
from tests.kiosk.store.helpers import ROOT, child_env
from tests.sync.netns import fresh_lan

pytestmark = pytest.mark.slow

DISK_FULL_BANNER = Notice("disk-full").translate("nn")


def _frames(log: Path) -> list[tuple[float, int, int]]:
    if not log.exists():
        return []
    rows = []
    for line in log.read_text(encoding="ascii").splitlines():
        at, _, rowid, running = line.split()
        rows.append((float(at), int(rowid), int(running)))
    return rows


def _top_rowid(db: Path, *, as_is: bool = False) -> int:
    """The newest row; ``as_is`` reads the main file alone, as a full disk allows."""
    # Read-write and closed, not only committed: a connection left open, or a
    # read-only one (which cannot clean up after itself), leaves SQLite's -shm
    # sized for the next opener, and the start on a full disk would not be one.
    where = f"file:{db}?immutable=1" if as_is else f"file:{db}"
    with contextlib.closing(sqlite3.connect(where, uri=True)) as conn:
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
        for argv in (("tournament", "new", "--name", "Fredag"), ("checkin", "--new", "Ada"),
                     ("checkin", "--new", "Bo"), ("checkin", "--new", "Cy"), ("seat", "draw"),
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
            # No kiosk ran on this store before: the clock the TD started runs on
            # (kiosk/last_stop.py).
            _wait_for("the running clock", lambda: _frames(log)[-1][2] == 1)
            fillers.append(fill(data))
            # The first write on the full disk is the reserve's.
            done = pubpoker("clock", "add", "-60", "--data-dir", d)
            assert done.returncode == 0, done.stderr
            fillers.append(fill(data, "filler2"))
            top = _top_rowid(data / "pubpoker.db")
            done = pubpoker("clock", "add", "-60", "--data-dir", d)
            assert done.returncode == 2 and "Traceback" not in done.stderr
            # With the kiosk holding SQLite's -shm the store opens (and warns), then
            # the write is refused.
            *before, last = done.stderr.strip().splitlines()
            assert last == DiskFull().translate("nn")
            # The reserve went on the first command: the disk is full, said once.
            assert before == [DISK_FULL_BANNER], before
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



def _status(path: Path) -> dict[str, object]:
    try:
        data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data


def _status_line(path: Path) -> str:
    return str(_status(path).get("status_line", ""))


def test_a_kiosk_started_on_a_full_disk_shows_the_night_and_writes_again_once_there_is_room(
        tmp_path: Path) -> None:
    """A clean shutdown, then the SD card filled and the reserve already spent.

    SQLite cannot make the -shm file a WAL store needs, so a normal open fails
    (the CLI says the disk is full). The appliance's kiosk (``--config``, peer
    sync on, in its own network namespace) opens the file as it is, to read,
    draws the night it holds under the full-disk banner, and writes again by
    itself once the space is freed: the TD's next command reaches the screen.
    """
    full = DISK_FULL_BANNER
    status = tmp_path / "status.json"
    with fresh_lan() as lan, tmpfs("8m") as data:
        kiosk = Kiosk("tv", tmp_path / "tv", "display", key=new_key().hex(), host=lan.add(),
                      probe=True, env={"PUBPOKER_STATUS_FILE": str(status)})
        kiosk.dir.mkdir(parents=True)
        kiosk.data.symlink_to(data)
        d = str(data)
        for argv in (("tournament", "new", "--name", "Fredag"), ("checkin", "--new", "Ada"),
                     ("checkin", "--new", "Bo"), ("checkin", "--new", "Cy"), ("seat", "draw"),
                     ("clock", "start"), ("clock", "pause")):
            done = pubpoker(*argv, "--data-dir", d)
            assert done.returncode == 0, done.stderr
        assert not (data / "pubpoker.db-wal").exists()  # folded in at the last close
        top = _top_rowid(data / "pubpoker.db")
        fillers = [fill(data)]
        (data / "pubpoker.reserve").unlink()
        fillers.append(fill(data, "filler2"))
        # The CLI on its own cannot open the store: one sentence, nothing renamed.
        done = pubpoker("clock", "resume", "--data-dir", d)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert done.stderr.strip().splitlines()[-1] == DiskFull().translate("nn")
        kiosk.start()
        try:
            _wait_for("the full-disk banner", lambda: full in _status_line(status), 60.0)
            _wait_for("a frame", lambda: bool(_frames(kiosk.frame_log)))
            # The night as the store holds it: the paused clock at its last record.
            assert _frames(kiosk.frame_log)[-1][1:] == (top, 0)
            time.sleep(2.0)
            assert kiosk.process is not None
            kiosk.process.check_alive("the kiosk on a full disk")
            assert _top_rowid(data / "pubpoker.db", as_is=True) == top
            for filler in fillers:
                filler.unlink()
            freed = time.monotonic()
            done = pubpoker("clock", "resume", "--data-dir", d)
            assert done.returncode == 0, done.stderr
            resumed = _top_rowid(data / "pubpoker.db")
            _wait_for("the resumed clock on the screen", lambda: any(
                r >= resumed and running for _, r, running in _frames(kiosk.frame_log)))
            print(f"\nfreed → the TD's resume on the screen of the kiosk that writes "
                  f"again: {time.monotonic() - freed:.2f} s")
            _wait_for("the banner to go", lambda: full not in _status_line(status))
            kiosk.process.check_alive("the kiosk after the disk was freed")
        finally:
            kiosk.stop()
            for filler in fillers:
                if filler.exists():
                    filler.unlink()
        err = (kiosk.dir / "kiosk.log").read_text(errors="replace")
        assert "Traceback" not in err, err
        assert "open to read only" in err and "writes again" in err, err
        assert not list(data.glob("*.corrupt-*"))
        # The kiosk's own shutdown saved to the store it opened again.
        assert _top_rowid(data / "pubpoker.db") >= resumed
