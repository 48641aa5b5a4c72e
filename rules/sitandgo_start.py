"""When the next Sit & Go starts, who plays it, and how its table is set up (G1-G3).

The main event's state says who waits (its waiting list), which tables it
uses and how many the venue has; the caller says the time of day, when the
venue closes and which games already finished (each is a tournament of its
own). :func:`verify_next` raises why a game cannot start now, :func:`can_start_next`
says whether (the TD's box greys out its key), and the command
:class:`~rules.commands.StartNextSitAndGo` starts it: the decision is made
against the state the command is decided on, so two presses cannot both
take the last free table.

Time of day never reaches the log: :class:`~rules.events.SitAndGoStarted`
holds the outcome, so replay needs no clock.
"""

from __future__ import annotations

from collections.abc import Collection

from rules import sitandgo
from rules.records import RecordMethods, record
from rules.sitandgo import SitAndGo, TimeOfDay, WaitingList
from rules.state import Phase, Tournament

__all__ = [
    "NextSitAndGo",
    "can_start_next",
    "free_tables",
    "main_needs",
    "running_games",
    "sit_and_go_id",
    "verify_next",
]


@record
class NextSitAndGo(RecordMethods):
    """The game that would start: its id, its number tonight and its players."""

    sit_and_go_id: str
    number: int
    game: SitAndGo

    @property
    def players(self) -> tuple[str, ...]:
        return self.game.players


def sit_and_go_id(tournament_id: str, number: int) -> str:
    """Tonight's ``number``-th game, named after the main event.

    >>> sit_and_go_id("t2025-03-07", 2)
    't2025-03-07-sng2'
    """
    return f"{tournament_id}-sng{number}"


def running_games(state: Tournament, finished: Collection[str] = ()) -> int:
    """Games started from this main event and not in ``finished``.

    >>> t = Tournament()
    >>> t.sit_and_gos = {"t-sng1": ("a",), "t-sng2": ("b",)}
    >>> running_games(t), running_games(t, {"t-sng1"})
    (2, 1)
    """
    return len(set(state.sit_and_gos) - set(finished))


def free_tables(state: Tournament, *, finished: Collection[str] = ()) -> int:
    """Tables nobody sits at: the venue's tables less the main event's and the games'.

    A venue that set no table count (``max_tables`` None) has none known free.

    >>> from rules.commands import CreateTournament, execute
    >>> import random
    >>> from rules.structure import preset
    >>> t = Tournament()
    >>> _ = execute(t, CreateTournament("F", preset("pubpoker"), max_tables=4),
    ...             now=0.0, rng=random.Random(1))
    >>> t.sit_and_gos["t-sng1"] = tuple("abcdefg")
    >>> free_tables(t), free_tables(t, finished={"t-sng1"})
    (3, 4)
    """
    limit = (state.config.max_tables if state.config is not None else None) or 0
    busy = sum(1 for t in state.tables.values() if t.seats)
    return max(0, limit - busy - running_games(state, finished))


def main_needs(state: Tournament) -> int:
    """G1 priority: free tables the main event still claims.

    Before the draw, the tables its checked-in players will fill; after it,
    none beyond those it sits at (late entries go to its tables first).

    >>> from rules.commands import CheckIn, CreateTournament, execute
    >>> import random
    >>> from rules.structure import preset
    >>> t, rng = Tournament(), random.Random(1)
    >>> _ = execute(t, CreateTournament("F", preset("pubpoker"), max_tables=4), now=0.0, rng=rng)
    >>> for n in range(12):
    ...     _ = execute(t, CheckIn(f"p{n}", f"P{n}"), now=0.0, rng=rng)
    >>> main_needs(t)
    2
    """
    if state.config is None or state.phase is not Phase.CHECK_IN:
        return 0
    seats = state.config.house.seats_per_table
    return -(-len(state.active()) // seats)


def verify_next(state: Tournament, *, tournament_id: str, time_of_day: TimeOfDay,
                closing: TimeOfDay, finished: Collection[str] = ()) -> NextSitAndGo:
    """The game that starts now (the first nine listed, G1), or raise why none can.

    Refusals: :class:`~rules.sitandgo.TooLate` (G2), :class:`~rules.sitandgo.NoFreeTable`
    (G1, the main event first), :class:`~rules.sitandgo.TooFewPlayers` (G1).

    >>> from datetime import time
    >>> verify_next(Tournament(), tournament_id="t", time_of_day=time(21, 0),
    ...             closing=time(1, 0))
    Traceback (most recent call last):
    ...
    rules.sitandgo.NoFreeTable: No free table: the main event has priority
    """
    waiting = WaitingList(tuple(state.sit_and_go_list))
    game, _ = sitandgo.next_game(waiting, now=time_of_day, closing=closing,
                                 free_tables=free_tables(state, finished=finished),
                                 main_needs=main_needs(state))
    number = len(state.sit_and_gos) + 1
    return NextSitAndGo(sit_and_go_id(tournament_id, number), number, game)


def can_start_next(state: Tournament, *, tournament_id: str, time_of_day: TimeOfDay,
                   closing: TimeOfDay, finished: Collection[str] = ()) -> bool:
    """Whether a Sit & Go may start now (see :func:`verify_next`).

    >>> from datetime import time
    >>> can_start_next(Tournament(), tournament_id="t", time_of_day=time(21, 0),
    ...                closing=time(1, 0))
    False
    """
    from rules.errors import RulesError

    try:
        verify_next(state, tournament_id=tournament_id, time_of_day=time_of_day,
                    closing=closing, finished=finished)
    except RulesError:
        return False
    return True
