"""Misdeals and substantial action (RULES.md X12, seed 000 §12)."""

from __future__ import annotations

import pytest

from rules.betting import ActionKind, BettingHand, play
from rules.misdeal import (
    DealingError,
    NotAMisdeal,
    SubstantialActionTaken,
    can_declare_misdeal,
    is_misdeal,
    is_substantial_action,
    verify_misdeal,
)

F, X, C, B, R = (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET,
                 ActionKind.RAISE)


@pytest.mark.parametrize(
    ("actions", "substantial"),
    [
        ([], False),
        ([F], False),
        ([C], False),
        ([F, F], False),  # two actions, no chips in
        ([X, X], False),
        ([F, C], True),  # two actions, one puts chips in
        ([R, F], True),
        ([F, F, F], True),  # three actions of any kind
        ([X, X, X], True),
    ],
)
def test_X12_substantial_action(actions: list[ActionKind], substantial: bool) -> None:
    # Seed 000 §12: "to handlingar i rett rekkjefølgje der minst éi handling legg
    # sjetongar i potten, eller tre handlingar i rett rekkjefølgje".
    assert is_substantial_action(actions) is substantial


def test_X12_blinds_and_antes_are_not_actions() -> None:
    hand = BettingHand.start({1: 5000, 2: 5000, 3: 5000, 4: 5000}, 4, "100/200/25")
    assert hand.pot == 400 and hand.history == ()
    assert not is_substantial_action(hand.history)
    assert not is_substantial_action(hand.fold().history)
    assert is_substantial_action(hand.fold().call().history)


def test_X12_an_absent_players_automatic_fold_is_not_an_action() -> None:
    hand = BettingHand.start({1: 5000, 2: 5000, 3: 5000, 4: 5000}, 4, "100/200",
                             absent={4, 1})
    hand = hand.fold()  # seat 3 folds; 4 and 1 are folded as absent
    assert len(hand.history) == 3
    assert not is_substantial_action(hand.history)


@pytest.mark.parametrize("error", [
    DealingError.FIRST_CARD_WRONG_SEAT,
    DealingError.ACTIVE_PLAYER_NO_CARDS,
    DealingError.CARDS_TO_WRONG_SEAT,
    DealingError.WRONG_NUMBER_OF_HOLE_CARDS,
    DealingError.FIRST_TWO_CARD_EXPOSED,
    DealingError.TWO_HOLE_CARDS_EXPOSED,
])
def test_X12_listed_dealing_errors_are_a_misdeal_before_substantial_action(
        error: DealingError) -> None:
    assert is_misdeal({error})
    assert is_misdeal({error}, [F])  # one action is not substantial
    assert not is_misdeal({error}, [F, C])  # "Når vesentleg handling har skjedd ..."
    with pytest.raises(SubstantialActionTaken):
        verify_misdeal({error}, [X, X, X])


def test_X12_one_card_exposed_later_in_the_deal_is_not_by_itself_a_misdeal() -> None:
    # "Eitt enkelt kort som blir eksponert seinare i utdelinga, fører ikkje
    # nødvendigvis til misdeal."
    assert not is_misdeal({DealingError.ONE_LATER_CARD_EXPOSED})
    assert not can_declare_misdeal(set())
    with pytest.raises(NotAMisdeal):
        verify_misdeal({DealingError.ONE_LATER_CARD_EXPOSED})
    both = {DealingError.ONE_LATER_CARD_EXPOSED, DealingError.FIRST_CARD_WRONG_SEAT}
    assert is_misdeal(both)


def test_X12_misdeal_check_takes_a_hands_history() -> None:
    hand = BettingHand.start({1: 5000, 2: 5000, 3: 5000}, 3, "100/200")
    error = {DealingError.WRONG_NUMBER_OF_HOLE_CARDS}
    assert is_misdeal(error, hand.fold().history)
    assert not is_misdeal(error, play(hand, "call, call").history)
