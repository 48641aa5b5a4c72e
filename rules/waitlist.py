"""The waiting list (F2): who waits for a seat once every seat is taken, and in what order.

The tournament holds ``capacity`` players at once: the TD's own number, else
the venue's seats (tables × seats per table); with neither, tables open as
needed and nobody waits. A check-in when full puts the player last on the
list (:class:`~rules.events.PlayerWaitlisted`); when a bust frees seats while
late registration is open, the first on the list are checked in and drawn into
them (:class:`~rules.events.WaitlistAdmitted`, decided in :mod:`rules.commands`).
"""

from __future__ import annotations

from rules.errors import RulesError
from rules.state import Tournament

__all__ = ["AlreadyWaiting", "NotWaiting", "capacity", "free_places", "is_full", "place"]


class AlreadyWaiting(RulesError, ValueError):
    messages = {
        "nn": "{player} står alt på ventelista, som nr. {place}",
        "nb": "{player} står allerede på ventelisten, som nr. {place}",
        "da": "{player} står allerede på ventelisten, som nr. {place}",
        "en": "{player} is already on the waiting list, number {place}",
    }


class NotWaiting(RulesError, ValueError):
    messages = {
        "nn": "{player} står ikkje på ventelista",
        "nb": "{player} står ikke på ventelisten",
        "da": "{player} står ikke på ventelisten",
        "en": "{player} is not on the waiting list",
    }


def capacity(state: Tournament) -> int | None:
    """How many players the tournament holds at once; None for no limit.

    >>> from rules.waitlist import _example
    >>> capacity(_example(tables=2, seats=4)), capacity(_example(tables=2, seats=4, cap=6))
    (8, 6)
    >>> capacity(_example(tables=None, seats=4)) is None
    True
    """
    config = state.config
    if config is None:
        return None
    if config.capacity is not None:
        return config.capacity
    if config.max_tables is None:
        return None
    return config.max_tables * config.house.seats_per_table


def free_places(state: Tournament) -> int | None:
    """Players who can still come in before the list is needed; None for no limit.

    >>> t = _example(tables=1, seats=4)
    >>> t.remaining = 3
    >>> free_places(t), is_full(t)
    (1, False)
    >>> t.remaining = 4
    >>> free_places(t), is_full(t)
    (0, True)
    """
    limit = capacity(state)
    return None if limit is None else max(0, limit - state.remaining)


def is_full(state: Tournament) -> bool:
    """Every place is taken: a check-in now waits (F2)."""
    return free_places(state) == 0


def place(state: Tournament, player_id: str) -> int | None:
    """The player's place on the waiting list, from 1; None if not on it.

    >>> t = _example(tables=1, seats=4)
    >>> t.waiting = ["a", "b"]
    >>> place(t, "b"), place(t, "c")
    (2, None)
    """
    try:
        return state.waiting.index(player_id) + 1
    except ValueError:
        return None


def _example(*, tables: int | None, seats: int, cap: int | None = None) -> Tournament:
    import dataclasses

    from rules.events import TournamentCreated
    from rules.house import HouseRules
    from rules.structure import preset

    t = Tournament()
    t.config = TournamentCreated(
        at=0.0, name="Fredag", structure=preset("pubpoker"),
        house=dataclasses.replace(HouseRules(), seats_per_table=seats), max_tables=tables,
        capacity=cap)
    return t
