"""Misdeals and substantial action (X12, seed 000 §12).

The dealer reports what went wrong in the deal; the TD confirms. Once
substantial action has happened the hand normally plays on, so no dealing
error makes it a misdeal any more.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from enum import StrEnum, unique

from rules.betting_actions import Acted, Action, ActionKind
from rules.errors import RulesError

__all__ = [
    "DealingError",
    "NotAMisdeal",
    "SubstantialActionTaken",
    "can_declare_misdeal",
    "is_misdeal",
    "is_substantial_action",
    "verify_misdeal",
]


@unique
class DealingError(StrEnum):
    """Seed 000 §12's dealing errors, and the one it says is *not* enough."""

    FIRST_CARD_WRONG_SEAT = "first-card-wrong-seat"
    ACTIVE_PLAYER_NO_CARDS = "active-player-no-cards"
    CARDS_TO_WRONG_SEAT = "cards-to-wrong-seat"  # a seat that should get no cards
    WRONG_NUMBER_OF_HOLE_CARDS = "wrong-number-of-hole-cards"
    #: One of the first two cards off the deck exposed by dealer error.
    FIRST_TWO_CARD_EXPOSED = "first-two-card-exposed"
    #: Two or more other hole cards exposed during the first deal.
    TWO_HOLE_CARDS_EXPOSED = "two-hole-cards-exposed"
    #: A single card exposed later in the deal: not by itself a misdeal.
    ONE_LATER_CARD_EXPOSED = "one-later-card-exposed"


_MISDEALS = frozenset(DealingError) - {DealingError.ONE_LATER_CARD_EXPOSED}


class NotAMisdeal(RulesError, ValueError):
    messages = {
        "nn": "Dette er ikkje ein misdeal: handa held fram",
        "nb": "Dette er ikke en misdeal: hånden fortsetter",
        "da": "Dette er ikke en omgivning: hånden fortsætter",
        "en": "This is not a misdeal: the hand plays on",
    }


class SubstantialActionTaken(RulesError, ValueError):
    messages = {
        "nn": "Vesentleg handling har skjedd: handa kan ikkje erklærast som misdeal",
        "nb": "Vesentlig handling har skjedd: hånden kan ikke erklæres som misdeal",
        "da": "Væsentlig handling har fundet sted: hånden kan ikke erklæres for omgivning",
        "en": "Substantial action has occurred: the hand cannot be declared a misdeal",
    }


def _kind(action: ActionKind | Action | Acted) -> ActionKind:
    return action if isinstance(action, ActionKind) else action.kind


def is_substantial_action(actions: Iterable[ActionKind | Action | Acted]) -> bool:
    """X12: two actions in turn of which one puts chips in, or three actions in turn.

    Pass only actions made in turn; blinds and antes are never actions. The
    engine's automatic folds of absent players (``Acted.auto``) are skipped:
    a dead hand is not a decision.

    >>> is_substantial_action([ActionKind.FOLD, ActionKind.CALL])
    True
    >>> is_substantial_action([ActionKind.FOLD, ActionKind.FOLD])
    False
    >>> is_substantial_action([ActionKind.FOLD, ActionKind.CHECK, ActionKind.FOLD])
    True
    """
    kinds = [_kind(a) for a in actions if not (isinstance(a, Acted) and a.auto)]
    return len(kinds) >= 3 or (len(kinds) >= 2 and any(k.puts_chips_in for k in kinds))


def verify_misdeal(errors: Collection[DealingError],
                   actions: Iterable[ActionKind | Action | Acted] = ()) -> None:
    """Refuse a misdeal unless a listed dealing error happened before substantial action.

    >>> verify_misdeal({DealingError.TWO_HOLE_CARDS_EXPOSED}, [ActionKind.CHECK] * 3)
    Traceback (most recent call last):
    rules.misdeal.SubstantialActionTaken: Substantial action has occurred: the hand cannot \
be declared a misdeal
    """
    if is_substantial_action(actions):
        raise SubstantialActionTaken()
    if not _MISDEALS.intersection(errors):
        raise NotAMisdeal()


def can_declare_misdeal(errors: Collection[DealingError],
                        actions: Iterable[ActionKind | Action | Acted] = ()) -> bool:
    try:
        verify_misdeal(errors, actions)
    except RulesError:
        return False
    return True


def is_misdeal(errors: Collection[DealingError],
               actions: Iterable[ActionKind | Action | Acted] = ()) -> bool:
    """Seed 000 §12: is the deal void? Never after substantial action.

    >>> is_misdeal({DealingError.FIRST_CARD_WRONG_SEAT})
    True
    >>> is_misdeal({DealingError.ONE_LATER_CARD_EXPOSED})
    False
    >>> is_misdeal({DealingError.ACTIVE_PLAYER_NO_CARDS},
    ...            [ActionKind.CALL, ActionKind.FOLD])
    False
    """
    return can_declare_misdeal(errors, actions)
