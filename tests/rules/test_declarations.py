"""Chips put out and words said (RULES.md X4, X5, X6)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.betting import Action, ActionKind, BettingHand, play
from rules.declarations import Declaration, NothingPutOut, counted_action
from tests.rules.test_betting import random_hands

F, X, C, B, R, A = (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET,
                    ActionKind.RAISE, ActionKind.ALL_IN)


def flop(stacks: dict[int, int], blinds: str = "100/200") -> BettingHand:
    """Seats 1..n, the button last; everyone calls pre-flop and the flop comes."""
    hand = BettingHand.start(stacks, max(stacks), blinds)
    while hand.actor is not None:
        hand = hand.call() if hand.can_call() else hand.check()
    return hand.advance()


def facing_1000(**stacks: int) -> BettingHand:
    # Seed 000 FAQ: "Ein spelar satsar 1 000. Minste lovlege høgning er 1 000 til,
    # altså totalt 2 000." Seat 1 bets 1 000 on the flop; seat 2 is to act.
    hand = flop({1: 10000, 2: stacks.get("two", 10000), 3: 10000}).bet(1000)
    assert hand.actor == 2 and hand.full_raise_to == 2000
    return hand


def test_X4_silent_1500_must_be_completed_to_2000() -> None:
    # FAQ: "Legg du stille ut fleire sjetongar med samla verdi på 1 500, og ikkje
    # alle sjetongane er nødvendige for å syne, må du normalt fullføre til 2 000."
    hand = facing_1000()
    for chips in ([500, 500, 500], [1000, 500], [1000, 100, 100, 100, 100, 100]):
        assert counted_action(hand, chips) == Action(R, 2000)
    assert hand.apply(counted_action(hand, [500, 500, 500])).street_bets[2] == 2000


def test_X4_silent_1400_is_a_call_of_1000() -> None:
    # FAQ: "Legg du på same måte ut 1 400, er det mindre enn 50 prosent av den
    # nødvendige høgninga. Handlinga blir normalt rekna som call på 1 000."
    hand = facing_1000()
    action = counted_action(hand, [1000, 100, 100, 100, 100])
    assert action == Action(C)
    assert hand.apply(action).street_bets[2] == 1000


def test_X4_a_full_raise_or_more_stands_at_its_amount() -> None:
    hand = facing_1000()
    assert counted_action(hand, [1000, 1000, 500]) == Action(R, 2500)


def test_X4_half_a_raise_counts_against_the_last_full_raise_not_the_total() -> None:
    # Pre-flop 100/200, A raises to 500 (a raise of 300): the next minimum is 800.
    hand = BettingHand.start({1: 10000, 2: 10000, 3: 10000, 4: 10000}, 4, "100/200")
    hand = hand.raise_to(500)
    assert counted_action(hand, [500, 100, 25, 25]) == Action(R, 800)  # 650: 150 of 300
    assert counted_action(hand, [500, 100, 25, 10, 5]) == Action(C)  # 640: under half


def test_X4_tda_rule_45_multiple_chips_and_the_50_percent_standard() -> None:
    # TDA 2024 Rule 45 illustrations: NLHE 250-500, UTG raises 600 to 1 100.
    hand = BettingHand.start({1: 20000, 2: 20000, 3: 20000, 4: 20000}, 4, "250/500")
    hand = hand.raise_to(1100)
    # 1-B: one 500 and one 1 000 chip, nothing said: removing either leaves less
    # than the 1 100 to call, so every chip is needed: a call.
    assert counted_action(hand, [500, 1000]) == Action(C)
    # 2: one 1 000 and five 100s = 1 500: 400 over the call, at least half the
    # 600 minimum raise, so a full raise to 1 700.
    assert counted_action(hand, [1000, 100, 100, 100, 100, 100]) == Action(R, 1700)
    # 3: one 1 000 and three 100s = 1 300: 200 over, under half: a call.
    assert counted_action(hand, [1000, 100, 100, 100]) == Action(C)


def test_X4_all_the_players_chips_are_all_in() -> None:
    # FAQ: "Dersom du legg ut alle dei siste sjetongane dine, er du all-in."
    hand = facing_1000(two=1600)  # 1 400 left after the big blind
    action = counted_action(hand, [1000, 100, 100, 100, 100])
    assert action == Action(A)
    after = hand.apply(action)
    assert after.street_bets[2] == 1400 and 2 in after.all_in


def test_X4_raise_chips_count_as_a_call_where_betting_is_not_reopened() -> None:
    # X7: A bets 1 000, B all-in 1 400, C calls: A may only call, whatever A puts out.
    hand = facing_1000(two=1600)
    hand = hand.go_all_in().call()
    assert hand.actor == 1
    assert counted_action(hand, [1000, 1000, 1000]) == Action(C)
    assert counted_action(hand, [], Declaration(R, 5000)) == Action(C)
    assert counted_action(hand, [], Declaration(A)) == Action(C)


def test_X5_single_oversized_chip_facing_a_bet_is_a_call() -> None:
    # FAQ: "Innsatsen er 400. Du legg stille ut éin 1 000-sjetong. Dette er call på 400."
    hand = flop({1: 10000, 2: 10000, 3: 10000}).bet(400)
    action = counted_action(hand, [1000])
    assert action == Action(C)
    assert hand.apply(action).street_bets[2] == 400


def test_X5_single_chip_with_no_bet_is_a_bet_of_its_full_value() -> None:
    hand = flop({1: 10000, 2: 10000, 3: 10000})
    assert counted_action(hand, [1000]) == Action(B, 1000)
    assert counted_action(hand, []) == Action(X)


def test_X5_raise_said_before_the_oversized_chip_raises_by_the_chip() -> None:
    # "Vil du høgne, må du seie «raise» før sjetongen treff bordet."
    hand = flop({1: 10000, 2: 10000, 3: 10000}).bet(400)
    assert counted_action(hand, [1000], Declaration(R)) == Action(R, 1000)


def test_X5_raise_said_after_the_chip_hit_the_table_is_still_a_call() -> None:
    # Seed 000 §6: whichever comes first, words or chips, decides.
    hand = flop({1: 10000, 2: 10000, 3: 10000}).bet(400)
    assert counted_action(hand, [1000], Declaration(R, after_chips=True)) == Action(C)


def test_X6_spoken_amount_beats_the_chips_moved() -> None:
    hand = facing_1000()
    assert counted_action(hand, [500, 500, 500], Declaration(R, 3000)) == Action(R, 3000)
    assert counted_action(hand, [5000, 5000], Declaration(C)) == Action(C)
    assert counted_action(hand, [1000, 1000], Declaration(F)) == Action(F)
    fresh = flop({1: 10000, 2: 10000, 3: 10000})
    assert counted_action(fresh, [1000], Declaration(B, 600)) == Action(B, 600)


def test_X6_a_declared_raise_is_at_least_the_minimum() -> None:
    hand = facing_1000()
    assert counted_action(hand, [1000], Declaration(R)) == Action(R, 2000)
    assert counted_action(hand, [], Declaration(R, 1500)) == Action(R, 2000)
    assert counted_action(hand, [], Declaration(R, 50000)) == Action(A)


def test_X6_call_said_with_nothing_to_call_is_a_check() -> None:
    hand = flop({1: 10000, 2: 10000, 3: 10000})
    assert counted_action(hand, [], Declaration(C)) == Action(X)


def test_nothing_put_out_facing_a_bet_is_not_an_action() -> None:
    hand = facing_1000()
    with pytest.raises(NothingPutOut):
        counted_action(hand, [])


def test_counted_actions_are_always_legal() -> None:
    hand = play(facing_1000(), "call, call").advance()
    for chips in ([], [25], [100], [1000], [500, 500, 500], [5000, 5000]):
        assert hand.can_apply(counted_action(hand, chips))


@settings(max_examples=300, deadline=None)
@given(random_hands(), st.data())
def test_property_what_the_chips_count_as_is_always_a_legal_action(
        hand: BettingHand, data: st.DataObject) -> None:
    for _ in range(data.draw(st.integers(0, 12))):
        if hand.is_hand_over:
            return
        if hand.actor is None:
            hand = hand.advance()
            continue
        hand = hand.apply(_any_legal(hand, data))
    if hand.actor is None:
        return
    chips = data.draw(st.lists(st.sampled_from([25, 100, 500, 1000, 5000]), max_size=8))
    said = data.draw(st.one_of(
        st.none(),
        st.builds(Declaration, st.sampled_from(list(ActionKind)),
                  st.one_of(st.none(), st.integers(1, 20000))),
    ))
    try:
        action = counted_action(hand, chips, said)
    except NothingPutOut:
        assert not chips and said is None and hand.to_call > 0
        return
    if said is not None and said.kind is X and hand.to_call:
        assert action == Action(X)  # a binding check facing a bet is the engine's refusal
        return
    assert hand.can_apply(action), (action, chips, said)


def _any_legal(hand: BettingHand, data: st.DataObject) -> Action:
    kind = data.draw(st.sampled_from(sorted(hand.legal_actions())))
    if kind in (B, R):
        low, high = hand.min_raise_to, hand.max_raise_to
        assert low is not None and high is not None
        return Action(kind, data.draw(st.integers(low, high)))
    return Action(kind)
