"""Action out of turn (X11): what it binds, and what the player may do in turn.

The dealer records the out-of-turn action with :meth:`OutOfTurn.record` (the
engine's hand is left untouched: the action has not happened yet). When the
player's turn comes, :func:`rule_out_of_turn` says, for the house's
:class:`~rules.house.OutOfTurnPolicy`:

* ``pubpoker`` (seed 000 §6): a fold out of turn is binding. Otherwise the
  action is binding if the action to the player did not change (only checks,
  calls or folds in between); if someone bet or raised, the player gets new
  options and any chips put out go back.
* ``call-or-fold`` (seed 002): the player may only call or fold; a bet out of
  turn is withdrawn.
* ``call-only`` (seed 003 #8): the player is locked to calling for the rest
  of that betting round; a bet out of turn is withdrawn too.

Where the seeds are silent the TDA decides: a fold out of turn is binding
under every policy (TDA 53), and "call" when nothing is owed means check.
The call-only lock forbids betting and raising, not folding: nobody can be
made to put chips in, so folding stays possible.
"""

from __future__ import annotations

from rules.betting import BettingHand
from rules.betting_actions import Action, ActionKind
from rules.betting_errors import NotYourTurn
from rules.errors import RulesError
from rules.house import HouseRules, OutOfTurnPolicy
from rules.limits import Street
from rules.records import RecordMethods, record

__all__ = [
    "NotOutOfTurn",
    "OutOfTurn",
    "OutOfTurnRestricted",
    "OutOfTurnRuling",
    "can_act_after_out_of_turn",
    "rule_out_of_turn",
    "verify_act_after_out_of_turn",
]


class NotOutOfTurn(RulesError, ValueError):
    messages = {
        "nn": "Sete {seat} handlar i tur, ikkje utanfor tur",
        "nb": "Sete {seat} handler i tur, ikke utenfor tur",
        "da": "Sæde {seat} handler i tur, ikke uden for tur",
        "en": "Seat {seat} is acting in turn, not out of turn",
    }


class OutOfTurnRestricted(RulesError, ValueError):
    messages = {
        "nn": "Etter handling utanfor tur kan sete {seat} berre: {allowed}",
        "nb": "Etter handling utenfor tur kan sete {seat} bare: {allowed}",
        "da": "Efter handling uden for tur kan sæde {seat} kun: {allowed}",
        "en": "After acting out of turn, seat {seat} may only: {allowed}",
    }


@record
class OutOfTurn(RecordMethods):
    """An action made out of turn, with the bet the player faced at that moment."""

    seat: int
    action: Action
    street: Street
    bet_level: int
    #: How many actions the hand had recorded then, to find the seat's next turn.
    moment: int

    @classmethod
    def record(cls, hand: BettingHand, seat: int, action: Action) -> OutOfTurn:
        """Note an out-of-turn action; refused if it is in fact the seat's turn.

        >>> hand = BettingHand.start({1: 1000, 2: 1000, 3: 1000, 4: 1000}, 4, "50/100")
        >>> OutOfTurn.record(hand, 4, Action(ActionKind.FOLD)).street
        <Street.PREFLOP: 'preflop'>
        """
        hand.verify_fold()  # somebody must be to act
        hand.amount_to_call(seat)  # the seat must be in the hand
        if seat == hand.actor:
            raise NotOutOfTurn(seat=seat)
        return cls(seat, action, hand.street, hand.bet_level, len(hand.history))


@record
class OutOfTurnRuling(RecordMethods):
    """What follows when the out-of-turn player's turn comes.

    ``binding`` is the action to apply now (None: the player chooses among
    ``allowed``). ``withdrawn`` means chips put out of turn go back first.
    """

    binding: Action | None
    allowed: frozenset[ActionKind]
    withdrawn: bool
    action_changed: bool


def _policy(house: HouseRules | OutOfTurnPolicy) -> OutOfTurnPolicy:
    return house.out_of_turn if isinstance(house, HouseRules) else house


def rule_out_of_turn(hand: BettingHand, oot: OutOfTurn,
                     house: HouseRules | OutOfTurnPolicy) -> OutOfTurnRuling:
    """X11: the ruling for ``oot.seat`` now that it is (again) their turn.

    Seat 1 (the button) calls out of turn before seat 4; seat 4 raises, so
    the action to seat 1 changed:

    >>> hand = BettingHand.start({1: 5000, 2: 5000, 3: 5000, 4: 5000}, 1, "50/100")
    >>> oot = OutOfTurn.record(hand, 1, Action(ActionKind.CALL))
    >>> ruling = rule_out_of_turn(hand.raise_to(300), oot, OutOfTurnPolicy.PUBPOKER)
    >>> ruling.binding, ruling.action_changed, ActionKind.RAISE in ruling.allowed
    (None, True, True)
    >>> rule_out_of_turn(hand.call(), oot, OutOfTurnPolicy.PUBPOKER).binding
    Action(kind=<ActionKind.CALL: 'call'>, amount=None)
    >>> sorted(rule_out_of_turn(hand.call(), oot, OutOfTurnPolicy.CALL_OR_FOLD).allowed)
    [<ActionKind.CALL: 'call'>, <ActionKind.FOLD: 'fold'>]
    """
    if hand.actor != oot.seat:
        hand.verify_fold()
        raise NotYourTurn(seat=oot.seat, actor=hand.actor)
    policy = _policy(house)
    same_round = hand.street == oot.street
    changed = not same_round or hand.bet_level != oot.bet_level
    legal = hand.legal_actions()
    chips_out = oot.action.kind.puts_chips_in
    first_turn = same_round and all(a.seat != oot.seat for a in hand.history[oot.moment:])
    # call-only locks the rest of the round; every other ruling is for the next turn.
    locked = policy is OutOfTurnPolicy.CALL_ONLY and same_round
    if not (first_turn or locked):
        return OutOfTurnRuling(None, legal, False, changed)
    if oot.action.kind is ActionKind.FOLD and first_turn:
        return OutOfTurnRuling(oot.action, frozenset({ActionKind.FOLD}), False, changed)
    if policy is OutOfTurnPolicy.PUBPOKER:
        if not changed and _legal(hand, oot.action):
            return OutOfTurnRuling(oot.action, frozenset({oot.action.kind}), False, changed)
        return OutOfTurnRuling(None, legal, chips_out, changed)
    passive = {ActionKind.CALL, ActionKind.CHECK, ActionKind.FOLD}
    return OutOfTurnRuling(None, legal & passive, chips_out and first_turn, changed)


def _legal(hand: BettingHand, action: Action) -> bool:
    try:
        hand.apply(action)
    except RulesError:
        return False
    return True


def verify_act_after_out_of_turn(hand: BettingHand, oot: OutOfTurn,
                                 house: HouseRules | OutOfTurnPolicy, action: Action) -> None:
    """Refuse an action the out-of-turn ruling does not leave the player.

    >>> hand = BettingHand.start({1: 5000, 2: 5000, 3: 5000, 4: 5000}, 1, "50/100")
    >>> oot = OutOfTurn.record(hand, 1, Action(ActionKind.RAISE, 300))
    >>> verify_act_after_out_of_turn(hand.call(), oot, OutOfTurnPolicy.CALL_OR_FOLD,
    ...                              Action(ActionKind.RAISE, 300))
    Traceback (most recent call last):
    rules.out_of_turn.OutOfTurnRestricted: After acting out of turn, seat 1 may only: call, fold
    """
    ruling = rule_out_of_turn(hand, oot, house)
    ok = action == ruling.binding if ruling.binding else action.kind in ruling.allowed
    if not ok:
        allowed = ruling.binding or ", ".join(sorted(ruling.allowed))
        raise OutOfTurnRestricted(seat=oot.seat, allowed=str(allowed))
    hand.apply(action)  # and the engine's own rules still hold


def can_act_after_out_of_turn(hand: BettingHand, oot: OutOfTurn,
                              house: HouseRules | OutOfTurnPolicy, action: Action) -> bool:
    try:
        verify_act_after_out_of_turn(hand, oot, house, action)
    except RulesError:
        return False
    return True
