"""Results per tournament, standings per season, and their CSV/JSON exports.

Results are derived from the folded state (places and knockouts) with league
points from :mod:`rules.points` (Q1); standings from :mod:`rules.standings`
(Q2 tie-breaks: best placing, then second best, …; a tie that still stands
shares the rank until the high-card draw at the final). Both tables are
derived data: rewritten whole whenever a tournament's results change.

A player is the same person across a season by their id in ``players``; a
walk-in without a player card is matched by name.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import Any, Literal

from kiosk.store.errors import UnknownSeason
from kiosk.store.merges import live_merges
from kiosk.store.players import name_key
from kiosk.store.tournaments import find_tournament, list_tournaments
from kiosk.store.tx import transaction
from rules.errors import RulesError
from rules.house import PointsScheme
from rules.points import points
from rules.records import RecordMethods, record
from rules.standings import Result, standings
from rules.state import Tournament

__all__ = [
    "ExportFormat",
    "PlaceChange",
    "ResultRow",
    "StandingRow",
    "export_results",
    "export_standings",
    "record_results",
    "refresh_standings",
    "result_rows",
    "results_of",
    "standings_of",
    "write_standings",
]

ExportFormat = Literal["csv", "json"]


@record
class ResultRow(RecordMethods):
    """One player's place, points and knockouts in a tournament."""

    tournament_id: str
    player_id: str
    name: str
    place: int | None
    points: int
    knockouts: int


@record
class PlaceChange(RecordMethods):
    """A player's place as stored before a recompute, and after."""

    name: str
    before: int | None
    after: int | None


@record
class StandingRow(RecordMethods):
    """One player's line in a season's league standings."""

    season: str
    rank: int
    player_id: str
    name: str
    points: int
    tournaments: int
    placings: tuple[int, ...]


def _points(state: Tournament, place: int) -> int:
    scheme = state.config.house.points if state.config else PointsScheme.PF_POKERKLUB
    try:
        return points(place, max(state.entrants, place), scheme)
    except RulesError:
        # A scheme that needs data the tournament lacks (a points table): 0, not a crash.
        return 0


def result_rows(tournament_id: str, state: Tournament) -> list[ResultRow]:
    """The rows :func:`record_results` writes, from the folded state, without writing."""
    rows = [
        ResultRow(tournament_id, e.player_id, e.name, e.place,
                  _points(state, e.place) if e.place is not None else 0, e.knockouts)
        for e in state.players.values() if e.checked_in or e.place is not None
    ]
    rows.sort(key=lambda r: (r.place is None, r.place or 0, r.name))
    return rows


def record_results(conn: sqlite3.Connection, tournament_id: str, state: Tournament
                   ) -> list[ResultRow]:
    """Write a tournament's results from its folded state; refresh its season's standings.

    Every entrant gets a row: a place once out (or the winner), None while still in.
    """
    rows = result_rows(tournament_id, state)
    status = state.phase.value
    with transaction(conn):
        conn.execute("DELETE FROM results WHERE tournament_id = ?", (tournament_id,))
        conn.executemany(
            "INSERT INTO results (tournament_id, player_id, name, place, points, knockouts)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [(r.tournament_id, r.player_id, r.name, r.place, r.points, r.knockouts)
             for r in rows])
        # A closed night stays closed: refreshing its results must not reopen it.
        conn.execute("UPDATE tournaments SET status = ? WHERE id = ? AND status != 'closed'",
                     (status, tournament_id))
        season = conn.execute("SELECT season FROM tournaments WHERE id = ?",
                              (tournament_id,)).fetchone()
        if season is not None:
            write_standings(conn, str(season[0]))
    return rows


def results_of(conn: sqlite3.Connection, tournament: str) -> list[ResultRow]:
    t = find_tournament(conn, tournament)
    return [ResultRow(*r) for r in conn.execute(
        "SELECT tournament_id, player_id, name, place, points, knockouts FROM results"
        " WHERE tournament_id = ? ORDER BY place IS NULL, place, name", (t.id,))]


def _identity(conn: sqlite3.Connection, player_id: str, name: str,
              merges: dict[str, str] | None = None) -> tuple[str, str]:
    """The season-wide identity and display name of a tournament's player: a
    player merged into another (``players merge``) counts as that one."""
    player_id = (merges or {}).get(player_id, player_id)
    row = conn.execute("SELECT id, name FROM players WHERE id = ?", (player_id,)).fetchone()
    if row is None:
        row = conn.execute("SELECT id, name FROM players WHERE name_key = ?",
                           (name_key(name),)).fetchone()
    if row is None:
        return f"name:{name_key(name)}", name
    return str(row[0]), str(row[1])


def _compute_standings(conn: sqlite3.Connection, season: str) -> list[StandingRow]:
    merges = live_merges(conn)
    names: dict[str, str] = {}
    counted: list[Result] = []
    for tournament_id, player_id, name, place, pts in conn.execute(
            "SELECT r.tournament_id, r.player_id, r.name, r.place, r.points FROM results r"
            " JOIN tournaments t ON t.id = r.tournament_id"
            " WHERE t.season = ? AND r.place IS NOT NULL ORDER BY t.date, t.rowid", (season,)):
        ident, shown = _identity(conn, player_id, name, merges)
        names[ident] = shown
        counted.append(Result(ident, tournament_id, int(place), int(pts)))
    return [
        StandingRow(season, s.rank, s.player_id, names[s.player_id], s.points,
                    len(s.placings), s.placings)
        for s in standings(counted)
    ]


def write_standings(conn: sqlite3.Connection, season: str) -> list[StandingRow]:
    """The season's standings computed anew and stored (inside the caller's transaction)."""
    rows = _compute_standings(conn, season)
    conn.execute("DELETE FROM standings WHERE season = ?", (season,))
    conn.executemany(
        "INSERT INTO standings (season, player_id, name, rank, points, tournaments, placings)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(r.season, r.player_id, r.name, r.rank, r.points, r.tournaments,
          json.dumps(list(r.placings))) for r in rows])
    return rows


def refresh_standings(conn: sqlite3.Connection, season: str) -> list[StandingRow]:
    """Recompute a season's standings from its results and store them."""
    with transaction(conn):
        return write_standings(conn, season)


def standings_of(conn: sqlite3.Connection, season: str) -> list[StandingRow]:
    if not list_tournaments(conn, season):
        raise UnknownSeason(season=season)
    return [StandingRow(s, rank, pid, name, pts, n, tuple(json.loads(placings)))
            for s, rank, pid, name, pts, n, placings in conn.execute(
                "SELECT season, rank, player_id, name, points, tournaments, placings"
                " FROM standings WHERE season = ? ORDER BY rank, name", (season,))]


def _render(rows: Sequence[Any], columns: Sequence[str], fmt: ExportFormat,
            meta: dict[str, Any], headers: Mapping[str, str] | None = None) -> str:
    dicts = [{c: asdict(r)[c] for c in columns} for r in rows]
    if fmt == "json":
        for d in dicts:
            if isinstance(d.get("placings"), tuple):
                d["placings"] = list(d["placings"])
        return json.dumps({**meta, "rows": dicts}, ensure_ascii=False, indent=2) + "\n"
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    # The header row in the reader's words; the keys themselves with none given.
    writer.writerow([(headers or {}).get(c, c) for c in columns])
    for d in dicts:
        writer.writerow(
            " ".join(str(p) for p in v) if isinstance(v, tuple) else ("" if v is None else v)
            for v in (d[c] for c in columns))
    return out.getvalue()


def export_results(conn: sqlite3.Connection, tournament: str, fmt: ExportFormat,
                   headers: Mapping[str, str] | None = None) -> str:
    t = find_tournament(conn, tournament)
    rows = results_of(conn, t.id)
    return _render(rows, ("place", "name", "points", "knockouts", "player_id"), fmt,
                   {"tournament": t.id, "name": t.name, "date": t.date, "season": t.season,
                    "status": t.status}, headers)


def export_standings(conn: sqlite3.Connection, season: str, fmt: ExportFormat,
                     headers: Mapping[str, str] | None = None) -> str:
    rows = standings_of(conn, season)
    return _render(rows, ("rank", "name", "points", "tournaments", "placings", "player_id"),
                   fmt, {"season": season}, headers)
