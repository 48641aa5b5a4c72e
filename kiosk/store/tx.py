"""Write transactions that fail cleanly.

Every write in the store runs in one ``BEGIN IMMEDIATE`` … ``COMMIT``. If
SQLite fails (disk full, I/O error, locked), the transaction is rolled back,
so nothing partial is kept, and the failure becomes a translated
:class:`~kiosk.store.errors.StoreWriteFailed` the caller can show and survive.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from kiosk.lazylog import logger
from kiosk.store.errors import DiskFull, StoreLocked, StoreReadOnly, StoreWriteFailed
from kiosk.store.space import NEARLY_FULL, measure

__all__ = ["begin", "db_file", "primary_code", "retry_when_full", "rollback", "transaction",
           "write_error"]

log = logger(__name__)  # logging is imported when something is logged



def primary_code(err: sqlite3.Error) -> int | None:
    code = getattr(err, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def db_file(conn: sqlite3.Connection | None) -> Path | None:
    """The main database file of ``conn`` (None for memory or a closed connection)."""
    if conn is None:
        return None
    try:
        row = conn.execute("PRAGMA database_list").fetchone()
    except sqlite3.Error:
        return None
    return Path(row[2]) if row and row[2] else None


def write_error(err: sqlite3.Error, path: Path | None = None
                ) -> StoreWriteFailed | StoreLocked:
    """The translated error for a failed write to the store at ``path``."""
    primary = primary_code(err)
    if primary == sqlite3.SQLITE_FULL or "full" in str(err).lower():
        return DiskFull()
    if primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return StoreLocked()
    if primary == sqlite3.SQLITE_READONLY:
        return StoreReadOnly(path=str(path or "pubpoker.db"))
    if primary in (sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN) and path is not None:
        try:
            space = measure(path.parent)
        except OSError:
            return StoreWriteFailed()
        if space.read_only:
            return StoreReadOnly(path=str(path))
        # SQLite names ENOSPC on its shared-memory file SQLITE_IOERR_SHMSIZE,
        # not SQLITE_FULL: an I/O error with next to no room is the full disk.
        if space.free < NEARLY_FULL or space.full:
            return DiskFull()
    return StoreWriteFailed()


class _HasConn(Protocol):
    conn: sqlite3.Connection


S = TypeVar("S", bound=_HasConn)
P = ParamSpec("P")
R = TypeVar("R")


def retry_when_full(method: Callable[Concatenate[S, P], R]) -> Callable[Concatenate[S, P], R]:
    """A write method that, refused for a full disk, releases the reserve and tries once more.

    Safe because a refused write keeps nothing and moves no counter
    (:func:`transaction`, :meth:`EventLog._write`), so running it again is
    running it for the first time. The connection's :class:`SpaceKeeper`
    (``conn.space``, set by :mod:`kiosk.store.open`) owns the reserve.
    """

    @functools.wraps(method)
    def wrapper(self: S, /, *args: P.args, **kwargs: P.kwargs) -> R:
        keeper = getattr(self.conn, "space", None)
        try:
            result = method(self, *args, **kwargs)
        except DiskFull:
            if keeper is None or not keeper.on_full():
                raise
            result = method(self, *args, **kwargs)
        if keeper is not None:
            keeper.wrote()
        return result

    return wrapper


def begin(conn: sqlite3.Connection) -> None:
    """``BEGIN IMMEDIATE``, or the store's standing refusal to write.

    A store opened as it is on a full disk (:mod:`kiosk.store.open`) reads
    but cannot write; its connection carries the :class:`DiskFull` to say so,
    rather than SQLite's "attempt to write a readonly database".
    """
    refusal = getattr(conn, "refusal", None)
    if refusal is not None:
        raise refusal
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as err:
        raise write_error(err, db_file(conn)) from err


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
    begin(conn)
    try:
        yield conn
        conn.execute("COMMIT")
    except sqlite3.Error as err:
        rollback(conn)
        raise write_error(err, db_file(conn)) from err
    except BaseException:
        rollback(conn)
        raise
