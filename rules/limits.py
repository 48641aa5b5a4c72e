"""How big a bet or raise may be: no-limit, pot-limit and fixed-limit (X1-X3, X8, X9).

Pure arithmetic on amounts, kept apart from the hand state machine so each
formula has its own doctest. All "to" amounts are a player's total for the
current betting round (street), as a dealer announces "raise to 1 900".
"""

from __future__ import annotations

from enum import StrEnum, unique
from typing import Final

__all__ = [
    "FIXED_LIMIT_CAP",
    "BettingStructure",
    "Street",
    "fixed_limit_unit",
    "is_full_raise",
    "min_raise_to",
    "pot_limit_max_to",
]


@unique
class BettingStructure(StrEnum):
    NO_LIMIT = "no-limit"
    POT_LIMIT = "pot-limit"
    FIXED_LIMIT = "fixed-limit"


@unique
class Street(StrEnum):
    """The four betting rounds of hold'em, in order."""

    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"

    @property
    def next(self) -> Street | None:
        """The following round, or None after the river.

        >>> Street.PREFLOP.next, Street.RIVER.next
        (<Street.FLOP: 'flop'>, None)
        """
        order = list(Street)
        index = order.index(self)
        return order[index + 1] if index + 1 < len(order) else None


#: X9: fixed-limit rounds allow one bet and three raises. The common cap; it
#: is lifted when only two players are left in the hand (heads-up), as most
#: card rooms do, because two players cannot be squeezed by a third.
FIXED_LIMIT_CAP: Final = 4


def fixed_limit_unit(big_blind: int, street: Street) -> int:
    """X9: the small bet (= big blind) pre-flop and on the flop, the big bet after.

    >>> fixed_limit_unit(200, Street.FLOP), fixed_limit_unit(200, Street.TURN)
    (200, 400)
    """
    return big_blind if street in (Street.PREFLOP, Street.FLOP) else 2 * big_blind


def min_raise_to(bet_level: int, last_full_raise: int) -> int:
    """X2: the smallest full raise is the largest full bet or raise of the round on top.

    The size of the raise counts, not the total. Blinds 100/200: A to 500
    (raise 300), B to 1 200 (raise 700): C must go to at least 1 900.

    >>> min_raise_to(1200, 700)
    1900
    >>> min_raise_to(200, 200)  # E4: 2xBB is the minimum *raise* pre-flop
    400
    """
    return bet_level + last_full_raise


def is_full_raise(previous_level: int, new_level: int, last_full_raise: int) -> bool:
    """X2/X7: does going from ``previous_level`` to ``new_level`` make a full raise?

    An opening bet is a raise from 0; the round starts with the big blind as
    the last full bet (X1), so a bet of at least the big blind is full.

    >>> is_full_raise(1000, 1400, 1000), is_full_raise(1000, 2000, 1000)
    (False, True)
    """
    return new_level - previous_level >= last_full_raise


def pot_limit_max_to(pot: int, street_bet: int, to_call: int) -> int:
    """X8: the pot-limit maximum: call first, then raise by the pot after the call.

    ``pot`` counts every chip already in (bets in front of players too).
    Pot 200, 50 to call: call 50 (pot 250), raise 250, so 300 in all.

    >>> pot_limit_max_to(pot=200, street_bet=0, to_call=50)
    300
    >>> pot_limit_max_to(pot=150, street_bet=0, to_call=100)  # blinds 50/100, first in
    350
    """
    return street_bet + to_call + (pot + to_call)
