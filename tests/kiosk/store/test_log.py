"""The log: durable, idempotent appends, order, and what sync asks for."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.store import EventConflict, Store, StoredEvent, open_store
from rules.events import (
    ClockPaused,
    PlayerRegistered,
    Record,
    TournamentCreated,
    event_to_json,
)
from rules.structure import preset


def reg(i: int) -> PlayerRegistered:
    return PlayerRegistered(at=float(i), player_id=f"p{i}", name=f"Player {i}")


def created() -> TournamentCreated:
    return TournamentCreated(at=0.0, name="Fredag", structure=preset("pubpoker"))


def test_store_runs_wal_with_synchronous_full(store: Store) -> None:
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_append_new_stamps_seq_and_lamport_and_survives_reopen(db_path: Path) -> None:
    with open_store(db_path) as store:
        first = store.append_new("t1", [created(), reg(1)])
        device = store.device_id
        assert [(r.seq, r.lamport) for r in first] == [(1, 1), (2, 2)]
    with open_store(db_path) as store:
        assert store.device_id == device
        again = store.append_new("t1", [reg(2)])
        assert (again[0].seq, again[0].lamport) == (3, 3)
        assert [r.event for r in store.records("t1")] == [created(), reg(1), reg(2)]


def test_appending_the_same_event_twice_does_nothing(store: Store) -> None:
    record = Record("peer", 1, 5, "t1", reg(1))
    assert len(store.append([record]).added) == 1
    result = store.append([record, record])
    assert result.added == () and result.duplicates == (("peer", 1), ("peer", 1))
    assert store.log.count() == 1


def test_a_different_event_under_a_taken_name_is_reported_not_written(store: Store) -> None:
    store.append([Record("peer", 1, 5, "t1", reg(1))])
    result = store.append([Record("peer", 1, 5, "t1", reg(2))])
    assert result.added == ()
    assert len(result.conflicts) == 1 and isinstance(result.conflicts[0], EventConflict)
    assert "peer" in result.conflicts[0].translate("nn")
    assert store.records("t1")[0].event == reg(1)


def test_a_late_mac_is_filled_in_but_never_replaced(store: Store) -> None:
    row = StoredEvent.of(Record("peer", 1, 1, "t1", reg(1)))
    store.append([row])
    signed = StoredEvent(**{**row.__dict__, "mac": "abc"})
    assert store.append([signed]).duplicates == (("peer", 1),)
    assert store.log.get("peer", 1).mac == "abc"  # type: ignore[union-attr]
    forged = StoredEvent(**{**row.__dict__, "mac": "zzz"})
    assert len(store.append([forged]).conflicts) == 1
    assert store.log.get("peer", 1).mac == "abc"  # type: ignore[union-attr]


def test_peer_events_move_the_lamport_clock_forward(store: Store) -> None:
    store.append([Record("peer", 1, 41, "t1", reg(1))])
    (mine,) = store.append_new("t1", [reg(2)])
    assert mine.lamport == 42 and mine.seq == 1


def test_records_come_in_fold_order(store: Store) -> None:
    store.append([
        Record("b", 1, 3, "t1", reg(1)),
        Record("a", 1, 3, "t1", reg(2)),
        Record("a", 2, 1, "t1", reg(3)),
        Record("c", 1, 2, "t2", reg(4)),
    ])
    assert [r.key for r in store.records("t1")] == [(1, "a", 2), (3, "a", 1), (3, "b", 1)]
    assert [r.key for r in store.records("t2")] == [(2, "c", 1)]


def test_version_vector_counts_only_contiguous_seqs(store: Store) -> None:
    store.append([Record("x", s, s, "t1", reg(s)) for s in (1, 2, 4, 5)])
    store.append([Record("y", 2, 9, "t1", reg(9))])
    assert store.version_vector() == {"x": 2}
    store.append([Record("x", 3, 3, "t1", reg(3)), Record("y", 1, 8, "t1", reg(8))])
    assert store.version_vector() == {"x": 5, "y": 2}


def test_version_vector_after_reopen_sees_gaps(db_path: Path) -> None:
    with open_store(db_path) as store:
        store.append([Record("x", s, s, "t1", reg(s)) for s in (1, 2, 4)])
    with open_store(db_path) as store:
        assert store.version_vector() == {"x": 2}


def test_missing_since_gives_what_a_peer_lacks(store: Store) -> None:
    store.append([Record("x", s, s, "t1", reg(s)) for s in (1, 2, 3)])
    store.append([Record("y", s, s, "t1", reg(10 + s)) for s in (1, 2)])
    missing = store.missing_since({"x": 2})
    assert [r.ident for r in missing] == [("x", 3), ("y", 1), ("y", 2)]
    assert store.missing_since(store.version_vector()) == []
    assert len(store.missing_since({}, limit=2)) == 2
    # What is served is the exact stored text.
    assert missing[0].payload == event_to_json(reg(3))


@pytest.mark.parametrize("payload", [
    "{not json",
    '{"kind":"warp-drive","v":1,"at":1.0}',
    '{"kind":"clock-paused","v":99,"at":1.0,"reason":"new"}',
    '[1, 2, 3]',
])
def test_unreadable_payloads_are_kept_skipped_by_fold_and_still_served(
        store: Store, payload: str) -> None:
    store.append_new("t1", [created()])
    row = StoredEvent.received("newer-peer", 1, 7, "t1", payload, mac="m")
    assert row.unreadable
    assert len(store.append([row]).added) == 1
    store.append([Record("newer-peer", 2, 8, "t1", ClockPaused(at=1.0))])
    # Fold goes on past it (the pause is refused by the rules: no clock yet).
    state = store.fold("t1").state
    assert state.config is not None and state.config.name == "Fredag"
    assert [r.ident for r in store.records("t1")] == [(store.device_id, 1), ("newer-peer", 2)]
    # Sync still serves it byte for byte, and the vector counts it.
    served = {r.ident: r for r in store.missing_since({})}
    assert served[("newer-peer", 1)].payload == payload
    assert served[("newer-peer", 1)].mac == "m"
    assert store.version_vector()["newer-peer"] == 2
    assert store.unreadable_count() == 1


def test_events_a_newer_version_wrote_become_readable_after_an_upgrade(db_path: Path) -> None:
    with open_store(db_path) as store:
        store.append_new("t1", [created()])
        # As a previous version would have stored a then-unknown event.
        store.append([StoredEvent("peer", 1, 5, "t1", "player-registered",
                                  event_to_json(reg(1)), "", "unknown event kind")])
        assert store.fold("t1").state.players == {}
        store.fold("t1").save()
    with open_store(db_path) as store:
        assert store.unreadable_count() == 0
        assert list(store.fold("t1").state.players) == ["p1"]


def test_bad_identities_are_refused_before_writing(store: Store) -> None:
    with pytest.raises(ValueError):
        store.append([StoredEvent("", 1, 1, "t1", "clock-paused", "{}")])
    with pytest.raises(ValueError):
        store.append([StoredEvent("d", 0, 1, "t1", "clock-paused", "{}")])
    assert store.log.count() == 0


def test_a_created_tournament_gets_its_row_in_the_same_commit(store: Store) -> None:
    store.append_new("t1", [created()])
    (row,) = store.tournaments()
    assert (row.id, row.name, row.preset, row.status) == ("t1", "Fredag", "pubpoker", "created")
    assert row.season == row.date[:4]
    assert store.current_tournament() == "t1"
