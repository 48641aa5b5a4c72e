"""The reserve and the disk state, on a real full tmpfs, through a real Store.

A write that finds the disk full gives up ``pubpoker.reserve`` and lands;
the next one, with nothing left to give, is refused whole; once space is
freed the state clears and the next write lands by itself.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from kiosk.store import DiskFull, open_store
from kiosk.store.migrations import MIGRATIONS, migrate
from kiosk.store.shape import TABLES, user_tables
from kiosk.store.space import (
    RESERVE_BYTES,
    RESERVE_NAME,
    Space,
    ensure_reserve,
    measure,
    release_reserve,
)
from rules.events import PlayerRegistered, TournamentCreated
from rules.structure import preset
from tests.kiosk.store.disk import fill, tmpfs


def registered(i: int) -> PlayerRegistered:
    return PlayerRegistered(at=float(i), player_id=f"p{i}", name=f"Player {i}")


def test_a_roomy_disk_gets_a_whole_reserve_and_a_tight_one_none(tmp_path: Path) -> None:
    with open_store(tmp_path / "pubpoker.db") as store:
        assert store.disk_state() == "ok" and store.disk_notice() is None
    reserve = tmp_path / RESERVE_NAME
    assert reserve.stat().st_size == RESERVE_BYTES
    # Really allocated, so that deleting it gives room back on a full disk.
    assert reserve.stat().st_blocks * 512 >= RESERVE_BYTES
    assert not list(tmp_path.glob("*.part"))
    assert release_reserve(tmp_path) == RESERVE_BYTES and not reserve.exists()
    assert release_reserve(tmp_path) == 0
    with tmpfs("2m") as small:
        filler = small / "filler"
        filler.write_bytes(b"\0" * (1900 * 1024))
        # A reserve there would push the disk under its low threshold.
        assert not ensure_reserve(small) and not (small / RESERVE_NAME).exists()
        filler.unlink()
        assert ensure_reserve(small)
        assert (small / RESERVE_NAME).stat().st_size == measure(small).total // 8


def test_thresholds() -> None:
    big = 32 * 1024 ** 3
    assert Space(free=31 << 20, total=big, read_only=False).low
    assert not Space(free=33 << 20, total=big, read_only=False).low
    assert Space(free=512 << 10, total=big, read_only=False).full
    small = 2 << 20
    assert not Space(free=200 << 10, total=small, read_only=False).full
    assert Space(free=50 << 10, total=small, read_only=False).full


def test_a_night_on_a_filling_disk_spends_the_reserve_then_waits_for_room() -> None:
    with tmpfs("8m") as data, open_store(data / "pubpoker.db") as store:
        store.append_new("t1", [TournamentCreated(at=0.0, name="F",
                                                  structure=preset("pubpoker"))])
        store.append_new("t1", [registered(1)])
        assert (data / RESERVE_NAME).exists() and store.disk_state() == "ok"
        fillers = [fill(data)]
        # The reserve is given up and the press lands.
        (landed,) = store.append_new("t1", [registered(2)])
        assert landed.seq == 3 and not (data / RESERVE_NAME).exists()
        assert store.disk_state() == "low"
        notice = store.disk_notice()
        assert notice is not None and notice.key == "disk-low"
        assert "Lite plass på minnekortet" in notice.translate("nn")
        fillers.append(fill(data, "filler2"))
        before = (store.log.last_seq, store.log.lamport, store.log.count(),
                  store.version_vector())
        for i in range(3, 6):
            with pytest.raises(DiskFull):
                store.append_new("t1", [registered(i)] * 1)
            with pytest.raises(DiskFull):
                store.players.add(f"Guest {i}")
        # Nothing of a refused write was kept, and no counter moved.
        assert (store.log.last_seq, store.log.lamport, store.log.count(),
                store.version_vector()) == before
        assert store.players.list() == []
        assert store.disk_state() == "full"
        notice = store.disk_notice()
        assert notice is not None and "Minnekortet er fullt" in notice.translate("nn")
        for filler in fillers:
            filler.unlink()
        freed = time.monotonic()
        (again,) = store.append_new("t1", [registered(3)])
        recovered = time.monotonic() - freed
        assert again.seq == 4
        assert store.disk_state() == "ok" and (data / RESERVE_NAME).exists()
        assert [r.seq for r in store.records("t1")] == [1, 2, 3, 4]
        assert recovered < 1.0
        print(f"next write after freeing the disk: {recovered * 1000:.1f} ms")


def test_the_disk_state_clears_when_space_is_freed_without_a_write() -> None:
    with tmpfs("8m") as data, open_store(data / "pubpoker.db") as store:
        store.append_new("t1", [TournamentCreated(at=0.0, name="F",
                                                  structure=preset("pubpoker"))])
        release_reserve(data)
        filler = fill(data)
        with pytest.raises(DiskFull):
            store.append_new("t1", [registered(i) for i in range(1, 50)])
        assert store.disk_state() == "full"
        filler.unlink()
        # The banner goes before the next press proves it, and the reserve is back.
        assert store.disk_state() == "ok" and (data / RESERVE_NAME).exists()


def test_the_shape_table_is_what_the_migrations_build(tmp_path: Path) -> None:
    for version in range(1, len(MIGRATIONS) + 1):
        conn = sqlite3.connect(tmp_path / f"v{version}.db")
        migrate(conn, target=version)
        built = {t: {row[1] for row in conn.execute(f'PRAGMA table_info("{t}")')}
                 for t in user_tables(conn)}
        conn.close()
        expected = {t: cols for t, (since, cols) in TABLES.items() if since <= version}
        assert set(built) == set(expected), version
        for table, cols in expected.items():
            assert built[table] == cols, (version, table)


def test_a_snapshot_that_finds_the_disk_full_is_skipped_not_raised(tmp_path: Path) -> None:
    with open_store(tmp_path / "pubpoker.db") as store:
        store.append_new("t1", [TournamentCreated(at=0.0, name="F",
                                                  structure=preset("pubpoker"))])
        store.append_new("t1", [registered(i) for i in range(1, 300)])
        folded = store.fold("t1", snapshot_every=0)
        (pages,) = store.conn.execute("PRAGMA page_count").fetchone()
        # SQLite's own SQLITE_FULL, as on a full card: the file may not grow.
        store.conn.execute(f"PRAGMA max_page_count={pages}")
        pending = folded.since_snapshot
        folded.save()
        assert folded.since_snapshot == pending  # tried again later
        assert store.conn.execute("SELECT COUNT(*) FROM snapshots").fetchone() == (0,)
        store.conn.execute("PRAGMA max_page_count=1073741823")
        folded.save()
        assert store.conn.execute("SELECT COUNT(*) FROM snapshots").fetchone() == (1,)


def test_a_disk_nearly_full_warns_before_any_write_is_refused() -> None:
    with tmpfs("64m") as data, open_store(data / "pubpoker.db") as store:
        assert store.disk_state() == "ok" and (data / RESERVE_NAME).exists()
        room = measure(data)
        # Leave a little under the threshold (5 % of 64 MiB): low, with room to write.
        (data / "filler").write_bytes(b"\0" * (room.free - room.low_threshold + (512 << 10)))
        assert store.disk_state() == "low"
        notice = store.disk_notice()
        assert notice is not None and notice.translate("en") == (
            "Little room on the memory card (2 MB left): free some space")
        store.append_new("t1", [TournamentCreated(at=0.0, name="F",
                                                  structure=preset("pubpoker"))])
        assert (data / RESERVE_NAME).exists()  # a warning, not yet a full disk
        (data / "filler").unlink()
        assert store.disk_state() == "ok" and store.disk_notice() is None
