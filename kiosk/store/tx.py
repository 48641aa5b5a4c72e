"""Write transactions that fail cleanly.

Every write in the store runs in one ``BEGIN IMMEDIATE`` … ``COMMIT``. If
SQLite fails (disk full, I/O error, locked), the transaction is rolled back,
so nothing partial is kept, and the failure becomes a translated
:class:`~kiosk.store.errors.StoreWriteFailed` the caller can show and survive.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from kiosk.store.errors import DiskFull, StoreLocked, StoreWriteFailed

__all__ = ["rollback", "transaction", "write_error"]

log = logging.getLogger(__name__)


def write_error(err: sqlite3.Error) -> StoreWriteFailed | StoreLocked:
    """The translated error for a failed write."""
    code = getattr(err, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if primary == sqlite3.SQLITE_FULL or "full" in str(err).lower():
        return DiskFull()
    if primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return StoreLocked()
    return StoreWriteFailed()


def rollback(conn: sqlite3.Connection) -> None:
    """Roll back if a transaction is open; the failure may already have ended it."""
    try:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
    except sqlite3.Error as err:
        log.error("rollback after a failed write also failed: %s", err)


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """``with transaction(conn):`` commits on success; on any error keeps nothing."""
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as err:
        raise write_error(err) from err
    try:
        yield conn
        conn.execute("COMMIT")
    except sqlite3.Error as err:
        rollback(conn)
        raise write_error(err) from err
    except BaseException:
        rollback(conn)
        raise
