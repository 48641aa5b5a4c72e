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
    hand.pot, .contributions: dict[int, int], .folded: frozenset[int], .all_in,
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
stay in ``contributions``: the pots module returns them as an uncalled pot.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TypeVar

from rules.betting_actions import Acted, Action, ActionKind, parse_action, parse_actions
from rules.betting_errors import (
    BetAlreadyMade,
    BettingNotReopened,
    BetTooLarge,
    BetTooSmall,
    CannotCheck,
    HandIsOver,
    NoActionPending,
    NoBetToRaise,
    NobodyToRaise,
    NotEnoughChips,
    NothingToCall,
    NotYourTurn,
    RaiseCapReached,
    RaiseTooLarge,
    RaiseTooSmall,
    RoundNotComplete,
    SeatNotInHand,
    TooFewPlayers,
)
from rules.errors import RulesError
from rules.house import HouseRules
from rules.limits import (
    FIXED_LIMIT_CAP,
    BettingStructure,
    Street,
    fixed_limit_unit,
    pot_limit_max_to,
)
from rules.posting import Blinds, blind_seats, clockwise_after, post_forced_bets

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
class BettingHand:
    """The betting state of one hand; build it with :meth:`start`.

    Per-seat tuples follow ``seats`` (clockwise). ``acted_at`` holds, for
    each seat that has acted this round, the bet it faced after acting: a
    seat may raise again only if the bet has since grown by a full raise
    (X7), which also lets several short all-ins add up to one.
    """

    seats: tuple[int, ...]
    button: int
    small_blind_seat: int | None
    big_blind_seat: int
    blinds: Blinds
    structure: BettingStructure
    house: HouseRules
    absent: frozenset[int]
    starting_stacks: tuple[int, ...]
    behind: tuple[int, ...]
    committed: tuple[int, ...]
    round_bets: tuple[int, ...]
    folded: frozenset[int]
    street: Street
    #: The amount to match this round; pre-flop at least the full big blind (X10).
    bet_level: int
    #: X2: the largest full bet or raise of this round (the big blind at the start, X1).
    last_full_raise: int
    #: Fixed-limit only: the level of the last full bet or raise, a short
    #: all-in of half a bet or more counting as full (TDA 47-B).
    limit_level: int
    #: Full bets and raises this round, for the fixed-limit cap (X9).
    bets_made: int
    acted_at: tuple[int | None, ...]
    actor: int | None
    aggressors: tuple[int | None, ...]
    history: tuple[Acted, ...] = ()

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
            round_bets=tuple(posted.bets[s] for s in seats),
            folded=frozenset(), street=Street.PREFLOP,
            # X10: a big blind all-in for less still leaves the full blind to call.
            bet_level=levels.big_blind, last_full_raise=unit, limit_level=unit,
            bets_made=1, acted_at=(None,) * len(seats), actor=None, aggressors=(None,),
        )
        return hand._with_actor(hand._first_to_act(bb_seat))

    # -- queries ----------------------------------------------------------

    def _i(self, seat: int) -> int:
        try:
            return self.seats.index(seat)
        except ValueError:
            raise SeatNotInHand(seat=seat) from None

    @property
    def stacks(self) -> dict[int, int]:
        """Chips each seat has left behind (not yet put in)."""
        return dict(zip(self.seats, self.behind, strict=True))

    @property
    def contributions(self) -> dict[int, int]:
        """Chips each seat has put in this hand, antes included (for ``rules.pots``)."""
        return dict(zip(self.seats, self.committed, strict=True))

    @property
    def street_bets(self) -> dict[int, int]:
        """Each seat's bet in the current round (antes excluded)."""
        return dict(zip(self.seats, self.round_bets, strict=True))

    @property
    def pot(self) -> int:
        """Every chip put in so far, bets in front of players included."""
        return sum(self.committed)

    @property
    def live(self) -> tuple[int, ...]:
        """Seats still in the hand (not folded), clockwise."""
        return tuple(s for s in self.seats if s not in self.folded)

    @property
    def all_in(self) -> frozenset[int]:
        """Seats in the hand with no chips left."""
        return frozenset(s for s in self.live if self.behind[self._i(s)] == 0)

    @property
    def last_aggressor(self) -> int | None:
        """Who made the last bet or raise this round (P3: shows first on the river)."""
        return self.aggressors[-1]

    def last_aggressor_on(self, street: Street) -> int | None:
        index = list(Street).index(street)
        return self.aggressors[index] if index < len(self.aggressors) else None

    @property
    def unit(self) -> int:
        """Fixed-limit bet size of this round (X9)."""
        return fixed_limit_unit(self.blinds.big_blind, self.street)

    def amount_to_call(self, seat: int) -> int:
        """What ``seat`` must add to call, never more than it has."""
        i = self._i(seat)
        return min(max(0, self.bet_level - self.round_bets[i]), self.behind[i])

    @property
    def to_call(self) -> int:
        """What the actor must add to call (0 when nobody is to act)."""
        return 0 if self.actor is None else self.amount_to_call(self.actor)

    @property
    def is_round_complete(self) -> bool:
        return self.actor is None

    @property
    def is_hand_over(self) -> bool:
        """No more action or streets: one player left, or the river round complete."""
        return len(self.live) <= 1 or (self.actor is None and self.street is Street.RIVER)

    @property
    def is_betting_over(self) -> bool:
        """Nobody can bet any more this hand (the board may still be dealt out)."""
        with_chips = [s for s in self.live if self.behind[self._i(s)] > 0]
        return self.is_hand_over or (self.actor is None and len(with_chips) <= 1)

    @property
    def all_hands_face_up(self) -> bool:
        """P4: someone is all-in and no more betting is possible: turn all hands up."""
        return len(self.live) >= 2 and self.is_betting_over and bool(self.all_in)

    @property
    def min_raise_to(self) -> int | None:
        """The smallest bet or raise (round total) the actor may make; None if none.

        A player too short for a full raise may still go all-in for less.
        """
        if not self._may_raise():
            return None
        return min(self._full_raise_to(), self._all_in_to())

    @property
    def full_raise_to(self) -> int:
        """The smallest *full* bet or raise (round total), whatever the actor's stack.

        X1: the big blind when nobody has bet; X2: the bet plus the largest
        full bet or raise of the round; X9: one fixed-limit bet more.
        """
        return self._full_raise_to()

    @property
    def max_raise_to(self) -> int | None:
        """The largest bet or raise (round total) the actor may make; None if none."""
        if not self._may_raise():
            return None
        return self._cap_to()

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
        """All-in is a call, bet or raise of every chip; it must be allowed as that."""
        self._verify_actor()
        to = self._all_in_to()
        if to <= self.bet_level:
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

    def _round_bet(self) -> int:
        assert self.actor is not None
        return self.round_bets[self._i(self.actor)]

    def _all_in_to(self) -> int:
        assert self.actor is not None
        i = self._i(self.actor)
        return self.round_bets[i] + self.behind[i]

    def _full_raise_to(self) -> int:
        if self.structure is BettingStructure.FIXED_LIMIT:
            return self.limit_level + self.unit
        if not self.bet_level:
            return self.last_full_raise  # X1: the opening bet is at least the big blind
        return self.bet_level + self.last_full_raise  # X2

    def _cap_to(self) -> int:
        all_in = self._all_in_to()
        if self.structure is BettingStructure.NO_LIMIT:
            return all_in  # X3: no cap in no-limit
        if self.structure is BettingStructure.FIXED_LIMIT:
            return min(self._full_raise_to(), all_in)
        owed = self.bet_level - self._round_bet()
        return min(pot_limit_max_to(self.pot, self._round_bet(), owed), all_in)

    def _is_capped(self) -> bool:
        # X9: 1 bet + 3 raises; uncapped when only two players are left.
        return (self.structure is BettingStructure.FIXED_LIMIT
                and self.bets_made >= FIXED_LIMIT_CAP and len(self.live) > 2)

    def _reopened_for(self, seat: int) -> bool:
        """X7 / TDA 47: has the bet grown by a full raise since ``seat`` last acted?"""
        faced = self.acted_at[self._i(seat)]
        if faced is None:
            return True  # not yet acted: every option, but a raise must be full
        grown = self.bet_level - faced
        if self.structure is BettingStructure.FIXED_LIMIT:
            return 2 * grown >= self.unit  # TDA 47-B: half a bet reopens in limit
        return grown >= self.last_full_raise

    def _others_can_respond(self, seat: int) -> bool:
        return any(s != seat and self.behind[self._i(s)] > 0 for s in self.live)

    def _verify_actor(self) -> None:
        if self.actor is None:
            raise HandIsOver() if self.is_hand_over else NoActionPending()

    def _verify_may_raise(self) -> None:
        assert self.actor is not None
        if self._all_in_to() <= self.bet_level:
            raise NotEnoughChips(amount=self.bet_level - self._round_bet() + 1,
                                 stack=self.behind[self._i(self.actor)])
        if not self._reopened_for(self.actor):
            raise BettingNotReopened()
        if self._is_capped():
            raise RaiseCapReached(cap=FIXED_LIMIT_CAP)
        if not self._others_can_respond(self.actor):
            raise NobodyToRaise()

    def _may_raise(self) -> bool:
        return self.actor is not None and _ok(self._verify_may_raise)

    def _verify_amount(self, to: int, too_small: type[RulesError],
                       too_large: type[RulesError]) -> None:
        all_in = self._all_in_to()
        if to > all_in:
            assert self.actor is not None
            raise NotEnoughChips(amount=to - self._round_bet(),
                                 stack=self.behind[self._i(self.actor)])
        if to <= self.bet_level or (to < self._full_raise_to() and to != all_in):
            raise too_small(minimum=min(self._full_raise_to(), all_in))
        if to > self._cap_to():
            raise too_large(maximum=self._cap_to())

    def _needs_action(self, seat: int) -> bool:
        i = self._i(seat)
        if seat in self.folded or self.behind[i] == 0:
            return False
        if self.round_bets[i] < self.bet_level:
            return True
        return self.acted_at[i] is None and self._others_can_respond(seat)

    def _first_to_act(self, after: int) -> int | None:
        if len(self.live) <= 1:
            return None
        return next((s for s in clockwise_after(after, self.seats) if self._needs_action(s)),
                    None)

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


def _ok(check: Callable[..., None], *args: int) -> bool:
    try:
        check(*args)
    except RulesError:
        return False
    return True


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
