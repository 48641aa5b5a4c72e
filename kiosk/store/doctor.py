"""What ``pubpoker doctor`` finds: the data dir's disk, its reserve and the store's health.

Looking changes nothing: the store is opened read-only (``mode=ro``), never
migrated, configured or set aside, so the doctor may run beside the kiosk and
on a disk that is full or read-only. On a read-only file system, and on a full
one after a clean shutdown (no ``-wal`` to read), SQLite is told the file is
``immutable``: it then needs no ``-shm`` file, which a full or read-only disk
cannot take, and it misses nothing, as there is no WAL to miss.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final
from urllib.parse import quote

from kiosk.paths import db_path
from kiosk.store.errors import ForeignStore, StoreError, StoreTooNew
from kiosk.store.migrations import SCHEMA_VERSION
from kiosk.store.open import BUSY_TIMEOUT, storage_error
from kiosk.store.schema import get_meta
from kiosk.store.shape import check_shape
from kiosk.store.space import Space, measure, reserve_fits, reserve_path
from kiosk.store.tx import primary_code
from rules.records import RecordMethods, record

__all__ = ["PAUSES_KEY", "VIEWER_KEY", "DiskReport", "Report", "StoreHealth", "examine",
           "examine_store", "listener_pauses", "viewer_not_served"]

_HEADER = b"SQLite format 3\x00"


#: The meta key under which the kiosk notes its listeners' pauses (kiosk.pause_ledger).
PAUSES_KEY: Final = "listener_pauses"


#: The meta key under which the kiosk notes that the phones' page could not have
#: its port (kiosk.viewer.attach); empty again once the page is served.
VIEWER_KEY: Final = "viewer_not_served"


def viewer_not_served(value: str | None) -> dict[str, Any] | None:
    """The port the page could not have, why (an errno name) and since when; or None.

    >>> viewer_not_served('{"port": 8082, "errno": "EADDRINUSE", "since": "s"}')
    {'port': 8082, 'errno': 'EADDRINUSE', 'since': 's'}
    >>> viewer_not_served("") is None
    True
    """
    try:
        data = json.loads(value) if value else None
        if not isinstance(data, dict):
            return None
        return {"port": int(data.get("port", 0)), "errno": str(data.get("errno", "")),
                "since": str(data.get("since", ""))}
    except (ValueError, TypeError):
        return None


def listener_pauses(value: str | None) -> dict[str, Any] | None:
    """The pauses as the kiosk noted them (peers, phones, since, last), or None.

    >>> listener_pauses('{"peers": 2, "phones": 0, "since": "s", "last": "l"}')
    {'peers': 2, 'phones': 0, 'since': 's', 'last': 'l'}
    >>> listener_pauses("garbage") is None
    True
    """
    try:
        data = json.loads(value) if value else None
        if not isinstance(data, dict):
            return None
        return {"peers": int(data.get("peers", 0)), "phones": int(data.get("phones", 0)),
                "since": str(data.get("since", "")), "last": str(data.get("last", ""))}
    except (ValueError, TypeError):
        return None


@record
class StoreHealth(RecordMethods):
    path: Path
    exists: bool
    #: SQLite's own words when it calls the file damaged (quick_check, not a database);
    #: they go to ``--json`` for a helper, and the TD is told in the room's language.
    damage: str | None = None
    #: The damage is that the file is no SQLite database at all, not a page inside it.
    not_sqlite: bool = False
    #: Why it could not be read, when that is not damage (full disk, permissions, foreign).
    error: StoreError | None = None
    schema_version: int | None = None
    events: int | None = None
    players: int | None = None
    #: What the kiosk noted of its listeners' pauses for want of descriptors
    #: (:mod:`kiosk.pause_ledger`), or None if it never paused.
    listener_pauses: Mapping[str, Any] | None = None
    #: The phones' page's port the kiosk could not have (:data:`VIEWER_KEY`), or None.
    viewer_not_served: Mapping[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return self.exists and self.damage is None and self.error is None


@record
class DiskReport(RecordMethods):
    space: Space | None
    writable: bool
    reserve_bytes: int

    @property
    def full(self) -> bool:
        return self.space is not None and self.space.full

    @property
    def low(self) -> bool:
        """Low as the kiosk sees it: under the threshold, or no reserve and no room for one."""
        return self.space is not None and (self.space.low or (
            not self.reserve_bytes and not self.space.read_only
            and not reserve_fits(self.space)))


@record
class Report(RecordMethods):
    data_dir: Path
    disk: DiskReport
    store: StoreHealth

    @property
    def problems(self) -> tuple[str, ...]:
        """Keys of what is wrong, worst first; empty when the device is healthy."""
        found: list[str] = []
        if self.disk.space is None:
            found.append("no-data-dir")
        elif self.disk.space.read_only:
            found.append("read-only")
        elif not self.disk.writable:
            found.append("not-writable")
        if self.disk.full:
            found.append("disk-full")
        elif self.disk.low:
            found.append("disk-low")
        if not self.store.exists:
            found.append("store-missing")
        elif self.store.damage is not None:
            found.append("store-damaged")
        elif isinstance(self.store.error, ForeignStore):
            found.append("store-foreign")
        elif self.store.error is not None:
            found.append("store-unreadable")
        if self.store.viewer_not_served is not None:
            found.append("viewer-port")
        return tuple(found)

    @property
    def healthy(self) -> bool:
        return not self.problems


def _writable(directory: Path) -> bool:
    """Whether a file can be made here: what the store needs, and what os.access cannot
    tell root on a read-only bind mount."""
    try:
        fd, probe = tempfile.mkstemp(prefix=".pubpoker-doctor-", dir=directory)
    except OSError:
        return False
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)
    return True


def _connect(path: Path, *, immutable: bool) -> sqlite3.Connection:
    uri = f"file:{quote(str(path))}?mode=ro" + ("&immutable=1" if immutable else "")
    return sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT)


def _wal_empty(path: Path) -> bool:
    wal = path.with_name(path.name + "-wal")
    try:
        return wal.stat().st_size == 0
    except FileNotFoundError:
        return True
    except OSError:
        return False


def _read(conn: sqlite3.Connection, path: Path) -> StoreHealth:
    conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    rows = conn.execute("PRAGMA quick_check").fetchall()
    if rows != [("ok",)]:
        return StoreHealth(path, True, damage="quick_check: " + "; ".join(
            str(r[0]) for r in rows[:3]))
    version = check_shape(conn, path, SCHEMA_VERSION)
    if version > SCHEMA_VERSION:
        return StoreHealth(path, True, error=StoreTooNew(found=version, known=SCHEMA_VERSION),
                           schema_version=version)
    if version == 0:
        return StoreHealth(path, True, schema_version=0, events=0, players=0)
    (events,) = conn.execute("SELECT COUNT(*) FROM events").fetchone()
    players = (conn.execute("SELECT COUNT(*) FROM players").fetchone()[0]
               if version >= 2 else 0)
    return StoreHealth(path, True, schema_version=version, events=int(events),
                       players=int(players),
                       listener_pauses=listener_pauses(get_meta(conn, PAUSES_KEY)),
                       viewer_not_served=viewer_not_served(get_meta(conn, VIEWER_KEY)))


def examine_store(path: Path, *, read_only_fs: bool = False) -> StoreHealth:
    """The store's health, read without changing a byte of it."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(len(_HEADER))
    except FileNotFoundError:
        return StoreHealth(path, exists=False)
    except OSError as err:
        return StoreHealth(path, True, error=storage_error(err, path))
    if head and head != _HEADER:
        return StoreHealth(path, True, damage="not an SQLite database", not_sqlite=True)
    if not head:
        return StoreHealth(path, True, schema_version=0, events=0, players=0)
    attempts = [True] if read_only_fs else [False, True]
    for immutable in attempts:
        try:
            conn = _connect(path, immutable=immutable)
        except sqlite3.Error as err:
            return StoreHealth(path, True, error=storage_error(err, path))
        try:
            return _read(conn, path)
        except ForeignStore as err:
            return StoreHealth(path, True, error=err)
        except sqlite3.Error as err:
            if primary_code(err) in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
                return StoreHealth(path, True, damage=str(err),
                                   not_sqlite=primary_code(err) == sqlite3.SQLITE_NOTADB)
            failure = storage_error(err, path)
            # No room for the -shm: without a WAL to read, immutable sees it all.
            if immutable or not _wal_empty(path) or primary_code(err) not in (
                    sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN,
                    sqlite3.SQLITE_READONLY):
                return StoreHealth(path, True, error=failure)
        finally:
            conn.close()
    raise AssertionError("unreachable")  # pragma: no cover


def examine(directory: str | os.PathLike[str]) -> Report:
    data = Path(directory)
    try:
        space: Space | None = measure(data)
    except OSError:
        space = None
    writable = space is not None and not space.read_only and _writable(data)
    try:
        reserve = reserve_path(data).stat().st_size
    except OSError:
        reserve = 0
    store = examine_store(db_path(data), read_only_fs=space is not None and space.read_only)
    return Report(data, DiskReport(space, writable, reserve), store)
