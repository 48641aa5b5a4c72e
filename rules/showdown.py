"""The showdown: who shows first (P3), when every hand is face up (P4), and
who wins with what (P2, P5, P6, P7, P8).

Hand values come from :mod:`rules.hands`; the chips are shared out by
:func:`rules.pots.award_pots`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Final

from rules.cards import Card, verify_distinct
from rules.errors import RulesError
from rules.hands import (
    Cards,
    Game,
    HandValue,
    as_cards,
    as_game,
    evaluate_high,
    evaluate_low8,
)
from rules.house import ShowdownOrder
from rules.i18n import DEFAULT_LANGUAGE
from rules.pots import Awards, Pot, award_pots, clockwise_from
from rules.records import RecordMethods, record

__all__ = [
    "HOLE_CARDS",
    "NoActiveSeat",
    "Ranking",
    "ShownHand",
    "TooManyHoleCards",
    "all_hands_face_up",
    "first_to_show",
    "rank_showdown",
    "settle",
    "showing_order",
]

#: How many hole cards a player holds, and so must show to win (P5).
HOLE_CARDS: Final = {Game.HOLDEM: 2, Game.OMAHA: 4}



class NoActiveSeat(RulesError, ValueError):
    messages = {
        "nn": "Ingen aktive spelarar att til showdown",
        "nb": "Ingen aktive spillere igjen til showdown",
        "da": "Ingen aktive spillere tilbage til showdown",
        "en": "No active players left for a showdown",
    }


class TooManyHoleCards(RulesError, ValueError):
    messages = {
        "nn": "Sete {seat} har {got} holkort; i {game} har ein {limit}",
        "nb": "Sete {seat} har {got} hullkort; i {game} har man {limit}",
        "da": "Sæde {seat} har {got} hulkort; i {game} har man {limit}",
        "en": "Seat {seat} has {got} hole cards; {game} deals {limit}",
    }


# P3 ---------------------------------------------------------------------------


def first_to_show(
    active: Collection[int],
    *,
    button: int,
    last_aggressor: int | None = None,
    last_caller: int | None = None,
    order: ShowdownOrder = ShowdownOrder.LAST_AGGRESSOR,
    seat_order: Sequence[int] | None = None,
) -> int:
    """Who must show first when nobody shows voluntarily (P3).

    ``last_aggressor`` and ``last_caller`` are from the river only; None when
    everybody checked. By default the last bettor or raiser shows first, and
    after all checks the first active seat left of the button. With
    ``ShowdownOrder.LEFT_OF_LAST_CALLER`` (pf-pokerklub) the first active seat
    left of the last caller shows first.

    >>> first_to_show({2, 5, 8}, button=4, last_aggressor=2)
    2
    >>> first_to_show({2, 5, 8}, button=5)
    8
    >>> first_to_show({2, 5, 8}, button=4, last_aggressor=5, last_caller=8,
    ...               order=ShowdownOrder.LEFT_OF_LAST_CALLER)
    2
    """
    if not active:
        raise NoActiveSeat()
    if order is ShowdownOrder.LEFT_OF_LAST_CALLER and last_caller is not None:
        return clockwise_from(last_caller, active, seat_order)[0]
    if last_aggressor is not None and last_aggressor in active:
        return last_aggressor
    return clockwise_from(button, active, seat_order)[0]


def showing_order(
    active: Collection[int],
    *,
    button: int,
    last_aggressor: int | None = None,
    last_caller: int | None = None,
    order: ShowdownOrder = ShowdownOrder.LAST_AGGRESSOR,
    seat_order: Sequence[int] | None = None,
) -> tuple[int, ...]:
    """Every active seat in the order the hands are shown: the first (P3), then clockwise.

    >>> showing_order({2, 5, 8}, button=4, last_aggressor=5)
    (5, 8, 2)
    """
    first = first_to_show(
        active,
        button=button,
        last_aggressor=last_aggressor,
        last_caller=last_caller,
        order=order,
        seat_order=seat_order,
    )
    rest = clockwise_from(first, active, seat_order)
    return (first, *(seat for seat in rest if seat != first))


# P4 ---------------------------------------------------------------------------


def all_hands_face_up(
    stacks: Mapping[int, int], folded: Collection[int] = (), *, action_complete: bool = True
) -> bool:
    """Whether every active hand goes face up now, before the rest of the board (P4).

    ``stacks`` are the chips each seat in the hand has left behind. That is
    so when somebody is all-in and no further betting is possible: at most one
    active seat still has chips, and nobody still has to act on a bet.

    >>> all_hands_face_up({1: 0, 2: 3500})
    True
    >>> all_hands_face_up({1: 0, 2: 3500, 3: 900})  # seats 2 and 3 can still bet
    False
    >>> all_hands_face_up({1: 0, 2: 3500, 3: 900}, folded={3})
    True
    >>> all_hands_face_up({1: 0, 2: 3500}, action_complete=False)  # seat 2 must call or fold
    False
    """
    active = [seat for seat in stacks if seat not in folded]
    if len(active) < 2 or not action_complete:
        return False
    with_chips = sum(1 for seat in active if stacks[seat] > 0)
    return with_chips < len(active) and with_chips <= 1


# Ranking ----------------------------------------------------------------------


@record
class ShownHand(RecordMethods):
    """One seat's cards at the showdown and what they are worth.

    ``high`` is None when the seat did not show all its hole cards: it
    cannot win (P5). ``low`` is the qualifying 8-or-better low, if any.
    """

    seat: int
    cards: tuple[Card, ...]
    complete: bool
    high: HandValue | None
    low: HandValue | None = None

    def label(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The hand's category, translated (P8); empty when it cannot win.

        >>> [h.label("da") for h in rank_showdown("Ah Kh 7c 2d 2s", {1: "As Ad", 2: "Kc"}).hands]
        ['Fuldt hus', '']
        """
        return self.high.label(lang) if self.high is not None else ""


@record
class Ranking(RecordMethods):
    """A showdown ranked best high hand first; unshown hands last.

    Winners are listed clockwise from the button, so the first of them gets
    any odd chip (P2).
    """

    board: tuple[Card, ...]
    game: Game
    hilo: bool
    hands: tuple[ShownHand, ...]
    high_winners: tuple[int, ...]
    low_winners: tuple[int, ...]

    @property
    def highs(self) -> dict[int, HandValue | None]:
        return {hand.seat: hand.high for hand in self.hands}

    @property
    def lows(self) -> dict[int, HandValue | None] | None:
        if not self.hilo:
            return None
        return {hand.seat: hand.low if hand.complete else None for hand in self.hands}


def _high(entry: ShownHand) -> HandValue:
    assert entry.high is not None
    return entry.high


def rank_showdown(
    board: Cards,
    hands: Mapping[int, Cards],
    *,
    game: Game | str = Game.HOLDEM,
    hilo: bool = False,
    button: int | None = None,
    seat_order: Sequence[int] | None = None,
) -> Ranking:
    """Rank the hands shown at a showdown and name the winners (P2, P5-P8).

    ``hands`` holds the hole cards each seat showed. A seat that showed fewer
    than all of them (one card in Hold'em) or mucked (no cards) is ranked
    last and cannot win, also when its best hand is the board (P5). Equal
    hands tie whatever their suits (P2). With ``hilo`` the best qualifying
    8-or-better low is found too (P7).

    >>> r = rank_showdown("Ah Kh 7c 2d 2s", {1: "As Ad", 2: "Kc Kd", 3: "Qs"})
    >>> [(h.seat, h.label("nn")) for h in r.hands], r.high_winners
    ([(1, 'Fullt hus'), (2, 'Fullt hus'), (3, '')], (1,))
    >>> rank_showdown("Ah Kh Qh Jh Th", {1: "2c 3c", 2: "4d 5s"}, button=1).high_winners
    (2, 1)
    """
    kind = as_game(game)
    board_cards = as_cards(board)
    shown = {seat: as_cards(cards) for seat, cards in hands.items()}
    verify_distinct(board_cards + tuple(card for cards in shown.values() for card in cards))
    needed = HOLE_CARDS[kind]
    entries: list[ShownHand] = []
    for seat, cards in shown.items():
        if len(cards) > needed:
            raise TooManyHoleCards(seat=seat, got=len(cards), limit=needed, game=kind.title())
        if len(cards) < needed:
            entries.append(ShownHand(seat, cards, complete=False, high=None))
            continue
        high = evaluate_high(cards, board_cards, kind)
        low = evaluate_low8(cards, board_cards, kind) if hilo else None
        entries.append(ShownHand(seat, cards, complete=True, high=high, low=low))

    # Clockwise from the button, so ties list the odd-chip winner first.
    if button is None:
        clockwise: tuple[int, ...] = tuple(sorted(shown))
    else:
        clockwise = clockwise_from(button, shown, seat_order)
    by_seat = {entry.seat: entry for entry in entries}
    in_turn = [by_seat[seat] for seat in clockwise]
    # A stable sort keeps tied hands in clockwise order.
    ranked = sorted((e for e in in_turn if e.high is not None), key=_high, reverse=True)
    ranked += [e for e in in_turn if e.high is None]
    highs = {seat: by_seat[seat].high for seat in clockwise}
    best_high = max((v for v in highs.values() if v is not None), default=None)
    high_winners = tuple(s for s in clockwise if best_high is not None and highs[s] == best_high)
    lows = [by_seat[s].low for s in clockwise if by_seat[s].low is not None]
    best_low = max((v for v in lows if v is not None), default=None)
    low_winners = tuple(
        s for s in clockwise if best_low is not None and by_seat[s].low == best_low
    )
    return Ranking(board_cards, kind, hilo, tuple(ranked), high_winners, low_winners)


def settle(
    pots: Iterable[Pot],
    ranking: Ranking,
    *,
    button: int,
    seat_order: Sequence[int] | None = None,
    unit: int = 1,
) -> Awards:
    """Share out every pot by a ranked showdown (P1, P2, P5, P7).

    >>> from rules.pots import side_pots
    >>> pots = side_pots({1: 5000, 2: 1400, 3: 8000})
    >>> ranking = rank_showdown("Ah Kh 7c 2d 2s", {1: "Qs Qd", 2: "As Ad", 3: "Kc Kd"})
    >>> settle(pots, ranking, button=1).total
    {2: 4200, 3: 10200}
    """
    return award_pots(
        pots,
        ranking.highs,
        lows=ranking.lows,
        button=button,
        seat_order=seat_order,
        unit=unit,
    )
