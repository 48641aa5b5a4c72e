"""Seat draws: the start of the night (S1), newcomers (S3, F2) and the final table (C6).

A seat map is ``Mapping[int, Mapping[int, str]]``: table number -> seat number
-> player id, both numbered from 1. A table with no players is not running.
Every draw takes the caller's ``RandomSource`` so that a replay of the same
events with the same seed gives the same seats.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from types import MappingProxyType

from rules.errors import RulesError
from rules.rng import RandomSource
from rules.values import Move, SeatAssignment, SeatRef

__all__ = [
    "AlreadySeated",
    "BadPinnedSeat",
    "NotEnoughSeats",
    "PlayerListedTwice",
    "SeatPinnedTwice",
    "TooManyPinned",
    "draw_into",
    "draw_seats",
    "final_table_draw",
    "tables_needed",
]


class NotEnoughSeats(RulesError, ValueError):
    messages = {
        "nn": "Ikkje nok sete: {players} spelarar, {seats} sete",
        "nb": "Ikke nok seter: {players} spillere, {seats} seter",
        "da": "Ikke nok sæder: {players} spillere, {seats} sæder",
        "en": "Not enough seats: {players} players, {seats} seats",
    }


class BadPinnedSeat(RulesError, ValueError):
    messages = {
        "nn": "Kan ikkje setje av bord {table}, sete {seat} til {player}",
        "nb": "Kan ikke reservere bord {table}, sete {seat} til {player}",
        "da": "Kan ikke reservere bord {table}, sæde {seat} til {player}",
        "en": "Cannot pin {player} to table {table}, seat {seat}",
    }


class SeatPinnedTwice(RulesError, ValueError):
    messages = {
        "nn": "Bord {table}, sete {seat} er sett av til to spelarar",
        "nb": "Bord {table}, sete {seat} er reservert til to spillere",
        "da": "Bord {table}, sæde {seat} er reserveret til to spillere",
        "en": "Table {table}, seat {seat} is pinned for two players",
    }


class TooManyPinned(RulesError, ValueError):
    messages = {
        "nn": "For mange faste plassar ved bord {table} til å fordele spelarane jamt",
        "nb": "For mange faste plasser ved bord {table} til å fordele spillerne jevnt",
        "da": "For mange faste pladser ved bord {table} til at fordele spillerne jævnt",
        "en": "Too many pinned seats at table {table} to spread the players evenly",
    }


class PlayerListedTwice(RulesError, ValueError):
    messages = {
        "nn": "{player} står to gonger i trekkinga",
        "nb": "{player} står to ganger i trekningen",
        "da": "{player} står to gange i lodtrækningen",
        "en": "{player} is listed twice in the draw",
    }


class AlreadySeated(RulesError, ValueError):
    messages = {
        "nn": "{player} har allereie ein plass",
        "nb": "{player} har allerede en plass",
        "da": "{player} har allerede en plads",
        "en": "{player} already has a seat",
    }


def tables_needed(players: int, seats_per_table: int) -> int:
    """As few tables as possible (S1).

    >>> tables_needed(21, 10), tables_needed(20, 10), tables_needed(0, 10)
    (3, 2, 0)
    """
    return -(-players // seats_per_table)


def _unique(player_ids: Iterable[str]) -> list[str]:
    players = list(player_ids)
    seen: set[str] = set()
    for player in players:
        if player in seen:
            raise PlayerListedTwice(player=player)
        seen.add(player)
    return players


def _spread(fixed: Collection[int], count: int, seats_per_table: int,
            rng: RandomSource) -> list[int]:
    """``count`` seats spread evenly round the table, keeping the ``fixed`` ones.

    The seats follow an even pattern (gaps of ``seats_per_table // count`` or
    one more) at a drawn rotation, so seven players at ten seats sit with gaps
    of one or two, not in seats 1-7. With pinned seats the rotation that
    keeps most of them is drawn, and the pattern seats nearest the pinned
    seats that fall outside it give way.
    """
    size = seats_per_table
    chosen = set(fixed)
    if count <= len(chosen):
        return sorted(chosen)
    patterns = [
        [(offset + i * size // count) % size + 1 for i in range(count)]
        for offset in range(size)
    ]
    kept = [len(chosen.intersection(p)) for p in patterns]
    most = max(kept)
    drawn = rng.choice([p for p, k in zip(patterns, kept, strict=True) if k == most])
    spare = [seat for seat in drawn if seat not in chosen]

    def distance(seat: int) -> int:
        gaps = (abs(seat - f) for f in chosen)
        return min((min(g, size - g) for g in gaps), default=size)

    # Keep the pattern seats farthest from the pinned ones (stable sort keeps
    # the pattern's order among equals, so the result stays deterministic).
    spare.sort(key=distance, reverse=True)
    return sorted(chosen.union(spare[: count - len(chosen)]))


def draw_seats(
    player_ids: Sequence[str],
    seats_per_table: int,
    rng: RandomSource,
    *,
    max_tables: int | None = None,
    pinned: Mapping[str, SeatRef] = MappingProxyType({}),
) -> tuple[SeatAssignment, ...]:
    """S1: the start-of-night draw.

    As few tables as possible, table sizes within one of each other, at most
    ``seats_per_table`` each; which tables get the extra player and which
    seats are used are drawn too, seats spread round each table. ``pinned``
    puts volunteer dealers in chosen seats; they count toward their table.
    Results are sorted by table and seat.

    >>> import random
    >>> seats = draw_seats([f"p{i}" for i in range(23)], 10, random.Random(1))
    >>> sorted(sum(a.table == t for a in seats) for t in (1, 2, 3))
    [7, 8, 8]
    >>> pinned = {"a": SeatRef(2, 5)}
    >>> [a for a in draw_seats(list("abcdefg"), 6, random.Random(1), pinned=pinned)
    ...  if a.player_id == "a"]
    [SeatAssignment(player_id='a', table=2, seat=5)]
    """
    players = _unique(player_ids)
    pins = dict(pinned)
    count = len(players)
    tables = tables_needed(count, seats_per_table)
    if max_tables is not None and tables > max_tables:
        raise NotEnoughSeats(players=count, seats=max_tables * seats_per_table)
    pinned_at: dict[int, set[int]] = {t: set() for t in range(1, tables + 1)}
    known = set(players)
    for player, ref in sorted(pins.items(), key=lambda item: item[1]):
        if player not in known or ref.table not in pinned_at or not (
            1 <= ref.seat <= seats_per_table
        ):
            raise BadPinnedSeat(player=player, table=ref.table, seat=ref.seat)
        if ref.seat in pinned_at[ref.table]:
            raise SeatPinnedTwice(table=ref.table, seat=ref.seat)
        pinned_at[ref.table].add(ref.seat)
    if not tables:
        return ()

    base, extra = divmod(count, tables)
    ceiling = base + (1 if extra else 0)
    for table, seats in pinned_at.items():
        if len(seats) > ceiling:
            raise TooManyPinned(table=table)
    must = [t for t, seats in pinned_at.items() if len(seats) > base]
    if len(must) > extra:
        raise TooManyPinned(table=must[extra])
    others = [t for t in pinned_at if t not in must]
    larger = set(must) | set(rng.sample(others, extra - len(must)))

    free: list[SeatRef] = []
    for table, seats in pinned_at.items():
        size = base + (1 if table in larger else 0)
        used = _spread(seats, size, seats_per_table, rng)
        free.extend(SeatRef(table, seat) for seat in used if seat not in seats)
    drawn = [p for p in players if p not in pins]
    rng.shuffle(drawn)
    result = [SeatAssignment(p, ref.table, ref.seat) for p, ref in pins.items()]
    result.extend(
        SeatAssignment(p, ref.table, ref.seat) for p, ref in zip(drawn, free, strict=True)
    )
    return tuple(sorted(result, key=lambda a: (a.table, a.seat)))


def draw_into(
    seatmap: Mapping[int, Mapping[int, str]],
    player_ids: Sequence[str],
    seats_per_table: int,
    rng: RandomSource,
    *,
    max_tables: int | None = None,
    exclude_tables: Collection[int] = (),
    pending: Collection[Move] = (),
) -> tuple[SeatAssignment, ...]:
    """S3/F2: seats by draw for late registrants or players from a broken table.

    Each player, in drawn order, goes to the running table with the fewest
    players (ties: lowest table number) at a free seat drawn at random, so
    tables stay within one of each other. A new table (the lowest free
    number) opens only when every running table is full; beyond
    ``max_tables`` running tables that is :class:`NotEnoughSeats`. Tables in
    ``exclude_tables`` (one being broken) get nobody. ``pending`` moves count
    as done: their player is counted at the target, whose seat is taken, and
    their old seat stays blocked until the move is confirmed (``seatmap`` may
    show them at either seat).

    >>> import random
    >>> seatmap = {1: {1: "a", 2: "b", 3: "c"}, 2: {1: "d", 4: "e"}}
    >>> [(a.player_id, a.table) for a in draw_into(seatmap, ["x"], 4, random.Random(3))]
    [('x', 2)]
    >>> sorted(a.table for a in draw_into(seatmap, ["x", "y", "z", "w"], 4, random.Random(3)))
    [1, 2, 2, 3]
    """
    players = _unique(player_ids)
    counts = {t: len(seats) for t, seats in seatmap.items() if seats}
    taken = {t: set(seatmap[t]) for t in counts}
    seated = {p for seats in seatmap.values() for p in seats.values()}
    for move in pending:
        source, target = move.source, move.target
        if seatmap.get(source.table, {}).get(source.seat) == move.player_id:
            counts[source.table] -= 1
            counts[target.table] = counts.get(target.table, 0) + 1
            taken.setdefault(target.table, set()).add(target.seat)
        elif seatmap.get(target.table, {}).get(target.seat) == move.player_id:
            # Shown at the target already: the player still sits at the source.
            taken.setdefault(source.table, set()).add(source.seat)
    for player in players:
        if player in seated:
            raise AlreadySeated(player=player)
    excluded = set(exclude_tables)
    order = list(players)
    rng.shuffle(order)
    placed: list[SeatAssignment] = []
    for player in order:
        open_tables = [
            t for t, c in counts.items()
            if c > 0 and t not in excluded and len(taken[t]) < seats_per_table
        ]
        if open_tables:
            table = min(open_tables, key=lambda t: (counts[t], t))
        else:
            running = sum(1 for c in counts.values() if c > 0)
            if max_tables is not None and running >= max_tables:
                total = sum(counts.values()) + len(players)
                raise NotEnoughSeats(players=total, seats=max_tables * seats_per_table)
            table = 1
            while table in excluded or counts.get(table, 0) > 0 or taken.get(table):
                table += 1
            counts[table] = 0
            taken[table] = set()
        free = [s for s in range(1, seats_per_table + 1) if s not in taken[table]]
        seat = rng.choice(free)
        taken[table].add(seat)
        counts[table] += 1
        placed.append(SeatAssignment(player, table, seat))
    return tuple(sorted(placed, key=lambda a: (a.table, a.seat)))


def final_table_draw(
    player_ids: Sequence[str],
    rng: RandomSource,
    *,
    table: int = 1,
    seats_per_table: int,
) -> tuple[SeatAssignment, ...]:
    """C6: a fresh draw of every remaining player at one table, seats spread round it.

    >>> import random
    >>> seats = final_table_draw(list("abcdefghi"), random.Random(5), seats_per_table=10)
    >>> len(seats), {a.table for a in seats}, len({a.seat for a in seats})
    (9, {1}, 9)
    """
    players = _unique(player_ids)
    if len(players) > seats_per_table:
        raise NotEnoughSeats(players=len(players), seats=seats_per_table)
    seats = _spread((), len(players), seats_per_table, rng)
    rng.shuffle(players)
    return tuple(SeatAssignment(p, table, s) for p, s in zip(players, seats, strict=True))
