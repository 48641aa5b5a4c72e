"""One simulated table device: it plays real hold'em hands with the rules engine.

The betting is :class:`rules.betting.BettingHand`, the showdown
:func:`rules.hands.evaluate_high`, and the pots :func:`rules.pots.side_pots`
and :func:`rules.pots.award_pots`, so chips are conserved the way the real
table counts them. Only the players' choices are random: a rough hand
strength and a die decide between folding, calling, betting and moving in.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from rules.betting import ActionKind, BettingHand
from rules.cards import Card, shuffled_deck
from rules.errors import RulesError
from rules.hands import evaluate_high
from rules.posting import Blinds
from rules.pots import award_pots

__all__ = ["HandResult", "play_hand"]

#: A hand that needs more actions than this has gone wrong; the sim gives up on it.
_MAX_ACTIONS = 400


@dataclass(frozen=True)
class HandResult:
    #: Seat → chips after the hand (0 for a player who is out).
    stacks: dict[int, int]
    #: The seat that won the most chips (the bust's "by").
    winner: int


def _preflop_strength(hole: tuple[Card, ...]) -> float:
    """0..1: pairs and high cards are strong, as any player at the table knows."""
    high, low = sorted((int(c.rank) for c in hole), reverse=True)
    score = (high + low - 4) / 24
    if high == low:
        score = 0.55 + high / 30
    if hole[0].suit == hole[1].suit:
        score += 0.05
    return min(1.0, score)


def _strength(hole: tuple[Card, ...], board: tuple[Card, ...]) -> float:
    if not board:
        return _preflop_strength(hole)
    # High card is weak, a pair middling, two pair strong, trips or better the nuts.
    return min(1.0, 0.25 + 0.25 * evaluate_high(hole, board).category.strength)


def _act(hand: BettingHand, strength: float, rng: random.Random, big_blind: int) -> BettingHand:
    legal = hand.legal_actions()
    roll = rng.random()
    stack = hand.stacks[hand.actor] if hand.actor is not None else 0
    short = stack <= 10 * big_blind
    if ActionKind.ALL_IN in legal and ((strength > 0.95 and roll < 0.1)
                                       or (short and strength > 0.6 and roll < 0.6)):
        return hand.go_all_in()
    aggressive = strength > 0.7 and roll < 0.3
    if ActionKind.CHECK in legal:
        if aggressive and ActionKind.BET in legal:
            return hand.bet(_size(hand, rng))
        return hand.check()
    # What calling costs, as a share of the chips behind, decides how good a hand must be.
    cost = hand.to_call / max(stack, 1)
    needed = 0.45 if cost < 0.1 else 0.6 if cost < 0.3 else 0.8
    if strength < needed and (cost >= 0.1 or roll < 0.85):
        return hand.fold()
    if aggressive and ActionKind.RAISE in legal:
        return hand.raise_to(_size(hand, rng))
    return hand.call() if ActionKind.CALL in legal else hand.go_all_in()


def _size(hand: BettingHand, rng: random.Random) -> int:
    low = hand.min_raise_to or 0
    high = hand.max_raise_to or low
    target = low + int((hand.pot // 2) * rng.random())
    return max(low, min(high, target))


def play_hand(stacks: Mapping[int, int], button: int, blinds: Blinds, rng: random.Random, *,
              blind_seats: tuple[int | None, int] | None = None) -> HandResult:
    """Deal, bet, show down and award one hand; ``stacks`` are seat → chips."""
    try:
        hand = BettingHand.start(stacks, button, blinds, blind_seats=blind_seats)
    except RulesError:
        hand = BettingHand.start(stacks, button, blinds)
    deck = shuffled_deck(rng)
    seats = sorted(stacks)
    holes = {seat: (deck[2 * i], deck[2 * i + 1]) for i, seat in enumerate(seats)}
    board_all = deck[2 * len(seats):2 * len(seats) + 5]
    shown = {"preflop": 0, "flop": 3, "turn": 4, "river": 5}
    for _ in range(_MAX_ACTIONS):
        if hand.is_hand_over:
            break
        if hand.actor is None:
            if not hand.can_advance():
                break
            hand = hand.advance()
            continue
        board = tuple(board_all[:shown.get(str(hand.street), 5)])
        hand = _act(hand, _strength(holes[hand.actor], board), rng, blinds.big_blind)
    live = [s for s in seats if s not in hand.folded]
    highs = {s: evaluate_high(holes[s], board_all) for s in live} if len(live) > 1 else {}
    pots = hand.pots
    awards = award_pots(pots, highs or {s: 1 for s in live}, button=button).total
    after = {s: hand.stacks[s] + awards.get(s, 0) for s in seats}
    assert sum(after.values()) == sum(stacks.values()), "chips are conserved"
    winner = max(seats, key=lambda s: (awards.get(s, 0) - hand.contributions.get(s, 0), -s))
    return HandResult(after, winner)
