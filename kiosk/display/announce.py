"""What the room should be told: a pure function of what it saw and the state now.

The wall announces busts on the ticker, check-ins in a pop-up, the draw's
seating and new moves for a while, and the final table, hand for hand and
the winner in big pop-ups. :func:`announce` compares the state with
:class:`Seen`, what the room was last told, and returns the news and the new
:class:`Seen`; it reads no clock and draws nothing, so it is tested on
states alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from rules.state import Tournament

__all__ = ["Announcement", "News", "Seen", "announce"]


@dataclass(frozen=True)
class Seen:
    """What the room has been told of one tournament."""

    places: dict[str, int] = field(default_factory=dict)
    checked_in: frozenset[str] = frozenset()
    moves: frozenset[str] = frozenset()
    tables: bool = False
    final_table: bool = False
    hand_for_hand: bool = False
    finished: bool = False
    #: The waiting list (F2) as last seen: a check-in from it is an admission.
    waiting: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Announcement:
    """A big pop-up: ``kind`` says which (its words are the screen's)."""

    kind: Literal["final-table", "hand-for-hand", "winner"]
    name: str = ""


@dataclass(frozen=True)
class News:
    #: Players newly out, best placed first: (place, name).
    busted: tuple[tuple[int, str], ...] = ()
    #: Names of busts undone since: their ticker lines go.
    unbusted: tuple[str, ...] = ()
    #: Player ids newly checked in.
    checked_in: tuple[str, ...] = ()
    #: Player ids newly in from the waiting list (F2): a bust freed their seat.
    admitted: tuple[str, ...] = ()
    #: A screen to show for a while: the draw's seating or new moves.
    screen: Literal["seating", "moves"] | None = None
    announcements: tuple[Announcement, ...] = ()


def seen(state: Tournament) -> Seen:
    """Everything in ``state`` as told (a tournament joined as it stands: no news)."""
    return announce(Seen(), state)[0]


def announce(before: Seen, state: Tournament) -> tuple[Seen, News]:
    """The news since ``before``, and what the room will have seen after it.

    >>> from rules.state import Entry
    >>> t = Tournament()
    >>> t.players["p"] = Entry("p", "Kari", checked_in=True)
    >>> after, news = announce(Seen(), t)
    >>> news.checked_in, after.checked_in
    (('p',), frozenset({'p'}))
    >>> announce(after, t)[1] == News()
    True

    A check-in of someone who was waiting is an admission (F2):

    >>> t.players["q"] = Entry("q", "Per")
    >>> t.waiting = ["q"]
    >>> after, news = announce(after, t)
    >>> t.waiting, t.players["q"].checked_in = [], True
    >>> announce(after, t)[1].admitted
    ('q',)
    """
    places = dict(before.places)
    busted: list[tuple[int, str]] = []
    unbusted: list[str] = []
    for entry in state.players.values():
        if entry.place is None:
            if places.pop(entry.player_id, None) is not None:
                unbusted.append(entry.name)
        elif entry.player_id not in places:
            places[entry.player_id] = entry.place
            if entry.place > 1:
                busted.append((entry.place, entry.name))
        else:
            # A late entry moves earlier busts down (F3): keep the place shown now.
            places[entry.player_id] = entry.place
    checked = frozenset(p for p, e in state.players.items() if e.checked_in)
    moves = frozenset(state.moves)
    tables = bool(state.tables)
    screen: Literal["seating", "moves"] | None = None
    if tables and not before.tables:
        screen = "seating"
    elif moves - before.moves:
        screen = "moves"
    announcements: list[Announcement] = []
    if state.final_table and not before.final_table:
        announcements.append(Announcement("final-table"))
    if state.hand_for_hand and not before.hand_for_hand:
        announcements.append(Announcement("hand-for-hand"))
    if state.finished and not before.finished and state.winner is not None:
        announcements.append(Announcement("winner", state.winner.name))
    after = Seen(places, checked, moves, tables, state.final_table, state.hand_for_hand,
                 state.finished, frozenset(state.waiting))
    new = [p for p in state.players if p in checked and p not in before.checked_in]
    news = News(busted=tuple(sorted(busted)), unbusted=tuple(unbusted),
                checked_in=tuple(p for p in new if p not in before.waiting),
                admitted=tuple(p for p in new if p in before.waiting), screen=screen,
                announcements=tuple(announcements))
    return after, news
