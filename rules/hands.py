"""Hand values: the best five cards, high (P8, P6) and 8-or-better low (P7).

The fast path works on card indices (:attr:`rules.cards.Card.index`):
:func:`rank7` ranks seven cards with one table lookup (see
:mod:`rules.hand_tables`), and :func:`evaluate_high` wraps it for
:class:`~rules.cards.Card` objects and tells which five cards play.

>>> evaluate_high("Ah As", "Ac Kd Kh Ks Qc").label("nn")  # E1: aces full, not kings full
'Fullt hus'
>>> evaluate_high("Ah As", "Ac Kd Kh Ks Qc") > evaluate_high("Qh Qd", "Ac Kd Kh Ks Qc")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum, unique
from itertools import combinations
from typing import Final, Protocol

from rules import hand_tables
from rules.cards import Card, Rank, parse, verify_distinct
from rules.errors import RulesError
from rules.hand_tables import (
    CARD_KEY,
    CATEGORY_SHIFT,
    FIRST_KEY,
    FLUSH_BITS,
    RANK_BITS,
)
from rules.i18n import DEFAULT_LANGUAGE

__all__ = [
    "Cards",
    "Game",
    "HandCategory",
    "HandValue",
    "UnknownGame",
    "WrongBoardCount",
    "WrongCardCount",
    "WrongHoleCount",
    "as_cards",
    "as_game",
    "evaluate_high",
    "evaluate_low8",
    "rank5",
    "rank7",
    "rank_best",
]

#: Cards as Card objects or as text for :func:`rules.cards.parse`.
Cards = Iterable[Card] | str


@unique
class HandCategory(StrEnum):
    """The nine high-hand categories, best first (P8)."""

    STRAIGHT_FLUSH = "straight_flush"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three_of_a_kind"
    TWO_PAIR = "two_pair"
    ONE_PAIR = "one_pair"
    HIGH_CARD = "high_card"

    @property
    def strength(self) -> int:
        """8 for a straight flush down to 0 for high card (enum values compare as text).

        >>> HandCategory.FLUSH.strength > HandCategory.STRAIGHT.strength
        True
        """
        return _STRENGTH[self]

    def label(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The category's name on the screens (GLOSSARY.md), English for an unknown code.

        >>> HandCategory.FULL_HOUSE.label("nn"), HandCategory.ONE_PAIR.label("da")
        ('Fullt hus', 'Et par')
        """
        names = _NAMES.get(lang) or _NAMES["en"]
        return names[8 - _STRENGTH[self]]


_BY_STRENGTH: Final = tuple(reversed(HandCategory))
_STRENGTH: Final = {category: i for i, category in enumerate(_BY_STRENGTH)}
_NAMES: Final = {
    "nn": ("Straight flush", "Fire like", "Fullt hus", "Flush", "Straight",
           "Tre like", "To par", "Eitt par", "Høgaste kort"),
    "nb": ("Straight flush", "Fire like", "Fullt hus", "Flush", "Straight",
           "Tre like", "To par", "Ett par", "Høyeste kort"),
    "da": ("Straight flush", "Fire ens", "Fuldt hus", "Flush", "Straight",
           "Tre ens", "To par", "Et par", "Højeste kort"),
    "en": ("Straight flush", "Four of a kind", "Full house", "Flush", "Straight",
           "Three of a kind", "Two pair", "One pair", "High card"),
}


@unique
class Game(StrEnum):
    """Which cards may make a hand: any five (Hold'em) or 2 hole + 3 board (Omaha, P6)."""

    HOLDEM = "holdem"
    OMAHA = "omaha"


class UnknownGame(RulesError, ValueError):
    messages = {
        "nn": "Ukjend spel: «{game}»",
        "nb": "Ukjent spill: «{game}»",
        "da": "Ukendt spil: »{game}«",
        "en": 'Unknown game: "{game}"',
    }


class WrongCardCount(RulesError, ValueError):
    """Hold'em: hole and board together are not 5 to 7 cards."""

    messages = {
        "nn": "Ei hand må ha {low}–{high} kort, ikkje {got}",
        "nb": "En hånd må ha {low}–{high} kort, ikke {got}",
        "da": "En hånd skal have {low}–{high} kort, ikke {got}",
        "en": "A hand needs {low}–{high} cards, not {got}",
    }


class WrongHoleCount(RulesError, ValueError):
    messages = {
        "nn": "{game}: {got} holkort, må vere {low}–{high}",
        "nb": "{game}: {got} hullkort, må være {low}–{high}",
        "da": "{game}: {got} hulkort, skal være {low}–{high}",
        "en": "{game}: {got} hole cards, must be {low}–{high}",
    }


class WrongBoardCount(RulesError, ValueError):
    messages = {
        "nn": "{game}: {got} felleskort, må vere {low}–{high}",
        "nb": "{game}: {got} felleskort, må være {low}–{high}",
        "da": "{game}: {got} fælleskort, skal være {low}–{high}",
        "en": "{game}: {got} board cards, must be {low}–{high}",
    }


@dataclass(frozen=True, slots=True, eq=False)
class HandValue:
    """What a hand is worth: better compares greater, equal means a split (P2).

    ``rank`` is the sort key: for a high hand the table value (category in
    bits 20+, then the deciding ranks), for a low the inverted bit mask of its
    five ranks. ``cards`` are the five that play, most significant first (a
    wheel reads 5-4-3-2-A). A low (``low=True``) has category HIGH_CARD, as
    straights and flushes are ignored for low (P7); lows and highs do not
    compare with each other.
    """

    rank: int
    cards: tuple[Card, ...]
    low: bool = False

    @property
    def category(self) -> HandCategory:
        return HandCategory.HIGH_CARD if self.low else _BY_STRENGTH[self.rank >> CATEGORY_SHIFT]

    def label(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The category name; "Royal flush" for the ace-high straight flush; a low's ranks.

        >>> evaluate_high("Ah Kh", "Qh Jh Th 2c 3d").label()
        'Royal flush'
        >>> evaluate_low8("Ah 2c", "3d 4s 8h 5c 5d").label()
        '5-4-3-2-A'
        """
        if self.low:
            return "-".join(card.rank.letter for card in self.cards)
        if self.rank == _ROYAL:
            return "Royal flush"
        return self.category.label(lang)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.rank == other.rank and self.low is other.low

    def __hash__(self) -> int:
        return hash((self.rank, self.low))

    def __lt__(self, other: HandValue) -> bool:
        return self._key(other) < other.rank

    def __le__(self, other: HandValue) -> bool:
        return self._key(other) <= other.rank

    def __gt__(self, other: HandValue) -> bool:
        return self._key(other) > other.rank

    def __ge__(self, other: HandValue) -> bool:
        return self._key(other) >= other.rank

    def _key(self, other: HandValue) -> int:
        if not isinstance(other, HandValue) or other.low is not self.low:
            raise TypeError("a low hand and a high hand do not compare")
        return self.rank

    def __repr__(self) -> str:
        kind = "low8" if self.low else self.category.value
        return f"HandValue({kind}: {' '.join(map(str, self.cards))})"


_ROYAL: Final = 8 << CATEGORY_SHIFT | 12 << 16


class _Table(Protocol):
    def __getitem__(self, key: int, /) -> int: ...


class _FirstUse:
    """Stands for a lookup table of :mod:`rules.hand_tables` until the first hand is
    ranked: then both tables are built and put in this module's place of it, so every
    later lookup is the plain dict or tuple (nothing in the hot path checks)."""

    def __getitem__(self, key: int, /) -> int:
        global SUITED, UNSUITED
        SUITED, UNSUITED = hand_tables.SUITED, hand_tables.UNSUITED
        return (UNSUITED if self is _UNSUITED_FIRST else SUITED)[key]


_UNSUITED_FIRST: Final = _FirstUse()
#: The tables the rankers read (see :class:`_FirstUse`).
SUITED: _Table = _FirstUse()
UNSUITED: _Table = _UNSUITED_FIRST


def rank7(cards: Sequence[int]) -> int:
    """Value of exactly seven card indices as an int (greater is better).

    The bulk fast path: one sum of per-card keys and one table lookup.

    >>> hand = [card.index for card in parse("Ah As Ac Kd Kh Ks Qc")]
    >>> rank7(hand) == rank5(hand[:5]), rank7(hand) >> 20  # full house = 6
    (True, 6)
    """
    a, b, c, d, e, f, g = cards
    key = FIRST_KEY[a] + CARD_KEY[b] + CARD_KEY[c] + CARD_KEY[d] + CARD_KEY[e] + CARD_KEY[f] \
        + CARD_KEY[g]
    if key & FLUSH_BITS:
        return _flush_rank(cards, key)
    return UNSUITED[key & RANK_BITS]


def rank5(cards: Sequence[int]) -> int:
    """Value of exactly five card indices (see :func:`rank7`).

    >>> rank5([card.index for card in parse("5c 4d 3h 2s Ac")]) >> 20  # the wheel: straight
    4
    """
    a, b, c, d, e = cards
    key = FIRST_KEY[a] + CARD_KEY[b] + CARD_KEY[c] + CARD_KEY[d] + CARD_KEY[e]
    if key & FLUSH_BITS:
        return _flush_rank(cards, key)
    return UNSUITED[key & RANK_BITS]


def rank_best(cards: Sequence[int]) -> int:
    """Value of the best five of 5 to 7 card indices (see :func:`rank7`).

    >>> rank_best([card.index for card in parse("Kd Qd 9d 4d 2d 2c")]) >> 20  # flush
    5
    """
    key = sum(map(CARD_KEY.__getitem__, cards)) + FIRST_KEY[0] - CARD_KEY[0]
    if key & FLUSH_BITS:
        return _flush_rank(cards, key)
    return UNSUITED[key & RANK_BITS]


def _flush_rank(cards: Sequence[int], key: int) -> int:
    # Five of one suit among at most seven cards: only one suit can have them.
    suit = ((key & FLUSH_BITS).bit_length() - 36) >> 2
    mask = 0
    for card in cards:
        if card & 3 == suit:
            mask |= 1 << (card >> 2)
    return SUITED[mask]


def as_game(game: Game | str) -> Game:
    """A game by name or value; an unknown name is a translated error."""
    try:
        return Game(game)
    except ValueError:
        raise UnknownGame(game=str(game)) from None


def as_cards(cards: Cards) -> tuple[Card, ...]:
    """Cards given as text or objects, as a tuple."""
    return parse(cards) if isinstance(cards, str) else tuple(cards)


def _checked(hole: Cards, board: Cards, game: Game | str) -> tuple[
    Game, tuple[Card, ...], tuple[Card, ...]
]:
    kind = as_game(game)
    hole_cards, board_cards = as_cards(hole), as_cards(board)
    verify_distinct(hole_cards + board_cards)
    if kind is Game.OMAHA:
        if not 4 <= len(hole_cards) <= 6:
            raise WrongHoleCount(game="Omaha", got=len(hole_cards), low=4, high=6)
        if not 3 <= len(board_cards) <= 5:
            raise WrongBoardCount(game="Omaha", got=len(board_cards), low=3, high=5)
    elif not 5 <= len(hole_cards) + len(board_cards) <= 7:
        raise WrongCardCount(got=len(hole_cards) + len(board_cards), low=5, high=7)
    return kind, hole_cards, board_cards


def evaluate_high(hole: Cards, board: Cards, game: Game | str = Game.HOLDEM) -> HandValue:
    """The best high hand (P8): any five of 5-7 cards, or 2 hole + 3 board in Omaha (P6).

    >>> evaluate_high("Qh Qd 5c 4c", "Qc 7h 7s 7c 2d", "omaha")  # E2: not quads
    HandValue(full_house: Qh Qd Qc 7s 7h)
    >>> evaluate_high("Ah Kh Ks Js", "Qc 7h 7s 7c 2d", "omaha")  # E2: it does have a house
    HandValue(full_house: 7s 7h 7c Ks Kh)
    >>> evaluate_high("Ah 2c", "3d 4s 5h Kc Kd")
    HandValue(straight: 5h 4s 3d 2c Ah)
    """
    kind, hole_cards, board_cards = _checked(hole, board, game)
    if kind is Game.HOLDEM:
        cards = hole_cards + board_cards
        indices = [card.index for card in cards]
        rank = rank7(indices) if len(indices) == 7 else rank_best(indices)
        return HandValue(rank, _best_five(rank, cards))
    best = -1
    best_cards: tuple[Card, ...] = ()
    board_sets = [(trio, [card.index for card in trio]) for trio in combinations(board_cards, 3)]
    for pair in combinations(hole_cards, 2):
        pair_indices = [card.index for card in pair]
        for trio, trio_indices in board_sets:
            rank = rank5(pair_indices + trio_indices)
            if rank > best:
                best, best_cards = rank, pair + trio
    return HandValue(best, _best_five(best, best_cards))


#: Cards of each rank in a pattern, by category strength.
_PATTERNS: Final = (
    (1, 1, 1, 1, 1), (2, 1, 1, 1), (2, 2, 1), (3, 1, 1), (), (1, 1, 1, 1, 1), (3, 2), (4, 1), (),
)


def _best_five(rank: int, cards: Sequence[Card]) -> tuple[Card, ...]:
    """The five cards (most significant first) that make ``rank`` out of ``cards``."""
    strength = rank >> CATEGORY_SHIFT
    by_rank: dict[int, list[Card]] = {}
    for card in sorted(cards, reverse=True):
        by_rank.setdefault(card.rank - 2, []).append(card)
    if strength in (4, 8):  # straight, straight flush: five ranks down from the top
        top = (rank >> 16) & 15
        ranks = [12 if r < 0 else r for r in range(top, top - 5, -1)]
    else:
        ranks = [(rank >> shift) & 15 for shift in range(16, -4, -4)]
    if strength in (5, 8):  # flush, straight flush: all from the flush suit
        suits = [card.suit for card in cards]
        suit = max(set(suits), key=suits.count)
        return tuple(next(c for c in by_rank[r] if c.suit == suit) for r in ranks)
    if strength == 4:
        return tuple(by_rank[r][0] for r in ranks)
    picked: list[Card] = []
    for r, count in zip(ranks, _PATTERNS[strength], strict=False):
        picked += by_rank[r][:count]
    return tuple(picked)


def _low_rank(card: Card) -> int:
    """Ace low: A = 1, 2-8 as shown; 0 for a card too high for an 8-or-better low."""
    if card.rank is Rank.ACE:
        return 1
    return int(card.rank) if card.rank <= 8 else 0


def evaluate_low8(hole: Cards, board: Cards, game: Game | str = Game.HOLDEM) -> HandValue | None:
    """The best 8-or-better low (P7), or None when no low qualifies.

    Five different ranks of 8 or lower, ace low, straights and flushes
    ignored, compared from the highest card; a better low compares greater.
    Omaha uses exactly 2 hole + 3 board cards here too.

    >>> evaluate_low8("Ah 2c 6d Kh", "8s 7c 5h 4d Jc", "omaha")  # E3: not A-2-4-5-6
    HandValue(low8: 7c 5h 4d 2c Ah)
    >>> evaluate_low8("Ah 2c", "3d 4s 5h Kc Kd") > evaluate_low8("Ah 2c", "3d 4s 6h Kc Kd")
    True
    >>> evaluate_low8("Ah 2c", "9d 4s 5h Kc 2d") is None
    True
    """
    kind, hole_cards, board_cards = _checked(hole, board, game)
    if kind is Game.HOLDEM:
        mask = _low_mask(hole_cards + board_cards, 5)
        if mask is None:
            return None
        return HandValue(0xFF ^ mask, _low_cards(mask, hole_cards + board_cards), low=True)
    best: tuple[int, int, int] | None = None
    board_masks = _low_masks(board_cards, 3)
    for hole_mask in _low_masks(hole_cards, 2):
        for board_mask in board_masks:
            # Compared from the highest card, so the smaller mask is the better low.
            if not hole_mask & board_mask and (best is None or hole_mask | board_mask < best[0]):
                best = (hole_mask | board_mask, hole_mask, board_mask)
    if best is None:
        return None
    mask, hole_mask, board_mask = best
    cards = _low_cards(hole_mask, hole_cards) + _low_cards(board_mask, board_cards)
    return HandValue(0xFF ^ mask, tuple(sorted(cards, key=_low_rank, reverse=True)), low=True)


def _low_mask(cards: Iterable[Card], size: int) -> int | None:
    """Bit mask (bit r-1 for low rank r) of the ``size`` lowest distinct low ranks."""
    mask = 0
    for card in cards:
        low = _low_rank(card)
        if low:
            mask |= 1 << (low - 1)
    if mask.bit_count() < size:
        return None
    while mask.bit_count() > size:
        mask ^= 1 << (mask.bit_length() - 1)
    return mask


def _low_masks(cards: Iterable[Card], size: int) -> set[int]:
    """Masks of every ``size`` cards with different low ranks."""
    bits = [1 << (low - 1) for low in map(_low_rank, cards) if low]
    return {sum(combo) for combo in combinations(bits, size) if len(set(combo)) == size}


def _low_cards(mask: int, cards: Iterable[Card]) -> tuple[Card, ...]:
    """One card for each rank in ``mask``, highest low rank first (ace last)."""
    chosen: dict[int, Card] = {}
    for card in sorted(cards, reverse=True):
        low = _low_rank(card)
        if low and mask >> (low - 1) & 1:
            chosen.setdefault(low, card)
    return tuple(chosen[low] for low in sorted(chosen, reverse=True))
