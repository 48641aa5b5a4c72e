"""Q2 season standings, tie-breaks and the season final."""

from __future__ import annotations

import random

import pytest

from rules.points import points
from rules.standings import (
    BadDrawCard,
    BadResult,
    DrawNeeded,
    Result,
    Standing,
    season_final,
    standings,
)


def _order(table: tuple[Standing, ...]) -> list[str]:
    return [s.player_id for s in table]


def test_Q2_total_points_rank_first() -> None:
    results = [
        Result("ann", "t1", 1, points(1, 20)), Result("bo", "t1", 2, points(2, 20)),
        Result("cy", "t1", 3, points(3, 20)), Result("cy", "t2", 1, points(1, 20)),
    ]
    table = standings(results)
    assert _order(table) == ["cy", "ann", "bo"]
    assert [s.points for s in table] == [12 + 17, 17, 14]
    assert [s.rank for s in table] == [1, 2, 3]


def test_Q2_tie_broken_by_best_single_placing() -> None:
    # Both on 20 points; bo's best placing (2) beats ann's (3).
    results = [
        Result("ann", "t1", 3, 10), Result("ann", "t2", 4, 10),
        Result("bo", "t1", 2, 12), Result("bo", "t2", 15, 8),
    ]
    table = standings(results)
    assert _order(table) == ["bo", "ann"]
    assert [s.rank for s in table] == [1, 2]
    assert table[0].placings == (2, 15)


def test_Q2_then_second_best_placing_and_so_on() -> None:
    results = [
        # Same best placing (1); ann's second best (5) beats bo's (6).
        Result("ann", "t1", 1, 10), Result("ann", "t2", 5, 5), Result("ann", "t3", 9, 5),
        Result("bo", "t1", 6, 5), Result("bo", "t2", 1, 10), Result("bo", "t3", 7, 5),
        # cy equals bo on best and second best; bo's third (7) beats cy's (8).
        Result("cy", "t1", 1, 10), Result("cy", "t2", 8, 5), Result("cy", "t3", 6, 5),
    ]
    table = standings(results)
    assert _order(table) == ["ann", "bo", "cy"]
    assert [s.placings for s in table] == [(1, 5, 9), (1, 6, 7), (1, 6, 8)]


def test_Q2_a_placing_beats_no_placing() -> None:
    # Same points and the same two best placings; bo has a third placing, ann none.
    results = [
        Result("ann", "t1", 1, 10), Result("ann", "t2", 2, 10),
        Result("bo", "t1", 2, 10), Result("bo", "t2", 1, 10), Result("bo", "t3", 30, 0),
    ]
    assert _order(standings(results)) == ["bo", "ann"]


def _dead_heat() -> list[Result]:
    # ann and bo are equal on points and on every placing; cy is behind.
    return [
        Result("ann", "t1", 1, 10), Result("ann", "t2", 4, 5),
        Result("bo", "t1", 4, 5), Result("bo", "t2", 1, 10),
        Result("cy", "t1", 2, 8),
    ]


def test_Q2_unbroken_tie_shares_the_rank_without_a_draw() -> None:
    table = standings(_dead_heat())
    assert [(s.player_id, s.rank) for s in table] == [("ann", 1), ("bo", 1), ("cy", 3)]
    assert all(s.card is None for s in table)


def test_Q2_then_high_card_draw_ace_high() -> None:
    table = standings(_dead_heat(), {"ann": "Ks", "bo": "Ac"})
    assert [(s.player_id, s.rank, s.card) for s in table] == [
        ("bo", 1, "Ac"), ("ann", 2, "Ks"), ("cy", 3, None),
    ]
    # An ace beats a king whatever the suits; a two is lowest.
    assert _order(standings(_dead_heat(), {"ann": "2s", "bo": "3c"}))[:2] == ["bo", "ann"]


def test_Q2_equal_ranks_in_the_draw_go_by_suit() -> None:
    assert _order(standings(_dead_heat(), {"ann": "Ah", "bo": "As"}))[:2] == ["bo", "ann"]


def test_Q2_draw_with_an_rng_is_deterministic() -> None:
    first = standings(_dead_heat(), random.Random(5))
    assert first == standings(_dead_heat(), random.Random(5))
    assert [s.rank for s in first] == [1, 2, 3]
    assert first[0].card is not None and first[1].card is not None
    winners = {standings(_dead_heat(), random.Random(seed))[0].player_id for seed in range(30)}
    assert winners == {"ann", "bo"}


def test_Q2_draw_needs_a_card_for_every_tied_player() -> None:
    with pytest.raises(DrawNeeded) as err:
        standings(_dead_heat(), {"ann": "As"})
    assert "ann, bo" in err.value.translate("nn")
    with pytest.raises(BadDrawCard):
        standings(_dead_heat(), {"ann": "Xs", "bo": "As"})
    with pytest.raises(BadDrawCard):
        standings(_dead_heat(), {"ann": "As", "bo": "As"})


def test_Q2_bad_results_are_refused() -> None:
    with pytest.raises(BadResult):
        standings([Result("ann", "t1", 1, 10), Result("ann", "t1", 2, 8)])
    with pytest.raises(BadResult):
        standings([Result("ann", "t1", 0, 10)])
    assert standings([]) == ()


def _season(n: int = 14) -> tuple[Standing, ...]:
    return standings([Result(f"p{i:02d}", "t1", i, 100 - i) for i in range(1, n + 1)])


def test_Q2_season_final_is_the_top_ten() -> None:
    table = _season()
    everyone = {s.player_id for s in table}
    assert season_final(table, everyone) == tuple(f"p{i:02d}" for i in range(1, 11))


def test_Q2_season_final_fills_up_from_the_next_on_the_list() -> None:
    table = _season()
    present = {s.player_id for s in table} - {"p02", "p07"}
    assert season_final(table, present) == (
        "p01", "p03", "p04", "p05", "p06", "p08", "p09", "p10", "p11", "p12",
    )
    # Fewer than ten present: everyone present plays.
    assert season_final(table, {"p05", "p01", "nobody"}) == ("p01", "p05")


def test_Q2_season_final_cut_inside_a_tie_needs_a_draw() -> None:
    results = [Result(f"p{i:02d}", "t1", i, 100 - i) for i in range(1, 10)]
    # p10 and p11 are equal on points and placings (one 10th place each).
    results += [Result("p10", "t1", 10, 50), Result("p11", "t2", 10, 50)]
    everyone = {r.player_id for r in results}
    with pytest.raises(DrawNeeded):
        season_final(standings(results), everyone)
    final = season_final(standings(results, {"p10": "4d", "p11": "Qh"}), everyone)
    assert final[-1] == "p11"
    # If one of them is absent, no draw is needed.
    assert season_final(standings(results), everyone - {"p10"})[-1] == "p11"
