"""The station stamps one action id on every event of a command, and undoes by it."""

from __future__ import annotations

import random
from pathlib import Path

from kiosk.station import Station
from kiosk.store import StoredEvent, open_store
from kiosk.sync.auth import event_seal, open_seal
from kiosk.sync.roles import allowed
from kiosk.timebase import SharedClock
from rules.commands import (
    AdjustTime,
    CallClock,
    CheckIn,
    CreateTournament,
    DrawButton,
    DrawSeats,
    Start,
    StartClock,
    StartHand,
)
from rules.events import ActionUndone, HandStarted, Record
from rules.refusals import NothingToUndo, UndoWindowPassed
from rules.structure import preset
from rules.undo import action_id


class Hand:
    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def station(path: Path, hand: Hand, *, speed: float = 1.0, role: str | None = None,
            table: int | None = None, seed: int = 3) -> Station:
    return Station(open_store(data_dir=path), SharedClock(source=hand, speed=speed),
                   rng=random.Random(seed), role=role, table=table)


def started(st: Station, players: int = 12) -> None:
    assert st.submit(CreateTournament("Fredag", preset("pf-pokerklub"))).ok
    for n in range(1, players + 1):
        assert st.submit(CheckIn(f"p{n}", f"Player {n}")).ok
    assert st.submit(Start()).ok  # the draw
    assert st.submit(Start()).ok  # the clock


def test_every_event_of_one_command_carries_one_id_the_device_and_its_first_seq(
        tmp_path: Path) -> None:
    hand = Hand()
    st = station(tmp_path, hand)
    created = st.submit(CreateTournament("Fredag", preset("pf-pokerklub")))
    (record,) = created.records
    assert record.event.action == action_id(st.store.device_id, record.seq)
    for n in range(1, 13):
        st.submit(CheckIn(f"p{n}", f"Player {n}"))
    st.submit(DrawSeats())
    st.submit(StartClock())
    late = st.submit(CheckIn("late", "Late Comer"))
    assert len(late.records) >= 3
    first = late.records[0]
    assert {r.event.action for r in late.records} == {f"{st.store.device_id}:{first.seq}"}
    # The id is in the stored payload, so it survives a restart and reaches peers.
    assert st.tournament_id is not None
    reread = {r.ident: r.event.action for r in st.store.records(st.tournament_id)}
    assert all(reread[r.ident] == r.event.action for r in late.records)
    st.close()


def test_the_td_undoes_the_newest_action_whole_even_two_at_one_moment(tmp_path: Path) -> None:
    hand = Hand()
    st = station(tmp_path, hand)
    started(st)
    level_before = st.state.clock
    # The clock does not move between two presses (a frozen or fast-forwarded tick).
    assert st.submit(AdjustTime(-60)).ok
    after_first = st.state.clock
    assert st.submit(AdjustTime(-60)).ok
    assert st.state.clock != after_first
    outcome = st.undo_newest()
    assert outcome.ok and len(outcome.undone) == 1
    assert st.state.clock == after_first != level_before
    late = st.submit(CheckIn("late", "Late Comer"))
    undone = st.undo_newest()
    assert undone.undone == late.records
    assert [(r.event.device_id, r.event.seq) for r in undone.records  # type: ignore[attr-defined]
            ] == [r.ident for r in reversed(late.records)]
    assert "late" not in st.state.players
    # The undo is one action too (one id): one redo would bring all of it back.
    assert len({r.event.action for r in undone.records}) == 1
    st.close()


def test_a_table_device_undoes_its_own_action_within_real_seconds(tmp_path: Path) -> None:
    hand = Hand()
    td = station(tmp_path / "td", hand, speed=60.0)
    started(td)
    assert td.tournament_id is not None
    table = station(tmp_path / "t1", hand, speed=60.0, role="table", table=1, seed=4)
    table.accept(td.store.records(td.tournament_id))
    # What its screen greys out: the TD's commands and other tables' reports.
    assert table.may(CallClock(1)) and not table.may(CallClock(2))
    assert not table.may(Start()) and not table.may(AdjustTime(60)) and td.may(Start())
    assert table.submit(DrawButton(1)).ok
    called = table.submit(CallClock(1))
    assert called.ok, called.refusal
    # The TD acts after it: the table's own newest is still its clock call.
    td.accept(table.store.records(td.tournament_id))
    assert td.submit(AdjustTime(60)).ok
    table.accept(td.store.records(td.tournament_id))
    hand.t += 5  # five real seconds: 300 shared at 60×
    outcome = table.undo_newest(own=True, window=10.0)
    assert outcome.ok, outcome.refusal
    assert outcome.undone == called.records
    assert table.state.tables[1].clock_called_at is None
    # Its peers accept a table's undo of its own event (the origin is in the identity).
    for record in outcome.records:
        assert allowed("table", 1, record.event, origin=record.device_id) is None
    before = td.state.tables[1].hands
    td.accept(table.store.records(td.tournament_id))
    assert td.state.tables[1].clock_called_at is None and td.state.tables[1].hands == before
    # Past the window the dealer is told so; nothing changes.
    assert table.submit(StartHand(1)).ok
    hand.t += 11
    late = table.undo_newest(own=True, window=10.0)
    assert isinstance(late.refusal, UndoWindowPassed) and not late.records
    assert table.state.tables[1].hands == 1
    table.close()
    td.close()


def test_nothing_to_undo_is_said_not_raised(tmp_path: Path) -> None:
    hand = Hand()
    st = station(tmp_path, hand)
    assert isinstance(st.undo_newest().refusal, NothingToUndo)
    assert st.submit(CreateTournament("Fredag", preset("pf-pokerklub"))).ok
    outcome = st.undo_newest()
    assert isinstance(outcome.refusal, NothingToUndo)
    assert outcome.message("nn") == "Ingenting å angre"
    st.close()


def test_a_peers_old_payload_without_an_id_is_kept_byte_for_byte_and_undone_as_before(
        tmp_path: Path) -> None:
    hand = Hand()
    st = station(tmp_path, hand)
    started(st)
    assert st.tournament_id is not None
    tid = st.tournament_id
    top = max(r.lamport for r in st.store.records(tid))
    old = '{"at":1000.0,"kind":"hand-started","table":1,"v":1}'
    key = bytes(32)
    seal = event_seal(key, "old-t1", 1, top + 1, tid, old, role="table", table=1)
    row = StoredEvent.received("old-t1", 1, top + 1, tid, old, seal)
    assert row.unreadable is None
    assert st.accept([row]) == 1
    assert st.accept([row]) == 0  # a duplicate, not a conflict
    (stored,) = [r for r in st.store.log.rows(tid) if r.device_id == "old-t1"]
    assert stored.payload == old
    opened = open_seal(key, "old-t1", 1, top + 1, tid, stored.payload, stored.mac)
    assert opened is not None and (opened.role, opened.table) == ("table", 1)
    # Re-encoding the decoded record gives the same text (no "action" appears).
    assert StoredEvent.of(stored.record()).payload == old
    outcome = st.undo_newest()
    assert outcome.undone == (Record("old-t1", 1, top + 1, tid, HandStarted(at=1000.0, table=1)),)
    assert isinstance(outcome.records[0].event, ActionUndone)
    st.close()


def test_a_new_payload_with_an_id_is_sealed_and_opened_like_any_other(tmp_path: Path) -> None:
    hand = Hand()
    st = station(tmp_path, hand)
    started(st, players=4)
    (record,) = st.submit(AdjustTime(60)).records
    row = StoredEvent.of(record)
    assert f'"action":"{record.event.action}"' in row.payload
    key = bytes(32)
    seal = event_seal(key, row.device_id, row.seq, row.lamport, row.tournament_id, row.payload,
                      role="console", table=None)
    assert open_seal(key, row.device_id, row.seq, row.lamport, row.tournament_id, row.payload,
                     seal) is not None
    assert StoredEvent.received(row.device_id, row.seq, row.lamport, row.tournament_id,
                                row.payload, seal).record().event.action == record.event.action
    st.close()


def test_N1_a_closed_night_refuses_the_buttons_and_a_late_table_press_on_every_device(
        tmp_path: Path) -> None:
    from rules.commands import CloseTournament, SetHandForHand
    from rules.fold import state_digest
    from rules.refusals import TournamentClosedError

    hand = Hand()
    td = station(tmp_path / "td", hand)
    started(td)
    assert td.tournament_id is not None
    table = station(tmp_path / "t1", hand, role="table", table=1, seed=4)
    table.accept(td.store.records(td.tournament_id))
    assert table.submit(DrawButton(1)).ok
    td.accept(table.store.records(td.tournament_id))
    assert td.submit(CloseTournament()).ok
    # The TD's UNDO, keyboard and buttons: refused with the reason, nothing written.
    undo = td.undo_newest()
    assert isinstance(undo.refusal, TournamentClosedError) and not undo.records
    assert "reopen --yes" in undo.message("nn")
    assert isinstance(td.submit(SetHandForHand(True)).refusal, TournamentClosedError)
    # A table that missed the close presses on: its first press may be ordered
    # beside the close (its Lamport time ties), the later ones come after it,
    # and every device rejects those alike in the fold.
    for press in (StartHand(1), CallClock(1), StartHand(1)):
        assert table.submit(press).ok
    td.accept(table.store.records(td.tournament_id))
    table.accept(td.store.records(td.tournament_id))
    for st in (td, table):
        codes = [r.code for r in st.state.rejected]
        assert st.state.closed and len(codes) >= 2
        assert set(codes) == {"TournamentClosedError"}
    assert state_digest(td.state) == state_digest(table.state)
    assert isinstance(table.undo_newest(own=True).refusal, TournamentClosedError)
    table.close()
    td.close()
