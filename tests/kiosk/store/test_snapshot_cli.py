"""The report, through the real ``pubpoker`` command: a fresh data dir, two
players, four dozen clock commands. Each command is its own process, so each
one starts from the snapshot an earlier one saved and folds the events after
it; none may say the snapshot does not match its digest. A command saves a new
snapshot once ``CLI_SNAPSHOT_AFTER`` events came after the last (checking that
it restores), so the snapshots are taken at many clock states; a command that
changes nothing must leave the snapshot exactly as it found it.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.store import open_store
from kiosk.store.snapshot import CLI_SNAPSHOT_AFTER
from rules.fold import state_digest
from tests.kiosk.store.helpers import ROOT, child_env

# Four dozen real `pubpoker` processes.
pytestmark = pytest.mark.realproc

# This checkout's code (cwd and PYTHONPATH), as tests/kiosk/cli_run.py runs it: the
# venv's ``pubpoker`` script runs whichever checkout the venv was installed from.
PUBPOKER = [sys.executable, "-m", "kiosk.cli"]

#: ``prev`` back to level 1 is what left the clock at an int position. (``add -60``:
#: at the top of a level there is nothing to add back, and ``clock add 60`` is refused.)
CLOCK = ["pause", "resume", "next", "prev", "add -60", "pause", "resume", "next", "pause",
         "prev", "resume"]


def pubpoker(data: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in child_env().items() if not k.startswith("PUBPOKER_")}
    done = subprocess.run([*PUBPOKER, "--lang", "en", *argv, "--data-dir", str(data)],
                          env=env, cwd=ROOT, text=True, capture_output=True, timeout=60)
    assert "does not match its digest" not in done.stderr, (argv, done.stderr)
    assert done.returncode == 0 and done.stderr == "", (argv, done.stderr)
    return done


def snapshot_row(data: Path) -> tuple[object, ...]:
    with sqlite3.connect(data / "pubpoker.db") as conn:
        row = conn.execute("SELECT tournament_id, max_rowid, digest, saved_at, state"
                           " FROM snapshots").fetchone()
        (behind,) = conn.execute("SELECT COUNT(*) FROM events WHERE rowid > ?",
                                 (row[1],)).fetchone() if row else (None,)
    assert row is not None, "no snapshot was saved"
    assert behind < CLI_SNAPSHOT_AFTER, f"the snapshot is {behind} events behind"
    return tuple(row)


def test_clock_commands_start_from_the_snapshot_without_a_digest_warning(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    pubpoker(data, "tournament", "new")
    pubpoker(data, "checkin", "--new", "Ada")
    pubpoker(data, "checkin", "--new", "Bo")
    pubpoker(data, "seat", "draw")
    pubpoker(data, "clock", "start")
    saved = {snapshot_row(data)[1]}
    for command in CLOCK * 4:
        pubpoker(data, "clock", *command.split())
        saved.add(snapshot_row(data)[1])
    assert len(saved) >= 2, "no command after the first saved a snapshot"

    before = snapshot_row(data)
    assert "Level 1" in pubpoker(data, "tournament", "show").stdout
    pubpoker(data, "tournament", "show")
    assert snapshot_row(data) == before, "a read-only command rewrote the snapshot"

    with open_store(data / "pubpoker.db") as store:
        folded = store.fold(str(before[0]))
        full = store.fold(str(before[0]), use_snapshot=False, snapshot_every=0)
        assert folded.from_snapshot
        assert state_digest(folded.state) == state_digest(full.state)
