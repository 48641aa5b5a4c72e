"""Main and side pots, and who gets how many chips from each (P1, P2, P5, P7).

The pots are cut from what each seat bet during the hand, with the antes
kept apart as dead money (B7: no part of anybody's bet); the award takes
any totally ordered hand values (``rules.hands.HandValue`` at the table, plain
ints in tests), so the chip arithmetic is proved apart from card evaluation.
Every function conserves chips: the shares of a pot always add up to the pot.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import field
from typing import Any, Protocol

from rules.errors import RulesError
from rules.records import RecordMethods, record

__all__ = [
    "Awards",
    "BadChipUnit",
    "NegativeContribution",
    "NoLiveHand",
    "NoShownHand",
    "Pot",
    "PotAward",
    "Ranked",
    "UnknownSeat",
    "award_pots",
    "clockwise_from",
    "side_pots",
    "split_evenly",
]


class Ranked(Protocol):
    """A hand value: totally ordered, a better hand compares greater."""

    def __lt__(self, other: Any, /) -> bool: ...


class NegativeContribution(RulesError, ValueError):
    messages = {
        "nn": "Sete {seat} kan ikkje ha lagt {amount} i potten",
        "nb": "Sete {seat} kan ikke ha lagt {amount} i potten",
        "da": "Sæde {seat} kan ikke have lagt {amount} i puljen",
        "en": "Seat {seat} cannot have put {amount} into the pot",
    }


class NoLiveHand(RulesError, ValueError):
    messages = {
        "nn": "Alle som har lagt sjetongar i potten, har kasta korta",
        "nb": "Alle som har lagt sjetonger i potten, har kastet kortene",
        "da": "Alle, der har lagt jetoner i puljen, har smidt kortene",
        "en": "Everyone who put chips into the pot has folded",
    }


class NoShownHand(RulesError, ValueError):
    messages = {
        "nn": "Ingen som kan vinne potten på {amount}, har vist begge holkorta: "
        "turneringsleiaren avgjer",
        "nb": "Ingen som kan vinne potten på {amount}, har vist begge hullkortene: "
        "turneringslederen avgjør",
        "da": "Ingen, der kan vinde puljen på {amount}, har vist begge hulkort: "
        "turneringslederen afgør",
        "en": "Nobody who can win the pot of {amount} has shown both hole cards: "
        "the tournament director decides",
    }


class UnknownSeat(RulesError, LookupError):
    messages = {
        "nn": "Sete {seat} er ikkje ved bordet",
        "nb": "Sete {seat} er ikke ved bordet",
        "da": "Sæde {seat} er ikke ved bordet",
        "en": "Seat {seat} is not at the table",
    }


class BadChipUnit(RulesError, ValueError):
    messages = {
        "nn": "Minste sjetong må vere minst 1, ikkje {unit}",
        "nb": "Minste sjetong må være minst 1, ikke {unit}",
        "da": "Mindste jeton skal være mindst 1, ikke {unit}",
        "en": "The smallest chip must be at least 1, not {unit}",
    }


@record
class Pot(RecordMethods):
    """Chips that the ``eligible`` seats play for.

    ``uncalled`` marks the part of a bet nobody matched: it is not won but
    handed back to its only eligible seat, the bettor.
    """

    amount: int
    eligible: frozenset[int]
    uncalled: bool = False


def side_pots(
    contributions: Mapping[int, int],
    folded: Collection[int] = (),
    *,
    antes: Mapping[int, int] | None = None,
    dead: Mapping[int, int] | None = None,
) -> tuple[Pot, ...]:
    """Cut a hand's chips into the main pot, then side pots (P1, B7).

    ``contributions`` are what each seat *bet* in the hand: blinds, bets,
    calls and raises, the chips that match each other. A seat can win from
    a pot only up to what it bet itself (P1). Folded seats are never
    eligible, but their chips stay in the pots they reach as dead money.

    ``antes`` are per-player antes: dead money, no part of anybody's bet,
    matched ante for ante, so a seat all-in for part of its ante wins that
    much of each other ante. ``dead`` is money that is nobody's bet, by the
    seat that posted it: the big-blind ante (B7, TDA RP-11). It is in the
    main pot, every live seat can win all of it, and none of it is returned.

    Chips that no live seat matched, because everyone who put them in has
    folded, are dead money in the last pot a live seat can win: nothing is
    returned to a seat that folded. The part of a live seat's bet that
    nobody matched comes last, marked ``uncalled``: it goes back to that
    seat. Pots with the same eligible seats are one pot; so when everyone
    else folded, the bettor's unmatched rest is part of the pot they win.

    >>> for pot in side_pots({1: 5000, 2: 1400, 3: 8000}):
    ...     print(pot.amount, sorted(pot.eligible), pot.uncalled)
    4200 [1, 2, 3] False
    7200 [1, 3] False
    3000 [3] True
    >>> [(p.amount, sorted(p.eligible)) for p in side_pots({1: 200, 2: 500, 3: 500}, {1})]
    [(1200, [2, 3])]

    The big blind (seat 2) posts 50 and a big-blind ante of 50, then folds
    to seat 1's all-in for 59: the ante is dead money seat 1 wins in full.

    >>> [(p.amount, sorted(p.eligible), p.uncalled)
    ...  for p in side_pots({1: 59, 2: 50}, {2}, dead={2: 50})]
    [(159, [1], False)]
    """
    parts = (contributions, antes or {}, dead or {})
    for part in parts:
        for seat, amount in part.items():
            if amount < 0:
                raise NegativeContribution(seat=seat, amount=amount)
    bets, ante_of, dead_of = ({seat: amount for seat, amount in part.items() if amount > 0}
                              for part in parts)
    if not bets and not ante_of and not dead_of:
        return ()
    folded_set = frozenset(folded)
    live = frozenset(seat for seat in (*bets, *ante_of, *dead_of) if seat not in folded_set)
    if not live:
        raise NoLiveHand()

    # Only a live seat takes back the part of its bet nobody matched.
    uncalled: Pot | None = None
    top = max(bets, key=lambda seat: bets[seat], default=None)
    if top is not None and top in live:
        second = max((amount for seat, amount in bets.items() if seat != top), default=0)
        if bets[top] > second:
            uncalled = Pot(bets[top] - second, frozenset({top}), uncalled=True)
            bets[top] = second

    # One dict keeps the pots in the order they are first made, main pot first.
    pots: dict[frozenset[int], int] = {live: sum(dead_of.values())} if dead_of else {}
    for layer_amount, eligible in (*_layers(ante_of, live), *_layers(bets, live)):
        pots[eligible] = pots.get(eligible, 0) + layer_amount
    ordered = sorted(pots.items(), key=lambda item: -len(item[0]))  # stable: ties keep order
    result = [Pot(amount, eligible) for eligible, amount in ordered if amount]
    if uncalled is not None and result and result[-1].eligible == uncalled.eligible:
        # Everyone else in the last pot folded: the bettor takes that pot and
        # the unmatched rest alike, so they are one pot of the same seats.
        result[-1] = Pot(result[-1].amount + uncalled.amount, uncalled.eligible)
    elif uncalled is not None:
        result.append(uncalled)
    return tuple(result)


def _layers(amounts: Mapping[int, int], live: frozenset[int]) -> list[tuple[int, frozenset[int]]]:
    """Cut ``amounts`` at each seat's level; the chips above every live seat's
    level are added to the last layer a live seat can win (or to the main pot,
    every live seat's, when no live seat put any in).

    >>> _layers({1: 100, 2: 300, 3: 300}, frozenset({1, 2}))
    [(300, frozenset({1, 2})), (400, frozenset({2}))]
    """
    layers: list[tuple[int, frozenset[int]]] = []
    previous = 0
    for level in sorted(set(amounts.values())):
        amount = sum(min(c, level) - min(c, previous) for c in amounts.values())
        eligible = frozenset(seat for seat, c in amounts.items() if c >= level and seat in live)
        if eligible:
            layers.append((amount, eligible))
        elif layers:
            # Eligibility only shrinks as the level rises: every layer from
            # here up is dead money for the highest layer a live seat reached.
            last_amount, last_eligible = layers[-1]
            layers[-1] = (last_amount + amount, last_eligible)
        else:
            layers.append((amount, live))
        previous = level
    return layers


def clockwise_from(button: int, seats: Iterable[int], seat_order: Sequence[int] | None = None
                   ) -> tuple[int, ...]:
    """``seats`` in the order they sit clockwise, starting left of the button.

    ``seat_order`` lists the table's seats clockwise (empty seats allowed, so a
    dead button works); by default seat numbers run clockwise.

    >>> clockwise_from(4, [1, 3, 5, 8])
    (5, 8, 1, 3)
    >>> clockwise_from(3, [3, 1], seat_order=[7, 3, 1])
    (1, 3)
    """
    wanted = set(seats)
    order = list(seat_order) if seat_order is not None else sorted(wanted | {button})
    for seat in (*wanted, button):
        if seat not in order:
            raise UnknownSeat(seat=seat)
    start = order.index(button) + 1
    rotated = order[start:] + order[:start]
    return tuple(seat for seat in rotated if seat in wanted)


def split_evenly(amount: int, winners: Sequence[int], unit: int = 1) -> dict[int, int]:
    """Share ``amount`` equally; odd chips go one by one from the first winner (P2).

    ``winners`` must already be in clockwise order from the button, so the
    first of them is the first winner left of the button. ``unit`` is the
    smallest chip in play: shares are whole chips of it where possible.

    >>> split_evenly(301, [5, 2])
    {5: 151, 2: 150}
    >>> split_evenly(500, [5, 2, 3], unit=100)
    {5: 200, 2: 200, 3: 100}
    """
    if unit < 1:
        raise BadChipUnit(unit=unit)
    share = amount // len(winners) // unit * unit
    shares = dict.fromkeys(winners, share)
    rest = amount - share * len(winners)
    index = 0
    while rest:
        piece = min(unit, rest)
        shares[winners[index % len(winners)]] += piece
        rest -= piece
        index += 1
    return shares


@record
class PotAward(RecordMethods):
    """Who won one pot and how much each seat takes from it.

    Winners are listed clockwise from the button, so the first one got any odd
    chip. ``low_winners`` is empty unless a qualifying low took half the pot.
    """

    pot: Pot
    high_winners: tuple[int, ...]
    low_winners: tuple[int, ...] = ()
    shares: dict[int, int] = field(default_factory=dict, hash=False)


@record
class Awards(RecordMethods):
    """Every pot's award, main pot first; ``total`` adds them up per seat."""

    pots: tuple[PotAward, ...]

    @property
    def total(self) -> dict[int, int]:
        result: dict[int, int] = {}
        for pot in self.pots:
            for seat, chips in pot.shares.items():
                result[seat] = result.get(seat, 0) + chips
        return result


def _best(values: Mapping[int, Ranked | None], seats: Iterable[int]) -> list[int]:
    """The seats holding the best value; equal means neither is less."""
    best: list[int] = []
    for seat in seats:
        value = values.get(seat)
        if value is None:
            continue
        if not best:
            best = [seat]
            continue
        leader = values[best[0]]
        assert leader is not None
        if leader < value:
            best = [seat]
        elif not value < leader:
            best.append(seat)
    return best


def award_pots(
    pots: Iterable[Pot],
    highs: Mapping[int, Ranked | None],
    *,
    button: int,
    lows: Mapping[int, Ranked | None] | None = None,
    seat_order: Sequence[int] | None = None,
    unit: int = 1,
) -> Awards:
    """Decide each pot separately and share it out (P1, P2, P5, P7).

    ``highs`` holds each seat's high hand value, or None when the seat mucked
    or did not show all its hole cards: such a seat cannot win (P5), also when
    it plays the board. A pot with a single eligible seat goes to it unshown.
    Equal best hands split, odd chips going clockwise from the button (P2).

    ``lows`` (Hi/Lo) holds qualifying lows, None for no low. Each pot is then
    halved, the odd chip of the halving going to the high half; with no
    qualifying low the high hand takes it all; equal lows share the low half
    (P7). A seat without a shown high hand cannot win the low either.

    >>> pots = side_pots({1: 100, 2: 100, 3: 100})
    >>> award_pots(pots, {1: 7, 2: 9, 3: 9}, button=2).total
    {3: 150, 2: 150}
    >>> award_pots(pots, {1: 7, 2: 9, 3: 9}, button=1, lows={1: 5, 2: None, 3: None}).total
    {2: 75, 3: 75, 1: 150}
    >>> award_pots(pots, {1: None, 2: 3, 3: 2}, button=1).total
    {2: 300}
    """
    if unit < 1:
        raise BadChipUnit(unit=unit)
    awards: list[PotAward] = []
    for pot in pots:
        if len(pot.eligible) == 1 or pot.uncalled:
            (seat,) = pot.eligible
            awards.append(PotAward(pot, (seat,), (), {seat: pot.amount}))
            continue
        ordered = clockwise_from(button, pot.eligible, seat_order)
        high_winners = _best(highs, ordered)
        if not high_winners:
            raise NoShownHand(amount=pot.amount)
        shown = [seat for seat in ordered if highs.get(seat) is not None]
        low_winners = _best(lows, shown) if lows is not None else []
        if low_winners:
            low_half = pot.amount // 2 // unit * unit
            high_shares = split_evenly(pot.amount - low_half, high_winners, unit)
            low_shares = split_evenly(low_half, low_winners, unit)
        else:
            high_shares = split_evenly(pot.amount, high_winners, unit)
            low_shares = {}
        shares = {
            seat: high_shares.get(seat, 0) + low_shares.get(seat, 0)
            for seat in ordered
            if high_shares.get(seat, 0) + low_shares.get(seat, 0)
        }
        awards.append(PotAward(pot, tuple(high_winners), tuple(low_winners), shares))
    return Awards(tuple(awards))
