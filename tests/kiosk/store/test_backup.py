"""``backup`` makes a consistent copy while another process keeps writing."""

from __future__ import annotations

import os
import signal
import sqlite3
from pathlib import Path

import pytest

from kiosk.store import BackupFailed, Store, backup, open_store
from rules.fold import state_digest
from tests.kiosk.store.helpers import Night, players, spawn


def test_backup_while_a_writer_appends_is_consistent(db_path: Path, tmp_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    proc = spawn("tests.kiosk.store.crash_writer", str(db_path), "--snapshot-every", "50")
    assert proc.stdout is not None
    counts = []
    try:
        assert proc.stdout.readline().startswith("ack")  # the tournament exists
        for i in range(5):
            for _ in range(15):
                proc.stdout.readline()
            report = backup(db_path, tmp_path / f"copy{i}.db")
            counts.append(report.events)
            conn = sqlite3.connect(report.path)
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)
            seqs = [s for (s,) in conn.execute("SELECT seq FROM events ORDER BY seq")]
            conn.close()
            assert seqs == list(range(1, len(seqs) + 1))  # a prefix, no holes
            with open_store(report.path) as copy:
                folded = copy.fold("t1", use_snapshot=False, snapshot_every=0)
                assert not folded.state.rejected
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=30)
    assert counts == sorted(counts) and counts[-1] > counts[0]
    assert not list(tmp_path.glob("*.part"))


def test_backup_from_the_open_store_into_a_directory(store: Store, tmp_path: Path) -> None:
    night = Night(store).started(players(10))
    target = tmp_path / "usb"
    target.mkdir()
    report = store.backup(target)
    assert report.path == target / "pubpoker.db" and report.bytes > 0
    with open_store(report.path) as copy:
        assert state_digest(copy.fold("t1").state) == state_digest(night.state)
        assert copy.device_id == store.device_id


def test_a_backup_that_cannot_be_written_is_a_translated_error(store: Store,
                                                               tmp_path: Path) -> None:
    with pytest.raises(BackupFailed) as caught:
        store.backup(tmp_path / "no" / "such" / "dir" / "x.db")
    assert "x.db" in caught.value.translate("nn")
    # Why, in the room's language: the OS's reason, not SQLite's "unable to open".
    assert caught.value.translate("nb").endswith(
        "filen eller mappen finnes ikke; se etter skrivefeil i stien")
    assert "unable to open" not in caught.value.translate("da")
