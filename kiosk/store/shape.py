"""What a pubpoker store looks like, to tell a foreign SQLite file from ours.

A valid SQLite file made by another program (``create table events(x)``) is
not damage and must not be migrated either: the first migration step would
fail on its tables, or worse, build ours beside them. :func:`check_shape`
refuses it with :class:`~kiosk.store.errors.ForeignStore` before anything is
written, so the file keeps its bytes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from pathlib import Path

from kiosk.store.errors import ForeignStore

__all__ = ["TABLES", "check_shape", "user_tables"]

#: Each table of the store: the schema version that made it, and the columns
#: the code reads. A test builds a store through the migrations and checks
#: this against it, so the two cannot drift apart.
TABLES: Mapping[str, tuple[int, frozenset[str]]] = {
    "meta": (1, frozenset({"key", "value"})),
    "events": (1, frozenset({"device_id", "seq", "lamport", "tournament_id", "kind",
                             "payload", "mac", "received_at", "unreadable"})),
    "players": (2, frozenset({"id", "name", "name_key", "created"})),
    "cards": (2, frozenset({"uid", "player_id", "linked"})),
    "tournaments": (3, frozenset({"id", "name", "date", "preset", "status", "season"})),
    "results": (3, frozenset({"tournament_id", "player_id", "name", "place", "points",
                              "knockouts"})),
    "standings": (3, frozenset({"season", "player_id", "name", "rank", "points",
                                "tournaments", "placings"})),
    "clock_checkpoints": (4, frozenset({"tournament_id", "position", "running", "at_wall",
                                        "log_rowid"})),
    "snapshots": (4, frozenset({"tournament_id", "lamport", "device_id", "seq", "max_rowid",
                                "digest", "code", "state", "saved_at"})),
}


def user_tables(conn: sqlite3.Connection) -> list[str]:
    return sorted(str(name) for (name,) in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {str(row[1]) for row in conn.execute(f'PRAGMA table_info("{table}")')}


def check_shape(conn: sqlite3.Connection, path: Path, known_version: int) -> int:
    """The store's schema version; :class:`ForeignStore` if the file is not a pubpoker store.

    An empty database (no tables) is version 0, a store yet to be made. A
    version above ``known_version`` is returned unchecked: the caller refuses
    it as too new, which says more than "foreign".
    """
    tables = user_tables(conn)
    if not tables:
        return 0
    if "meta" not in tables or not TABLES["meta"][1] <= _columns(conn, "meta"):
        raise ForeignStore(path=str(path), table=tables[0] if "meta" not in tables else "meta")
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    try:
        version = int(row[0]) if row is not None else 0
    except (TypeError, ValueError):
        version = 0
    if version < 1:
        raise ForeignStore(path=str(path), table="meta")
    if version > known_version:
        return version
    for table, (since, needed) in TABLES.items():
        if since <= version and not needed <= _columns(conn, table):
            raise ForeignStore(path=str(path), table=table)
    return version
