"""The clock checkpoint, and bringing the clock back after a power cut.

While a level runs, the kiosk saves where the clock stands (the structure
position) every few seconds. It is not an event: it is one small row,
overwritten. After a cold start with no peers to take the time from, the
log still says "running since t", but ``t`` is shared time from before the
reboot and means nothing now. So the clock comes back **paused** at the last
saved position, by a ``ClockRestored`` event the kiosk appends, and the
display shows "clock stopped after a power cut – press pause to resume".

The checkpoint is only trusted if it was written after the log's last clock
event; otherwise (a level jump just before the cut, say) the position that
event set is the newer truth. Either way the clock comes back within one
checkpoint interval of where it stood.
"""

from __future__ import annotations

import sqlite3
import time
from typing import Literal

from kiosk.store.errors import Notice
from kiosk.store.tx import transaction
from rules.events import ClockRestored, EventKind
from rules.records import RecordMethods, record
from rules.state import Tournament

__all__ = [
    "CHECKPOINT_INTERVAL",
    "CLOCK_KINDS",
    "Checkpoint",
    "ColdStart",
    "cold_start_restore",
    "load_checkpoint",
    "power_cut_notice",
    "save_checkpoint",
]

#: Seconds between checkpoints in the kiosk loop (configurable there).
CHECKPOINT_INTERVAL = 5.0

#: Events that move the clock's position (an undo may undo one of them).
CLOCK_KINDS: tuple[str, ...] = tuple(k.value for k in (
    EventKind.CLOCK_STARTED, EventKind.CLOCK_PAUSED, EventKind.CLOCK_RESUMED,
    EventKind.LEVEL_JUMPED, EventKind.TIME_ADJUSTED, EventKind.CLOCK_RESTORED,
    EventKind.ACTION_UNDONE,
))
#: ``CLOCK_KINDS`` as SQL literals: the partial index ``events_clock`` (migration 5)
#: serves a query whose ``kind IN (...)`` is written out as its own is.
_CLOCK_IN: str = "(" + ", ".join(f"'{kind}'" for kind in CLOCK_KINDS) + ")"
assert all(kind.replace("-", "").isalpha() for kind in CLOCK_KINDS)  # safe as literals


@record
class Checkpoint(RecordMethods):
    """The clock's last saved position, for a restore after a power cut."""

    tournament_id: str
    #: Structure position (seconds of structure time) when saved.
    position: float
    running: bool
    #: This device's wall clock when saved; for people, never for arithmetic.
    at_wall: float
    #: The log's highest rowid when saved: clock events after it are newer.
    log_rowid: int


@record
class ColdStart(RecordMethods):
    """What to do after a lone cold start: append ``event``, show ``notice``."""

    event: ClockRestored
    position: float
    source: Literal["checkpoint", "log"]
    notice: Notice


def save_checkpoint(conn: sqlite3.Connection, tournament_id: str, position: float,
                    at_wall: float | None = None, *, running: bool = True) -> Checkpoint:
    """Overwrite the tournament's checkpoint (one row, one small commit)."""
    with transaction(conn):
        (log_rowid,) = conn.execute("SELECT COALESCE(MAX(rowid), 0) FROM events").fetchone()
        cp = Checkpoint(tournament_id, float(position), running,
                        time.time() if at_wall is None else at_wall, int(log_rowid))
        conn.execute(
            "INSERT INTO clock_checkpoints (tournament_id, position, running, at_wall,"
            " log_rowid) VALUES (?, ?, ?, ?, ?) ON CONFLICT (tournament_id) DO UPDATE SET"
            " position = excluded.position, running = excluded.running,"
            " at_wall = excluded.at_wall, log_rowid = excluded.log_rowid",
            (cp.tournament_id, cp.position, int(cp.running), cp.at_wall, cp.log_rowid))
    return cp


def load_checkpoint(conn: sqlite3.Connection, tournament_id: str) -> Checkpoint | None:
    row = conn.execute(
        "SELECT position, running, at_wall, log_rowid FROM clock_checkpoints"
        " WHERE tournament_id = ?", (tournament_id,)).fetchone()
    if row is None:
        return None
    return Checkpoint(tournament_id, float(row[0]), bool(row[1]), float(row[2]), int(row[3]))


def _clock_moved_since(conn: sqlite3.Connection, tournament_id: str, rowid: int) -> bool:
    """Did a clock event land after log row ``rowid``? (A rowid range: fast at any size.)"""
    row = conn.execute(
        # + keeps SQLite on the rowid range, off the tournament's whole index.
        f"SELECT 1 FROM events WHERE rowid > ? AND +tournament_id = ?"
        f" AND kind IN {_CLOCK_IN} AND unreadable IS NULL LIMIT 1",
        (rowid, tournament_id)).fetchone()
    return row is not None


def cold_start_restore(conn: sqlite3.Connection, tournament_id: str, state: Tournament, *,
                       now: float, peers_present: bool) -> ColdStart | None:
    """After a cold start: the ``ClockRestored`` to append, or None if none is needed.

    None when peers are present (take their time), or the log says the
    clock was not running (paused, not started, finished): then the log
    alone is exact.
    """
    clock = state.clock
    if peers_present or state.finished or not clock.started or not clock.running:
        return None
    cp = load_checkpoint(conn, tournament_id)
    if cp is not None and not _clock_moved_since(conn, tournament_id, cp.log_rowid):
        position, source = max(cp.position, clock.position), "checkpoint"
    else:
        # No checkpoint since the last clock event: that event's position is newer.
        position, source = clock.position, "log"
    return ColdStart(ClockRestored(at=now, position=position), position,
                     "checkpoint" if source == "checkpoint" else "log",
                     Notice("clock-restored"))


def power_cut_notice(conn: sqlite3.Connection, tournament_id: str, state: Tournament
                     ) -> Notice | None:
    """The banner stays while the clock waits, paused, since a restore."""
    if state.clock.running or not state.clock.started:
        return None
    row = conn.execute(
        f"SELECT kind FROM events WHERE tournament_id = ? AND kind IN {_CLOCK_IN}"
        " AND unreadable IS NULL ORDER BY lamport DESC, device_id DESC, seq DESC LIMIT 1",
        (tournament_id,)).fetchone()
    if row is not None and row[0] == EventKind.CLOCK_RESTORED.value:
        return Notice("clock-restored")
    return None
