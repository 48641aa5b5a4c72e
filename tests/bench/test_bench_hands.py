"""Hand evaluator figures: speed against treys, and all 133,784,560 seven-card hands.

Run with ``-s`` to see the figures, e.g.
``.venv/bin/python -m pytest -s -m bench tests/bench/test_bench_hands.py``.
"""

from __future__ import annotations

import multiprocessing
import random
import time
from collections import Counter
from itertools import combinations, pairwise

import pytest
from treys import Card as TreysCard
from treys import Evaluator

from rules.cards import full_deck
from rules.hand_tables import (
    CARD_KEY,
    CATEGORY_SHIFT,
    FIRST_KEY,
    FLUSH_BITS,
    RANK_BITS,
    SUITED,
    UNSUITED,
)
from rules.hands import HandCategory, rank7

HANDS = 200_000
SEED = 20240601


def _random_hands() -> list[tuple[int, ...]]:
    rng = random.Random(SEED)
    return [tuple(rng.sample(range(52), 7)) for _ in range(HANDS)]


@pytest.mark.bench
def test_bench_rank7_against_treys() -> None:
    """Same 200,000 hands, same run, both from pre-converted ints in their own encoding."""
    hands = _random_hands()
    to_treys = [TreysCard.new(str(card)) for card in full_deck()]
    treys_hands = [([to_treys[c] for c in h[:2]], [to_treys[c] for c in h[2:]]) for h in hands]
    evaluator = Evaluator()
    evaluate = evaluator.evaluate

    start = time.perf_counter()
    theirs = [evaluate(hole, board) for hole, board in treys_hands]
    treys_seconds = time.perf_counter() - start

    start = time.perf_counter()
    ours = [rank7(hand) for hand in hands]
    our_seconds = time.perf_counter() - start

    treys_rate, our_rate = HANDS / treys_seconds, HANDS / our_seconds
    print(
        f"\ntreys: {treys_rate:,.0f} hands/s; rank7: {our_rate:,.0f} hands/s; "
        f"ratio {our_rate / treys_rate:.1f}x ({HANDS:,} hands, seed {SEED})"
    )
    # Same order on every hand: ours ascending means treys' (1 = best) descending.
    pairs = sorted(set(zip(ours, theirs, strict=True)))
    assert len({o for o, _ in pairs}) == len({t for _, t in pairs}) == len(pairs)
    assert all(a[1] > b[1] for a, b in pairwise(pairs))
    assert our_rate >= 3 * treys_rate


# Published counts of the best five-card hand over all C(52, 7) seven-card hands.
SEVEN_CARD_COUNTS = {
    HandCategory.STRAIGHT_FLUSH: 41_584,
    HandCategory.FOUR_OF_A_KIND: 224_848,
    HandCategory.FULL_HOUSE: 3_473_184,
    HandCategory.FLUSH: 4_047_644,
    HandCategory.STRAIGHT: 6_180_020,
    HandCategory.THREE_OF_A_KIND: 6_461_620,
    HandCategory.TWO_PAIR: 31_433_400,
    HandCategory.ONE_PAIR: 58_627_800,
    HandCategory.HIGH_CARD: 23_294_460,
}
# FIRST_KEY already adds 3 to each suit nibble; one more reaches 8 at four cards.
_FOUR_SUITED = 0x1111 << 32


def _count_from(first: int) -> Counter[int]:
    """Values of every seven-card hand whose lowest card index is ``first``.

    Partial keys are summed level by level. For the 7th card, when no suit has
    four cards among the first six no flush is possible, so the whole inner
    loop runs in C (map + Counter) straight off the rank table.
    """
    counts: Counter[int] = Counter()
    update = counts.update
    lookup = UNSUITED.__getitem__
    rank_keys = [k & RANK_BITS for k in CARD_KEY]
    tails = [tuple(rank_keys[i:]) for i in range(53)]
    k1 = FIRST_KEY[first]
    for b in range(first + 1, 47):
        k2 = k1 + CARD_KEY[b]
        for c in range(b + 1, 48):
            k3 = k2 + CARD_KEY[c]
            for d in range(c + 1, 49):
                k4 = k3 + CARD_KEY[d]
                for e in range(d + 1, 50):
                    k5 = k4 + CARD_KEY[e]
                    for f in range(e + 1, 51):
                        k6 = k5 + CARD_KEY[f]
                        if not (k6 + _FOUR_SUITED) & FLUSH_BITS:
                            update(map(lookup, map((k6 & RANK_BITS).__add__, tails[f + 1])))
                            continue
                        six = (first, b, c, d, e, f)
                        for g in range(f + 1, 52):
                            key = k6 + CARD_KEY[g]
                            if key & FLUSH_BITS:
                                suit = ((key & FLUSH_BITS).bit_length() - 36) >> 2
                                mask = 0
                                for card in (*six, g):
                                    if card & 3 == suit:
                                        mask |= 1 << (card >> 2)
                                counts[SUITED[mask]] += 1
                            else:
                                counts[UNSUITED[key & RANK_BITS]] += 1
    return counts


@pytest.mark.slow
@pytest.mark.bench
@pytest.mark.timeout(7200)
def test_P8_all_seven_card_hands_match_published_counts() -> None:
    start = time.perf_counter()
    counts: Counter[int] = Counter()
    # Two processes (the Pi and CI have two cores or more); biggest jobs first.
    with multiprocessing.get_context("fork").Pool(2) as pool:
        for part in pool.imap_unordered(_count_from, range(46)):
            counts.update(part)
        pool.close()
        pool.join()
    seconds = time.perf_counter() - start
    by_category: Counter[HandCategory] = Counter()
    for value, n in counts.items():
        by_category[_category(value)] += n
    total = sum(by_category.values())
    print(f"\n{total:,} seven-card hands in {seconds:.0f} s")
    for category in HandCategory:
        print(f"  {category.value:16} {by_category[category]:>12,}")
    assert total == 133_784_560
    assert dict(by_category) == SEVEN_CARD_COUNTS
    assert len(counts) == 4_824  # distinct seven-card values (best five never a 7-high)


def _category(value: int) -> HandCategory:
    return tuple(reversed(HandCategory))[value >> CATEGORY_SHIFT]


def test_spot_check_inner_loop_against_rank7() -> None:
    """The hand-rolled enumeration agrees with rank7 on a slice (keeps the slow test honest)."""
    expected: Counter[int] = Counter(
        rank7((30, *rest)) for rest in combinations(range(31, 52), 6)
    )
    assert _count_from(30) == expected
