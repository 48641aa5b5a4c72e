"""What chips put out, with or without words, count as (X4, X5, X6).

A dealer sees chips cross the line and maybe hears a word; this module turns
that into the :class:`~rules.betting_actions.Action` the engine applies:

* X6: a verbal declaration in turn is binding, and a spoken amount beats
  the chips moved.
* X5: a single oversized chip facing a bet, without "raise" said first, is a
  call; with no bet to face it is a bet of the chip's full value.
* X4: several chips silently put out facing a bet (chips left behind, not
  all of them needed to call): a raise part of at least 50 % of the minimum
  raise must be completed to the minimum raise; less is a call. Putting out
  every chip is all-in.

Chips are what the player adds to a bet already in front of them this round.
Where the engine refuses a raise (a short all-in did not reopen the betting,
X7; the fixed-limit cap), raise chips count as a call, and an amount above
the pot-limit maximum is cut to it: the TD rules "you may only call", rather
than declaring the hand dead.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.betting import BettingHand
from rules.betting_actions import Action, ActionKind
from rules.errors import RulesError
from rules.records import RecordMethods, record

__all__ = ["Declaration", "NothingPutOut", "counted_action"]


class NothingPutOut(RulesError, ValueError):
    messages = {
        "nn": "Ingen sjetongar og inga erklæring: spelaren må handle tydeleg",
        "nb": "Ingen sjetonger og ingen erklæring: spilleren må handle tydelig",
        "da": "Ingen jetoner og ingen erklæring: spilleren skal handle tydeligt",
        "en": "No chips and no declaration: the player must act clearly",
    }


@record
class Declaration(RecordMethods):
    """What the player said in turn: a kind, and maybe an amount (round total).

    Seed 000 §6: when a player both speaks and moves chips, whichever came
    first decides; at the same time, a clear verbal declaration wins. So
    words said only after the chips were down (``after_chips``) do not count.
    """

    kind: ActionKind
    amount: int | None = None
    after_chips: bool = False


def counted_action(hand: BettingHand, chips: Sequence[int] = (),
                   said: Declaration | None = None) -> Action:
    """The action that counts for the actor, from chips put out and words said.

    Seed 000 FAQ: a bet of 1 000, so the minimum raise is to 2 000.

    >>> hand = BettingHand.start({1: 10000, 2: 10000, 3: 10000}, 3, "100/200")
    >>> hand = hand.call().call().check().advance().bet(1000)  # the flop is bet 1 000
    >>> counted_action(hand, [500, 500, 500]).amount  # 1 500 silently: complete to 2 000
    2000
    >>> counted_action(hand, [1000, 100, 100, 100, 100]).kind  # 1 400 silently: a call
    <ActionKind.CALL: 'call'>
    >>> counted_action(hand, [5000]).kind  # X5: one big chip is a call
    <ActionKind.CALL: 'call'>
    >>> counted_action(hand, [1000], Declaration(ActionKind.RAISE, 3000)).amount  # X6
    3000
    """
    hand.verify_fold()  # someone must be to act; says why not otherwise
    actor = hand.actor
    assert actor is not None
    put = sum(chips)
    if said is not None and not (said.after_chips and chips):
        return _declared(hand, said, put)
    owed = hand.bet_level - hand.street_bets[actor]
    if put >= hand.stacks[actor]:
        return _bounded(hand, hand.street_bets[actor] + hand.stacks[actor])
    if owed <= 0:
        if put == 0:
            return Action(ActionKind.CHECK)
        # X5: no bet to face: the chips (one or many) are a bet of their full value.
        return _bounded(hand, hand.street_bets[actor] + put)
    if put == 0:
        raise NothingPutOut()
    if len(chips) == 1 or put - min(chips) < owed or put <= owed:
        # X5, and TDA's multiple-chip rule: if every chip is needed to call, it is
        # a call (a short call is completed); so is a single oversized chip.
        return Action(ActionKind.CALL)
    full_to = hand.full_raise_to
    increment = full_to - hand.bet_level
    if 2 * (put - owed) >= increment:  # X4: half a raise or more is completed
        return _bounded(hand, max(full_to, hand.street_bets[actor] + put))
    return Action(ActionKind.CALL)


def _declared(hand: BettingHand, said: Declaration, put: int) -> Action:
    actor = hand.actor
    assert actor is not None
    owed = hand.bet_level - hand.street_bets[actor]
    match said.kind:
        case ActionKind.FOLD | ActionKind.CHECK:
            return Action(said.kind)
        case ActionKind.ALL_IN:
            # Where raising is closed, "all-in" can only mean calling with it.
            return _bounded(hand, hand.street_bets[actor] + hand.stacks[actor])
        case ActionKind.CALL:
            return Action(ActionKind.CALL if owed > 0 else ActionKind.CHECK)
        case _:
            # X6: the spoken amount wins; "raise" alone takes the chips' value,
            # and a declared raise is always at least the minimum one.
            to = said.amount if said.amount is not None else hand.street_bets[actor] + put
            return _bounded(hand, to, declared=True)


def _bounded(hand: BettingHand, to: int, *, declared: bool = False) -> Action:
    """A bet or raise to ``to``, moved into the legal range; all chips is all-in."""
    actor = hand.actor
    assert actor is not None
    all_in_to = hand.street_bets[actor] + hand.stacks[actor]
    low, high = hand.min_raise_to, hand.max_raise_to
    if low is None or high is None or (to <= hand.bet_level and not declared):
        # Raising is closed (X7, cap) or the chips do not beat the bet: a call.
        if hand.can_call():
            return Action(ActionKind.CALL)
        return Action(ActionKind.CHECK)
    to = max(low, min(high, to))
    if to >= all_in_to:
        return Action(ActionKind.ALL_IN)
    return Action(ActionKind.RAISE if hand.bet_level else ActionKind.BET, to)
