"""Playing cards: parsing, printing, the deck.

A card is also a small int, ``index = 4 * (rank - 2) + suit_index`` (0 = 2♣,
51 = A♠), so the hand evaluator can work on ints and index into tables. Index
order is card order: by rank, then suit (clubs, diamonds, hearts, spades; the
order only makes sorting stable, suits never rank a hand, P2).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum, StrEnum, unique
from typing import Final

from rules.errors import RulesError
from rules.rng import RandomSource

__all__ = [
    "BadCard",
    "Card",
    "DuplicateCard",
    "Rank",
    "Suit",
    "full_deck",
    "parse",
    "shuffled_deck",
    "verify_distinct",
]


@unique
class Rank(IntEnum):
    """Card rank; the value is the rank's pips with J=11 ... A=14."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        """``"2"``...``"9"``, ``"T"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"``.

        >>> Rank.TEN.letter, Rank.ACE.letter
        ('T', 'A')
        """
        return _RANK_LETTERS[self - 2]


@unique
class Suit(StrEnum):
    """Card suit; the value is the lower-case letter used in text and logs."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def symbol(self) -> str:
        """The suit symbol.

        >>> Suit.HEARTS.symbol
        '♥'
        """
        return _SUIT_SYMBOLS[self]


_RANK_LETTERS: Final = "23456789TJQKA"
_SUITS: Final = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_SUIT_INDEX: Final = {suit: i for i, suit in enumerate(_SUITS)}
_SUIT_SYMBOLS: Final = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card, ordered by rank then suit.

    >>> ace = Card(Rank.ACE, Suit.HEARTS)
    >>> str(ace), ace.symbol(), ace.index
    ('Ah', 'A♥', 50)
    >>> Card.from_index(50) == ace, Card(Rank.KING, Suit.SPADES) < ace
    (True, True)
    """

    rank: Rank
    suit: Suit

    def __str__(self) -> str:
        return _RANK_LETTERS[self.rank - 2] + self.suit.value

    def symbol(self) -> str:
        """The card with its suit symbol, as the screens show it."""
        return _RANK_LETTERS[self.rank - 2] + _SUIT_SYMBOLS[self.suit]

    @property
    def index(self) -> int:
        """The card as an int from 0 (2♣) to 51 (A♠), in card order."""
        return 4 * (self.rank - 2) + _SUIT_INDEX[self.suit]

    @staticmethod
    def from_index(index: int) -> Card:
        """The card for an index from 0 to 51 (the inverse of :attr:`index`)."""
        return _DECK[index]


_DECK: Final = tuple(Card(rank, suit) for rank in Rank for suit in _SUITS)


class BadCard(RulesError, ValueError):
    """Text that is not a card, e.g. ``"Kx"``; ``token`` is the bad part."""

    messages = {
        "nn": "Ugyldig kort: «{token}»",
        "nb": "Ugyldig kort: «{token}»",
        "da": "Ugyldigt kort: »{token}«",
        "en": 'Not a card: "{token}"',
    }


class DuplicateCard(RulesError, ValueError):
    """The same card given twice; ``card`` is the card as text."""

    messages = {
        "nn": "Kortet {card} er med fleire gonger",
        "nb": "Kortet {card} er med flere ganger",
        "da": "Kortet {card} optræder flere gange",
        "en": "The card {card} appears more than once",
    }


_SEPARATORS: Final = re.compile(r"[\s,;]+")
_CARD_TEXT: Final = re.compile(r"(10|[2-9tjqka])([cdhs♣♦♥♠])", re.IGNORECASE)
_RANK_OF_TEXT: Final = {letter: Rank(i + 2) for i, letter in enumerate(_RANK_LETTERS)} | {
    "10": Rank.TEN
}
_SUIT_OF_TEXT: Final = {suit.value: suit for suit in _SUITS} | {
    symbol: suit for suit, symbol in _SUIT_SYMBOLS.items()
}


def parse(text: str) -> tuple[Card, ...]:
    """Read cards from text such as ``"AhKd 7c"``.

    A rank is ``2``-``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``, ``A``; a suit
    is ``s h d c`` or a suit symbol; either case. Spaces and commas between
    cards are optional. Duplicates are allowed here (see :func:`verify_distinct`).

    >>> [str(c) for c in parse("AhKd 7c, 10S tc")]
    ['Ah', 'Kd', '7c', 'Ts', 'Tc']
    >>> parse("Q♥")[0].symbol()
    'Q♥'
    >>> parse("Ah Kx")
    Traceback (most recent call last):
    ...
    rules.cards.BadCard: Not a card: "Kx"
    """
    cards: list[Card] = []
    for chunk in _SEPARATORS.split(text):
        pos = 0
        while pos < len(chunk):
            match = _CARD_TEXT.match(chunk, pos)
            if match is None:
                width = 3 if chunk.startswith("10", pos) else 2
                raise BadCard(token=chunk[pos:pos + width])
            rank_text, suit_text = match.groups()
            cards.append(Card(_RANK_OF_TEXT[rank_text.upper()], _SUIT_OF_TEXT[suit_text.lower()]))
            pos = match.end()
    return tuple(cards)


def verify_distinct(cards: Iterable[Card]) -> None:
    """Refuse a card that appears twice (one deck, no jokers).

    >>> verify_distinct(parse("Ah Kd"))
    >>> verify_distinct(parse("Ah Kd ah"))
    Traceback (most recent call last):
    ...
    rules.cards.DuplicateCard: The card Ah appears more than once
    """
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise DuplicateCard(card=str(card))
        seen.add(card)


def full_deck() -> tuple[Card, ...]:
    """All 52 cards in card order.

    >>> deck = full_deck()
    >>> len(deck), str(deck[0]), str(deck[-1])
    (52, '2c', 'As')
    """
    return _DECK


def shuffled_deck(rng: RandomSource) -> tuple[Card, ...]:
    """The 52 cards in an order drawn from ``rng`` (passed in: the core never seeds).

    >>> import random
    >>> deck = shuffled_deck(random.Random(7))
    >>> sorted(deck) == list(full_deck()), deck == shuffled_deck(random.Random(7))
    (True, True)
    """
    deck = list(_DECK)
    rng.shuffle(deck)
    return tuple(deck)
