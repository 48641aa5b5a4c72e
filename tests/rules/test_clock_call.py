"""Calling the clock (RULES.md C5, seed 000 §14)."""

from __future__ import annotations

import pytest

from rules.betting import Action, ActionKind, BettingHand
from rules.betting_errors import NotYourTurn
from rules.clock_call import BadClockCall, ClockCall, ClockOutcome, ClockPhase


def test_C5_25_seconds_then_a_final_5_second_countdown() -> None:
    # "inntil 25 sekund og deretter ei avsluttande nedteljing på fem sekund"
    clock = ClockCall(table=3, seat=7, started_at=1000.0)
    assert (clock.seconds, clock.final) == (25.0, 5.0)
    assert clock.phase(1000.0) is ClockPhase.THINKING
    assert clock.remaining(1000.0) == 30.0
    assert clock.phase(1024.9) is ClockPhase.THINKING
    assert clock.phase(1025.0) is ClockPhase.FINAL_COUNTDOWN
    assert clock.remaining(1027.5) == 2.5
    assert clock.phase(1030.0) is ClockPhase.EXPIRED and clock.is_expired(1030.0)
    assert clock.remaining(1100.0) == 0.0


def test_C5_time_can_be_adjusted_to_the_situation() -> None:
    # "Tida kan tilpassast situasjonen."
    clock = ClockCall(1, 2, started_at=0.0, seconds=60.0)
    assert clock.phase(55.0) is ClockPhase.THINKING and clock.ends_at == 65.0
    with pytest.raises(BadClockCall):
        ClockCall(1, 2, 0.0, seconds=-1.0)


def test_C5_expiry_facing_a_bet_kills_the_hand_otherwise_checks() -> None:
    # "Handa er død dersom spelaren møter ein innsats. Handlinga blir check
    # dersom spelaren ikkje møter ein innsats."
    clock = ClockCall(1, 3, started_at=0.0)
    assert clock.outcome(facing_bet=True) is ClockOutcome.DEAD_HAND
    assert clock.outcome(facing_bet=False) is ClockOutcome.CHECK
    hand = BettingHand.start({1: 5000, 2: 5000, 3: 5000}, 3, "100/200")
    assert clock.expiry_action(hand) == Action(ActionKind.FOLD)  # seat 3 faces the BB
    option = hand.call().call()  # the big blind's option: no bet to face
    assert ClockCall(1, 2, 0.0).expiry_action(option) == Action(ActionKind.CHECK)
    assert option.apply(ClockCall(1, 2, 0.0).expiry_action(option)).is_round_complete
    flop = option.check().advance().bet(400)
    assert ClockCall(1, 2, 0.0).expiry_action(flop) == Action(ActionKind.FOLD)


def test_C5_clock_only_on_the_player_to_act() -> None:
    hand = BettingHand.start({1: 5000, 2: 5000, 3: 5000}, 3, "100/200")
    with pytest.raises(NotYourTurn):
        ClockCall(1, 1, 0.0).expiry_action(hand)
