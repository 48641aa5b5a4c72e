"""Seat draws: S1, S3, F2, C6 (rules/seating.py)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.i18n import LANGUAGES
from rules.seating import (
    AlreadySeated,
    BadPinnedSeat,
    NotEnoughSeats,
    PlayerListedTwice,
    SeatPinnedTwice,
    TooManyPinned,
    draw_into,
    draw_seats,
    final_table_draw,
)
from rules.values import Move, MoveReason, SeatAssignment, SeatRef


def names(count: int, prefix: str = "p") -> list[str]:
    return [f"{prefix}{i}" for i in range(count)]


def sizes(seats: Iterable[SeatAssignment]) -> dict[int, int]:
    return dict(Counter(a.table for a in seats))


def largest_gap(seats: list[int], seats_per_table: int) -> int:
    seats = sorted(seats)
    return max(
        (seats[(i + 1) % len(seats)] - seats[i]) % seats_per_table or seats_per_table
        for i in range(len(seats))
    )


def check_draw(seats: tuple[SeatAssignment, ...], players: list[str], per_table: int) -> None:
    assert sorted(a.player_id for a in seats) == sorted(players)
    assert len({a.ref for a in seats}) == len(seats)
    assert all(1 <= a.seat <= per_table for a in seats)
    assert all(n <= per_table for n in sizes(seats).values())


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 300), st.integers(2, 10), st.integers(0, 2**32))
def test_S1_fewest_tables_spread_evenly(count: int, per_table: int, seed: int) -> None:
    players = names(count)
    seats = draw_seats(players, per_table, random.Random(seed))
    check_draw(seats, players, per_table)
    per = sizes(seats)
    assert len(per) == -(-count // per_table)
    assert sorted(per) == list(range(1, len(per) + 1))
    if per:
        assert max(per.values()) - min(per.values()) <= 1


def test_S1_at_most_ten_per_table() -> None:
    seats = draw_seats(names(300), 10, random.Random(1))
    assert set(sizes(seats).values()) == {10} and len(sizes(seats)) == 30
    seats = draw_seats(names(301), 10, random.Random(1))
    assert len(sizes(seats)) == 31 and set(sizes(seats).values()) == {9, 10}


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 60), st.integers(2, 10), st.integers(0, 2**32))
def test_S1_seats_spread_round_each_table(count: int, per_table: int, seed: int) -> None:
    seats = draw_seats(names(count), per_table, random.Random(seed))
    for table, size in sizes(seats).items():
        used = [a.seat for a in seats if a.table == table]
        assert largest_gap(used, per_table) <= -(-per_table // size)


def test_S1_seven_players_are_not_bunched_in_seats_one_to_seven() -> None:
    seats = draw_seats(names(7), 10, random.Random(4))
    assert largest_gap([a.seat for a in seats], 10) == 2


def test_S1_the_draw_is_seeded() -> None:
    first = draw_seats(names(45), 10, random.Random(9))
    assert first == draw_seats(names(45), 10, random.Random(9))
    assert first != draw_seats(names(45), 10, random.Random(10))


def test_S1_pinned_volunteer_dealers_keep_their_seats() -> None:
    pinned = {"p0": SeatRef(1, 1), "p1": SeatRef(2, 1), "p2": SeatRef(3, 6)}
    for seed in range(50):
        seats = draw_seats(names(23), 10, random.Random(seed), pinned=pinned)
        check_draw(seats, names(23), 10)
        where = {a.player_id: a.ref for a in seats}
        assert all(where[p] == ref for p, ref in pinned.items())
        assert sorted(sizes(seats).values()) == [7, 8, 8]


def test_S1_pinned_seats_count_toward_their_table() -> None:
    # Three pinned at table 2 of two tables of three seats: table 2 is full.
    pinned = {"p0": SeatRef(2, 1), "p1": SeatRef(2, 2), "p2": SeatRef(2, 3)}
    for seed in range(30):
        seats = draw_seats(names(5), 3, random.Random(seed), pinned=pinned)
        assert sizes(seats)[2] == 3 and sizes(seats)[1] == 2


def test_S1_bad_pins_are_refused_with_a_translated_error() -> None:
    rng = random.Random(1)
    with pytest.raises(BadPinnedSeat) as err:
        draw_seats(names(12), 10, rng, pinned={"p0": SeatRef(1, 11)})
    assert err.value.translate("nn") == "Kan ikkje setje av bord 1, sete 11 til p0"
    with pytest.raises(BadPinnedSeat):
        draw_seats(names(12), 10, rng, pinned={"p0": SeatRef(3, 1)})  # only two tables
    with pytest.raises(BadPinnedSeat):
        draw_seats(names(12), 10, rng, pinned={"stranger": SeatRef(1, 1)})
    with pytest.raises(SeatPinnedTwice) as twice:
        draw_seats(names(12), 10, rng, pinned={"p0": SeatRef(1, 4), "p1": SeatRef(1, 4)})
    assert twice.value.translate("da") == "Bord 1, sæde 4 er reserveret til to spillere"
    with pytest.raises(TooManyPinned):
        pins = {f"p{i}": SeatRef(1, i + 1) for i in range(7)}
        draw_seats(names(12), 10, rng, pinned=pins)
    with pytest.raises(TooManyPinned):
        # Seven players at three tables of three: only one table can have three.
        pins = {f"p{i}": SeatRef(1 + i // 3, 1 + i % 3) for i in range(6)}
        draw_seats(names(7), 3, rng, pinned=pins)


def test_S1_max_tables_and_duplicates() -> None:
    with pytest.raises(NotEnoughSeats) as err:
        draw_seats(names(31), 10, random.Random(1), max_tables=3)
    assert str(err.value) == "Not enough seats: 31 players, 30 seats"
    assert len(draw_seats(names(30), 10, random.Random(1), max_tables=3)) == 30
    with pytest.raises(PlayerListedTwice):
        draw_seats(["a", "b", "a"], 10, random.Random(1))


def test_S3_late_registrant_is_drawn_to_a_short_table() -> None:
    seatmap = {1: {1: "a", 3: "b", 5: "c"}, 2: {2: "d", 4: "e"}, 3: {1: "f", 2: "g", 3: "h"}}
    placed = set()
    for seed in range(40):
        (seat,) = draw_into(seatmap, ["x"], 6, random.Random(seed))
        assert seat.table == 2 and seat.seat in {1, 3, 5, 6}
        placed.add(seat.seat)
    assert len(placed) > 1  # a draw, not always the same seat


def test_S3_players_fill_the_emptiest_tables_first() -> None:
    seatmap = {1: {i: f"a{i}" for i in range(1, 8)}, 2: {i: f"b{i}" for i in range(1, 6)}}
    seats = draw_into(seatmap, names(4, "x"), 10, random.Random(2))
    assert sizes(seats) == {1: 1, 2: 3}


def test_S3_players_from_a_broken_table_skip_it() -> None:
    seatmap = {1: {1: "a", 2: "b"}, 2: {1: "c"}, 3: {1: "d", 2: "e", 3: "f"}}
    seats = draw_into(seatmap, ["y"], 4, random.Random(1), exclude_tables={2})
    assert seats[0].table == 1


def test_S3_a_new_table_opens_only_when_all_are_full() -> None:
    full = {1: {1: "a", 2: "b"}, 2: {1: "c", 2: "d"}}
    seats = draw_into(full, ["x", "y", "z"], 2, random.Random(1))
    assert sizes(seats) == {3: 2, 4: 1}
    with pytest.raises(NotEnoughSeats):
        draw_into(full, ["x"], 2, random.Random(1), max_tables=2)
    # A broken table's number is reused only if not excluded.
    gap = {2: {1: "a", 2: "b"}, 3: {1: "c", 2: "d"}}
    assert draw_into(gap, ["x"], 2, random.Random(1))[0].table == 1
    assert draw_into(gap, ["x"], 2, random.Random(1), exclude_tables={1})[0].table == 4


def test_S3_pending_moves_hold_their_seats() -> None:
    seatmap = {1: {1: "a", 2: "b", 3: "c"}, 2: {1: "d"}}
    move = Move("c", SeatRef(1, 3), SeatRef(2, 2), MoveReason.BALANCE, True)
    for seed in range(20):
        (seat,) = draw_into(seatmap, ["x"], 3, random.Random(seed), pending=[move])
        # Table 1 has two players once c moves, but c still sits in seat 3;
        # seat 2-2 is c's.
        assert seat.ref not in (SeatRef(1, 3), SeatRef(2, 2))
        assert seat.table in (1, 2)
        # The same when the seat map already shows c at the target.
        shown = {1: {1: "a", 2: "b"}, 2: {1: "d", 2: "c"}}
        assert (seat,) == draw_into(shown, ["x"], 3, random.Random(seed), pending=[move])


def test_F2_late_registration_refuses_a_seated_player() -> None:
    seatmap = {1: {1: "a"}}
    with pytest.raises(AlreadySeated) as err:
        draw_into(seatmap, ["a"], 10, random.Random(1))
    assert err.value.translate("nb") == "a har allerede en plass"


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(0, 10), min_size=1, max_size=8),
    st.integers(0, 25),
    st.integers(0, 2**32),
)
def test_S3_draws_never_overfill_a_table(counts: list[int], arrivals: int, seed: int) -> None:
    seatmap = {t: {s: f"t{t}s{s}" for s in range(1, n + 1)} for t, n in enumerate(counts, 1)}
    seats = draw_into(seatmap, names(arrivals, "new"), 10, random.Random(seed))
    check_draw(seats, names(arrivals, "new"), 10)
    for a in seats:
        assert a.seat not in seatmap.get(a.table, {})
    after = Counter({t: len(s) for t, s in seatmap.items()}) + Counter(sizes(seats))
    assert max(after.values(), default=0) <= 10


def test_C6_final_table_is_a_fresh_draw_at_one_table() -> None:
    players = names(9)
    seats = final_table_draw(players, random.Random(1), seats_per_table=10)
    check_draw(seats, players, 10)
    assert {a.table for a in seats} == {1}
    assert largest_gap([a.seat for a in seats], 10) == 2
    draws = {final_table_draw(players, random.Random(s), seats_per_table=10) for s in range(5)}
    assert len(draws) == 5
    assert {a.table for a in final_table_draw(players, random.Random(1), table=4,
                                              seats_per_table=10)} == {4}
    with pytest.raises(NotEnoughSeats):
        final_table_draw(names(11), random.Random(1), seats_per_table=10)


def test_errors_have_every_language() -> None:
    for error in (NotEnoughSeats, BadPinnedSeat, SeatPinnedTwice, TooManyPinned,
                  PlayerListedTwice, AlreadySeated):
        assert set(error.messages) == set(LANGUAGES)
