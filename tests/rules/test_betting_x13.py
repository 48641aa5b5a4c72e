"""X13: no raise is offered when nobody could call it (RULES.md X13).

When every opponent still in the hand is all-in, or none has the chips to
put in more than the bet, the options are call (or check) and fold. An
all-in for more than the largest opponent stack is then a call: the chips
over it are the uncalled remainder and stay with the player.
"""

from __future__ import annotations

import pytest

from rules.betting import ActionKind, BettingHand
from rules.betting_errors import NobodyCanCall, NobodyToRaise
from rules.i18n import LANGUAGES

F, C, R, A = ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE, ActionKind.ALL_IN


def example() -> BettingHand:
    # 25/50, button 3: seat 1 small blind (5 000), seat 2 big blind (1 500).
    # The button, first to act, goes all-in for 4 000.
    hand = BettingHand.start({1: 5000, 2: 1500, 3: 4000}, 3, "25/50")
    assert (hand.small_blind_seat, hand.big_blind_seat, hand.actor) == (1, 2, 3)
    return hand.go_all_in()


def test_X13_no_raise_when_no_opponent_has_the_chips_to_call_it() -> None:
    hand = example()
    # Seat 2 has 1 500 in all, seat 3 is all-in: nobody can call more than 4 000.
    assert hand.actor == 1 and hand.to_call == 3975
    assert R not in hand.legal_actions() and hand.legal_actions() >= {F, C}
    assert hand.min_raise_to is None and hand.max_raise_to is None
    assert not hand.can_raise_to(5000)
    with pytest.raises(NobodyCanCall) as err:
        hand.raise_to(5000)
    assert err.value.translate("en").endswith("you may only call or fold")


def test_X13_all_in_over_the_largest_opponent_stack_is_a_call_and_the_rest_returned() -> None:
    hand = example()
    assert hand.can_all_in()
    shoved = hand.go_all_in()
    assert shoved == hand.call()
    last = shoved.history[-1]
    assert (last.seat, last.kind, last.added, last.to) == (1, C, 3975, 4000)
    # The 1 000 nobody can call never leaves seat 1.
    assert shoved.stacks[1] == 1000 and shoved.bet_level == 4000
    assert shoved.actor == 2
    done = shoved.call()  # seat 2 calls all-in for 1 500
    assert done.is_betting_over
    assert [(p.amount, sorted(p.eligible), p.uncalled) for p in done.pots] == [
        (4500, [1, 2, 3], False),
        (5000, [1, 3], False),
    ]


def test_X13_no_raise_when_every_opponent_is_all_in() -> None:
    # Heads-up, the button shoves 4 000; the big blind has 9 000: call or fold.
    hand = BettingHand.start({1: 4000, 2: 9000}, 1, "50/100").go_all_in()
    assert hand.actor == 2
    assert R not in hand.legal_actions()
    with pytest.raises(NobodyToRaise):
        hand.raise_to(9000)
    # Its all-in is a call of the 4 000; the other 5 000 stay in front of it.
    shoved = hand.go_all_in()
    assert shoved == hand.call() and shoved.stacks[2] == 5000
    assert [(p.amount, sorted(p.eligible)) for p in shoved.pots] == [(8000, [1, 2])]


def test_X13_a_raise_is_offered_while_anyone_can_call_part_of_it() -> None:
    # Seat 2 can still put in more than 4 000 (it has 4 500), so seat 1 may raise;
    # the part of an all-in over 4 500 will be returned as uncalled.
    hand = BettingHand.start({1: 5000, 2: 4500, 3: 4000}, 3, "25/50").go_all_in()
    assert hand.actor == 1 and R in hand.legal_actions()
    assert hand.min_raise_to == hand.max_raise_to == 5000
    hand = hand.go_all_in().call()
    pots = [(p.amount, sorted(p.eligible), p.uncalled) for p in hand.pots]
    assert pots == [(12000, [1, 2, 3], False), (1000, [1, 2], False), (500, [1], True)]


def test_X13_refusal_in_every_language() -> None:
    assert NobodyCanCall.missing_languages() == ()
    assert set(NobodyCanCall.messages) == set(LANGUAGES)
    assert isinstance(NobodyCanCall(), ValueError)
