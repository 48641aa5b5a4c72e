"""F2: the waiting list once every seat is taken (rules/waitlist.py, issue 45).

One table of four (the venue's seats are the capacity), through the real command path.
"""

from __future__ import annotations

import dataclasses

import pytest

from rules.commands import (
    BustPlayers,
    CheckIn,
    CloseLateRegistration,
    ConfirmMove,
    CreateTournament,
    DrawSeats,
    MovePlayer,
    RemoveFromWaitingList,
    StartClock,
)
from rules.fold import fold, state_digest
from rules.house import profile
from rules.reducer import apply
from rules.refusals import LateRegistrationClosedError
from rules.structure import preset
from rules.waitlist import AlreadyWaiting, NotWaiting, capacity, place
from tests.rules.tournament_kit import Night


def _night(players: int = 4, *, tables: int = 1, cap: int | None = None,
           start: bool = True) -> Night:
    night = Night(house=dataclasses.replace(profile("pubpoker"), seats_per_table=4),
                  max_tables=tables, capacity=cap)
    night.checked_in(players)
    if start:
        night.do(DrawSeats())
        night.do(StartClock())
    return night


def _kinds(events: tuple[object, ...]) -> list[str]:
    return [e.kind.value for e in events]  # type: ignore[attr-defined]


def test_F2_capacity_is_the_venues_seats_or_the_tds_number() -> None:
    assert capacity(_night(start=False).state) == 4
    assert capacity(_night(2, tables=2, start=False).state) == 8
    assert capacity(_night(2, tables=2, cap=5, start=False).state) == 5


def test_F2_a_check_in_when_full_waits_last_on_the_list() -> None:
    night = _night()
    assert _kinds(night.do(CheckIn("w1", "Wenche"))) == ["player-registered",
                                                          "player-waitlisted"]
    night.do(CheckIn("w2", "Wilhelm"))
    state = night.state
    assert state.waiting == ["w1", "w2"] and place(state, "w2") == 2
    # Waiting is not playing: no seat, not an entrant, no place moved.
    assert state.entrants == 4 and state.players["w2"].seat is None
    assert not state.players["w2"].checked_in
    with pytest.raises(AlreadyWaiting, match="number 2"):
        night.do(CheckIn("w2"))


def test_F2_before_the_draw_the_list_keeps_the_draw_from_failing() -> None:
    night = _night(start=False)
    night.do(CheckIn("w1", "Wenche"))
    assert night.state.waiting == ["w1"]
    night.do(DrawSeats())  # four seats, four players: the fifth waits
    assert sorted(night.state.tables[1].seats.values()) == ["p1", "p2", "p3", "p4"]


def test_F2_a_bust_admits_the_first_waiting_into_the_freed_seat_by_draw() -> None:
    night = _night()
    for pid, name in (("w1", "Wenche"), ("w2", "Wilhelm")):
        night.do(CheckIn(pid, name))
    freed = night.state.players["p2"].seat
    events = night.do(BustPlayers(("p2",)))
    assert _kinds(events) == ["players-busted", "waitlist-admitted"]
    state = night.state
    assert state.waiting == ["w2"]
    assert state.players["w1"].seat == freed and state.players["w1"].late
    assert state.entrants == 5 and state.remaining == 4
    # F3: the late entry moves the earlier bust down.
    assert state.players["p2"].place == 5
    assert state_digest(fold(reversed(night.records))) == state_digest(state)


def test_F2_no_admission_once_late_registration_is_closed() -> None:
    night = _night()
    night.do(CheckIn("w1", "Wenche"))
    night.do(CloseLateRegistration())
    assert _kinds(night.do(BustPlayers(("p2",)))) == ["players-busted"]
    assert night.state.waiting == ["w1"] and night.state.remaining == 3
    with pytest.raises(LateRegistrationClosedError):
        night.do(CheckIn("w2", "Wilhelm"))


def test_F2_the_td_takes_a_player_off_the_list() -> None:
    night = _night()
    for pid, name in (("w1", "Wenche"), ("w2", "Wilhelm"), ("w3", "Wanja")):
        night.do(CheckIn(pid, name))
    night.do(RemoveFromWaitingList("w1"))
    assert night.state.waiting == ["w2", "w3"] and place(night.state, "w3") == 2
    with pytest.raises(NotWaiting, match="Wenche"):
        night.do(RemoveFromWaitingList("w1"))
    night.do(BustPlayers(("p1",)))
    assert night.state.players["w2"].seat is not None and night.state.waiting == ["w3"]


def test_F2_two_tables_the_admitted_player_is_drawn_where_a_seat_is_free() -> None:
    night = _night(8, tables=2)
    night.do(CheckIn("w1", "Wenche"))
    freed = night.state.players["p5"].seat
    night.do(BustPlayers(("p5",)))
    assert night.state.players["w1"].seat == freed
    assert sorted(len(t.seats) for t in night.state.tables.values()) == [4, 4]


def test_F2_an_admission_is_refused_by_the_fold_for_a_player_not_waiting() -> None:
    from rules.events import WaitlistAdmitted
    from rules.values import SeatAssignment

    night = _night(3)
    with pytest.raises(NotWaiting):
        apply(night.state, WaitlistAdmitted(at=1.0, seat=SeatAssignment("p1", 1, 4)))


def test_F2_capacity_travels_in_the_log() -> None:
    cmd = CreateTournament("F", preset("pubpoker"), capacity=30)
    night = Night()
    assert night.state.config is not None and night.state.config.capacity is None
    from rules.commands import decide

    (created,) = decide(type(night.state)(), cmd, now=0.0, rng=night.rng)
    from rules.events import event_from_json, event_to_json

    assert event_from_json(event_to_json(created)) == created


def _held_by_a_move() -> tuple[Night, str]:
    """Two tables of four, seven players: the one free seat is promised to a player
    from the other table who has not sat down yet (a pending move holds both seats)."""
    night = _night(7, tables=2)
    short = min(night.state.tables, key=lambda t: len(night.state.tables[t].seats))
    full = next(t for t in night.state.tables if t != short)
    mover = sorted(night.state.tables[full].seats.values())[0]
    night.do(MovePlayer(mover, short))
    assert mover in night.state.moves
    return night, mover


def test_F2_a_late_check_in_while_the_free_seat_is_held_by_a_move_waits_not_refused() -> None:
    """Places are left (7 of 8) but no seat is free until the mover sits down: the
    newcomer waits first in line, and is not told there are not enough seats."""
    night, _ = _held_by_a_move()
    assert _kinds(night.do(CheckIn("w1", "Wenche"))) == ["player-registered",
                                                          "player-waitlisted"]
    assert night.state.waiting == ["w1"] and night.state.remaining == 7


def test_F2_the_seat_a_confirmed_move_leaves_goes_to_the_first_waiting() -> None:
    night, mover = _held_by_a_move()
    night.do(CheckIn("w1", "Wenche"))
    left = night.state.players[mover].seat
    events = night.do(ConfirmMove(mover))
    assert _kinds(events)[:2] == ["move-confirmed", "waitlist-admitted"]
    state = night.state
    assert state.waiting == [] and state.players["w1"].seat == left
    assert state.players["w1"].checked_in and state.remaining == 8 and state.entrants == 8
    assert state_digest(fold(reversed(night.records))) == state_digest(state)
