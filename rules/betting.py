"""The betting engine: one hold'em hand's betting, street by street.

:class:`BettingHand` is **immutable**: every action returns a new hand, so a
hand can be replayed from its start and any earlier state kept for undo and
property tests. Each action follows the verify / can / do triad:
``verify_raise_to(n)`` raises a translated :class:`~rules.errors.RulesError`
saying why not, ``can_raise_to(n)`` answers yes or no, ``raise_to(n)`` acts.

Public API (amounts of bets and raises are the player's total for the round)::

    BettingHand.start(stacks: Mapping[int, int], button: int, blinds: Blinds | str, *,
                      structure=BettingStructure.NO_LIMIT, house=HouseRules(),
                      blind_seats: tuple[int | None, int] | None = None,
                      absent: Iterable[int] = ()) -> BettingHand
    hand.apply(action: Action | str, seat: int | None = None) -> BettingHand
    hand.fold() / check() / call() / bet(n) / raise_to(n) / go_all_in() / advance()
    hand.verify_*(...) -> None, hand.can_*(...) -> bool  (verify_all_in, can_all_in for all-in)
    hand.actor, .to_call, .min_raise_to, .max_raise_to, .legal_actions()
    hand.pot, .pots: tuple[Pot, ...], .contributions / .bets / .antes: dict[int, int],
    hand.folded: frozenset[int], .all_in,
    hand.stacks, .street, .street_bets, .last_aggressor, .history,
    hand.is_round_complete, .is_betting_over, .is_hand_over, .all_hands_face_up
    play(hand, actions: str | Iterable[Action | str], auto_advance=True) -> BettingHand
    parse_action(text) -> Action, parse_actions(text) -> tuple[Action, ...]

For example, the FAQ's minimum raise (X2):

>>> hand = BettingHand.start({1: 10000, 2: 10000, 3: 10000, 4: 10000, 5: 10000}, 5, "100/200")
>>> play(hand, "raise 500, raise 1200").min_raise_to
1900

Seats are numbered clockwise. The player to act is ``actor``; an absent
player (B6, F6) has posted like anyone else and is folded by the engine as
soon as the action reaches them. Chips a player put in that nobody called
stay in ``contributions``: ``pots`` returns them as an uncalled pot. Antes
are dead money, in ``contributions`` but not in ``bets`` (B7). A raise is
offered only while somebody could call it (X13).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TypeVar

from rules.betting_actions import Acted, Action, ActionKind, parse_action, parse_actions
from rules.betting_errors import (
    BadStack,
    BetAlreadyMade,
    BetTooLarge,
    BetTooSmall,
    CannotCheck,
    HandIsOver,
    NoBetToRaise,
    NothingToCall,
    NotYourTurn,
    RaiseTooLarge,
    RaiseTooSmall,
    RoundNotComplete,
    SeatNotInHand,
    TooFewPlayers,
)
from rules.betting_state import BettingState, _ok
from rules.errors import RulesError
from rules.house import HouseRules
from rules.limits import (
    BettingStructure,
    Street,
    fixed_limit_unit,
)
from rules.posting import Blinds, blind_seats, post_forced_bets

__all__ = [
    "Acted",
    "Action",
    "ActionKind",
    "BettingHand",
    "BettingStructure",
    "Blinds",
    "Street",
    "parse_action",
    "parse_actions",
    "play",
]


_T = TypeVar("_T")


@dataclass(frozen=True)
class BettingHand(BettingState):
    """One hand's betting; build it with :meth:`start`, act with the triads."""

    # -- building ---------------------------------------------------------

    @classmethod
    def start(
        cls,
        stacks: Mapping[int, int],
        button: int,
        blinds: Blinds | str,
        *,
        structure: BettingStructure = BettingStructure.NO_LIMIT,
        house: HouseRules | None = None,
        blind_seats: tuple[int | None, int] | None = None,
        absent: Iterable[int] = (),
    ) -> BettingHand:
        """Deal a hand: post antes and blinds and find the first player to act.

        ``stacks`` are the chips in front of each dealt-in seat (table
        stakes, X10). The blind seats follow the button (B1, B2) unless
        given, e.g. ``(None, 7)`` for a hand with no small blind (B3).

        >>> hand = BettingHand.start({1: 1000, 2: 1000, 3: 1000}, 1, "50/100")
        >>> hand.small_blind_seat, hand.big_blind_seat, hand.actor, hand.pot
        (2, 3, 1, 150)
        """
        rules = house if house is not None else HouseRules()
        levels = blinds if isinstance(blinds, Blinds) else Blinds.parse(blinds)
        for seat, chips in stacks.items():
            if chips <= 0:  # F3: a seat with no chips is out; it is not dealt in
                raise BadStack(seat=seat, stack=chips)
        seats = tuple(sorted(stacks))
        if len(seats) < 2:
            raise TooFewPlayers(count=len(seats))
        sb_seat, bb_seat = blind_seats if blind_seats is not None else _derive(button, seats)
        gone = set(absent)
        for seat in (*gone, bb_seat, *([] if sb_seat is None else [sb_seat])):
            if seat not in stacks:
                raise SeatNotInHand(seat=seat)
        posted = post_forced_bets(stacks, sb_seat, bb_seat, levels, rules.ante_order)
        unit = levels.big_blind
        hand = cls(
            seats=seats, button=button, small_blind_seat=sb_seat, big_blind_seat=bb_seat,
            blinds=levels, structure=structure, house=rules, absent=frozenset(gone),
            starting_stacks=tuple(stacks[s] for s in seats),
            behind=tuple(posted.stacks[s] for s in seats),
            committed=tuple(posted.bets[s] + posted.antes[s] for s in seats),
            antes_posted=tuple(posted.antes[s] for s in seats),
            round_bets=tuple(posted.bets[s] for s in seats),
            folded=frozenset(), street=Street.PREFLOP,
            # X10: a big blind all-in for less still leaves the full blind to call.
            bet_level=levels.big_blind, last_full_raise=unit, limit_level=unit,
            bets_made=1, acted_at=(None,) * len(seats), actor=None, aggressors=(None,),
        )
        return hand._with_actor(hand._first_to_act(bb_seat))

    def legal_actions(self) -> frozenset[ActionKind]:
        """What the actor may do now (empty when nobody is to act)."""
        if self.actor is None:
            return frozenset()
        kinds = {ActionKind.FOLD}
        kinds.add(ActionKind.CALL if self.bet_level > self._round_bet() else ActionKind.CHECK)
        if self._may_raise():
            kinds.add(ActionKind.RAISE if self.bet_level else ActionKind.BET)
        if self.can_all_in():
            kinds.add(ActionKind.ALL_IN)
        return frozenset(kinds)

    # -- verify / can / do --------------------------------------------------

    def verify_fold(self) -> None:
        self._verify_actor()

    def can_fold(self) -> bool:
        return _ok(self.verify_fold)

    def fold(self) -> BettingHand:
        self.verify_fold()
        return self._folded(auto=False)

    def verify_check(self) -> None:
        self._verify_actor()
        if self.bet_level > self._round_bet():
            raise CannotCheck(amount=self.to_call)

    def can_check(self) -> bool:
        return _ok(self.verify_check)

    def check(self) -> BettingHand:
        self.verify_check()
        return self._put(self._round_bet(), ActionKind.CHECK)

    def verify_call(self) -> None:
        self._verify_actor()
        if self.bet_level <= self._round_bet():
            raise NothingToCall()

    def can_call(self) -> bool:
        return _ok(self.verify_call)

    def call(self) -> BettingHand:
        self.verify_call()
        return self._put(min(self.bet_level, self._all_in_to()), ActionKind.CALL)

    def verify_bet(self, amount: int) -> None:
        """X1: a bet is at least the big blind (fixed-limit: exactly one bet), or all-in."""
        self._verify_actor()
        if self.bet_level:
            raise BetAlreadyMade()
        self._verify_may_raise()
        self._verify_amount(amount, BetTooSmall, BetTooLarge)

    def can_bet(self, amount: int) -> bool:
        return _ok(self.verify_bet, amount)

    def bet(self, amount: int) -> BettingHand:
        self.verify_bet(amount)
        return self._put(amount, ActionKind.BET)

    def verify_raise_to(self, amount: int) -> None:
        """X2, X3, X7, X8, X9: is a raise to ``amount`` (round total) allowed?"""
        self._verify_actor()
        if not self.bet_level:
            raise NoBetToRaise()
        self._verify_may_raise()
        self._verify_amount(amount, RaiseTooSmall, RaiseTooLarge)

    def can_raise_to(self, amount: int) -> bool:
        return _ok(self.verify_raise_to, amount)

    def raise_to(self, amount: int) -> BettingHand:
        self.verify_raise_to(amount)
        return self._put(amount, ActionKind.RAISE)

    def verify_all_in(self) -> None:
        """All-in is a call, bet or raise of every chip; it must be allowed as that.

        X13: when nobody could call a raise, an all-in for more than the bet
        is a call, and the rest of the player's chips stay with the player.
        """
        self._verify_actor()
        to = self._all_in_to()
        if to <= self.bet_level or self._all_in_is_a_call():
            return
        if self.bet_level:
            self.verify_raise_to(to)
        else:
            self.verify_bet(to)

    def can_all_in(self) -> bool:
        return _ok(self.verify_all_in)

    def go_all_in(self) -> BettingHand:
        """Put every chip in (the name ``all_in`` is the set of all-in seats)."""
        self.verify_all_in()
        if self._all_in_is_a_call():
            return self._put(self.bet_level, ActionKind.CALL)  # X13: the rest is uncalled
        to = self._all_in_to()
        kind = (ActionKind.CALL if to <= self.bet_level
                else ActionKind.RAISE if self.bet_level else ActionKind.BET)
        return self._put(to, kind)

    def verify_advance(self) -> None:
        if self.is_hand_over:
            raise HandIsOver()
        if self.actor is not None:
            raise RoundNotComplete(actor=self.actor)

    def can_advance(self) -> bool:
        return _ok(self.verify_advance)

    def advance(self) -> BettingHand:
        """Deal the next street: a new round that starts left of the button (B1)."""
        self.verify_advance()
        street = self.street.next
        assert street is not None  # the river round complete is is_hand_over
        nxt = replace(
            self, street=street, round_bets=(0,) * len(self.seats), bet_level=0,
            last_full_raise=fixed_limit_unit(self.blinds.big_blind, street)
            if self.structure is BettingStructure.FIXED_LIMIT else self.blinds.big_blind,
            limit_level=0, bets_made=0, acted_at=(None,) * len(self.seats),
            aggressors=(*self.aggressors, None),
        )
        return nxt._with_actor(nxt._first_to_act(self.button))

    def verify_apply(self, action: Action | str, seat: int | None = None) -> None:
        """Refuse ``action`` with the reason, as :meth:`apply` would."""
        self.apply(action, seat)

    def can_apply(self, action: Action | str, seat: int | None = None) -> bool:
        try:
            self.apply(action, seat)
        except RulesError:
            return False
        return True

    def apply(self, action: Action | str, seat: int | None = None) -> BettingHand:
        """Do ``action`` (or its text, e.g. ``"raise 500"``); ``seat`` checks the turn."""
        act = parse_action(action) if isinstance(action, str) else action
        if seat is not None and seat != self.actor:
            self._i(seat)
            if self.actor is None:
                self._verify_actor()
            raise NotYourTurn(seat=seat, actor=self.actor)
        match act.kind:
            case ActionKind.FOLD:
                return self.fold()
            case ActionKind.CHECK:
                return self.check()
            case ActionKind.CALL:
                return self.call()
            case ActionKind.BET:
                assert act.amount is not None
                return self.bet(act.amount)
            case ActionKind.RAISE:
                assert act.amount is not None
                return self.raise_to(act.amount)
            case ActionKind.ALL_IN:
                return self.go_all_in()

    # -- internals ----------------------------------------------------------

    def _with_actor(self, actor: int | None) -> BettingHand:
        hand = replace(self, actor=actor)
        # B6/F6: an absent player's hand is dead; fold it when its turn comes.
        while hand.actor is not None and hand.actor in hand.absent:
            hand = hand._folded(auto=True)
        return hand

    def _folded(self, *, auto: bool) -> BettingHand:
        seat = self.actor
        assert seat is not None
        i = self._i(seat)
        event = Acted(seat, self.street, ActionKind.FOLD, 0, self.round_bets[i], auto=auto)
        hand = replace(self, folded=self.folded | {seat}, history=(*self.history, event))
        return hand._with_actor(hand._first_to_act(seat))

    def _put(self, to: int, kind: ActionKind) -> BettingHand:
        seat = self.actor
        assert seat is not None
        i = self._i(seat)
        added = to - self.round_bets[i]
        level, full, limit, made = (self.bet_level, self.last_full_raise,
                                    self.limit_level, self.bets_made)
        aggressors = self.aggressors
        if to > level:
            if self.structure is BettingStructure.FIXED_LIMIT:
                if 2 * (to - limit) >= self.unit:  # full, or an all-in of half a bet or more
                    limit, made = limit + self.unit, made + 1
            elif to - level >= full:  # X2: a full raise sets the new minimum
                full, made = to - level, made + 1
            level = to
            aggressors = (*aggressors[:-1], seat)
        all_in = added == self.behind[i] and added > 0
        event = Acted(seat, self.street, kind, added, to, all_in=all_in)
        hand = replace(
            self,
            behind=_set(self.behind, i, self.behind[i] - added),
            committed=_set(self.committed, i, self.committed[i] + added),
            round_bets=_set(self.round_bets, i, to),
            bet_level=level, last_full_raise=full, limit_level=limit, bets_made=made,
            acted_at=_set(self.acted_at, i, level), aggressors=aggressors,
            history=(*self.history, event),
        )
        return hand._with_actor(hand._first_to_act(seat))


def _derive(button: int, seats: tuple[int, ...]) -> tuple[int | None, int]:
    return blind_seats(button, seats)


def _set(values: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    return (*values[:index], value, *values[index + 1:])


def play(hand: BettingHand, actions: str | Iterable[Action | str], *,
         auto_advance: bool = True) -> BettingHand:
    """Apply actions in order, dealing the next street whenever a round completes.

    >>> hand = BettingHand.start({1: 1000, 2: 1000, 3: 1000}, 1, "50/100")
    >>> hand = play(hand, "call, call, check, bet 200, fold, call")
    >>> hand.street, hand.pot, hand.folded
    (<Street.FLOP: 'flop'>, 700, frozenset({3}))
    """
    items = parse_actions(actions) if isinstance(actions, str) else actions
    for action in items:
        while auto_advance and hand.actor is None and hand.can_advance():
            hand = hand.advance()
        hand = hand.apply(action)
    return hand
