"""Lookup tables for the hand evaluator, built at import in pure Python.

Cards are ints ``4 * rank + suit`` (rank 0 = deuce ... 12 = ace). A hand of
5 to 7 cards is summed into one int key with :data:`CARD_KEY`:

* bits 0-30: the rank multiset in base 5 (one digit per rank, at most 4);
* bits 32-47: one nibble per suit counting its cards.

The first card of a hand uses :data:`FIRST_KEY` instead, which adds 3 to
every suit nibble, so ``key & FLUSH_BITS`` is non-zero exactly when a suit has
five or more cards. In 5 to 7 cards a flush excludes four of a kind and a full
house, so a flush hand is ranked from the flush suit alone (:data:`SUITED`),
and every other hand from its ranks alone (:data:`UNSUITED`).

A hand value is an int: ``category << 20`` then up to five rank nibbles in
order of significance (e.g. full house: trips rank, pair rank; straight: top
card, 3 for the wheel). Comparing ints compares hands, and equal ints mean an
identical five-card rank pattern, so there are exactly 7,462 values.

Building takes a few tens of milliseconds: the tables are enumerated by hand
shape (how many quads, trips, pairs and singles), not by brute force. So they
are built on first use (:data:`SUITED` and :data:`UNSUITED` are made the first
time they are asked for), not at import: a CLI command or a kiosk that never
ranks a hand never pays for them.

>>> from rules.hand_tables import SUITED, UNSUITED  # built here
>>> len(UNSUITED), len(SUITED)
(73775, 8192)
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Final

__all__ = [
    "CARD_KEY",
    "CATEGORY_SHIFT",
    "FIRST_KEY",
    "FLUSH_BITS",
    "RANK_BITS",
    "STRAIGHT_TOP",
    "SUITED",
    "UNSUITED",
    "straight_top",
]

HIGH_CARD: Final = 0
ONE_PAIR: Final = 1
TWO_PAIR: Final = 2
THREE_OF_A_KIND: Final = 3
STRAIGHT: Final = 4
FLUSH: Final = 5
FULL_HOUSE: Final = 6
FOUR_OF_A_KIND: Final = 7
STRAIGHT_FLUSH: Final = 8
CATEGORY_SHIFT: Final = 20

_SUIT_SHIFT: Final = 32
RANK_BITS: Final = (1 << _SUIT_SHIFT) - 1
FLUSH_BITS: Final = 0x8888 << _SUIT_SHIFT
_FLUSH_BIAS: Final = 0x3333 << _SUIT_SHIFT

#: Key of each card index 0-51 (see the module docstring).
CARD_KEY: Final = tuple(5 ** (i >> 2) + (1 << (_SUIT_SHIFT + 4 * (i & 3))) for i in range(52))
#: Key of the first card of a hand: carries the flush-test bias.
FIRST_KEY: Final = tuple(k + _FLUSH_BIAS for k in CARD_KEY)


def straight_top(mask: int) -> int:
    """Top rank (3 for the wheel) of the best straight in a 13-bit rank mask, or -1.

    >>> straight_top(0b1_0000_0000_1111), straight_top(0b1_1111_0000_0000)
    (3, 12)
    >>> straight_top(0b11_0000_0000_0111)  # K-A-2-3-4 does not wrap around
    -1
    """
    # Copy the ace below the deuce so A-2-3-4-5 is a run; K-A-2-3-4 never is.
    m = (mask << 1) | (mask >> 12)
    runs = m & (m >> 1) & (m >> 2) & (m >> 3) & (m >> 4)
    return runs.bit_length() + 2 if runs else -1


#: :func:`straight_top` of every 13-bit rank mask.
STRAIGHT_TOP: Final = tuple(straight_top(mask) for mask in range(8192))


def _top_ranks() -> tuple[list[int], list[int], list[int], list[int]]:
    """Nibbles of the 1, 2, 3 and 5 highest ranks of every 13-bit mask.

    Each list puts its top rank at bit 4 * (count - 1); entries for masks with
    fewer ranks than that are never read.
    """
    top = [max(mask.bit_length() - 1, 0) for mask in range(8192)]
    rest = [mask ^ (1 << t) if mask else 0 for mask, t in enumerate(top)]
    tables = [top]
    for count in range(2, 6):
        lower, shift = tables[-1], 4 * (count - 1)
        tables.append([t << shift | lower[r] for t, r in zip(top, rest, strict=True)])
    return tables[0], tables[1], tables[2], tables[4]


_TOP1, _TOP2, _TOP3, _TOP5 = _top_ranks()


def _build_suited() -> tuple[int, ...]:
    """Value of a flush from the 13-bit mask of its suit's ranks (read for 5-7 bits set)."""
    return tuple(
        STRAIGHT_FLUSH << CATEGORY_SHIFT | top << 16 if top >= 0
        else FLUSH << CATEGORY_SHIFT | kickers
        for top, kickers in zip(STRAIGHT_TOP, _TOP5, strict=True)
    )


def _shapes(n: int) -> list[tuple[int, int, int, int]]:
    """(quads, trips, pairs, singles) counts with ``n`` cards on at most 13 ranks."""
    return [
        (q, t, p, n - 4 * q - 3 * t - 2 * p)
        for q in range(n // 4 + 1)
        for t in range((n - 4 * q) // 3 + 1)
        for p in range((n - 4 * q - 3 * t) // 2 + 1)
        if q + t + p + (n - 4 * q - 3 * t - 2 * p) <= 13
    ]


def _build_unsuited() -> dict[int, int]:
    """Value of 5-7 cards from their rank multiset (its base-5 key), ignoring flushes.

    Each shape picks the ranks of its quads, trips and pairs, then loops over
    the singles, settling the category outside that inner loop. A single is
    packed as ``5**rank | 1 << (32 + rank)``, so one ``sum`` of a combination
    gives both its key and its rank mask; kickers then come from the mask.
    This keeps the 73,775 entries cheap to build.
    """
    table: dict[int, int] = {}
    shift = 32
    low = (1 << shift) - 1
    packed = [5**r | 1 << (shift + r) for r in range(13)].__getitem__
    straight_at = STRAIGHT_TOP
    straight = STRAIGHT << CATEGORY_SHIFT
    top1 = [t << 8 for t in _TOP1]  # two pair: the kicker's slot
    top2 = [t << 8 for t in _TOP2]  # trips: two kickers from bit 12
    top3 = [t << 4 for t in _TOP3]  # one pair: three kickers from bit 12
    desc = tuple(range(12, -1, -1))
    for n in (5, 6, 7):
        for nq, nt, np_, ns in _shapes(n):
            for quads in combinations(desc, nq):
                left_q = [r for r in desc if r not in quads]
                key_q = 4 * sum(map(packed, quads))
                for trips in combinations(left_q, nt):
                    left_t = [r for r in left_q if r not in trips]
                    key_t = key_q + 3 * sum(map(packed, trips))
                    for pairs in combinations(left_t, np_):
                        key_p = (key_t + 2 * sum(map(packed, pairs))) & low
                        mask_p = sum(1 << r for r in trips + pairs)
                        singles = map(sum, combinations(
                            [packed(r) for r in left_t if r not in pairs], ns
                        ))
                        # Groups are in descending rank order.
                        if quads:
                            base = FOUR_OF_A_KIND << CATEGORY_SHIFT | quads[0] << 16
                            rest = max(trips + pairs, default=-1)
                            for s in singles:
                                kicker = max(rest, (s >> shift).bit_length() - 1)
                                table[key_p + (s & low)] = base | kicker << 12
                            continue
                        if trips and (nt > 1 or pairs):
                            value = (
                                FULL_HOUSE << CATEGORY_SHIFT
                                | trips[0] << 16
                                | max(trips[1:] + pairs) << 12
                            )
                            for s in singles:
                                table[key_p + (s & low)] = value
                            continue
                        if np_ == 3:  # 6 cards: the third pair competes as the kicker
                            base = TWO_PAIR << CATEGORY_SHIFT | pairs[0] << 16 | pairs[1] << 12
                            for s in singles:
                                kicker = max(pairs[2], (s >> shift).bit_length() - 1)
                                table[key_p + (s & low)] = base | kicker << 8
                            continue
                        if trips:
                            base, kickers = THREE_OF_A_KIND << CATEGORY_SHIFT | trips[0] << 16, top2
                        elif pairs:
                            base = pairs[0] << 16 | (
                                TWO_PAIR << CATEGORY_SHIFT | pairs[1] << 12 if np_ == 2
                                else ONE_PAIR << CATEGORY_SHIFT
                            )
                            kickers = top1 if np_ == 2 else top3
                        else:
                            base, kickers = HIGH_CARD << CATEGORY_SHIFT, _TOP5
                        if nt + np_ + ns < 5:  # too few ranks for a straight
                            for s in singles:
                                table[key_p + (s & low)] = base | kickers[s >> shift]
                            continue
                        for s in singles:
                            top = straight_at[mask_p | s >> shift]
                            table[key_p + (s & low)] = (
                                straight | top << 16 if top >= 0 else base | kickers[s >> shift]
                            )
    return table


if TYPE_CHECKING:
    #: Flush or straight flush value by the flush suit's 13-bit rank mask.
    SUITED: tuple[int, ...]
    #: Value of every non-flush 5-, 6- and 7-card rank multiset, by its base-5 key.
    UNSUITED: dict[int, int]


def __getattr__(name: str) -> object:
    """Build :data:`SUITED` and :data:`UNSUITED` the first time either is asked for."""
    if name not in ("SUITED", "UNSUITED"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    built = globals()
    built["SUITED"] = _build_suited()
    built["UNSUITED"] = _build_unsuited()
    return built[name]
