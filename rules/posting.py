"""Who posts the blinds and antes, and how much (B1, B2, B6, B7, X10).

Seat numbers run clockwise, so "left of" a seat is the next higher number,
wrapping round. The button may be an empty seat (dead button, B3): only the
order matters. Absent players post like everyone else (B6); the betting
engine folds their hand when the action reaches it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rules.betting_errors import BadBlinds, BadStack, TooFewPlayers
from rules.house import AnteOrder
from rules.records import RecordMethods, record
from rules.structure import AnteKind, Level

__all__ = ["Blinds", "Posted", "blind_seats", "clockwise_after", "post_forced_bets"]


@record
class Blinds(RecordMethods):
    """The forced bets of one level.

    ``ante`` is per player for :attr:`AnteKind.PER_PLAYER`, and the single
    amount the big blind pays for the table for :attr:`AnteKind.BIG_BLIND`.

    >>> Blinds(100, 200).big_blind
    200
    >>> Blinds(200, 100)
    Traceback (most recent call last):
    rules.betting_errors.BadBlinds: Invalid blinds 200/100 (ante 0)
    """

    small_blind: int
    big_blind: int
    ante: int = 0
    ante_kind: AnteKind = AnteKind.PER_PLAYER

    def __post_init__(self) -> None:
        if not (0 <= self.small_blind <= self.big_blind and self.big_blind > 0
                and self.ante >= 0):
            raise BadBlinds(small_blind=self.small_blind, big_blind=self.big_blind,
                            ante=self.ante)

    @classmethod
    def parse(cls, text: str, ante_kind: AnteKind = AnteKind.PER_PLAYER) -> Blinds:
        """Read ``"SB/BB"`` or ``"SB/BB/ante"``, as the CLI's ``--blinds`` takes them.

        >>> Blinds.parse("100/200"), Blinds.parse("800/1600/100").ante
        (Blinds(small_blind=100, big_blind=200, ante=0, ante_kind=<AnteKind.PER_PLAYER: \
'per-player'>), 100)
        """
        parts = text.replace(" ", "").split("/")
        if len(parts) not in (2, 3) or not all(p.isdigit() for p in parts):
            raise BadBlinds(small_blind=text, big_blind="?", ante="?")
        small, big, *ante = (int(p) for p in parts)
        return cls(small, big, ante[0] if ante else 0, ante_kind)

    @classmethod
    def from_level(cls, level: Level) -> Blinds:
        """The forced bets of a structure level.

        >>> Blinds.from_level(Level(800, 1600, 100)).ante
        100
        """
        return cls(level.small_blind, level.big_blind, level.ante, level.ante_kind)


def clockwise_after(seat: int, seats: Iterable[int]) -> tuple[int, ...]:
    """``seats`` clockwise, starting with the first one left of ``seat``.

    ``seat`` itself, if it is among them, comes last.

    >>> clockwise_after(4, [1, 3, 4, 8])
    (8, 1, 3, 4)
    >>> clockwise_after(9, [1, 3])
    (1, 3)
    """
    ordered = sorted(set(seats))
    after = [s for s in ordered if s > seat]
    return (*after, *(s for s in ordered if s <= seat))


def blind_seats(button: int, seats: Iterable[int]) -> tuple[int | None, int]:
    """B1/B2: the small-blind and big-blind seats for a button position.

    Normally the two players left of the button. Heads-up the button posts
    the small blind and the other player the big blind (B2).

    >>> blind_seats(3, [1, 3, 5, 8])
    (5, 8)
    >>> blind_seats(3, [3, 8])
    (3, 8)
    """
    order = clockwise_after(button, seats)
    if len(order) < 2:
        raise TooFewPlayers(count=len(order))
    if len(order) == 2 and button in order:
        return button, order[0]
    return order[0], order[1]


@record
class Posted(RecordMethods):
    """What the forced bets took from each seat.

    ``bets`` are live: they count towards calling in the first round.
    ``antes`` are dead money: in the pot, but no part of anybody's bet.
    """

    stacks: Mapping[int, int]
    bets: Mapping[int, int]
    antes: Mapping[int, int]


def post_forced_bets(
    stacks: Mapping[int, int],
    small_blind_seat: int | None,
    big_blind_seat: int,
    blinds: Blinds,
    ante_order: AnteOrder = AnteOrder.BLIND_FIRST,
) -> Posted:
    """Take the antes and blinds, never more than a seat has (X10).

    A blind seat too short for both its blind and an ante pays in the house
    order (B7): the TDA's "blind first" by default, the remainder going to
    the ante; or "ante first". The same order is used for per-player antes
    on the blind seats, so one setting covers both kinds.

    Big-blind ante at 100/200 a200, the big blind has 300 (blind first):

    >>> p = post_forced_bets({1: 5000, 2: 5000, 3: 300}, 2, 3,
    ...                      Blinds(100, 200, 200, AnteKind.BIG_BLIND))
    >>> p.bets[3], p.antes[3], p.stacks[3]
    (200, 100, 0)
    >>> p = post_forced_bets({1: 5000, 2: 5000, 3: 300}, 2, 3,
    ...                      Blinds(100, 200, 200, AnteKind.BIG_BLIND), AnteOrder.ANTE_FIRST)
    >>> p.bets[3], p.antes[3]
    (100, 200)
    """
    for seat, stack in stacks.items():
        if stack < 0:
            raise BadStack(seat=seat, stack=stack)
    left = dict(stacks)
    bets = dict.fromkeys(stacks, 0)
    antes = dict.fromkeys(stacks, 0)

    def take(seat: int, amount: int) -> int:
        paid = min(amount, left[seat])
        left[seat] -= paid
        return paid

    def ante_for(seat: int) -> int:
        if blinds.ante_kind is AnteKind.BIG_BLIND:
            return blinds.ante if seat == big_blind_seat else 0
        return blinds.ante

    blind_amounts = {big_blind_seat: blinds.big_blind}
    if small_blind_seat is not None:
        blind_amounts[small_blind_seat] = blinds.small_blind
    # Seats are visited clockwise so the result never depends on dict order.
    for seat in sorted(stacks):
        blind = blind_amounts.get(seat, 0)
        if ante_order is AnteOrder.BLIND_FIRST:
            bets[seat] = take(seat, blind)
            antes[seat] = take(seat, ante_for(seat))
        else:
            antes[seat] = take(seat, ante_for(seat))
            bets[seat] = take(seat, blind)
    return Posted(stacks=left, bets=bets, antes=antes)
