"""A damaged store is moved aside (never deleted), and a fresh one starts, loudly."""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path

import pytest

from kiosk.store import Notice, StoreLocked, StoreTooNew, open_store
from kiosk.store import open as store_open
from kiosk.store.errors import StoreError
from rules.events import PlayerRegistered, TournamentCreated
from rules.i18n import LANGUAGES
from rules.structure import preset


def filled(db_path: Path, n: int = 400) -> str:
    with open_store(db_path) as store:
        store.append_new("t1", [TournamentCreated(at=0.0, name="F", structure=preset("pubpoker"))])
        store.append_new("t1", [PlayerRegistered(at=float(i), player_id=f"p{i}",
                                                 name=f"Player {i}" * 5) for i in range(n)])
        store.players.add("Kari", "0A1B2C3D4E")
        device = store.device_id
    return device


def corrupt_files(db_path: Path) -> list[Path]:
    return sorted(p for p in db_path.parent.glob(db_path.name + ".corrupt-*")
                  if not p.name.endswith(("-wal", "-shm")))


def assert_moved_and_fresh(db_path: Path, original: bytes, caplog: pytest.LogCaptureFixture
                           ) -> None:
    with caplog.at_level(logging.ERROR):
        store = open_store(db_path)
    with store:
        (notice,) = store.warnings
        assert notice.key == "store-corrupt"
        moved = corrupt_files(db_path)
        assert len(moved) == 1
        assert moved[0].read_bytes() == original  # kept, byte for byte
        assert notice.params["moved_to"] == moved[0].name
        assert moved[0].name in notice.translate("nn")
        assert store.log.count() == 0 and store.players.list() == []
        # The fresh store works.
        store.append_new("t2", [TournamentCreated(at=0.0, name="G", structure=preset("pubpoker"))])
    assert any("STORE DAMAGED" in r.getMessage() and r.levelno == logging.ERROR
               for r in caplog.records)


def test_a_file_that_is_not_sqlite_is_moved_aside(db_path: Path,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    db_path.parent.mkdir(parents=True)
    garbage = os.urandom(8192)
    db_path.write_bytes(garbage)
    assert_moved_and_fresh(db_path, garbage, caplog)


def test_a_store_with_damaged_pages_is_moved_aside(db_path: Path,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    filled(db_path)
    data = bytearray(db_path.read_bytes())
    page = 4096
    assert len(data) > 6 * page
    # Scribble over the b-tree pages after the schema page.
    for offset in range(page, len(data), page):
        data[offset:offset + 64] = b"\xff" * 64
    db_path.write_bytes(bytes(data))
    assert_moved_and_fresh(db_path, bytes(data), caplog)


def test_a_truncated_store_is_moved_aside(db_path: Path,
                                         caplog: pytest.LogCaptureFixture) -> None:
    filled(db_path)
    data = db_path.read_bytes()[: 3 * 4096 + 100]
    db_path.write_bytes(data)
    assert_moved_and_fresh(db_path, data, caplog)


def test_a_damaged_store_takes_its_wal_along_and_gets_a_new_device_id(db_path: Path) -> None:
    old_device = filled(db_path)
    db_path.write_bytes(b"garbage" * 100)
    wal = db_path.with_name(db_path.name + "-wal")
    wal.write_bytes(b"old wal")
    with open_store(db_path, device_id=old_device) as store:
        # Peers may send back the old device's events: a new id cannot clash.
        assert store.device_id != old_device
    (moved,) = corrupt_files(db_path)
    assert moved.with_name(moved.name + "-wal").read_bytes() == b"old wal"


def test_a_healthy_store_opens_without_warnings(db_path: Path) -> None:
    device = filled(db_path)
    with open_store(db_path) as store:
        assert store.warnings == [] and store.device_id == device
        assert len(store.records("t1")) == 401
    assert corrupt_files(db_path) == []


def test_a_busy_store_is_not_mistaken_for_a_damaged_one(
        db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db_path.parent.mkdir(parents=True)
    holder = sqlite3.connect(db_path, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("INSERT INTO t VALUES (1)")
    monkeypatch.setattr(store_open, "BUSY_TIMEOUT", 0.05)
    try:
        with pytest.raises(StoreLocked):
            open_store(db_path)
    finally:
        holder.close()
    assert corrupt_files(db_path) == []


def test_a_store_from_a_newer_version_is_refused_not_moved(db_path: Path) -> None:
    filled(db_path, n=1)
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    conn.close()
    with pytest.raises(StoreTooNew) as caught:
        open_store(db_path)
    assert "99" in caught.value.translate("nn")
    assert corrupt_files(db_path) == []


def test_every_store_message_exists_in_every_language() -> None:
    import kiosk.store.errors as errors

    for name in errors.__all__:
        cls = getattr(errors, name)
        if isinstance(cls, type) and issubclass(cls, StoreError):
            assert cls.missing_languages() == (), name
    for key, texts in Notice.CATALOGUE.items():
        assert set(texts) >= set(LANGUAGES), key
