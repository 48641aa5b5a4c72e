"""The venue's player list and the season's standings brought in line with the log's merges.

Above both :mod:`kiosk.store.merges` (the list) and :mod:`kiosk.store.results`
(the standings, which read the merges in force): a merge changes both.
"""

from __future__ import annotations

import sqlite3

from kiosk.store.merges import merge_events, merge_player, take_back
from kiosk.store.results import write_standings
from kiosk.store.tx import transaction

__all__ = ["reconcile"]


def reconcile(conn: sqlite3.Connection) -> bool:
    """The venue's list and the standings as the log's merges say; True if anything changed.

    Undone merges are taken back newest first (the player is back with their
    cards), then merges in force are done oldest first (cards to the one kept,
    the merged row gone). Each step is a no-op once done, so running it again,
    or on a peer that never had one of the two, is safe.
    """
    events = merge_events(conn)
    if not events:
        return False  # nothing to follow, and no write (a full card stays untouched)
    changed = False
    with transaction(conn):
        for event, live in reversed(events):
            if not live:
                changed |= take_back(conn, event)
        for event, live in events:
            if live:
                changed |= merge_player(conn, event)
        if changed:
            for (season,) in conn.execute("SELECT DISTINCT season FROM tournaments").fetchall():
                write_standings(conn, str(season))
    return changed
