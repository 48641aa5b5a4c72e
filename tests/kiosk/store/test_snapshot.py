"""Start-up folds from a snapshot, and falls back to a full fold whenever it must."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kiosk.store import open_store
from kiosk.store import snapshot as snapshots
from rules.commands import AdjustTime, TogglePause, Undo
from rules.events import PlayerRegistered, Record
from rules.fold import state_digest
from tests.kiosk.store.helpers import Night, players


def night_with_log(db_path: Path, n: int = 60) -> str:
    with open_store(db_path) as store:
        night = Night(store).started(players(10))
        for i in range(n):
            night.do(TogglePause() if i % 3 else AdjustTime(5.0), at=10.0 + i)
        night.folded.close()  # a clean shutdown saves a snapshot
        return state_digest(night.state)


def full_digest(db_path: Path) -> str:
    with open_store(db_path) as store:
        return state_digest(store.fold("t1", use_snapshot=False, snapshot_every=0).state)


def test_start_up_uses_the_snapshot_and_matches_a_full_fold(db_path: Path) -> None:
    digest = night_with_log(db_path)
    with open_store(db_path) as store:
        folded = store.fold("t1")
        assert folded.from_snapshot and folded.refolds == 0
        assert state_digest(folded.state) == digest == full_digest(db_path)


def test_events_after_the_snapshot_are_folded_on_top(db_path: Path) -> None:
    night_with_log(db_path)
    with open_store(db_path) as store:
        night = Night(store)
        night.do(TogglePause(), at=500.0)
        night.do(AdjustTime(30.0), at=501.0)
    with open_store(db_path) as store:
        folded = store.fold("t1")
        assert folded.from_snapshot and folded.refolds == 0
        assert state_digest(folded.state) == full_digest(db_path)


def test_a_late_peer_event_behind_the_snapshot_forces_a_full_fold(db_path: Path) -> None:
    night_with_log(db_path)
    with open_store(db_path) as store:
        # A peer's registration with a Lamport time inside the snapshot's span.
        store.append([Record("peer", 1, 3, "t1",
                             PlayerRegistered(at=2.0, player_id="late", name="Late"))])
    with open_store(db_path) as store:
        folded = store.fold("t1")
        assert not folded.from_snapshot
        assert "late" in folded.state.players
        assert state_digest(folded.state) == full_digest(db_path)


def test_a_late_event_while_running_refolds_once(db_path: Path) -> None:
    with open_store(db_path) as store:
        night = Night(store).started(players(10))
        store.append([Record("peer", 1, 2, "t1",
                             PlayerRegistered(at=2.0, player_id="late", name="Late"))])
        assert night.folded.catch_up() == 1
        assert night.folded.refolds == 1 and "late" in night.state.players


def test_an_undo_after_the_snapshot_is_folded_correctly(db_path: Path) -> None:
    night_with_log(db_path)
    with open_store(db_path) as store:
        target = store.records("t1")[-1]
        night = Night(store)
        night.do(Undo(target.device_id, target.seq), at=600.0)
    with open_store(db_path) as store:
        folded = store.fold("t1")
        assert state_digest(folded.state) == full_digest(db_path)


def test_a_snapshot_from_other_rules_code_is_not_trusted(
        db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    night_with_log(db_path)
    monkeypatch.setattr(snapshots, "rules_fingerprint", lambda: "other-code")
    with open_store(db_path) as store:
        folded = store.fold("t1")
        assert not folded.from_snapshot
    assert state_digest(folded.state) == full_digest(db_path)


@pytest.mark.parametrize("damage", ["digest", "state"])
def test_a_damaged_snapshot_is_not_trusted(db_path: Path, damage: str) -> None:
    digest = night_with_log(db_path)
    with open_store(db_path) as store:
        if damage == "digest":
            store.conn.execute("UPDATE snapshots SET digest = 'x'")
        else:
            (text,) = store.conn.execute("SELECT state FROM snapshots").fetchone()
            data = json.loads(text)
            data["entrants"] = "many"
            store.conn.execute("UPDATE snapshots SET state = ?", (json.dumps(data),))
        store.conn.commit()
    with open_store(db_path) as store:
        folded = store.fold("t1")
        assert not folded.from_snapshot
        assert state_digest(folded.state) == digest


def test_a_snapshot_is_saved_every_n_events(db_path: Path) -> None:
    with open_store(db_path) as store:
        night = Night(store)
        night.folded.snapshot_every = 5
        night.checked_in(players(12))
        info = snapshots.snapshot_info(store.conn, "t1")
        assert info is not None and info.max_rowid >= 10
        assert info.key == night.folded.replay.last_key or info.max_rowid < store.log.max_rowid()
