"""Disk full and I/O errors on append: a clear error, nothing partial, the app goes on.

The failures are real SQLite failures: ``max_page_count`` caps the file so
SQLite itself reports SQLITE_FULL, exactly as on a full SD card.
"""

from __future__ import annotations

import pytest

from kiosk.store import DiskFull, Store, StoreWriteFailed
from rules.events import PlayerRegistered, TournamentCreated
from rules.structure import preset


def big(i: int) -> PlayerRegistered:
    return PlayerRegistered(at=float(i), player_id=f"p{i}", name="x" * 3000 + str(i))


def fill_disk(store: Store) -> None:
    (pages,) = store.conn.execute("PRAGMA page_count").fetchone()
    store.conn.execute(f"PRAGMA max_page_count={pages + 1}")


def test_disk_full_on_append_fails_cleanly_and_the_store_goes_on(store: Store) -> None:
    store.append_new("t1", [TournamentCreated(at=0.0, name="F", structure=preset("pubpoker"))])
    fill_disk(store)
    before = (store.log.last_seq, store.log.lamport, store.log.count(), store.version_vector())
    with pytest.raises(DiskFull) as caught:
        store.append_new("t1", [big(i) for i in range(1, 20)])
    err = caught.value
    assert isinstance(err, StoreWriteFailed) and isinstance(err, OSError)
    assert "full" in err.translate("en") and "full" in err.translate("nn")
    # Nothing of the batch was kept, and no counter moved past what is durable.
    assert (store.log.last_seq, store.log.lamport, store.log.count(),
            store.version_vector()) == before
    # Space comes back (the TD deletes an old backup): the same seq is used.
    store.conn.execute("PRAGMA max_page_count=1073741823")
    (again,) = store.append_new("t1", [big(1)])
    assert again.seq == 2
    assert [r.seq for r in store.records("t1")] == [1, 2]


def test_disk_full_while_saving_a_player_is_a_translated_error(store: Store) -> None:
    fill_disk(store)
    with pytest.raises(DiskFull):
        # Names of the longest a player may have (rules.names), enough of them to fill pages.
        store.players.import_csv("name\n" + "\n".join(f"{'y' * 36}{i:04d}" for i in range(1000)))
    assert store.players.list() == []
    store.conn.execute("PRAGMA max_page_count=1073741823")
    store.players.add("Kari")
    assert [p.name for p in store.players.list()] == ["Kari"]


def test_an_io_error_on_append_leaves_memory_where_the_disk_is(store: Store) -> None:
    store.append_new("t1", [TournamentCreated(at=0.0, name="F", structure=preset("pubpoker"))])
    # A read-only connection makes SQLite refuse the write (SQLITE_READONLY).
    store.conn.execute("PRAGMA query_only=ON")
    with pytest.raises(StoreWriteFailed) as caught:
        store.append_new("t1", [big(1)])
    assert not isinstance(caught.value, DiskFull)
    assert store.log.last_seq == 1 and store.log.count() == 1
    store.conn.execute("PRAGMA query_only=OFF")
    assert store.append_new("t1", [big(1)])[0].seq == 2


def test_a_failure_inside_the_append_transaction_keeps_nothing(store: Store) -> None:
    def broken_hook(*_: object) -> None:
        raise RuntimeError("bug in a hook")

    store.log.on_added.append(broken_hook)
    with pytest.raises(RuntimeError):
        store.append_new("t1", [big(1)])
    assert not store.conn.in_transaction and store.log.count() == 0
    store.log.on_added.remove(broken_hook)
    assert store.append_new("t1", [big(1)])[0].seq == 1
