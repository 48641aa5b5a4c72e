"""Calling the clock on a player (C5, seed 000 §14).

Up to 25 seconds to act, then a final five-second countdown. If time runs
out, a player facing a bet has a dead hand; one not facing a bet checks.
The TD may adjust the time to the situation, so both spans are fields.
Time is shared tournament seconds passed in as ``now``: nothing here reads
a clock.
"""

from __future__ import annotations

from enum import StrEnum, unique
from typing import TYPE_CHECKING

from rules.betting_actions import Action, ActionKind
from rules.betting_errors import NotYourTurn
from rules.errors import RulesError
from rules.records import RecordMethods, record

if TYPE_CHECKING:
    # Only a type here: the betting engine is not imported for a clock call.
    from rules.betting import BettingHand

__all__ = ["BadClockCall", "ClockCall", "ClockOutcome", "ClockPhase"]


@unique
class ClockPhase(StrEnum):
    THINKING = "thinking"
    FINAL_COUNTDOWN = "final-countdown"
    EXPIRED = "expired"


@unique
class ClockOutcome(StrEnum):
    DEAD_HAND = "dead-hand"
    CHECK = "check"

    @property
    def action(self) -> Action:
        """The action the engine applies: a dead hand is folded.

        >>> ClockOutcome.DEAD_HAND.action
        Action(kind=<ActionKind.FOLD: 'fold'>, amount=None)
        """
        return Action(ActionKind.FOLD if self is ClockOutcome.DEAD_HAND else ActionKind.CHECK)


class BadClockCall(RulesError, ValueError):
    messages = {
        "nn": "Ugyldig klokke: {seconds} s og {final} s nedteljing",
        "nb": "Ugyldig klokke: {seconds} s og {final} s nedtelling",
        "da": "Ugyldigt ur: {seconds} s og {final} s nedtælling",
        "en": "Invalid clock call: {seconds} s and a {final} s countdown",
    }


@record
class ClockCall(RecordMethods):
    """A clock called on ``seat`` at ``table``, started at shared time ``started_at``.

    >>> clock = ClockCall(table=3, seat=7, started_at=100.0)
    >>> clock.remaining(110.0), clock.phase(110.0)
    (20.0, <ClockPhase.THINKING: 'thinking'>)
    >>> clock.phase(127.0), clock.phase(130.0)
    (<ClockPhase.FINAL_COUNTDOWN: 'final-countdown'>, <ClockPhase.EXPIRED: 'expired'>)
    >>> clock.outcome(facing_bet=True), clock.outcome(facing_bet=False)
    (<ClockOutcome.DEAD_HAND: 'dead-hand'>, <ClockOutcome.CHECK: 'check'>)
    """

    table: int
    seat: int
    started_at: float
    seconds: float = 25.0
    final: float = 5.0

    def __post_init__(self) -> None:
        if self.seconds < 0 or self.final < 0 or self.seconds + self.final <= 0:
            raise BadClockCall(seconds=self.seconds, final=self.final)

    @property
    def ends_at(self) -> float:
        return self.started_at + self.seconds + self.final

    def remaining(self, now: float) -> float:
        """Seconds left in all, counting the final countdown; never negative."""
        return max(0.0, self.ends_at - now)

    def phase(self, now: float) -> ClockPhase:
        if now >= self.ends_at:
            return ClockPhase.EXPIRED
        if now >= self.started_at + self.seconds:
            return ClockPhase.FINAL_COUNTDOWN
        return ClockPhase.THINKING

    def is_expired(self, now: float) -> bool:
        return self.phase(now) is ClockPhase.EXPIRED

    def outcome(self, facing_bet: bool) -> ClockOutcome:
        """What expiry means: facing a bet the hand is dead, otherwise a check."""
        return ClockOutcome.DEAD_HAND if facing_bet else ClockOutcome.CHECK

    def expiry_action(self, hand: BettingHand) -> Action:
        """The action to apply to ``hand`` when this clock runs out.

        First to act pre-flop faces the big blind, a bet; the big blind with
        only callers before it faces none, so it checks.

        >>> from rules.betting import BettingHand
        >>> hand = BettingHand.start({1: 1000, 2: 1000, 3: 1000}, 3, "50/100")
        >>> ClockCall(1, 3, 0.0).expiry_action(hand).kind
        <ActionKind.FOLD: 'fold'>
        >>> ClockCall(1, 2, 0.0).expiry_action(hand.call().call()).kind
        <ActionKind.CHECK: 'check'>
        """
        if hand.actor != self.seat:
            hand.verify_fold()
            raise NotYourTurn(seat=self.seat, actor=hand.actor)
        return self.outcome(facing_bet=hand.to_call > 0).action
