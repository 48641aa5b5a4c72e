"""One undo takes back one action: every event of one command, newest first.

Every event a command causes carries the same action id (``Event.action``),
stamped by the device that writes it: :func:`action_id` of the device and
the seq its first event gets, so it is unique across devices and needs no
randomness. The undo button finds the newest action still in force
(:func:`newest_action`) and cancels its events (:func:`undo_events`), as one
:class:`~rules.commands.UndoAction`.

Events written before ids existed have none (``""``). For them the old guess
stands: the newest such event and those just before it from the same device
at the same moment. The guess is wrong when two commands land at one
timestamp (a fast-forwarded or frozen clock, two presses in one tick), which
is why ids exist.

The triad: :func:`verify_undo` raises why not, :func:`can_undo` says whether
(a table device greys out its UNDO), and :func:`undo` gives the command.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from rules.errors import RulesError
from rules.events import (
    ActionUndone,
    Event,
    Record,
    TonightChosen,
    TournamentClosed,
    TournamentCreated,
    TournamentReopened,
)
from rules.fold import undone
from rules.refusals import NothingToUndo, TournamentClosedError, UndoWindowPassed

if TYPE_CHECKING:
    # Only undo() makes one: the store imports this module for action ids.
    from rules.commands import UndoAction

__all__ = [
    "action_id",
    "can_undo",
    "closed",
    "live_records",
    "newest_action",
    "stamp",
    "undo",
    "undo_events",
    "verify_undo",
]


def action_id(device_id: str, first_seq: int) -> str:
    """The id of the action whose first event is ``device_id``'s ``first_seq``.

    >>> action_id("td", 41)
    'td:41'
    """
    return f"{device_id}:{first_seq}"


def stamp(events: Iterable[Event], action: str) -> tuple[Event, ...]:
    """The events, each carrying ``action`` (an id already set is kept).

    >>> from rules.events import ClockPaused, ClockResumed
    >>> [e.action for e in stamp([ClockPaused(at=1.0), ClockResumed(at=1.0)], "td:3")]
    ['td:3', 'td:3']
    """
    return tuple(e if e.action else dataclasses.replace(e, action=action) for e in events)


def live_records(records: Iterable[Record]) -> list[Record]:
    """Records an undo could still take back, in fold order.

    Not undone (a redone one counts again), not an undo itself, and not the
    tournament's creation, nor the TD making it tonight's (a switch is
    changed by switching again).
    """
    ordered = sorted(records, key=lambda r: r.key)
    gone = undone(ordered)
    return [r for r in ordered
            if not isinstance(r.event, ActionUndone | TournamentCreated | TonightChosen)
            and r.ident not in gone]


def newest_action(records: Iterable[Record], *, device_id: str | None = None
                  ) -> tuple[Record, ...]:
    """The live records of the newest action (only ``device_id``'s if given), oldest first.

    >>> from rules.events import HandStarted
    >>> log = [Record("t1", 1, 1, "t", HandStarted(at=5.0, table=1, action="t1:1")),
    ...        Record("t2", 1, 2, "t", HandStarted(at=5.0, table=2, action="t2:1")),
    ...        Record("t1", 2, 3, "t", HandStarted(at=5.0, table=1, action="t1:2"))]
    >>> [r.ident for r in newest_action(log)], [r.ident for r in newest_action(log, device_id="t2")]
    ([('t1', 2)], [('t2', 1)])
    >>> newest_action([])
    ()
    """
    live = live_records(records)
    if device_id is not None:
        live = [r for r in live if r.device_id == device_id]
    if not live:
        return ()
    newest = live[-1]
    if newest.event.action:
        return tuple(r for r in live if r.event.action == newest.event.action)
    # Written before action ids: the same device, the same moment, back to back.
    group = [newest]
    for record in reversed(live[:-1]):
        if (record.event.action or record.device_id != newest.device_id
                or record.event.at != newest.event.at):
            break
        group.insert(0, record)
    return tuple(group)


def undo_events(action: Sequence[Record], now: float) -> list[ActionUndone]:
    """The undos that take ``action`` back: its newest event first.

    >>> from rules.events import ClockPaused, ClockResumed
    >>> act = [Record("td", 4, 4, "t", ClockPaused(at=9.0, action="td:4")),
    ...        Record("td", 5, 5, "t", ClockResumed(at=9.0, action="td:4"))]
    >>> [(u.device_id, u.seq) for u in undo_events(act, now=12.0)]
    [('td', 5), ('td', 4)]
    """
    return [ActionUndone(at=now, device_id=r.device_id, seq=r.seq) for r in reversed(action)]


def verify_undo(records: Iterable[Record], *, now: float, device_id: str | None = None,
                within: float | None = None) -> tuple[Record, ...]:
    """The action the undo button would take back; raise why there is none.

    ``device_id`` limits it to that device's own actions (a table device);
    ``within`` to an action at most that many shared seconds old (a table
    device's window is real seconds: the caller multiplies by the clock's
    speed).

    >>> from rules.events import ClockCalled
    >>> log = [Record("t1", 1, 1, "t", ClockCalled(at=100.0, table=1, action="t1:1"))]
    >>> len(verify_undo(log, now=105.0, device_id="t1", within=10.0))
    1
    >>> verify_undo(log, now=115.0, device_id="t1", within=10.0)
    Traceback (most recent call last):
    ...
    rules.refusals.UndoWindowPassed: Too late to undo here; ask the TD
    >>> verify_undo(log, now=105.0, device_id="t2")
    Traceback (most recent call last):
    ...
    rules.refusals.NothingToUndo: Nothing to undo

    A closed night takes nothing back (N1), whoever asks:

    >>> from rules.events import TournamentClosed
    >>> closed = [*log, Record("td", 1, 2, "t", TournamentClosed(at=101.0))]
    >>> verify_undo(closed, now=105.0, device_id="t1")
    Traceback (most recent call last):
    ...
    rules.refusals.TournamentClosedError: The tournament is closed and its results stand: \
reopen it with 'pubpoker tournament reopen --yes' to change anything
    """
    records = list(records)
    if closed(records):
        raise TournamentClosedError()
    action = newest_action(records, device_id=device_id)
    if not action:
        raise NothingToUndo()
    if within is not None and now - action[-1].event.at > within:
        raise UndoWindowPassed()
    return action


def closed(records: Iterable[Record]) -> bool:
    """Whether the log leaves the night closed: its newest close or reopen in force is a close.

    >>> from rules.events import TournamentClosed, TournamentReopened
    >>> log = [Record("td", 1, 1, "t", TournamentClosed(at=1.0))]
    >>> closed(log), closed([*log, Record("td", 2, 2, "t", TournamentReopened(at=2.0))])
    (True, False)
    """
    shut = False
    for record in live_records(records):
        if isinstance(record.event, TournamentClosed | TournamentReopened):
            shut = isinstance(record.event, TournamentClosed)
    return shut


def can_undo(records: Iterable[Record], *, now: float, device_id: str | None = None,
             within: float | None = None) -> bool:
    """Whether the undo button has something to take back (see :func:`verify_undo`).

    >>> can_undo([], now=0.0)
    False
    """
    try:
        verify_undo(records, now=now, device_id=device_id, within=within)
    except RulesError:
        return False
    return True


def undo(records: Iterable[Record], *, now: float, device_id: str | None = None,
         within: float | None = None) -> UndoAction:
    """The command that takes back the newest action (see :func:`verify_undo`).

    >>> from rules.events import HandStarted
    >>> log = [Record("t1", 3, 3, "t", HandStarted(at=5.0, table=1, action="t1:3"))]
    >>> undo(log, now=6.0)
    UndoAction(targets=(('t1', 3),))
    """
    action = verify_undo(records, now=now, device_id=device_id, within=within)
    from rules.commands import UndoAction

    return UndoAction(tuple((r.device_id, r.seq) for r in reversed(action)))
