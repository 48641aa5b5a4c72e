"""Hand values: ranking (P8), suits (P2), Omaha (P6), 8-or-better low (P7), seed errors (E1-E3)."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from itertools import combinations, pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import Card, DuplicateCard, Rank, full_deck
from rules.errors import RulesError
from rules.hand_tables import CATEGORY_SHIFT
from rules.hands import (
    Game,
    HandCategory,
    HandValue,
    UnknownGame,
    WrongBoardCount,
    WrongCardCount,
    WrongHoleCount,
    evaluate_high,
    evaluate_low8,
    rank5,
    rank7,
    rank_best,
)
from rules.i18n import LANGUAGES

H = HandCategory
DECK = full_deck()


def high(hole: str, board: str, game: str = "holdem") -> HandValue:
    return evaluate_high(hole, board, game)


def low(hole: str, board: str, game: str = "holdem") -> HandValue | None:
    return evaluate_low8(hole, board, game)


def shown(value: HandValue | None) -> str:
    assert value is not None
    return " ".join(str(card) for card in value.cards)


def ranks(value: HandValue | None) -> str:
    assert value is not None
    return "".join(card.rank.letter for card in value.cards)


# --- An independent, obviously slow reference evaluator -------------------------------

def ref5(cards: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    """(category strength 8..0, deciding ranks) of exactly five cards, by the book."""
    values = sorted((int(c.rank) for c in cards), reverse=True)
    counts = Counter(values)
    by_count = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    grouped = tuple(r for r, _ in by_count)
    shape = sorted(counts.values(), reverse=True)
    flush = len({c.suit for c in cards}) == 1
    top = None
    if len(counts) == 5 and values[0] - values[4] == 4:
        top = values[0]
    elif values == [14, 5, 4, 3, 2]:
        top = 5
    if top and flush:
        return 8, (top,)
    if shape == [4, 1]:
        return 7, grouped
    if shape == [3, 2]:
        return 6, grouped
    if flush:
        return 5, tuple(values)
    if top:
        return 4, (top,)
    return {(3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}.get(tuple(shape), 0), grouped


def ref_high(hole: Sequence[Card], board: Sequence[Card], omaha: bool = False) -> tuple[
    int, tuple[int, ...]
]:
    if omaha:
        return max(ref5(h + b) for h in combinations(hole, 2) for b in combinations(board, 3))
    return max(ref5(five) for five in combinations((*hole, *board), 5))


def ref_low(hole: Sequence[Card], board: Sequence[Card], omaha: bool = False) -> tuple[
    int, ...
] | None:
    """Best low as its ranks high to low (ace = 1); smaller tuple is better."""
    fives = (
        [h + b for h in combinations(hole, 2) for b in combinations(board, 3)]
        if omaha else list(combinations((*hole, *board), 5))
    )
    lows = []
    for five in fives:
        values = sorted((1 if c.rank is Rank.ACE else int(c.rank) for c in five), reverse=True)
        if len(set(values)) == 5 and values[0] <= 8:
            lows.append(tuple(values))
    return min(lows) if lows else None


def sign(a: object, b: object) -> int:
    return (a > b) - (a < b)  # type: ignore[operator]


# --- P8: ranking ---------------------------------------------------------------------

LADDER = [
    ("7c 5d", "4h 3s 2c 9h Jd", H.HIGH_CARD),
    ("7c 7d", "4h 3s 2c 9h Jd", H.ONE_PAIR),
    ("7c 7d", "4h 4s 2c 9h Jd", H.TWO_PAIR),
    ("7c 7d", "7h 4s 2c 9h Jd", H.THREE_OF_A_KIND),
    ("Ac 2d", "3h 4s 5c 9h Jd", H.STRAIGHT),  # the wheel, lowest straight
    ("6c 2d", "3h 4s 5c 9h Jd", H.STRAIGHT),
    ("Ac Kd", "Qh Js Tc 9h 2d", H.STRAIGHT),
    ("7c 2c", "4c 3c 9c Kh Jd", H.FLUSH),
    ("7c 7d", "7h 4s 4c 9h Jd", H.FULL_HOUSE),
    ("7c 7d", "7h 7s 2c 9h Jd", H.FOUR_OF_A_KIND),
    ("Ac 2c", "3c 4c 5c 9h Jd", H.STRAIGHT_FLUSH),  # steel wheel, lowest straight flush
    ("Ah Kh", "Qh Jh Th 9h Jd", H.STRAIGHT_FLUSH),  # royal flush
]


def test_P8_categories_rank_in_order() -> None:
    values = [high(hole, board) for hole, board, _ in LADDER]
    assert [v.category for v in values] == [category for _, _, category in LADDER]
    assert all(a < b for a, b in pairwise(values))
    assert [c.strength for c in HandCategory] == list(range(8, -1, -1))
    assert values[-1].label("nn") == "Royal flush"
    assert values[-2].label("en") == "Straight flush"


def test_P8_wheel_is_the_lowest_straight_and_ace_plays_low() -> None:
    wheel = high("Ac 2d", "3h 4s 5c Kh Kd")
    assert wheel.category is H.STRAIGHT
    assert ranks(wheel) == "5432A"
    assert wheel < high("6c 2d", "3h 4s 5c Kh Kd")
    assert wheel > high("Ac Ad", "As 4s 9c Kh 2d")  # still beats trips
    assert ranks(high("Ac 2d", "3c 4c 5c 6d Kd")) == "65432"  # the six-high straight is better
    assert high("Ac 2c", "3c 4c 5c 6d Kd").category is H.STRAIGHT_FLUSH  # steel wheel


def test_P8_no_wrap_around_straight() -> None:
    value = high("Kc Ad", "2h 3s 4c 8h 9d")
    assert value.category is H.HIGH_CARD
    assert ranks(value) == "AK984"
    assert high("Qc Kd", "Ah 2s 3c 4h 9d").category is H.HIGH_CARD


@pytest.mark.parametrize(
    ("better", "worse", "board"),
    [
        ("Ac 2d", "Kc 2h", "7c 7d 7h 7s 3d"),  # quads: kicker
        ("Kc Kd", "Qc Qd", "Ks Qs 3h 3d 2c"),  # full house: trips first
        ("8c 9d", "8d 2h", "8h 8s 9h 2c Jd"),  # full house: then the pair (888 99 vs 888 22)
        ("Kh 2h", "Qh Jh", "Ah 9h 5h 3c 3d"),  # flush: card by card
        ("6h 2d", "4h 3d", "Ah 9h 5h 7h 3c"),  # flush: down to the fifth card
        ("Qd Td", "Jc Th", "4s 8h 5c 5d 8c"),  # two pair on board: kicker Q beats J
        ("Ad 3c", "Kd Qc", "9s 9h 5c 4d 2c"),  # pair: first kicker
        ("Ad 8c", "As 7d", "9s 9h 5c 4d 2c"),  # pair: third kicker
        ("Ac 5d", "Ah 4s", "Ks Jh 9c 2d 3c"),  # high card: fifth card decides
    ],
)
def test_P8_kickers_decide(better: str, worse: str, board: str) -> None:
    assert high(better, board) > high(worse, board)


def test_P8_only_the_best_five_count() -> None:
    board = "Ah Ad Kc Ks Qh"
    assert high("Jc 2d", board) == high("Tc 3d", board)  # both play A A K K Q
    assert shown(high("Jc 2d", board)) == "Ah Ad Ks Kc Qh"
    # Sixth and seventh cards never break the tie: straight on board.
    assert high("2c 3d", "9h Ts Jc Qh Kd") == high("4c 4d", "9h Ts Jc Qh Kd")
    # Two pair with three pairs: the third pair is only a kicker.
    value = high("Qc Qd", "Jh Js Tc Th 9d")
    assert ranks(value) == "QQJJT"
    assert value == high("Qc Qd", "Jh Js Tc 2h 9d")  # the tens as a pair add nothing


def test_P8_best_five_are_shown_in_order() -> None:
    assert shown(high("7c 7d", "7h 4s 4c 9h Jd")) == "7h 7d 7c 4s 4c"
    assert shown(high("Ac 2d", "3h 4s 5c Kh Kd")) == "5c 4s 3h 2d Ac"
    assert shown(high("Ac 2d", "3c 4c 5c 6d Kd")) == "6d 5c 4c 3c 2d"
    assert shown(high("Ac 2c", "3c 4c 5c 6d Kd")) == "5c 4c 3c 2c Ac"
    assert shown(high("7c 2c", "4c 3c 9c Kc Jd")) == "Kc 9c 7c 4c 3c"


def test_P2_suits_never_rank() -> None:
    spades = high("As Ks", "Qs Js 9s 2c 3d")
    hearts = high("Ah Kh", "Qh Jh 9h 2c 3d")
    assert spades == hearts
    assert hash(spades) == hash(hearts)
    assert not spades < hearts and not spades > hearts
    assert high("Ac Ad", "7h 5s 2c 9h Jd") == high("Ah As", "7c 5d 2d 9s Jh")
    assert len({high("Ac Ad", "7h 5s 2c 9h Jd"), high("Ah As", "7c 5d 2d 9s Jh")}) == 1


# --- P6: Omaha -------------------------------------------------------------------------

def test_P6_omaha_uses_exactly_two_hole_and_three_board_cards() -> None:
    # Four hearts on board and one heart in hand is no flush in Omaha.
    assert high("Ah Kc Qd Js", "2h 5h 8h 9h Tc", "omaha").category is H.STRAIGHT
    assert high("Ah Kc", "2h 5h 8h 9h Tc", "holdem").category is H.FLUSH
    # Four to a straight in hand, one board card needed: no, it must be three.
    assert high("9c Td Jh Qs", "Kd 2c 3h 4d 7s", "omaha").category is H.HIGH_CARD
    # A board straight does not play on its own.
    assert high("2c 2d 3c 3d", "9h Ts Jc Qh Kd", "omaha").category is H.ONE_PAIR
    # Two hole cards of the same suit with three on board make the flush.
    value = high("Ah 3h Kc Kd", "2h 5h 8h 9c Tc", "omaha")
    assert value.category is H.FLUSH
    assert shown(value) == "Ah 8h 5h 3h 2h"


def test_P6_omaha_card_counts() -> None:
    assert high("Ah Kc Qd Js 3d", "2h 5h 8h", "omaha").category is H.HIGH_CARD
    assert high("Ah Kc Qd Js 2d 3d", "2h 5h 8h 9c", Game.OMAHA).category is H.ONE_PAIR
    with pytest.raises(WrongHoleCount) as hole:
        high("Ah Kc Qd", "2h 5h 8h 9c Tc", "omaha")
    assert hole.value.translate("nn") == "Omaha: 3 holkort, må vere 4–6"
    with pytest.raises(WrongBoardCount) as board:
        high("Ah Kc Qd Js", "2h 5h", "omaha")
    assert board.value.translate("da") == "Omaha: 2 fælleskort, skal være 3–5"
    with pytest.raises(WrongBoardCount):
        high("Ah Kc Qd Js", "2h 5h 8h 9c Tc 3s", "omaha")


def test_holdem_card_counts_and_bad_input() -> None:
    assert high("", "Ah Kd 7c 5s 2h").category is H.HIGH_CARD
    assert high("Ah Kd", "7c 5s 2h 7d").category is H.ONE_PAIR
    with pytest.raises(WrongCardCount) as count:
        high("Ah Kd", "7c 5s")
    assert count.value.translate("nb") == "En hånd må ha 5–7 kort, ikke 4"
    with pytest.raises(WrongCardCount):
        high("Ah Kd 3c", "7c 5s 2h 7d 8d")
    with pytest.raises(DuplicateCard):
        high("Ah Kd", "7c 5s Ah 7d")
    with pytest.raises(UnknownGame) as game:
        high("Ah Kd", "7c 5s 2h 7d", "stud")
    assert isinstance(game.value, ValueError)
    assert game.value.translate("nn") == "Ukjend spel: «stud»"
    for error in (UnknownGame, WrongCardCount, WrongHoleCount, WrongBoardCount):
        assert issubclass(error, RulesError)
        assert error.missing_languages() == ()


# --- P7: 8-or-better low -----------------------------------------------------------------

def test_P7_low_needs_five_different_ranks_of_eight_or_lower() -> None:
    assert ranks(low("Ah 2c", "3d 4s 8h Kc Kd")) == "8432A"
    assert low("Ah 2c", "3d 4s 9h Kc Kd") is None  # a nine does not qualify
    assert low("Ah 2c", "2d 4s 4h 8c Kd") is None  # pairs do not count twice
    assert low("Ah Ac", "2d 3s 4h Kc Kd") is None


def test_P7_ace_to_five_is_the_best_low_and_straights_flushes_are_ignored() -> None:
    wheel = low("Ah 2h", "3h 4h 5h Kc Kd")
    assert ranks(wheel) == "5432A"
    assert high("Ah 2h", "3h 4h 5h Kc Kd").category is H.STRAIGHT_FLUSH  # same cards, high side
    deck = full_deck()
    rng = random.Random(5)
    for _ in range(200):
        hole, board = (lambda d: (d[:2], d[2:7]))(rng.sample(deck, 7))
        other = evaluate_low8(hole, board)
        assert other is None or other <= wheel
    assert wheel == low("As 2c", "3d 4c 5s Qc Jd")  # suits never count, for low either


def test_P7_lows_compare_from_the_highest_card() -> None:
    assert low("7c 6d", "5h 4s 3c Kh Kd") > low("8c 4d", "3h 2s Ac Kh Kd")  # 7 beats 8
    assert low("8c 5d", "4h 3s 2c Kh Kd") > low("8c 6d", "3h 2s Ac Kh Kd")  # then 5 beats 6
    assert low("6c 5d", "4h 3s Ac Kh Kd") > low("6c 5d", "4h 3s 2c Kh Kd")  # last card: A < 2
    assert low("6c 5d", "4h 3s Ac Kh Kd") == low("6h 5h", "4c 3c Ad Qh Qd")


def test_P7_omaha_low_uses_two_hole_and_three_board_cards() -> None:
    assert low("Ah Kc Qd Js", "2h 3h 4c 9h Tc", "omaha") is None  # only one low hole card
    assert low("Ah 2c Qd Js", "3h 4h 9c 9h Tc", "omaha") is None  # only two low board cards
    value = low("Ah 2c 3d 4s", "5h 6h 7c Kh Tc", "omaha")
    assert ranks(value) == "7652A"  # not 6-5-3-2-A or 5-4-3-2-A: those use 3 or 4 hole cards
    with pytest.raises(TypeError):
        assert value is not None
        _ = value < high("Ah 2c 3d 4s", "5h 6h 7c Kh Tc", "omaha")


# --- E: seed 004's mistakes, proving the real rule ------------------------------------

def test_E1_aces_on_ace_king_board_make_aces_full() -> None:
    value = high("Ah As", "Ac Kd Kh Ks Qc")
    assert value.category is H.FULL_HOUSE
    assert ranks(value) == "AAAKK"
    assert value > high("Qh Qd", "Ac Kd Kh Ks Qc")  # K K K Q Q loses to it


def test_E2_omaha_board_trips_do_not_make_quads() -> None:
    board = "Qc 7h 7s 7c 2d"
    queens = high("Qh Qd 5c 4c", board, "omaha")
    assert queens.category is H.FULL_HOUSE
    assert ranks(queens) == "QQQ77"
    kings = high("Ah Kh Ks Js", board, "omaha")
    assert kings.category is H.FULL_HOUSE
    assert ranks(kings) == "777KK"
    assert queens > kings


def test_E3_hilo_low_uses_two_hole_cards() -> None:
    value = low("Ah 2c 6d Kh", "8s 7c 5h 4d Jc", "omaha")
    assert ranks(value) == "7542A"
    assert ranks(value) != "6542A"  # that would use A, 2 and 6 from the hand


# --- Categories and values -------------------------------------------------------------

def test_category_names_follow_the_glossary() -> None:
    expected = {
        "nn": ["Straight flush", "Fire like", "Fullt hus", "Flush", "Straight", "Tre like",
               "To par", "Eitt par", "Høgaste kort"],
        "nb": ["Straight flush", "Fire like", "Fullt hus", "Flush", "Straight", "Tre like",
               "To par", "Ett par", "Høyeste kort"],
        "da": ["Straight flush", "Fire ens", "Fuldt hus", "Flush", "Straight", "Tre ens",
               "To par", "Et par", "Højeste kort"],
        "en": ["Straight flush", "Four of a kind", "Full house", "Flush", "Straight",
               "Three of a kind", "Two pair", "One pair", "High card"],
    }
    assert set(expected) == set(LANGUAGES)
    for lang, names in expected.items():
        assert [c.label(lang) for c in HandCategory] == names
    assert HandCategory.FLUSH.label("xx") == "Flush"
    assert HandCategory.TWO_PAIR.value == "two_pair"


def test_hand_value_repr_and_low_flag() -> None:
    assert repr(high("7c 7d", "7h 4s 4c 9h Jd")) == "HandValue(full_house: 7h 7d 7c 4s 4c)"
    value = low("Ah 2c", "3d 4s 8h Kc Kd")
    assert value is not None and value.low and value.category is H.HIGH_CARD
    assert value.label("en") == "8-4-3-2-A"


# --- Exhaustive and property checks ---------------------------------------------------

FIVE_CARD_COUNTS = {
    H.STRAIGHT_FLUSH: 40,
    H.FOUR_OF_A_KIND: 624,
    H.FULL_HOUSE: 3_744,
    H.FLUSH: 5_108,
    H.STRAIGHT: 10_200,
    H.THREE_OF_A_KIND: 54_912,
    H.TWO_PAIR: 123_552,
    H.ONE_PAIR: 1_098_240,
    H.HIGH_CARD: 1_302_540,
}
BY_STRENGTH = tuple(reversed(HandCategory))


def test_P8_all_five_card_hands() -> None:
    start = time.perf_counter()
    counts = Counter(map(rank5, combinations(range(52), 5)))
    seconds = time.perf_counter() - start
    by_category: Counter[HandCategory] = Counter()
    for value, n in counts.items():
        by_category[BY_STRENGTH[value >> CATEGORY_SHIFT]] += n
    print(f"\n2,598,960 five-card hands in {seconds:.1f} s")
    assert sum(counts.values()) == 2_598_960
    assert dict(by_category) == FIVE_CARD_COUNTS
    assert len(counts) == 7_462


def test_P8_five_card_order_matches_treys() -> None:
    """One hand per value class, ordered by us and by treys (1 = best): the same 7,462 steps."""
    from treys import Card as TreysCard
    from treys import Evaluator

    evaluator = Evaluator()
    to_treys = [TreysCard.new(str(card)) for card in DECK]
    one_each: dict[int, tuple[int, ...]] = {}
    for hand in combinations(range(52), 5):
        one_each.setdefault(rank5(hand), hand)
    ours = sorted(one_each)
    theirs = [evaluator.evaluate([], [to_treys[c] for c in one_each[v]]) for v in ours]
    assert theirs == list(range(7462, 0, -1))


def test_fast_paths_agree_on_random_hands() -> None:
    rng = random.Random(99)
    for _ in range(3000):
        seven = rng.sample(range(52), 7)
        assert rank7(seven) == rank_best(seven) == max(map(rank5, combinations(seven, 5)))
        six = seven[:6]
        assert rank_best(six) == max(map(rank5, combinations(six, 5)))


seven_cards = st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True)


@settings(max_examples=400, deadline=None)
@given(seven_cards, seven_cards)
def test_high_matches_the_brute_force_reference(a: list[Card], b: list[Card]) -> None:
    value_a, value_b = evaluate_high(a[:2], a[2:]), evaluate_high(b[:2], b[2:])
    ref_a, ref_b = ref_high(a[:2], a[2:]), ref_high(b[:2], b[2:])
    assert value_a.category.strength == ref_a[0]
    assert ref5(value_a.cards) == ref_a  # the five shown make the best hand
    assert sign(value_a, value_b) == sign(ref_a, ref_b)


@settings(max_examples=200, deadline=None)
@given(seven_cards, st.randoms(use_true_random=False), st.integers(0, 2))
def test_high_does_not_depend_on_card_order(
    cards: list[Card], rng: random.Random, hole: int
) -> None:
    value = evaluate_high(cards[:2], cards[2:])
    shuffled = list(cards)
    rng.shuffle(shuffled)
    again = evaluate_high(shuffled[:hole], shuffled[hole:])
    assert again == value
    assert again.cards == value.cards  # the same five, shown the same way
    assert set(value.cards) <= set(cards) and len(set(value.cards)) == 5


omaha_deal = st.tuples(st.integers(4, 6), st.integers(3, 5)).flatmap(
    lambda n: st.lists(
        st.sampled_from(DECK), min_size=n[0] + n[1], max_size=n[0] + n[1], unique=True
    ).map(lambda cards: (cards[: n[0]], cards[n[0]:]))
)


@settings(max_examples=200, deadline=None)
@given(omaha_deal)
def test_P6_omaha_plays_two_hole_three_board(deal: tuple[list[Card], list[Card]]) -> None:
    hole, board = deal
    value = evaluate_high(hole, board, "omaha")
    assert sum(card in hole for card in value.cards) == 2
    assert sum(card in board for card in value.cards) == 3
    assert ref5(value.cards) == ref_high(hole, board, omaha=True)
    lo = evaluate_low8(hole, board, "omaha")
    expected = ref_low(hole, board, omaha=True)
    if expected is None:
        assert lo is None
    else:
        assert lo is not None
        assert sum(card in hole for card in lo.cards) == 2
        assert sum(card in board for card in lo.cards) == 3
        assert tuple(1 if c.rank is Rank.ACE else int(c.rank) for c in lo.cards) == expected


@settings(max_examples=200, deadline=None)
@given(seven_cards, seven_cards)
def test_P7_low_matches_the_brute_force_reference(a: list[Card], b: list[Card]) -> None:
    lo_a, lo_b = evaluate_low8(a[:2], a[2:]), evaluate_low8(b[:2], b[2:])
    ref_a, ref_b = ref_low(a[:2], a[2:]), ref_low(b[:2], b[2:])
    assert (lo_a is None) == (ref_a is None)
    if lo_a is not None and ref_a is not None:
        assert tuple(1 if c.rank is Rank.ACE else int(c.rank) for c in lo_a.cards) == ref_a
        assert set(lo_a.cards) <= set(a)
        if lo_b is not None and ref_b is not None:
            assert sign(lo_a, lo_b) == sign(ref_b, ref_a)  # smaller tuple is the better low


def test_the_tables_are_built_on_first_use_not_at_import() -> None:
    """A process that imports the evaluator but ranks no hand never builds the tables."""
    code = ("import rules.hands, rules.hand_tables as t, rules.showdown\n"
            "before = 'UNSUITED' in vars(t)\n"
            "rules.hands.evaluate_high('Ah Kh', 'Qh Jh Th 2c 3d')\n"
            "print(before, 'UNSUITED' in vars(t), type(rules.hands.UNSUITED).__name__)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=60)
    assert done.stdout.split() == ["False", "True", "dict"]
