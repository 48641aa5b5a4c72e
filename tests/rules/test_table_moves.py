"""The TD's own moves through the rules core: one player sent (S2, S4), a table broken (S3)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rules.commands import (
    BreakTable,
    CheckIn,
    ConfirmMove,
    CreateTournament,
    DrawButton,
    MovePlayer,
    StartHand,
    decide,
)
from rules.events import MoveConfirmed, MoveProposed, SeatsDrawn
from rules.house import profile
from rules.i18n import LANGUAGES
from rules.reducer import apply
from rules.refusals import SeatTaken, UnknownTable
from rules.state import Tournament
from rules.structure import preset
from rules.table_moves import (
    AlreadyAtTable,
    LastTable,
    MoveAlreadyPending,
    NoFreeSeat,
    NoRoomToBreak,
    NoSuchSeat,
)
from rules.values import MoveReason, SeatAssignment
from tests.rules.tournament_kit import Night


def do(state: Tournament, command: object, seed: int = 1) -> tuple[object, ...]:
    events = decide(state, command, now=10.0, rng=random.Random(seed))  # type: ignore[arg-type]
    for event in events:
        apply(state, event)
    return events


def spread(seats: dict[str, tuple[int, int]], *, per_table: int = 6) -> Tournament:
    """A tournament whose players sit where ``seats`` says (a room with empty seats)."""
    state = Tournament()
    house = dataclasses.replace(profile("pubpoker"), seats_per_table=per_table)
    do(state, CreateTournament("Fredag", preset("pubpoker"), house))
    for pid in seats:
        do(state, CheckIn(pid, pid.upper()))
    apply(state, SeatsDrawn(at=5.0, seats=tuple(
        SeatAssignment(pid, t, s) for pid, (t, s) in seats.items())))
    return state


THREE_TABLES = {"a": (1, 1), "b": (1, 2), "c": (1, 3), "d": (2, 1), "e": (2, 2),
                "f": (3, 1), "g": (3, 4)}


def test_S3_the_td_breaks_a_table_and_its_players_get_free_seats_by_draw() -> None:
    targets = set()
    for seed in range(8):
        state = spread(THREE_TABLES)
        events = do(state, BreakTable(1), seed)
        moves = [e.move for e in events if isinstance(e, MoveProposed)]  # type: ignore[attr-defined]
        assert {m.player_id for m in moves} >= {"a", "b", "c"}
        assert all(m.reason is MoveReason.BREAK for m in moves if m.source.table == 1)
        for m in moves:
            do(state, ConfirmMove(m.player_id))
        assert 1 not in state.tables
        # S1/S2 after the break: seven players on two tables, no more than one apart.
        assert sorted(len(t.seats) for t in state.tables.values()) == [3, 4]
        targets.add(tuple(sorted((m.player_id, m.target) for m in moves)))
    assert len(targets) > 1  # a draw, not a fixed order


def test_S3_a_break_the_players_do_not_fit_is_refused_and_changes_nothing() -> None:
    night = Night().started(20)  # two tables of ten, full
    before = len(night.records)
    with pytest.raises(NoRoomToBreak) as refused:
        night.do(BreakTable(1))
    assert len(night.records) == before and not night.state.moves
    assert all(refused.value.translate(lang) for lang in LANGUAGES)
    with pytest.raises(UnknownTable):
        night.do(BreakTable(7))


def test_S3_the_last_table_cannot_be_broken() -> None:
    state = spread({"a": (1, 1), "b": (1, 2)})
    with pytest.raises(LastTable):
        do(state, BreakTable(1))


def test_S2_a_td_move_without_a_seat_takes_the_worst_free_seat_never_the_small_blind() -> None:
    night = Night(seed=3).started(14)
    for table in list(night.state.tables):
        night.do(DrawButton(table))
        night.do(StartHand(table))
    player, source = next((p, e.seat) for p, e in night.state.players.items()
                          if e.seat is not None and e.seat.table == 1)
    target = night.state.tables[2]
    assert target.button is not None
    (event,) = night.do(MovePlayer(player, 2))
    assert isinstance(event, MoveProposed)
    move = event.move
    assert move.source == source and move.target.table == 2 and move.position_known
    from rules.button import free_seats_worst_first, next_position

    assert move.target.seat == free_seats_worst_first(
        target.button, set(target.seats), seats_per_table=10)[0]
    after = next_position(target.button, (*target.seats, move.target.seat), seats_per_table=10)
    assert move.target.seat != after.small_blind
    # S4: the player sits down with the move confirmed, chips and all.
    night.do(ConfirmMove(player))
    assert night.state.players[player].seat == move.target


def test_S2_a_td_move_to_a_given_seat_and_seated_at_once_is_one_action() -> None:
    state = spread(THREE_TABLES)
    events = do(state, MovePlayer("a", 3, seat=2, seated=True))
    assert [type(e) for e in events] == [MoveProposed, MoveConfirmed]
    assert state.players["a"].seat is not None and state.players["a"].seat.table == 3
    assert 2 in state.tables[3].seats and 1 not in state.tables[1].seats


@pytest.mark.parametrize(("command", "error"), [
    (MovePlayer("a", 1), AlreadyAtTable),
    (MovePlayer("a", 2, seat=1), SeatTaken),
    (MovePlayer("a", 2, seat=7), NoSuchSeat),
    (MovePlayer("a", 5), UnknownTable),
])
def test_S2_td_moves_that_cannot_be_are_refused(command: MovePlayer, error: type) -> None:
    state = spread(THREE_TABLES)
    with pytest.raises(error) as refused:
        do(state, command)
    assert not state.moves
    assert all(refused.value.translate(lang) for lang in LANGUAGES)


def test_S2_a_player_already_walking_and_a_full_table_are_refused() -> None:
    state = spread({**THREE_TABLES, **{f"x{s}": (2, s) for s in range(3, 7)}})
    with pytest.raises(NoFreeSeat):
        do(state, MovePlayer("a", 2))
    do(state, MovePlayer("a", 3))
    with pytest.raises(MoveAlreadyPending):
        do(state, MovePlayer("a", 3))

