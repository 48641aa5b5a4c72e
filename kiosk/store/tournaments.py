"""The ``tournaments`` table: one row per tournament in the log.

A row is written in the same transaction as the ``TournamentCreated`` event
that starts it (from this device or a peer), so the list of tournaments never
disagrees with the log. ``date`` is this device's wall-clock day when the
event arrived; the season defaults to that year.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime

from kiosk.store.errors import UnknownTournament
from kiosk.store.log import StoredEvent
from rules.events import EventKind, TournamentCreated, event_from_json
from rules.names import AmbiguousTournament, pick_by_name
from rules.records import RecordMethods, record

__all__ = ["TournamentRow", "find_tournament", "list_tournaments", "on_added", "set_season",
           "set_status"]


@record
class TournamentRow(RecordMethods):
    """One tournament as the store lists it."""

    id: str
    name: str
    date: str
    preset: str | None
    status: str
    season: str


def on_added(conn: sqlite3.Connection, rows: Sequence[StoredEvent], received_at: float) -> None:
    """Append hook: a row for each tournament whose creation just landed."""
    for row in rows:
        if row.kind != EventKind.TOURNAMENT_CREATED or row.unreadable is not None:
            continue
        event = event_from_json(row.payload)
        assert isinstance(event, TournamentCreated)
        day = datetime.fromtimestamp(received_at).date()
        conn.execute(
            "INSERT INTO tournaments (id, name, date, preset, status, season)"
            " VALUES (?, ?, ?, ?, 'created', ?) ON CONFLICT (id) DO NOTHING",
            (row.tournament_id, event.name, day.isoformat(), event.structure.name,
             str(day.year)))


def list_tournaments(conn: sqlite3.Connection, season: str | None = None) -> list[TournamentRow]:
    sql = "SELECT id, name, date, preset, status, season FROM tournaments"
    params: tuple[str, ...] = ()
    if season is not None:
        sql += " WHERE season = ?"
        params = (season,)
    return [TournamentRow(*r) for r in conn.execute(sql + " ORDER BY date, rowid", params)]


def find_tournament(conn: sqlite3.Connection, name_or_id: str) -> TournamentRow:
    """A tournament by id, else by name as :func:`rules.names.pick_by_name` finds
    it ("fredag" for "Fredagspoker 2026-12-01" when no other name starts so);
    of several with that very name, the newest."""
    cols = "id, name, date, preset, status, season"
    r = conn.execute(f"SELECT {cols} FROM tournaments WHERE id = ?", (name_or_id,)).fetchone()
    if r is None:
        newest_first = conn.execute(
            f"SELECT {cols} FROM tournaments ORDER BY date DESC, rowid DESC").fetchall()
        index = pick_by_name(name_or_id, [(i, row[1]) for i, row in enumerate(newest_first)],
                             ambiguous=AmbiguousTournament)
        r = None if index is None else newest_first[index]
    if r is None:
        raise UnknownTournament(name=name_or_id)
    return TournamentRow(*r)


def set_status(conn: sqlite3.Connection, tournament_id: str, status: str) -> None:
    conn.execute("UPDATE tournaments SET status = ? WHERE id = ?", (status, tournament_id))


def set_season(conn: sqlite3.Connection, tournament_id: str, season: str) -> None:
    conn.execute("UPDATE tournaments SET season = ? WHERE id = ?", (season, tournament_id))

