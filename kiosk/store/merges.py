"""Two of the venue's players who are one person, merged by the log (issue 44).

``pubpoker players merge A B`` writes a :class:`~rules.events.PlayersMerged` to
tonight's log, so peers replicate it and ``pubpoker undo`` takes it back like
any action. The venue's list (``players`` and ``cards``) and the league
(``standings``) are this store's tables: :func:`reconcile` brings them to what
the log's merges in force say, on whichever device holds the log, and again
after an undo. The events carry what the list knew of the merged player (name,
cards, when added), so an undone merge brings them back as they were.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime

from kiosk.store.log import StoredEvent
from rules.events import PlayersMerged
from rules.names import name_key
from rules.undo import live_records

__all__ = ["live_merges", "merge_events", "merge_player", "take_back"]


def merge_events(conn: sqlite3.Connection) -> list[tuple[PlayersMerged, bool]]:
    """Every merge in the log, oldest first, and whether it is in force (not undone)."""
    tournaments = [str(r[0]) for r in conn.execute(
        "SELECT DISTINCT tournament_id FROM events"
        " WHERE kind = 'players-merged' AND unreadable IS NULL")]
    found: list[tuple[tuple[int, str, int], PlayersMerged, bool]] = []
    for tid in tournaments:
        records = [StoredEvent(*row).record() for row in conn.execute(
            "SELECT device_id, seq, lamport, tournament_id, kind, payload FROM events"
            " WHERE tournament_id = ? AND unreadable IS NULL", (tid,))]
        live = {r.ident for r in live_records(records)}
        found.extend((r.key, r.event, r.ident in live) for r in records
                     if isinstance(r.event, PlayersMerged))
    found.sort(key=lambda f: f[0])
    return [(event, live) for _, event, live in found]


def live_merges(conn: sqlite3.Connection) -> dict[str, str]:
    """Merged player id → the id they are now (a merge of a merge followed through)."""
    into = {e.merged: e.keep for e, live in merge_events(conn) if live}
    resolved: dict[str, str] = {}
    for merged in into:
        target, seen = into[merged], {merged}
        while target in into and target not in seen:
            seen.add(target)
            target = into[target]
        resolved[merged] = target
    return resolved


def _exists(conn: sqlite3.Connection, player_id: str) -> bool:
    return conn.execute("SELECT 1 FROM players WHERE id = ?", (player_id,)).fetchone() is not None


def _insert(conn: sqlite3.Connection, player_id: str, name: str, created: str) -> bool:
    try:
        conn.execute("INSERT INTO players (id, name, name_key, created) VALUES (?, ?, ?, ?)",
                     (player_id, name, name_key(name),
                      created or datetime.now().isoformat(timespec="seconds")))
    except sqlite3.IntegrityError:
        return False  # the name is someone else's here now: the league still maps the id
    return True


def merge_player(conn: sqlite3.Connection, event: PlayersMerged) -> bool:
    """The merged player's cards to the one kept, their row gone; False if done before."""
    if not _exists(conn, event.merged):
        return False
    if not _exists(conn, event.keep):
        _insert(conn, event.keep, event.keep_name, "")
    conn.execute("UPDATE cards SET player_id = ? WHERE player_id = ?", (event.keep, event.merged))
    conn.execute("DELETE FROM players WHERE id = ?", (event.merged,))
    return True


def take_back(conn: sqlite3.Connection, event: PlayersMerged) -> bool:
    """An undone merge: the player back with their cards; False if back before."""
    if _exists(conn, event.merged) or not _insert(conn, event.merged, event.name, event.created):
        return False
    for uid in event.cards:
        conn.execute("UPDATE cards SET player_id = ? WHERE uid = ? AND player_id = ?",
                     (event.merged, uid, event.keep))
    return True
