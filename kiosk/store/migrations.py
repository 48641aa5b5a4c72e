"""Numbered schema migrations.

Each step takes a database at version ``n - 1`` to version ``n`` inside one
transaction, together with the new ``schema_version`` in ``meta``, so a power
cut during an upgrade leaves the old version intact. Steps are never edited
once released; a change is a new step, with a test that migrates a database
built by the step before (``tests/kiosk/store/test_migrations.py``).

Version 1  events and meta: the log itself.
Version 2  players and their cards.
Version 3  tournaments, results and season standings.
Version 4  the clock checkpoint and fold snapshots (start-up and power cuts).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from kiosk.store.errors import StoreTooNew
from kiosk.store.schema import get_meta_int, set_meta

if TYPE_CHECKING:
    # Imported only when a step runs: sqlite-utils costs a noticeable share of
    # start-up on a Pi, and an up-to-date store needs none of it.
    import sqlite_utils

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "migrate", "schema_version"]


def _v1_events(db: sqlite_utils.Database) -> None:
    db.table("meta").create({"key": str, "value": str}, pk="key", not_null={"value"})
    db.table("events").create(
        {
            "device_id": str,
            "seq": int,
            "lamport": int,
            "tournament_id": str,
            "kind": str,
            # Canonical JSON exactly as received: MACs and sync need the bytes.
            "payload": str,
            # Empty until sync signs it.
            "mac": str,
            # Wall-clock seconds on this device; for people, never for order.
            "received_at": float,
            # NULL when readable; otherwise why this version cannot read it.
            "unreadable": str,
        },
        pk=("device_id", "seq"),
        not_null={"lamport", "tournament_id", "kind", "payload", "mac", "received_at"},
        defaults={"mac": ""},
    )
    db.table("events").create_index(
        ["tournament_id", "lamport", "device_id", "seq"], index_name="events_fold")
    # Start-up looks for unreadable rows; almost none exist, so the index is tiny.
    db.execute("CREATE INDEX events_unreadable ON events (tournament_id)"
               " WHERE unreadable IS NOT NULL")


def _v2_players(db: sqlite_utils.Database) -> None:
    db.table("players").create(
        {"id": str, "name": str, "name_key": str, "created": str},
        pk="id", not_null={"name", "name_key", "created"},
    )
    db.table("players").create_index(["name_key"], index_name="players_name", unique=True)
    db.table("cards").create(
        {"uid": str, "player_id": str, "linked": str},
        pk="uid", not_null={"player_id", "linked"},
        foreign_keys=[("player_id", "players", "id")],
    )
    db.table("cards").create_index(["player_id"], index_name="cards_player")


def _v3_results(db: sqlite_utils.Database) -> None:
    db.table("tournaments").create(
        {"id": str, "name": str, "date": str, "preset": str, "status": str, "season": str},
        pk="id", not_null={"name", "date", "status", "season"},
        defaults={"status": "created"},
    )
    db.table("tournaments").create_index(["season"], index_name="tournaments_season")
    db.table("results").create(
        {"tournament_id": str, "player_id": str, "name": str, "place": int,
         "points": int, "knockouts": int},
        pk=("tournament_id", "player_id"),
        not_null={"name", "points", "knockouts"},
        defaults={"points": 0, "knockouts": 0},
        foreign_keys=[("tournament_id", "tournaments", "id")],
    )
    db.table("standings").create(
        {"season": str, "player_id": str, "name": str, "rank": int, "points": int,
         "tournaments": int, "placings": str},
        pk=("season", "player_id"),
        not_null={"name", "rank", "points", "tournaments", "placings"},
    )
    # Tournaments already in the log get their row now. Parsed here, not by a
    # shared helper, so that this step never changes after release.
    rows = db.execute(
        "SELECT tournament_id, payload, received_at FROM events "
        "WHERE kind = 'tournament-created' AND unreadable IS NULL ORDER BY rowid").fetchall()
    for tournament_id, payload, received_at in rows:
        try:
            data = json.loads(payload)
            name = str(data["name"])
            preset = str(data["structure"]["name"])
        except (ValueError, KeyError, TypeError):
            continue
        day = datetime.fromtimestamp(received_at).date()
        db.table("tournaments").insert(
            {"id": tournament_id, "name": name, "date": day.isoformat(), "preset": preset,
             "status": "created", "season": str(day.year)},
            ignore=True)


def _v4_recovery(db: sqlite_utils.Database) -> None:
    db.table("clock_checkpoints").create(
        {"tournament_id": str, "position": float, "running": int, "at_wall": float,
         "log_rowid": int},
        pk="tournament_id", not_null={"position", "running", "at_wall", "log_rowid"},
    )
    db.table("snapshots").create(
        {"tournament_id": str,
         # Fold key of the last record in the state, and the log's top rowid then.
         "lamport": int, "device_id": str, "seq": int, "max_rowid": int,
         # state_digest of the state, and the rules code that folded it.
         "digest": str, "code": str,
         "state": str, "saved_at": float},
        pk="tournament_id",
        not_null={"lamport", "device_id", "seq", "max_rowid", "digest", "code", "state",
                  "saved_at"},
    )


def _v5_clock_index(db: sqlite_utils.Database) -> None:
    # The clock's own events in fold order: at start-up the kiosk asks for the last of
    # them (was the clock left as a restore left it?), which without this index walks
    # the whole night's log back to the last clock event: 0.1 s at 100,000 hands. The
    # kinds are written out here (a partial index matches a query's literal list) so
    # that this step never changes after release; kiosk/store/checkpoint.py queries
    # with the same list, and is only slower, never wrong, if its list ever differs.
    db.execute("CREATE INDEX events_clock ON events (tournament_id, lamport, device_id, seq)"
               " WHERE kind IN ('clock-started', 'clock-paused', 'clock-resumed',"
               " 'level-jumped', 'time-adjusted', 'clock-restored', 'action-undone')")


#: Step ``n`` (1-based) builds version ``n``.
MIGRATIONS: tuple[Callable[[sqlite_utils.Database], None], ...] = (
    _v1_events,
    _v2_players,
    _v3_results,
    _v4_recovery,
    _v5_clock_index,
)
SCHEMA_VERSION = len(MIGRATIONS)


def schema_version(conn: sqlite3.Connection) -> int:
    """The version a database is at; 0 for an empty file."""
    return get_meta_int(conn, "schema_version", 0)


def migrate(conn: sqlite3.Connection, *, target: int = SCHEMA_VERSION) -> list[int]:
    """Run every step above the database's version up to ``target``; return those run.

    A database newer than this code is refused rather than touched.
    """
    current = schema_version(conn)
    if current > SCHEMA_VERSION:
        raise StoreTooNew(found=current, known=SCHEMA_VERSION)
    if current >= target:
        return []
    import sqlite_utils

    db = sqlite_utils.Database(conn)
    done: list[int] = []
    for version in range(current + 1, target + 1):
        with db.atomic():
            MIGRATIONS[version - 1](db)
            set_meta(db.conn, "schema_version", version)
        done.append(version)
    return done
