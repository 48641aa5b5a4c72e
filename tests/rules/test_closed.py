"""N1: a closed night changes only through a reopen, which is an event and undoable."""

from __future__ import annotations

import random

import pytest

from rules import authority
from rules.commands import (
    AdjustTime,
    BreakTable,
    BustPlayers,
    CheckIn,
    CloseTournament,
    Command,
    MarkAbsent,
    MovePlayer,
    NextLevel,
    PauseClock,
    PreviousLevel,
    RenamePlayer,
    ReopenTournament,
    ResumeClock,
    SetHandForHand,
    Start,
    StartClock,
    TogglePause,
    Undo,
    UndoAction,
    decide,
)
from rules.events import (
    ActionUndone,
    PlayersBusted,
    Record,
    TournamentClosed,
    TournamentReopened,
    decode_event,
    encode_event,
)
from rules.fold import fold
from rules.i18n import LANGUAGES
from rules.refusals import CloseNotUndoable, TournamentClosedError, TournamentNotClosed
from rules.undo import can_undo, closed, undo, verify_undo
from tests.rules.tournament_kit import Night


def _closed_night() -> Night:
    """Six players, one out, closed early (the TD's --force)."""
    night = Night(seed=3).started(6)
    night.do(BustPlayers(("p1",), by=None), at=60.0)
    night.do(CloseTournament(), at=120.0)
    return night


def _undo(night: Night) -> tuple[ActionUndone, ...]:
    command = undo(night.records, now=night.now)
    return night.do(command)  # type: ignore[return-value]


CHANGES: list[Command] = [
    Undo("td", 1), UndoAction((("td", 1),)),
    BustPlayers(("p2",), by=None), CheckIn("p9", "Late Lars"), CheckIn("p1"),
    NextLevel(), PreviousLevel(), PauseClock(), ResumeClock(), StartClock(), Start(),
    TogglePause(), AdjustTime(60.0), SetHandForHand(True), SetHandForHand(False),
    MovePlayer("p2", 1), BreakTable(1), MarkAbsent("p3"), RenamePlayer("p2", "Bo"),
    CloseTournament(),
]


@pytest.mark.parametrize("command", CHANGES, ids=lambda c: type(c).__name__)
def test_N1_a_closed_night_refuses_every_change(command: Command) -> None:
    night = _closed_night()
    before = night.state
    with pytest.raises(TournamentClosedError):
        decide(before, command, now=200.0, rng=random.Random(1))
    assert night.state.closed and night.state is before


def test_N1_the_closed_reason_says_how_to_reopen_in_every_language() -> None:
    for lang in LANGUAGES:
        assert "reopen --yes" in TournamentClosedError().translate(lang)


def test_N1_reopen_only_a_closed_night() -> None:
    night = Night(seed=3).started(4)
    with pytest.raises(TournamentNotClosed):
        night.do(ReopenTournament())
    night.do(CloseTournament())
    night.do(ReopenTournament())
    assert not night.state.closed
    with pytest.raises(TournamentNotClosed):
        night.do(ReopenTournament())


def test_N1_undo_cannot_reach_past_a_close() -> None:
    night = _closed_night()
    with pytest.raises(TournamentClosedError):
        verify_undo(night.records, now=200.0)
    assert not can_undo(night.records, now=200.0)
    assert closed(night.records)


def test_N1_after_a_reopen_undo_works_and_a_close_again_stands() -> None:
    night = _closed_night()
    night.do(ReopenTournament(), at=200.0)
    # The reopen is the newest action: the first undo would close it again,
    # so the TD corrects the night with a new event, then undoes it.
    night.do(BustPlayers(("p2",), by=None), at=210.0)
    assert night.state.players["p2"].place == 5
    _undo(night)
    assert night.state.players["p2"].place is None
    night.do(CloseTournament(), at=220.0)
    assert night.state.closed
    assert fold(night.records).players["p2"].place is None
    assert not fold(night.records).rejected


def test_N1_undo_of_a_reopen_closes_the_night_again() -> None:
    night = _closed_night()
    night.do(ReopenTournament(), at=200.0)
    undone = _undo(night)
    assert [type(e) for e in undone] == [ActionUndone]
    assert night.state.closed
    # And the undo before the close is still out of reach.
    with pytest.raises(TournamentClosedError):
        verify_undo(night.records, now=230.0)
    assert fold(night.records).players["p1"].place == 6


def _record(device: str, seq: int, lamport: int, event: object) -> Record:
    return Record(device, seq, lamport, "t1", event)  # type: ignore[arg-type]


def test_N1_a_peers_bust_folded_after_the_close_is_rejected_on_every_device() -> None:
    night = _closed_night()
    close_key = night.records[-1].lamport
    late = _record("t2", 1, close_key + 1, PlayersBusted(at=130.0, groups=(("p2",),), table=1))
    for order in ([*night.records, late], [late, *night.records[::-1]]):
        state = fold(order)
        assert state.players["p2"].place is None
        assert [(r.device_id, r.code) for r in state.rejected] == [("t2", "TournamentClosedError")]


def test_N1_a_peers_undo_folded_after_the_close_is_rejected_and_the_bust_stands() -> None:
    night = _closed_night()
    bust = next(r for r in night.records if isinstance(r.event, PlayersBusted))
    close_key = night.records[-1].lamport
    late = _record("t2", 1, close_key + 1,
                   ActionUndone(at=130.0, device_id=bust.device_id, seq=bust.seq))
    state = fold([*night.records, late])
    assert state.players["p1"].place == 6
    assert [r.code for r in state.rejected] == ["TournamentClosedError"]
    # The same undo ordered before the close takes the bust back.
    early = _record("z9", 1, bust.lamport, late.event)  # after the bust, before the close
    assert fold([*night.records, early]).players["p1"].place is None


def test_N1_a_close_is_never_undone_even_after_a_reopen() -> None:
    night = _closed_night()
    close = night.records[-1]
    night.do(ReopenTournament(), at=200.0)
    night.do(Undo(close.device_id, close.seq), at=210.0)
    state = fold(night.records)
    assert [r.code for r in state.rejected] == ["CloseNotUndoable"]
    assert not state.closed
    assert "reopen --yes" in CloseNotUndoable().translate("nn")


def test_N1_a_redo_of_a_reopen_opens_the_night_again() -> None:
    night = _closed_night()
    night.do(ReopenTournament(), at=200.0)
    undo_records = len(night.records)
    _undo(night)
    assert night.state.closed
    # A redo (the undo of that undo) is a change too: refused while closed.
    redo = night.records[undo_records]
    with pytest.raises(TournamentClosedError):
        night.do(Undo(redo.device_id, redo.seq))
    # From a peer that missed the undo of the reopen it is rejected in the fold.
    late = _record("t2", 1, night.records[-1].lamport + 1,
                   ActionUndone(at=240.0, device_id=redo.device_id, seq=redo.seq))
    state = fold([*night.records, late])
    assert state.closed
    assert [r.code for r in state.rejected] == ["TournamentClosedError"]


def test_N1_close_and_reopen_are_for_the_td_only() -> None:
    night = Night(seed=3).started(4)
    for command in (CloseTournament(), ReopenTournament()):
        assert authority.refusal(night.state, command, "console") is None
        assert isinstance(authority.refusal(night.state, command, "table", 1),
                          authority.NotAllowed)


def test_N1_close_and_reopen_survive_the_wire() -> None:
    for event in (TournamentClosed(at=1.0, action="td:9"), TournamentReopened(at=2.0)):
        assert decode_event(encode_event(event)) == event
