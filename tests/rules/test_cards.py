"""Cards: parsing, printing, ordering, the deck."""

from __future__ import annotations

import ast
import dataclasses
import random
from pathlib import Path

import pytest

from rules.cards import (
    BadCard,
    Card,
    DuplicateCard,
    Rank,
    Suit,
    full_deck,
    parse,
    shuffled_deck,
    verify_distinct,
)
from rules.errors import RulesError
from rules.i18n import LANGUAGES

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"


def texts(cards: tuple[Card, ...]) -> list[str]:
    return [str(card) for card in cards]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("AhKd 7c", ["Ah", "Kd", "7c"]),
        ("AhKd7c", ["Ah", "Kd", "7c"]),
        ("ah, kd,7C", ["Ah", "Kd", "7c"]),
        ("10s Ts 10H", ["Ts", "Ts", "Th"]),
        ("  q♥ 2♣\t3♦\n4♠ ", ["Qh", "2c", "3d", "4s"]),
        ("", []),
        (" , ", []),
    ],
)
def test_parse_accepts_the_usual_spellings(text: str, expected: list[str]) -> None:
    assert texts(parse(text)) == expected


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("Ah Kx", "Kx"), ("Ah1h", "1h"), ("A", "A"), ("Ah 10", "10"), ("Zz 2c", "Zz"),
        ("2c 11h", "11"),
    ],
)
def test_parse_names_the_bad_token(text: str, token: str) -> None:
    with pytest.raises(BadCard) as caught:
        parse(text)
    assert caught.value.params == {"token": token}
    assert isinstance(caught.value, RulesError)
    assert isinstance(caught.value, ValueError)
    for lang in LANGUAGES:
        assert token in caught.value.translate(lang)
    assert caught.value.translate("nn") == f"Ugyldig kort: «{token}»"


def test_errors_speak_every_language() -> None:
    assert BadCard.missing_languages() == ()
    assert DuplicateCard.missing_languages() == ()


def test_verify_distinct_refuses_the_second_copy() -> None:
    verify_distinct(full_deck())
    with pytest.raises(DuplicateCard) as caught:
        verify_distinct(parse("Ah Kd 7c kD"))
    assert caught.value.params == {"card": "Kd"}
    assert caught.value.translate("da") == "Kortet Kd optræder flere gange"
    assert isinstance(caught.value, ValueError)


def test_cards_print_as_text_and_symbols() -> None:
    ace = Card(Rank.ACE, Suit.HEARTS)
    assert str(ace) == "Ah"
    assert ace.symbol() == "A♥"
    assert str(Card(Rank.TEN, Suit.CLUBS)) == "Tc"
    assert Card(Rank.TEN, Suit.CLUBS).symbol() == "T♣"
    for card in full_deck():
        assert parse(str(card)) == (card,)
        assert parse(card.symbol()) == (card,)


def test_cards_are_frozen_hashable_and_ordered_by_rank_then_suit() -> None:
    deck = full_deck()
    assert len(deck) == len(set(deck)) == 52
    assert list(deck) == sorted(deck, key=lambda c: (c.rank, "cdhs".index(c.suit.value)))
    assert sorted(reversed(deck)) == list(deck)
    assert Card(Rank.KING, Suit.SPADES) < Card(Rank.ACE, Suit.CLUBS)
    assert Card(Rank.ACE, Suit.CLUBS) < Card(Rank.ACE, Suit.SPADES)
    assert hash(Card(Rank.ACE, Suit.CLUBS)) == hash(parse("Ac")[0])
    with pytest.raises(dataclasses.FrozenInstanceError):
        deck[0].rank = Rank.ACE  # type: ignore[misc]


def test_index_is_the_position_in_the_deck() -> None:
    for i, card in enumerate(full_deck()):
        assert card.index == i
        assert Card.from_index(i) is card


def test_rank_and_suit_are_closed_sets() -> None:
    assert [r.letter for r in Rank] == list("23456789TJQKA")
    assert [s.value for s in Suit] == ["c", "d", "h", "s"]
    assert "".join(s.symbol for s in Suit) == "♣♦♥♠"


def test_shuffled_deck_uses_only_the_passed_rng() -> None:
    one = shuffled_deck(random.Random(1))
    assert one == shuffled_deck(random.Random(1))
    assert one != shuffled_deck(random.Random(2))
    assert sorted(one) == list(full_deck())
    assert one != full_deck()


@pytest.mark.parametrize("module", ["cards.py", "hands.py", "hand_tables.py"])
def test_module_is_pure(module: str) -> None:
    """No clock, randomness or I/O imported at run time (``TYPE_CHECKING`` imports are fine)."""
    tree = ast.parse((RULES_DIR / module).read_text(encoding="utf-8"))
    type_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            type_only.update(id(sub) for sub in ast.walk(node))
    banned = {"time", "random", "datetime", "os", "io", "socket", "sqlite3", "pygame", "serial"}
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        assert not {name.split(".")[0] for name in names} & banned, ast.unparse(node)
    assert "open(" not in (RULES_DIR / module).read_text(encoding="utf-8")
