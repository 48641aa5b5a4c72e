"""Connection settings and the ``meta`` table.

The tables themselves are built by the numbered steps in
:mod:`kiosk.store.migrations`; this module holds what every connection needs
(WAL, ``synchronous=FULL``) and the small key/value ``meta`` table: the schema
version, this device's id, its last seq and the highest Lamport time seen.
"""

from __future__ import annotations

import sqlite3
from typing import Literal

__all__ = [
    "Synchronous",
    "configure",
    "get_meta",
    "get_meta_int",
    "set_meta",
]

Synchronous = Literal["FULL", "NORMAL", "OFF"]


def configure(conn: sqlite3.Connection, *, synchronous: Synchronous = "FULL") -> None:
    """WAL with ``synchronous=FULL``: a commit returns only once the WAL is on disk.

    ``OFF`` exists for the benchmark that shows what durability costs.
    """
    if synchronous not in ("FULL", "NORMAL", "OFF"):
        raise ValueError(f"synchronous must be FULL, NORMAL or OFF, not {synchronous!r}")
    # WAL: readers (a backup, the CLI) never block the kiosk's appends. SQLite's
    # WAL checksums drop a half-written frame after a power cut, and FULL
    # fsyncs the WAL at every commit, so a returned append is on disk.
    if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(f"PRAGMA synchronous={synchronous}")
    conn.execute("PRAGMA foreign_keys=ON")


def get_meta(conn: sqlite3.Connection, key: str) -> str | None:
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    except sqlite3.OperationalError as err:
        if "no such table" in str(err):
            return None
        raise
    return None if row is None else str(row[0])


def get_meta_int(conn: sqlite3.Connection, key: str, default: int = 0) -> int:
    value = get_meta(conn, key)
    return default if value is None else int(value)


def set_meta(conn: sqlite3.Connection, key: str, value: object) -> None:
    """Upsert one meta value, inside whatever transaction is open."""
    conn.execute(
        "INSERT INTO meta (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, str(value)),
    )
