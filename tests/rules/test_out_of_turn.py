"""Action out of turn under each house's policy (RULES.md X11)."""

from __future__ import annotations

import pytest

from rules.betting import Action, ActionKind, BettingHand
from rules.betting_errors import NotYourTurn
from rules.house import OutOfTurnPolicy, profile
from rules.out_of_turn import (
    NotOutOfTurn,
    OutOfTurn,
    OutOfTurnRestricted,
    can_act_after_out_of_turn,
    rule_out_of_turn,
    verify_act_after_out_of_turn,
)

F, X, C, B, R, A = (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET,
                    ActionKind.RAISE, ActionKind.ALL_IN)
PUBPOKER = profile("pubpoker")
PF = profile("pf-pokerklub")
DK = profile("dk-club")


def preflop() -> BettingHand:
    """Four players, button 1: small blind 2, big blind 3, seat 4 to act."""
    hand = BettingHand.start({1: 10000, 2: 10000, 3: 10000, 4: 10000}, 1, "100/200")
    assert hand.actor == 4
    return hand


def flop() -> BettingHand:
    """The flop, four players in; seat 2 (small blind) acts first, then 3, 4, 1."""
    hand = preflop()
    while hand.actor is not None:
        hand = hand.call() if hand.can_call() else hand.check()
    hand = hand.advance()
    assert hand.actor == 2
    return hand


def test_X11_pubpoker_out_of_turn_action_binding_when_action_to_player_unchanged() -> None:
    # Seed 000 §6: "Handling utanfor tur kan bli bindande dersom handlinga fram
    # til spelaren ikkje endrar seg."
    hand = preflop()
    oot = OutOfTurn.record(hand, 1, Action(C))  # the button calls before seat 4
    hand = hand.call()  # seat 4 only calls: the action to seat 1 is unchanged
    ruling = rule_out_of_turn(hand, oot, PUBPOKER)
    assert ruling.binding == Action(C) and not ruling.action_changed
    assert not can_act_after_out_of_turn(hand, oot, PUBPOKER, Action(R, 600))
    assert hand.apply(ruling.binding).street_bets[1] == 200


def test_X11_pubpoker_out_of_turn_bet_and_check_stand_when_unchanged() -> None:
    hand = flop()
    bet = OutOfTurn.record(hand, 3, Action(B, 600))
    assert rule_out_of_turn(hand.check(), bet, PUBPOKER).binding == Action(B, 600)
    check = OutOfTurn.record(hand, 3, Action(X))
    assert rule_out_of_turn(hand.check(), check, PUBPOKER).binding == Action(X)


def test_X11_pubpoker_fold_out_of_turn_is_always_binding() -> None:
    # "Fold utanfor tur er normalt bindande." Even though seat 4 raises first.
    hand = preflop()
    oot = OutOfTurn.record(hand, 1, Action(F))
    ruling = rule_out_of_turn(hand.raise_to(600), oot, PUBPOKER)
    assert ruling.binding == Action(F) and ruling.action_changed


def test_X11_pubpoker_changed_action_gives_new_options() -> None:
    # FAQ: "Dersom handlinga endrar seg før turen kjem til deg, kan
    # turneringsleiaren gi deg nye val."
    hand = preflop()
    oot = OutOfTurn.record(hand, 1, Action(C))
    hand = hand.raise_to(600)
    ruling = rule_out_of_turn(hand, oot, PUBPOKER)
    assert ruling.binding is None and ruling.action_changed
    assert ruling.allowed == hand.legal_actions() >= {F, C, R}
    assert ruling.withdrawn  # the 200 put out of turn goes back first
    verify_act_after_out_of_turn(hand, oot, PUBPOKER, Action(R, 1500))


def test_X11_call_or_fold_player_may_only_call_or_fold_and_the_bet_is_withdrawn() -> None:
    # Seed 002: "Handler man uden for tur kan man kun calle eller folde når det
    # bliver ens tur. Har man lavet et bet udenfor tur trækkes dette tilbage."
    hand = flop()
    oot = OutOfTurn.record(hand, 4, Action(B, 600))
    hand = hand.bet(200).call()
    ruling = rule_out_of_turn(hand, oot, PF)
    assert ruling.binding is None and ruling.withdrawn
    assert ruling.allowed == {C, F}
    with pytest.raises(OutOfTurnRestricted) as err:
        verify_act_after_out_of_turn(hand, oot, PF, Action(R, 600))
    assert err.value.translate("da").startswith("Efter handling uden for tur kan sæde 4 kun")
    assert can_act_after_out_of_turn(hand, oot, PF, Action(C))


def test_X11_call_or_fold_with_nothing_to_call_means_check_or_fold() -> None:
    hand = flop()
    oot = OutOfTurn.record(hand, 4, Action(B, 600))
    hand = hand.check().check()
    assert rule_out_of_turn(hand, oot, OutOfTurnPolicy.CALL_OR_FOLD).allowed == {X, F}


def test_X11_call_or_fold_binds_only_the_next_turn() -> None:
    hand = preflop()
    oot = OutOfTurn.record(hand, 1, Action(R, 600))
    hand = hand.call()
    assert rule_out_of_turn(hand, oot, PF).allowed == {C, F}
    hand = hand.call().raise_to(800).fold().call()  # the small blind re-opens it
    assert hand.actor == 1
    assert R in rule_out_of_turn(hand, oot, PF).allowed


def test_X11_call_only_locks_the_player_for_the_whole_round() -> None:
    # Seed 003 #8: "Acting udenfor tur låser spilleren, således at spilleren kun
    # kan call i denne bettingrunde."
    hand = preflop()
    oot = OutOfTurn.record(hand, 1, Action(R, 600))
    hand = hand.call()
    assert rule_out_of_turn(hand, oot, DK).allowed == {C, F}
    hand = hand.call().raise_to(800).fold().call()
    assert hand.actor == 1
    ruling = rule_out_of_turn(hand, oot, DK)
    assert ruling.allowed == {C, F} and not ruling.withdrawn
    hand = hand.call().advance()  # a new round: the lock is gone
    while hand.actor != 1:
        hand = hand.check()
    assert B in rule_out_of_turn(hand, oot, DK).allowed


def test_X11_only_actions_out_of_turn_and_only_in_turn_rulings() -> None:
    hand = preflop()
    with pytest.raises(NotOutOfTurn):
        OutOfTurn.record(hand, 4, Action(C))
    oot = OutOfTurn.record(hand, 1, Action(C))
    with pytest.raises(NotYourTurn):
        rule_out_of_turn(hand, oot, PUBPOKER)
