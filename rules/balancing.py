"""Table breaking and balancing (S1-S5, C6): which players move where.

Moves are :class:`~rules.values.Move` records. A move carries the player and,
with them, their chips (S4): nothing else needs computing. Proposed moves
stand until confirmed; pass them back as ``pending`` and they count as done.

Defaults the TD can override:

* the table to break is the first of ``break_order`` still running, else the
  one with the fewest players, ties to the highest table number;
* the balancing source is the fullest table, ties to the lowest number
  ("the TD chooses", S2); the target the emptiest, ties to the lowest number;
* with the source's button unknown the mover is drawn with ``rng`` and the
  move is marked ``position_known=False``; with the target's button unknown
  the seat is drawn and the move is marked likewise, since the TD has to
  check it is not the small blind.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from types import MappingProxyType

from rules.button import ButtonPosition, free_seats_worst_first, seat_after
from rules.errors import RulesError
from rules.rng import RandomSource
from rules.seating import NotEnoughSeats, tables_needed
from rules.values import Move, MoveReason, SeatRef

__all__ = [
    "MoveNotApplicable",
    "apply_moves",
    "needs_final_table",
    "plan_moves",
]


class MoveNotApplicable(RulesError, ValueError):
    messages = {
        "nn": "{player} kan ikkje flyttast til bord {table}, sete {seat}: plassane er endra",
        "nb": "{player} kan ikke flyttes til bord {table}, sete {seat}: plassene er endret",
        "da": "{player} kan ikke flyttes til bord {table}, sæde {seat}: pladserne er ændret",
        "en": "Cannot move {player} to table {table}, seat {seat}: the seats have changed",
    }


_NO_BUTTONS: Mapping[int, ButtonPosition | None] = MappingProxyType({})


class _Floor:
    """The seat map as it will be once the moves so far are done.

    Only the tables a move touches are copied, so a bust that needs no move
    costs one pass over the table sizes.
    """

    def __init__(self, seatmap: Mapping[int, Mapping[int, str]]) -> None:
        self._base = seatmap
        self._edited: dict[int, dict[int, str]] = {}
        self.counts = {t: len(seats) for t, seats in seatmap.items()}
        #: Seats still physically held by a player who has been told to move.
        self.blocked: dict[int, set[int]] = {}
        #: Where a moved player really sits (their seat in the seat map).
        self.origin: dict[str, SeatRef] = {}

    def table(self, table: int) -> Mapping[int, str]:
        edited = self._edited.get(table)
        return edited if edited is not None else self._base.get(table, {})

    def _own(self, table: int) -> dict[int, str]:
        if table not in self._edited:
            self._edited[table] = dict(self._base.get(table, {}))
        return self._edited[table]

    def move(self, player: str, source: SeatRef, target: SeatRef) -> SeatRef:
        """Move a player; returns their real seat, the source of the Move record."""
        del self._own(source.table)[source.seat]
        self._own(target.table)[target.seat] = player
        self.counts[source.table] -= 1
        self.counts[target.table] = self.counts.get(target.table, 0) + 1
        real = self.origin.setdefault(player, source)
        if real == source:
            self.blocked.setdefault(source.table, set()).add(source.seat)
        return real

    def unseat(self, player: str, at: SeatRef) -> None:
        del self._own(at.table)[at.seat]
        self.counts[at.table] -= 1

    def seat(self, player: str, at: SeatRef) -> None:
        self._own(at.table)[at.seat] = player
        self.counts[at.table] = self.counts.get(at.table, 0) + 1

    def pending(self, move: Move) -> None:
        """Count a proposed move as done; a stale one (player gone) is ignored.

        The seat map may show the mover at the source (the truth) or already
        at the target; either way the source seat stays blocked, since the
        player still sits in it until the move is confirmed.
        """
        player, source, target = move.player_id, move.source, move.target
        if self.table(source.table).get(source.seat) == player:
            if target.seat not in self.table(target.table):
                self.move(player, source, target)
        elif self.table(target.table).get(target.seat) == player:
            self.origin.setdefault(player, source)
            if source.seat not in self.table(source.table):
                self.blocked.setdefault(source.table, set()).add(source.seat)

    def pending_all(self, moves: Collection[Move]) -> None:
        """Count proposed moves as done, all together: movers in a chain (one
        bound for the seat another is leaving) are applied as the floor will be
        once every one of them has walked."""
        arriving: list[Move] = []
        for move in moves:
            player, source = move.player_id, move.source
            if self.table(source.table).get(source.seat) == player:
                del self._own(source.table)[source.seat]
                self.counts[source.table] -= 1
                self.origin.setdefault(player, source)
                self.blocked.setdefault(source.table, set()).add(source.seat)
                arriving.append(move)
            else:
                self.pending(move)
        for move in arriving:
            target = move.target
            if target.seat in self.table(target.table):
                # Stale (someone else sits there): the mover stays put.
                self._own(move.source.table)[move.source.seat] = move.player_id
                self.counts[move.source.table] += 1
                del self.origin[move.player_id]
                self.blocked[move.source.table].discard(move.source.seat)
                continue
            self._own(target.table)[target.seat] = move.player_id
            self.counts[target.table] = self.counts.get(target.table, 0) + 1

    def free_seats(self, table: int, seats_per_table: int) -> list[int]:
        """Free seats nobody still sits in; failing those, ones a leaving player holds."""
        seats = self.table(table)
        free = [s for s in range(1, seats_per_table + 1) if s not in seats]
        blocked = self.blocked.get(table, ())
        return [s for s in free if s not in blocked] or free


def plan_moves(
    seatmap: Mapping[int, Mapping[int, str]],
    *,
    seats_per_table: int,
    tolerance: int = 1,
    buttons: Mapping[int, ButtonPosition | None] = _NO_BUTTONS,
    pending: Collection[Move] = (),
    rng: RandomSource,
    break_order: Sequence[int] = (),
    min_tables: int | None = None,
    break_tables: Sequence[int] = (),
) -> tuple[Move, ...]:
    """The moves needed after a bust or a registration.

    First break tables while everyone fits on one table fewer (S1), never
    going below ``min_tables``: the broken table's players get seats by draw
    at the emptiest remaining tables (S3). Then, while the fullest and the
    emptiest table differ by more than ``tolerance``, move one player from the
    fullest to the emptiest (S2): the player due the big blind next goes to
    the worst free seat there, which may be the big blind but never the small
    blind. ``buttons`` holds each table's last hand. ``pending`` moves count
    as done (``seatmap`` may show their players at the source or already at
    the target); a returned move for a player with a pending one replaces it.
    See the module notes for the defaults. ``break_tables`` are broken first
    whether or not the players would fit without them (the TD's own break,
    S3), as long as another table is left. For C6 check
    :func:`needs_final_table` first: its fresh draw replaces breaking.

    >>> import random
    >>> seatmap = {1: {1: "a", 2: "b", 3: "c", 4: "d", 5: "e"}, 2: {1: "f", 2: "g", 3: "h"}}
    >>> buttons = {1: ButtonPosition(1, 2, 3), 2: ButtonPosition(1, 2, 3)}
    >>> moves = plan_moves(seatmap, seats_per_table=6, buttons=buttons, rng=random.Random(1))
    >>> [(m.player_id, m.source.seat, m.target.seat, m.reason.value) for m in moves]
    [('d', 4, 4, 'balance')]
    >>> plan_moves(seatmap, seats_per_table=6, buttons=buttons, pending=moves,
    ...            rng=random.Random(1))
    ()
    """
    if tolerance < 1:
        # Tables one apart cannot be evened out further; 0 would move forever.
        raise ValueError("tolerance must be at least 1")
    floor = _Floor(seatmap)
    floor.pending_all(pending)

    planned: dict[str, Move] = {}
    told = {m.player_id for m in pending}

    def home_seat(player: str, table: int) -> int | None:
        """A mover sent back to the table they still sit at keeps their own seat."""
        origin = floor.origin.get(player)
        if origin is not None and origin.table == table \
                and origin.seat not in floor.table(table):
            return origin.seat
        return None

    def relocate(
        player: str, source: SeatRef, target: SeatRef, reason: MoveReason, known: bool
    ) -> None:
        real = floor.move(player, source, target)
        earlier = planned.pop(player, None)
        if earlier is not None:
            # Moved twice in one plan (a broken table's player who landed on
            # the next big blind of a table that then gives one up): one walk.
            reason, known = earlier.reason, earlier.position_known and known
        if real != target or player in told:
            # For a player already told to move, a move back to their own
            # seat says "stay": the caller cancels the earlier move.
            planned[player] = Move(player, real, target, reason, known)

    active = sorted(t for t, c in floor.counts.items() if c > 0)
    total = sum(floor.counts[t] for t in active)
    keep = max(tables_needed(total, seats_per_table), min_tables or 0)
    forced = [t for t in break_tables if t in active]
    while (forced and len(active) > 1) or len(active) > keep:
        victim = forced.pop(0) if forced and len(active) > 1 else next(
            (t for t in break_order if t in active), None)
        if victim is None:
            victim = min(active, key=lambda t: (floor.counts[t], -t))
        active.remove(victim)
        leaving = sorted(floor.table(victim).items())
        order = [player for _, player in leaving]
        rng.shuffle(order)
        seat_of = {player: seat for seat, player in leaving}
        # Players only bound for this table stay where they still sit: they
        # go home first, so nobody else is given their seat.
        for player in list(order):
            origin = floor.origin.get(player)
            if player in told and origin is not None and origin.table in active \
                    and origin.seat not in floor.table(origin.table):
                relocate(player, SeatRef(victim, seat_of[player]), origin,
                         MoveReason.BREAK, True)
                order.remove(player)
        for player in order:
            origin = floor.origin.get(player)
            # A walking player is not sent back to the table they are leaving
            # (a seat change there cannot be told apart from staying put).
            ranked = sorted(active, key=lambda t: (floor.counts[t], t))
            choices = [t for t in ranked if origin is None or t != origin.table]
            table = next((t for t in choices if floor.free_seats(t, seats_per_table)),
                         ranked[0])
            free = floor.free_seats(table, seats_per_table)
            if not free:
                raise NotEnoughSeats(players=total, seats=len(active) * seats_per_table)
            home = home_seat(player, table)
            seat = home if home is not None else rng.choice(free)
            relocate(
                player, SeatRef(victim, seat_of[player]), SeatRef(table, seat),
                MoveReason.BREAK, True,
            )

    while len(active) > 1:
        source = min(active, key=lambda t: (-floor.counts[t], t))
        target = min(active, key=lambda t: (floor.counts[t], t))
        if floor.counts[source] - floor.counts[target] <= tolerance:
            break
        seats = floor.table(source)
        here = buttons.get(source)
        # Players already told to move (still walking here) are not picked again.
        settled = sorted(s for s, p in seats.items() if p not in told)
        if not settled:
            # Everyone left here is still walking in; balance again once they sit.
            break
        if here is not None:
            from_seat = seat_after(here.big_blind, settled)
            known = True
        else:
            from_seat = rng.choice(settled)
            known = False
        home = home_seat(seats[from_seat], target)
        if home is not None:
            to_seat, known_there = home, True
        else:
            to_seat, known_there = _target_seat(
                floor, target, buttons.get(target), seats_per_table, rng
            )
        relocate(
            seats[from_seat], SeatRef(source, from_seat), SeatRef(target, to_seat),
            MoveReason.BALANCE, known and known_there,
        )
    _one_way(floor, planned, {m.player_id: m for m in pending})
    return tuple(planned.values())


def _one_way(floor: _Floor, planned: dict[str, Move], told: Mapping[str, Move]) -> None:
    """No table both gives and takes players: pair a mover out with one in, and
    send the one coming in straight on, to the seat the leaver was given, while
    the leaver stays put (a leaver and an arrival from the very table it goes
    to both stay). The counts stay as planned; each pair is one walk fewer.

    ``planned`` is changed in place; a told player who now stays gets a move
    to their own seat, which the caller reads as "cancel" (see plan_moves).
    """
    def plan(player: str) -> Move | None:
        return planned.get(player, told.get(player))

    while True:
        where = {p: SeatRef(t, s) for t in floor.counts
                 for s, p in floor.table(t).items() if p in floor.origin}
        walking = {p: (floor.origin[p], at) for p, at in where.items()
                   if at.table != floor.origin[p].table and plan(p) is not None}
        pair = _pair(floor, walking)
        if pair is None:
            return
        arriving, leaving = pair
        (a_from, a_at), (l_from, l_at) = walking[arriving], walking[leaving]
        a_move, l_move = plan(arriving), plan(leaving)
        assert a_move is not None and l_move is not None
        floor.unseat(arriving, a_at)
        floor.unseat(leaving, l_at)
        floor.seat(leaving, l_from)
        _stay(planned, told, leaving, l_from)
        if l_at.table == a_from.table:
            floor.seat(arriving, a_from)
            _stay(planned, told, arriving, a_from)
        else:
            floor.seat(arriving, l_at)
            planned[arriving] = Move(arriving, a_from, l_at, a_move.reason,
                                     a_move.position_known and l_move.position_known)


def _pair(floor: _Floor, walking: Mapping[str, tuple[SeatRef, SeatRef]]
          ) -> tuple[str, str] | None:
    """A mover into a table and a mover out of it that can be undone together:
    each goes back to a seat that is free, or held by the other."""
    for leaving in sorted(walking):
        home, away = walking[leaving]
        into = sorted(p for p, (_, at) in walking.items() if at.table == home.table)
        holder = floor.table(home.table).get(home.seat)
        # The player sitting in the leaver's seat first: their walk is the one to undo.
        for arriving in sorted(into, key=lambda p: p != holder):
            if holder not in (None, arriving):
                break
            a_home = walking[arriving][0]
            if away.table == a_home.table and \
                    floor.table(a_home.table).get(a_home.seat) not in (None, leaving):
                continue
            return arriving, leaving
    return None


def _stay(planned: dict[str, Move], told: Mapping[str, Move], player: str, seat: SeatRef
          ) -> None:
    planned.pop(player, None)
    earlier = told.get(player)
    if earlier is not None:
        planned[player] = Move(player, seat, seat, earlier.reason, earlier.position_known)


def _target_seat(
    floor: _Floor,
    table: int,
    position: ButtonPosition | None,
    seats_per_table: int,
    rng: RandomSource,
) -> tuple[int, bool]:
    """The worst free seat at ``table`` (S2), or a drawn one if its button is unknown."""
    if position is not None:
        ranked = free_seats_worst_first(
            position, floor.table(table).keys(), seats_per_table=seats_per_table
        )
        if ranked:
            blocked = floor.blocked.get(table, ())
            return next((s for s in ranked if s not in blocked), ranked[0]), True
        # Only a mover joining a lone player can find no seat but the small
        # blind (heads-up, B4); the TD has to look at it.
    return rng.choice(floor.free_seats(table, seats_per_table)), False


def apply_moves(
    seatmap: Mapping[int, Mapping[int, str]], moves: Collection[Move]
) -> dict[int, dict[int, str]]:
    """The seat map once ``moves`` are done; tables left empty are dropped.

    The moves are made together, so their order does not matter.

    >>> seatmap = {1: {1: "a", 2: "b"}, 2: {1: "c"}}
    >>> apply_moves(seatmap, [Move("b", SeatRef(1, 2), SeatRef(2, 5), MoveReason.BALANCE, True)])
    {1: {1: 'a'}, 2: {1: 'c', 5: 'b'}}
    """
    result = {t: dict(seats) for t, seats in seatmap.items()}
    for move in moves:
        seats = result.get(move.source.table, {})
        if seats.get(move.source.seat) != move.player_id:
            raise MoveNotApplicable(
                player=move.player_id, table=move.target.table, seat=move.target.seat
            )
        del seats[move.source.seat]
    for move in moves:
        seats = result.setdefault(move.target.table, {})
        if move.target.seat in seats:
            raise MoveNotApplicable(
                player=move.player_id, table=move.target.table, seat=move.target.seat
            )
        seats[move.target.seat] = move.player_id
    return {t: seats for t, seats in result.items() if seats}


def needs_final_table(seatmap: Mapping[int, Mapping[int, str]], final_table_size: int = 9) -> bool:
    """C6: whether the players left fit the final table but sit at more than one.

    >>> needs_final_table({1: {1: "a", 2: "b"}, 2: {3: "c"}})
    True
    >>> needs_final_table({1: {1: "a", 2: "b", 3: "c"}})
    False
    """
    running = [len(seats) for seats in seatmap.values() if seats]
    return len(running) > 1 and sum(running) <= final_table_size
