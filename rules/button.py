"""The dealer button and the blinds at one table (B2-B5, B8, S5).

Seats are numbered from 1 and clockwise is increasing seat number, wrapping.
The rule is the TDA *dead button* of seeds 002/003: the big blind always moves
forward to the next occupied seat; the small-blind *position* is last hand's
big-blind seat and the button goes to last hand's small-blind position, whether
or not anyone still sits there. So nobody skips a big blind and nobody pays it
twice in a row; an empty seat can hold the button (dead button) or make the
small blind dead.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Collection, Sequence

from rules.errors import RulesError
from rules.records import RecordMethods, record
from rules.rng import RandomSource

__all__ = [
    "ButtonPosition",
    "SeatOutOfRange",
    "TooFewPlayers",
    "between",
    "first_position",
    "free_seats_worst_first",
    "initial_button",
    "next_big_blind",
    "next_position",
    "seat_after",
    "sits_out",
    "sitting_out",
]


class TooFewPlayers(RulesError, ValueError):
    messages = {
        "nn": "Det trengst minst to spelarar ved bordet for å dele ut ei hand",
        "nb": "Det trengs minst to spillere ved bordet for å dele ut en hånd",
        "da": "Der skal være mindst to spillere ved bordet for at give en hånd",
        "en": "At least two players must be at the table to deal a hand",
    }


class SeatOutOfRange(RulesError, ValueError):
    messages = {
        "nn": "Sete {seat} finst ikkje: bordet har {seats} sete",
        "nb": "Sete {seat} finnes ikke: bordet har {seats} seter",
        "da": "Sæde {seat} findes ikke: bordet har {seats} sæder",
        "en": "Seat {seat} does not exist: the table has {seats} seats",
    }


@record
class ButtonPosition(RecordMethods):
    """Button and blinds for one hand at one table.

    ``button`` may be an empty seat (dead button); ``small_blind`` is None when
    nobody posts a small blind this hand. Heads-up the button is the small
    blind (B2). ``dead_small_blind`` is the empty seat the small-blind position
    fell on when ``small_blind`` is None: the button goes there next hand.

    >>> ButtonPosition(button=1, small_blind=2, big_blind=3).small_blind_position
    2
    >>> ButtonPosition(4, None, 7, dead_small_blind=5).small_blind_position
    5
    """

    button: int
    small_blind: int | None
    big_blind: int
    dead_small_blind: int | None = None

    @property
    def small_blind_position(self) -> int | None:
        """The seat of the small blind, posted or dead; None if never recorded."""
        return self.small_blind if self.small_blind is not None else self.dead_small_blind

    @property
    def heads_up(self) -> bool:
        return self.button == self.small_blind


def seat_after(seat: int, occupied: Sequence[int]) -> int:
    """The first seat of ``occupied`` (sorted ascending) strictly clockwise of ``seat``.

    >>> seat_after(3, [1, 3, 6]), seat_after(6, [1, 3, 6]), seat_after(4, [1, 3, 6])
    (6, 1, 6)
    """
    i = bisect_right(occupied, seat)
    return occupied[i] if i < len(occupied) else occupied[0]


def between(seat: int, start: int, end: int) -> bool:
    """Whether ``seat`` lies strictly between ``start`` and ``end`` going clockwise.

    >>> between(5, 3, 7), between(1, 8, 2), between(3, 3, 7), between(8, 3, 7)
    (True, True, False, False)
    """
    if start < end:
        return start < seat < end
    if start > end:
        return seat > start or seat < end
    return seat != start


def _seat_before(seat: int, seats_per_table: int) -> int:
    return seat - 1 if seat > 1 else seats_per_table


def _sorted_seats(
    occupied: Collection[int], seats_per_table: int, extra: Collection[int] = ()
) -> list[int]:
    seats = sorted(set(occupied).union(extra))
    for seat in (seats[0], seats[-1]) if seats else ():
        if not 1 <= seat <= seats_per_table:
            raise SeatOutOfRange(seat=seat, seats=seats_per_table)
    return seats


def first_position(
    button: int, occupied: Collection[int], *, seats_per_table: int
) -> ButtonPosition:
    """The first hand's blinds once the button is placed (after B8's draw).

    >>> first_position(4, {2, 4, 7, 9}, seats_per_table=10)
    ButtonPosition(button=4, small_blind=7, big_blind=9, dead_small_blind=None)
    >>> first_position(4, {2, 4}, seats_per_table=10)  # heads-up: button is SB
    ButtonPosition(button=4, small_blind=4, big_blind=2, dead_small_blind=None)
    """
    seats = _sorted_seats(occupied, seats_per_table)
    if len(seats) < 2:
        raise TooFewPlayers()
    if len(seats) == 2:
        if button not in seats:
            button = seat_after(button, seats)
        return ButtonPosition(button, button, seat_after(button, seats))
    small = seat_after(button, seats)
    return ButtonPosition(button, small, seat_after(small, seats))


def next_position(
    prev: ButtonPosition | None,
    occupied: Collection[int],
    *,
    new_players: Collection[int] = (),
    seats_per_table: int,
    moved: Collection[int] = (),
    dead_button_on_move: bool = True,
) -> ButtonPosition:
    """Button and blinds for the next hand (B2, B3, B4, S5).

    ``occupied`` are the seats with a player now; ``new_players`` are seats
    filled since ``prev`` (they count as occupied and take whatever position
    their seat gets; see :func:`sits_out` for B5). With no ``prev`` the button
    starts at the lowest occupied seat; use :func:`first_position` after B8's
    draw instead. ``moved`` are seats emptied by a move to another table: with
    ``dead_button_on_move=False`` (house rule, S5) a button that would fall on
    such a seat goes to the nearest player before the small blind instead.

    SB (seat 2) busted: the button is dead on seat 2 (B3).

    >>> prev = ButtonPosition(button=1, small_blind=2, big_blind=3)
    >>> next_position(prev, {1, 3, 4, 5}, seats_per_table=10)
    ButtonPosition(button=2, small_blind=3, big_blind=4, dead_small_blind=None)

    BB (seat 3) busted: seat 4 pays the BB, no small blind (B3).

    >>> next_position(prev, {1, 2, 4, 5}, seats_per_table=10)
    ButtonPosition(button=2, small_blind=None, big_blind=4, dead_small_blind=3)

    Going heads-up: the player due the BB pays it (B4).

    >>> next_position(prev, {2, 4}, seats_per_table=10)
    ButtonPosition(button=2, small_blind=2, big_blind=4, dead_small_blind=None)
    """
    seats = _sorted_seats(occupied, seats_per_table, new_players)
    if len(seats) < 2:
        raise TooFewPlayers()
    if prev is None:
        return first_position(seats[0], seats, seats_per_table=seats_per_table)
    big = seat_after(prev.big_blind, seats)
    if len(seats) == 2:
        other = seats[0] if seats[1] == big else seats[1]
        return ButtonPosition(other, other, big)
    sb_seat = prev.big_blind
    small = sb_seat if sb_seat in seats else None
    button = prev.small_blind_position
    if button is None:
        # A dead small blind whose seat was never recorded: any seat of the
        # empty run before the BB plays the same; take the one next to it.
        button = _seat_before(sb_seat, seats_per_table)
    if not between(sb_seat, button, big):
        # Coming out of heads-up (button == SB) the old button can sit after
        # the new BB; the button must precede the small blind.
        button = _seat_before(sb_seat, seats_per_table)
    if not dead_button_on_move and button not in seats and button in moved:
        button = _player_before(sb_seat, seats)
    return ButtonPosition(
        button, small, big, dead_small_blind=sb_seat if small is None else None
    )


def _player_before(seat: int, seats: Sequence[int]) -> int:
    """The nearest occupied seat counter-clockwise of ``seat``."""
    i = bisect_right(seats, seat - 1) - 1
    return seats[i]  # index -1 wraps to the highest seat


def next_big_blind(position: ButtonPosition, occupied: Collection[int]) -> int:
    """The seat due to pay the big blind next hand.

    >>> next_big_blind(ButtonPosition(1, 2, 3), {1, 2, 3, 7, 9})
    7
    """
    seats = sorted(occupied)
    if not seats:
        raise TooFewPlayers()
    return seat_after(position.big_blind, seats)


def free_seats_worst_first(
    position: ButtonPosition, occupied: Collection[int], *, seats_per_table: int
) -> tuple[int, ...]:
    """Free seats ordered from worst to best for a player moved in (S2).

    Worst is the seat that pays the big blind soonest: the first free seat
    after the current big blind becomes next hand's BB. The current big-blind
    seat is left out: whoever sits there is next hand's small blind, and a
    moved player never gets the small blind.

    >>> free_seats_worst_first(ButtonPosition(1, 2, 3), {1, 2, 3, 5, 8}, seats_per_table=9)
    (4, 6, 7, 9)
    >>> free_seats_worst_first(ButtonPosition(1, 2, 3), {1, 2, 5, 8}, seats_per_table=9)
    (4, 6, 7, 9)
    """
    taken = set(occupied)
    big = position.big_blind
    free = [
        seat
        for seat in range(1, seats_per_table + 1)
        if seat not in taken and seat != big
    ]
    free.sort(key=lambda seat: (seat - big) % seats_per_table)
    if len(taken) == 1:
        # The mover makes the table heads-up, where the player due the BB
        # pays it and the other takes the small blind (B4): drop seats that
        # would make the mover that small blind.
        free = [
            seat
            for seat in free
            if next_position(position, taken | {seat}, seats_per_table=seats_per_table).big_blind
            == seat
        ]
    return tuple(free)


def sits_out(position: ButtonPosition, seat: int) -> bool:
    """B5: a new player is not dealt in while their seat lies between the SB and the button.

    ``position`` is the hand about to be dealt. Call it each hand for a player
    who joined the table (broken table, late registration); the first hand it
    is False the button has passed and the player is dealt in from then on.

    >>> pos = ButtonPosition(button=2, small_blind=5, big_blind=6)
    >>> sits_out(pos, 3), sits_out(pos, 2), sits_out(pos, 5), sits_out(pos, 8)
    (True, False, False, False)
    """
    if position.heads_up:
        return False
    small = position.small_blind_position
    end = small if small is not None else position.big_blind
    return between(seat, position.button, end)


def sitting_out(
    prev: ButtonPosition,
    new_seat: int,
    *,
    occupied: Collection[int] | None = None,
    seats_per_table: int = 10,
) -> bool:
    """B5 for a player seated at ``new_seat`` after the hand ``prev``.

    With ``occupied`` (the seats of the next hand) the next position is
    computed exactly; without it, from the dead-button rule alone (next button
    at ``prev``'s small-blind position, next small blind at ``prev``'s BB).

    >>> prev = ButtonPosition(button=1, small_blind=3, big_blind=6)
    >>> sitting_out(prev, 4), sitting_out(prev, 7), sitting_out(prev, 2)
    (True, False, False)
    >>> sitting_out(prev, 4, occupied={1, 3, 6, 8}, seats_per_table=9)
    True
    """
    if occupied is not None:
        seats = set(occupied) | {new_seat}
        position = next_position(prev, seats, seats_per_table=seats_per_table)
        return sits_out(position, new_seat)
    button = prev.small_blind_position
    if button is None or prev.heads_up:
        return False
    return between(new_seat, button, prev.big_blind)


_RANKS = "23456789TJQKA"
#: Suit order for breaking a tie in the draw: spades > hearts > diamonds > clubs.
_SUITS = "cdhs"
_DECK = tuple(rank + suit for rank in _RANKS for suit in _SUITS)


def initial_button(
    seats: Collection[int], rng: RandomSource
) -> tuple[int, tuple[tuple[int, str], ...]]:
    """B8: high-card draw for the button; one card per occupied seat.

    Cards are dealt from a deck shuffled by ``rng`` in seat order; the
    highest rank wins, a tie by suit (spades, hearts, diamonds, clubs), so
    there is always one winner. Returns the button seat and the cards drawn.

    >>> import random
    >>> seat, cards = initial_button({1, 4, 6}, random.Random(7))
    >>> seat, cards
    (4, ((1, '6d'), (4, 'Js'), (6, '9s')))
    >>> seat == initial_button({1, 4, 6}, random.Random(7))[0]
    True
    """
    ordered = sorted(seats)
    if not ordered:
        raise TooFewPlayers()
    deck = list(_DECK)
    rng.shuffle(deck)
    cards = tuple(zip(ordered, deck, strict=False))
    winner = max(cards, key=lambda drawn: _DECK.index(drawn[1]))
    return winner[0], cards
