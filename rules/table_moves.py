"""The TD's own moves: one player to another table (S2, S4), or a whole table broken (S3).

Balancing (:mod:`rules.balancing`) moves players by itself after a bust or a
late entry. The TD can also act by hand: send a player to a table (the seat
given, or else the worst free seat there, which may be the big blind but
never the small blind, S2), or break a table, whose players get seats by
draw at the emptiest tables left (S3) and take their chips with them (S4).

The triad, as everywhere in the rules: :func:`verify_move` and
:func:`verify_break` raise why not, :func:`can_move` and :func:`can_break`
say whether, and :func:`move_to` gives the :class:`~rules.values.Move`
(breaking is planned with the balancing rules, in :mod:`rules.commands`).
"""

from __future__ import annotations

from rules.button import free_seats_worst_first
from rules.errors import RulesError
from rules.refusals import NotSeated, PlayerAlreadyOut, SeatTaken, UnknownPlayer, UnknownTable
from rules.rng import RandomSource
from rules.state import Tournament
from rules.values import Move, MoveReason, SeatRef

__all__ = [
    "AlreadyAtTable",
    "LastTable",
    "MoveAlreadyPending",
    "NoFreeSeat",
    "NoRoomToBreak",
    "NoSuchSeat",
    "can_break",
    "can_move",
    "free_seats",
    "move_to",
    "verify_break",
    "verify_move",
]


class MoveAlreadyPending(RulesError, ValueError):
    messages = {
        "nn": "{player} er alt på veg til bord {table}, sete {seat}; stadfest den flyttinga først",
        "nb": "{player} er allerede på vei til bord {table}, sete {seat}; bekreft den flyttingen "
              "først",
        "da": "{player} er allerede på vej til bord {table}, sæde {seat}; bekræft den flytning "
              "først",
        "en": "{player} is already on the way to table {table}, seat {seat}; confirm that move "
              "first",
    }


class AlreadyAtTable(RulesError, ValueError):
    messages = {
        "nn": "{player} sit alt ved bord {table}",
        "nb": "{player} sitter allerede ved bord {table}",
        "da": "{player} sidder allerede ved bord {table}",
        "en": "{player} already sits at table {table}",
    }


class NoSuchSeat(RulesError, ValueError):
    messages = {
        "nn": "Bord {table} har ikkje sete {seat} (sete 1–{seats})",
        "nb": "Bord {table} har ikke sete {seat} (sete 1–{seats})",
        "da": "Bord {table} har ikke sæde {seat} (sæde 1–{seats})",
        "en": "Table {table} has no seat {seat} (seats 1–{seats})",
    }


class NoFreeSeat(RulesError, ValueError):
    messages = {
        "nn": "Bord {table} har ikkje eit ledig sete",
        "nb": "Bord {table} har ikke et ledig sete",
        "da": "Bord {table} har ikke et ledigt sæde",
        "en": "Table {table} has no free seat",
    }


class LastTable(RulesError, ValueError):
    messages = {
        "nn": "Bord {table} er det siste bordet og kan ikkje brytast opp",
        "nb": "Bord {table} er det siste bordet og kan ikke brytes opp",
        "da": "Bord {table} er det sidste bord og kan ikke brydes op",
        "en": "Table {table} is the last table and cannot be broken",
    }


class NoRoomToBreak(RulesError, ValueError):
    messages = {
        "nn": "Bord {table} kan ikkje brytast opp no: spelarane får ikkje plass ved dei andre "
              "borda. Med --next blir det brote opp først når det er plass",
        "nb": "Bord {table} kan ikke brytes opp nå: spillerne får ikke plass ved de andre "
              "bordene. Med --next blir det brutt opp først når det er plass",
        "da": "Bord {table} kan ikke brydes op nu: spillerne kan ikke være ved de andre borde. "
              "Med --next bliver det brudt op først, når der er plads",
        "en": "Table {table} cannot be broken now: its players do not fit at the other tables. "
              "With --next it is the first to break once they do",
    }


def _seats_per_table(state: Tournament) -> int:
    assert state.config is not None
    return state.config.house.seats_per_table


def free_seats(state: Tournament, table: int) -> list[int]:
    """Seats at ``table`` nobody sits in and no pending move is bound for.

    >>> t = _example()
    >>> free_seats(t, 2)
    [2, 4]
    """
    seats = state.tables[table].seats
    bound = {m.target.seat for m in state.moves.values() if m.target.table == table}
    return [s for s in range(1, _seats_per_table(state) + 1)
            if s not in seats and s not in bound]


def verify_move(state: Tournament, player_id: str, table: int, seat: int | None = None) -> None:
    """Raise why the TD cannot send ``player_id`` to ``table`` (at ``seat``, if given).

    >>> t = _example()
    >>> verify_move(t, "a", 2)
    >>> verify_move(t, "a", 1)
    Traceback (most recent call last):
    ...
    rules.table_moves.AlreadyAtTable: Ann already sits at table 1
    >>> verify_move(t, "a", 2, seat=3)
    Traceback (most recent call last):
    ...
    rules.refusals.SeatTaken: Table 2, seat 3 is not free
    >>> verify_move(t, "a", 2, seat=5)
    Traceback (most recent call last):
    ...
    rules.table_moves.NoSuchSeat: Table 2 has no seat 5 (seats 1–4)
    """
    entry = state.players.get(player_id)
    if entry is None:
        raise UnknownPlayer(player=player_id)
    if entry.place is not None:
        raise PlayerAlreadyOut(player=entry.name)
    if entry.seat is None:
        raise NotSeated(player=entry.name)
    pending = state.moves.get(player_id)
    if pending is not None:
        raise MoveAlreadyPending(player=entry.name, table=pending.target.table,
                                 seat=pending.target.seat)
    if table not in state.tables or not state.tables[table].seats:
        raise UnknownTable(table=table)
    if table == entry.seat.table:
        raise AlreadyAtTable(player=entry.name, table=table)
    free = free_seats(state, table)
    if seat is None:
        if not free:
            raise NoFreeSeat(table=table)
        return
    if not 1 <= seat <= _seats_per_table(state):
        raise NoSuchSeat(table=table, seat=seat, seats=_seats_per_table(state))
    if seat not in free:
        raise SeatTaken(table=table, seat=seat)


def can_move(state: Tournament, player_id: str, table: int, seat: int | None = None) -> bool:
    """Whether :func:`verify_move` lets the move through.

    >>> t = _example()
    >>> can_move(t, "a", 2), can_move(t, "a", 2, seat=1), can_move(t, "zz", 2)
    (True, False, False)
    """
    try:
        verify_move(state, player_id, table, seat)
    except RulesError:
        return False
    return True


def move_to(state: Tournament, player_id: str, table: int, seat: int | None,
            rng: RandomSource) -> Move:
    """The TD's move of ``player_id`` to ``table``; without ``seat``, the worst free
    seat there (S2: may be the big blind, never the small blind). Where the
    table's button is unknown the seat is drawn and the move says so
    (``position_known=False``), as balancing's do.

    >>> import random
    >>> from rules.button import ButtonPosition
    >>> t = _example()
    >>> m = move_to(t, "a", 2, None, random.Random(1))
    >>> m.target, m.position_known
    (SeatRef(table=2, seat=2), False)
    >>> t.tables[2].button = ButtonPosition(button=1, small_blind=1, big_blind=3)
    >>> m = move_to(t, "a", 2, None, random.Random(1))
    >>> m.target, m.position_known
    (SeatRef(table=2, seat=4), True)
    """
    verify_move(state, player_id, table, seat)
    source = state.players[player_id].seat
    assert source is not None
    known = True
    if seat is None:
        free = free_seats(state, table)
        position = state.tables[table].button
        ranked = () if position is None else tuple(
            s for s in free_seats_worst_first(
                position, set(state.tables[table].seats), seats_per_table=_seats_per_table(state))
            if s in free)
        if ranked:
            seat = ranked[0]
        else:
            seat, known = rng.choice(free), False
    # BALANCE, not a new reason: a peer on an older version must read the event.
    return Move(player_id, source, SeatRef(table, seat), MoveReason.BALANCE, known)


def verify_break(state: Tournament, table: int) -> None:
    """Raise why the TD cannot break ``table`` now (S3).

    >>> t = _example()
    >>> verify_break(t, 2)
    >>> verify_break(t, 3)
    Traceback (most recent call last):
    ...
    rules.refusals.UnknownTable: Table 3 is not in use
    >>> t.tables[1].seats[3] = "e"
    >>> verify_break(t, 2)
    Traceback (most recent call last):
    ...
    rules.table_moves.NoRoomToBreak: Table 2 cannot be broken now: its players do not fit at \
the other tables. With --next it is the first to break once they do
    >>> del t.tables[1]
    >>> verify_break(t, 2)
    Traceback (most recent call last):
    ...
    rules.table_moves.LastTable: Table 2 is the last table and cannot be broken
    """
    if table not in state.tables or not state.tables[table].seats:
        raise UnknownTable(table=table)
    if sum(1 for t in state.tables.values() if t.seats) < 2:
        raise LastTable(table=table)
    running = [t for t in state.tables.values() if t.seats]
    # Every seated player (a walking one counts once) must fit at the tables left.
    if sum(len(t.seats) for t in running) > (len(running) - 1) * _seats_per_table(state):
        raise NoRoomToBreak(table=table)


def can_break(state: Tournament, table: int) -> bool:
    """Whether :func:`verify_break` lets the break through.

    >>> can_break(_example(), 1), can_break(_example(), 9)
    (True, False)
    """
    try:
        verify_break(state, table)
    except RulesError:
        return False
    return True


def _example() -> Tournament:
    """Two tables of four seats: Ann and Bo at table 1, Cy in seats 1 and 3 of table 2."""
    import dataclasses

    from rules.events import TournamentCreated
    from rules.house import HouseRules
    from rules.state import Entry, Phase, Table
    from rules.structure import preset

    t = Tournament()
    t.config = TournamentCreated(at=0.0, name="Fredag", structure=preset("pubpoker"),
                                 house=dataclasses.replace(HouseRules(), seats_per_table=4))
    t.phase = Phase.RUNNING
    t.tables = {1: Table(1, {1: "a", 2: "b"}), 2: Table(2, {1: "c", 3: "d"})}
    for pid, name, table, seat in (("a", "Ann", 1, 1), ("b", "Bo", 1, 2), ("c", "Cy", 2, 1),
                                   ("d", "Di", 2, 3)):
        t.players[pid] = Entry(pid, name, checked_in=True, seat=SeatRef(table, seat))
    return t
