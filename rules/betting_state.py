"""The state of one hand's betting, and every question asked of it.

:class:`BettingState` holds the fields and answers queries (who acts, what
it costs to call, the smallest and largest raise); :class:`rules.betting.
BettingHand` adds the actions. Amounts of bets and raises are the player's
total for the round.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules.betting_actions import Acted
from rules.betting_errors import (
    BettingNotReopened,
    HandIsOver,
    NoActionPending,
    NobodyCanCall,
    NobodyToRaise,
    NotEnoughChips,
    RaiseCapReached,
    SeatNotInHand,
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
from rules.posting import Blinds, clockwise_after
from rules.pots import Pot, side_pots
from rules.structure import AnteKind

__all__ = ["BettingState"]


@dataclass(frozen=True)
class BettingState:
    """The betting state of one hand; build it with ``BettingHand.start``.

    Per-seat tuples follow ``seats`` (clockwise). ``acted_at`` holds, for
    each seat that has acted this round, the bet it faced after acting: a
    seat may raise again only if the bet has since grown by a full raise
    (X7), which also lets several short all-ins add up to one.

    >>> from rules.betting import BettingHand
    >>> hand = BettingHand.start({1: 3000, 2: 3000, 3: 3000}, 3, "100/200").raise_to(600)
    >>> hand.actor, hand.to_call, hand.min_raise_to, hand.max_raise_to
    (1, 500, 1000, 3000)
    >>> hand.pot, hand.contributions, hand.last_aggressor
    (900, {1: 100, 2: 200, 3: 600}, 3)
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
    #: The antes each seat posted (B7): dead money, in ``committed`` but no part of a bet.
    antes_posted: tuple[int, ...]
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
        """Chips each seat has put in this hand, antes included."""
        return dict(zip(self.seats, self.committed, strict=True))

    @property
    def antes(self) -> dict[int, int]:
        """The ante each seat posted (B7); for a big-blind ante, the big blind's."""
        return dict(zip(self.seats, self.antes_posted, strict=True))

    @property
    def bets(self) -> dict[int, int]:
        """Chips each seat has bet this hand: blinds, bets, calls, raises; no antes."""
        return {seat: chips - ante for (seat, chips), ante
                in zip(self.contributions.items(), self.antes_posted, strict=True)}

    @property
    def pots(self) -> tuple[Pot, ...]:
        """The main pot and side pots of every chip put in so far (P1, B7).

        Antes are dead money: a big-blind ante is all in the main pot, for
        every seat still in the hand to win (TDA RP-11); per-player antes are
        matched ante for ante. Blinds and bets of seats that folded stay in.

        >>> from rules.betting import BettingHand, Blinds
        >>> from rules.structure import AnteKind
        >>> hand = BettingHand.start({1: 59, 2: 4792, 3: 308}, 3,
        ...                          Blinds(25, 50, 50, AnteKind.BIG_BLIND))
        >>> hand = hand.fold().go_all_in().fold()  # button folds, SB all-in, BB folds
        >>> [(p.amount, sorted(p.eligible), p.uncalled) for p in hand.pots]
        [(159, [1], False)]
        """
        if self.blinds.ante_kind is AnteKind.BIG_BLIND:
            return side_pots(self.bets, self.folded, dead=self.antes)
        return side_pots(self.bets, self.folded, antes=self.antes)

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

    def _raise_can_be_called(self, seat: int) -> bool:
        """X13: could anyone else still in the hand put in more than the bet?"""
        return any(s != seat and self.round_bets[self._i(s)] + self.behind[self._i(s)]
                   > self.bet_level for s in self.live)

    def _all_in_is_a_call(self) -> bool:
        """X13: the actor faces a bet and nobody could call any raise over it.

        Then going all-in is a call, and the chips over it stay with the
        player: they are the uncalled remainder, returned at once.
        """
        assert self.actor is not None
        return (self._round_bet() < self.bet_level < self._all_in_to()
                and not self._raise_can_be_called(self.actor))

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
        if not self._raise_can_be_called(self.actor):
            # X13: every chip over the bet would be raising against nobody.
            raise NobodyCanCall()

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


def _ok(check: Callable[..., None], *args: int) -> bool:
    try:
        check(*args)
    except RulesError:
        return False
    return True
