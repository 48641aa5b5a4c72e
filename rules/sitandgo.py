"""Sit & Go games for players busted from the main event (G1-G3).

Busted players put their names on a waiting list; a game starts when a table
is free that the main event does not need and at least seven are listed, and
not after the evening's deadline. Each game is a tournament of its own, run
on the ``sit-and-go`` structure preset.

Times of day are passed in (minutes since midnight or ``datetime.time``).
Times before :data:`DAY_STARTS` belong to the night after midnight, so a
venue closing at 01:00 closes after a game asked for at 23:30.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import field
from datetime import time
from typing import Final

from rules.chips import SIT_AND_GO_STACK, STARTING_STACK, StackComposition
from rules.errors import RulesError
from rules.records import RecordMethods, record

__all__ = [
    "CLOSING_MARGIN_MINUTES",
    "DAY_STARTS",
    "LATEST_START",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "STRUCTURE_PRESET",
    "AlreadyListed",
    "BadTime",
    "NoFreeTable",
    "NotBusted",
    "NotListed",
    "SitAndGo",
    "TimeOfDay",
    "TooFewPlayers",
    "TooLate",
    "WaitingList",
    "can_start",
    "next_button",
    "next_game",
    "start_deadline",
    "verify_start",
]

#: The structure preset (``rules.structure``) a Sit & Go runs on.
STRUCTURE_PRESET: Final = "sit-and-go"
#: G1: a game needs seven listed players and seats at most nine.
MIN_PLAYERS: Final = 7
MAX_PLAYERS: Final = 9
#: G2: no new game after 23:00, nor later than an hour before closing.
LATEST_START: Final = time(23, 0)
CLOSING_MARGIN_MINUTES: Final = 60
#: Times of day before this are the small hours after midnight.
DAY_STARTS: Final = time(6, 0)

TimeOfDay = int | time

_DAY: Final = 24 * 60


class BadTime(RulesError, ValueError):
    messages = {
        "nn": "Ugyldig klokkeslett: {value}",
        "nb": "Ugyldig klokkeslett: {value}",
        "da": "Ugyldigt klokkeslæt: {value}",
        "en": "Invalid time of day: {value}",
    }


class NotBusted(RulesError, ValueError):
    messages = {
        "nn": "{player} er ikkje slått ut av hovudturneringa og kan ikkje stå på ventelista",
        "nb": "{player} er ikke slått ut av hovedturneringen og kan ikke stå på ventelisten",
        "da": "{player} er ikke slået ud af hovedturneringen og kan ikke stå på ventelisten",
        "en": "{player} is not eliminated from the main event and cannot join the waiting list",
    }


class AlreadyListed(RulesError, ValueError):
    messages = {
        "nn": "{player} står allereie på ventelista",
        "nb": "{player} står allerede på ventelisten",
        "da": "{player} står allerede på ventelisten",
        "en": "{player} is already on the waiting list",
    }


class NotListed(RulesError, LookupError):
    messages = {
        "nn": "{player} står ikkje på ventelista",
        "nb": "{player} står ikke på ventelisten",
        "da": "{player} står ikke på ventelisten",
        "en": "{player} is not on the waiting list",
    }


class TooLate(RulesError, ValueError):
    messages = {
        "nn": "Ingen ny Sit & Go etter kl. {deadline}",
        "nb": "Ingen ny Sit & Go etter kl. {deadline}",
        "da": "Ingen ny Sit & Go efter kl. {deadline}",
        "en": "No new Sit & Go after {deadline}",
    }


class NoFreeTable(RulesError, ValueError):
    messages = {
        "nn": "Ikkje noko ledig bord: hovudturneringa har prioritet",
        "nb": "Ikke noe ledig bord: hovedturneringen har prioritet",
        "da": "Intet ledigt bord: hovedturneringen har forrang",
        "en": "No free table: the main event has priority",
    }


class TooFewPlayers(RulesError, ValueError):
    messages = {
        "nn": "{listed} på ventelista, treng minst {needed}",
        "nb": "{listed} på ventelisten, trenger minst {needed}",
        "da": "{listed} på ventelisten, kræver mindst {needed}",
        "en": "{listed} on the waiting list, {needed} needed",
    }


def _minutes(t: TimeOfDay) -> int:
    """Minutes on the evening's clock: the small hours count past 24:00."""
    if isinstance(t, time):
        m = t.hour * 60 + t.minute
    elif isinstance(t, int) and not isinstance(t, bool) and 0 <= t < 2 * _DAY:
        m = t
    else:
        raise BadTime(value=str(t))
    return m + _DAY if m < DAY_STARTS.hour * 60 + DAY_STARTS.minute else m


def _clock(minutes: int) -> time:
    return time((minutes // 60) % 24, minutes % 60)


def start_deadline(closing: TimeOfDay) -> time:
    """G2: the last start, the earlier of 23:00 and an hour before closing.

    >>> start_deadline(time(1, 0)), start_deadline(23 * 60 + 30)
    (datetime.time(23, 0), datetime.time(22, 30))
    >>> start_deadline(time(0, 30))
    datetime.time(23, 0)
    """
    latest = LATEST_START.hour * 60 + LATEST_START.minute
    return _clock(min(latest, _minutes(closing) - CLOSING_MARGIN_MINUTES))


@record
class WaitingList(RecordMethods):
    """G1: busted players waiting for a Sit & Go, first come first served.

    >>> w = WaitingList().join("ann", busted={"ann", "bo"}).join("bo", busted={"ann", "bo"})
    >>> w.players, w.can_join("ann", busted={"ann"}), w.can_join("cy", busted={"ann"})
    (('ann', 'bo'), False, False)
    """

    players: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.players)

    def verify_join(self, player_id: str, busted: Collection[str]) -> None:
        if player_id not in busted:
            raise NotBusted(player=player_id)
        if player_id in self.players:
            raise AlreadyListed(player=player_id)

    def can_join(self, player_id: str, busted: Collection[str]) -> bool:
        try:
            self.verify_join(player_id, busted)
        except RulesError:
            return False
        return True

    def join(self, player_id: str, busted: Collection[str]) -> WaitingList:
        """Add a player busted from the main event to the end of the list."""
        self.verify_join(player_id, busted)
        return WaitingList((*self.players, player_id))

    def leave(self, player_id: str) -> WaitingList:
        if player_id not in self.players:
            raise NotListed(player=player_id)
        return WaitingList(tuple(p for p in self.players if p != player_id))


@record
class SitAndGo(RecordMethods):
    """G3: a game to start: its own tournament with free seat choice.

    >>> g = SitAndGo(("ann", "bo"))
    >>> g.structure, g.starting_stack, g.composition.total, g.free_seating
    ('sit-and-go', 10000, 10000, True)
    """

    players: tuple[str, ...]
    structure: str = STRUCTURE_PRESET
    starting_stack: int = STARTING_STACK
    composition: StackComposition = field(default=SIT_AND_GO_STACK)
    #: Players choose their own seats (no draw), and deal for themselves.
    free_seating: bool = True


def verify_start(
    waiting: WaitingList | Sequence[str],
    *,
    now: TimeOfDay,
    closing: TimeOfDay,
    free_tables: int,
    main_needs: int = 0,
    min_players: int = MIN_PLAYERS,
) -> None:
    """Raise the reason a Sit & Go cannot start now (G1, G2).

    ``free_tables`` are tables with nobody at them; ``main_needs`` of those
    the main event still claims (it has priority on tables and equipment).

    >>> verify_start(["p%d" % i for i in range(8)], now=time(23, 5), closing=time(1, 0),
    ...              free_tables=1)
    Traceback (most recent call last):
    ...
    rules.sitandgo.TooLate: No new Sit & Go after 23:00
    """
    deadline = start_deadline(closing)
    if _minutes(now) > _minutes(deadline):
        raise TooLate(deadline=deadline.strftime("%H:%M"))
    if free_tables - main_needs < 1:
        raise NoFreeTable()
    players = waiting.players if isinstance(waiting, WaitingList) else tuple(waiting)
    if len(players) < min_players:
        raise TooFewPlayers(listed=len(players), needed=min_players)


def can_start(
    waiting: WaitingList | Sequence[str],
    *,
    now: TimeOfDay,
    closing: TimeOfDay,
    free_tables: int,
    main_needs: int = 0,
    min_players: int = MIN_PLAYERS,
) -> bool:
    """Whether a Sit & Go may start now.

    >>> w = WaitingList(tuple("abcdefg"))
    >>> can_start(w, now=time(21, 0), closing=time(1, 0), free_tables=1)
    True
    >>> can_start(w, now=time(21, 0), closing=time(1, 0), free_tables=1, main_needs=1)
    False
    """
    try:
        verify_start(waiting, now=now, closing=closing, free_tables=free_tables,
                     main_needs=main_needs, min_players=min_players)
    except RulesError:
        return False
    return True


def next_game(
    waiting: WaitingList,
    *,
    now: TimeOfDay,
    closing: TimeOfDay,
    free_tables: int,
    main_needs: int = 0,
    min_players: int = MIN_PLAYERS,
) -> tuple[SitAndGo, WaitingList]:
    """Start a game with the first nine listed; return it and who still waits.

    >>> w = WaitingList(tuple("abcdefghijk"))
    >>> game, rest = next_game(w, now=time(20, 0), closing=time(23, 30), free_tables=2)
    >>> "".join(game.players), rest.players
    ('abcdefghi', ('j', 'k'))
    """
    verify_start(waiting, now=now, closing=closing, free_tables=free_tables,
                 main_needs=main_needs, min_players=min_players)
    seated, rest = waiting.players[:MAX_PLAYERS], waiting.players[MAX_PLAYERS:]
    return SitAndGo(seated), WaitingList(rest)


def next_button(button: int, seats: Collection[int]) -> int:
    """G3: the button moves one seat clockwise (to the next higher seat number).

    Empty seats are skipped; after the highest seat it goes round to the lowest.

    >>> next_button(3, {1, 2, 3, 5, 8}), next_button(8, {1, 2, 3, 5, 8})
    (5, 1)
    """
    if not seats:
        raise ValueError("no occupied seats")
    later = [s for s in seats if s > button]
    return min(later) if later else min(seats)
