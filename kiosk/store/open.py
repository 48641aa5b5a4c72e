"""Opening the store, and what to do when the file is damaged.

Only a file that SQLite itself calls damaged is set aside: one that is not
SQLite at all, that SQLite reports as "file is not a database" or "database
disk image is malformed", or that fails ``PRAGMA quick_check`` (or
``integrity_check``). It is never deleted: it is renamed
``pubpoker.db.corrupt-YYYYmmddTHHMMSS`` (with its ``-wal`` and ``-shm``), a
fresh store is created, and the store's ``warnings`` carry a notice for the
display's status line, besides an ERROR in the log. Peers then send the
tournament back through sync.

Everything else is a condition of the disk, not of the file, and moving a
healthy night aside for it would lose the night: a full disk
(:class:`DiskFull`), a read-only file or file system
(:class:`StoreReadOnly`), a file this user may not open
(:class:`StoreNoPermission`), an I/O error (:class:`StoreUnreadable`),
another program's SQLite file (:class:`ForeignStore`), a lock held by
another process (:class:`StoreLocked`). Each is one translated sentence and
the file keeps its bytes. A directory that cannot be made or written is
refused with :class:`kiosk.paths.DataDirUnusable` before SQLite is asked.

A full disk first costs the data dir's reserve (:mod:`kiosk.store.space`):
the open is tried once more with its bytes free, and the store says ``low``.
With the reserve spent, a kiosk (``as_is_when_full``) still opens the file
as it is, to read: SQLite cannot make the ``-shm`` file a WAL store needs on
a disk with no room, so the file is opened ``immutable``, which needs none.
That connection refuses every write with :class:`DiskFull`
(``conn.refusal``), and the kiosk opens the store properly again once there
is room (:meth:`kiosk.store.store.Store.try_writable`).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Literal

from kiosk.lazylog import logger
from kiosk.paths import DataDirFull, db_path, ensure_data_dir
from kiosk.paths import _user as user_name
from kiosk.store.errors import (
    DiskFull,
    Notice,
    StoreError,
    StoreNoPermission,
    StoreReadOnly,
    StoreTooNew,
    StoreUnreadable,
    StoreWriteFailed,
)
from kiosk.store.migrations import SCHEMA_VERSION, migrate, schema_version
from kiosk.store.schema import Synchronous, configure, get_meta, set_meta
from kiosk.store.shape import check_shape
from kiosk.store.space import SpaceKeeper, ensure_reserve, measure
from kiosk.store.tx import primary_code, write_error

__all__ = ["CheckLevel", "StoreConnection", "move_aside", "open_database", "storage_error"]

log = logger(__name__)  # logging is imported when something is logged

CheckLevel = Literal["quick", "full", "none"]
#: Seconds to wait for another process's lock before calling the store busy.
BUSY_TIMEOUT = 5.0
_HEADER = b"SQLite format 3\x00"
#: SQLite's own words for a damaged file; nothing else sets a file aside.
_DAMAGE_CODES = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


class StoreConnection(sqlite3.Connection):
    """The store's connection, carrying its disk's :class:`SpaceKeeper` to the write paths."""

    space: SpaceKeeper | None = None
    #: Why this connection may not write (opened as it is on a full disk), or None.
    refusal: StoreError | None = None


def storage_error(err: sqlite3.Error | OSError, path: Path) -> StoreError:
    """The translated error for a failure that is not damage to the file at ``path``."""
    if isinstance(err, PermissionError):
        return StoreNoPermission(path=str(path), user=user_name())
    if isinstance(err, OSError):
        return StoreUnreadable(path=str(path))
    primary = primary_code(err)
    if primary in (sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM, sqlite3.SQLITE_AUTH):
        with contextlib.suppress(OSError):
            if measure(path.parent).read_only:
                return StoreReadOnly(path=str(path))
        if not os.access(path, os.R_OK | os.W_OK) or not os.access(path.parent, os.W_OK):
            return StoreNoPermission(path=str(path), user=user_name())
    failure = write_error(err, path)
    if type(failure) is StoreWriteFailed:
        # Not full, not locked, not read-only: an I/O error, named as one.
        return StoreUnreadable(path=str(path))
    return failure


def _damage(path: Path, check: CheckLevel) -> str | None:
    """Why SQLite calls the file at ``path`` damaged, or None if it is usable.

    Raises the translated error for anything that is not damage (full disk,
    permissions, locks, a foreign schema): those never set the file aside.
    """
    try:
        with open(path, "rb") as fh:
            head = fh.read(len(_HEADER))
    except OSError as err:
        raise storage_error(err, path) from err
    if head and head != _HEADER:
        return "not an SQLite database"
    if not head:
        return None  # an empty file is a database SQLite will initialise
    try:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT)
    except sqlite3.Error as err:
        raise storage_error(err, path) from err
    try:
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        if check != "none":
            pragma = "quick_check" if check == "quick" else "integrity_check"
            rows = conn.execute(f"PRAGMA {pragma}").fetchall()
            if rows != [("ok",)]:
                return f"{pragma}: {'; '.join(str(r[0]) for r in rows[:5])}"
        # Read-only, before configure() or a migration touches a byte of it.
        check_shape(conn, path, SCHEMA_VERSION)
    except sqlite3.Error as err:
        if primary_code(err) in _DAMAGE_CODES:
            return str(err)
        raise storage_error(err, path) from err
    finally:
        conn.close()
    return None


def move_aside(path: Path, *, now: Callable[[], float] = time.time) -> Path:
    """Rename a damaged store (and its -wal/-shm) out of the way; return the new name."""
    stamp = datetime.fromtimestamp(now()).strftime("%Y%m%dT%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
        n += 1
    os.replace(path, target)
    for suffix in ("-wal", "-shm", "-journal"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            os.replace(side, target.with_name(target.name + suffix))
    return target


def open_database(
    path: Path | None = None,
    *,
    data_dir: str | os.PathLike[str] | None = None,
    device_id: str | None = None,
    synchronous: Synchronous = "FULL",
    check: CheckLevel = "quick",
    now: Callable[[], float] = time.time,
    as_is_when_full: bool = False,
    to_read: bool = False,
) -> tuple[sqlite3.Connection, Path, str, list[Notice]]:
    """Open (creating, migrating or replacing a damaged file) the store's database.

    Returns the connection, its path, this device's id and notices for the display.
    ``as_is_when_full``: on a full disk with no reserve left, open the file as
    it is, read-only, rather than raise :class:`DiskFull` (see the module).
    ``to_read`` (a command that only reads: ``tournament show``, ``players list``):
    on a full disk, open the file as it is at once, leaving the reserve to the
    writes it is kept for.
    """
    if path is None:
        if data_dir is None:
            # A programming error: callers resolve the data dir first
            # (kiosk.paths.data_dir), as bootstrap and the store's CLI do.
            raise ValueError("open_database needs a path or a data_dir")
        path = db_path(data_dir)
    path = Path(path)
    # A directory that cannot take the file is one translated sentence
    # (kiosk.paths.DataDirUnusable), not sqlite3's "unable to open database file".
    keeper = SpaceKeeper(path.parent)
    try:
        ensure_data_dir(path.parent)
    except DataDirFull:
        # Not even an empty file fits (a full ext4 directory block): the reserve
        # is what it is for.
        if not keeper.on_full():
            raise
        ensure_data_dir(path.parent)
    try:
        conn, ident, notices = _open(path, device_id, synchronous, check, now)
    except DiskFull:
        if to_read and path.exists():
            as_is = _open_as_is(path, keeper)
            if as_is is None:
                raise
            log.debug("the disk holding %s is full; opened as it is, to read", path)
            conn, ident, notices = as_is
        elif not keeper.on_full():
            as_is = _open_as_is(path, keeper) if as_is_when_full else None
            if as_is is None:
                # The caller prints DiskFull, translated; the log only keeps the path.
                log.debug("the disk holding %s is full; the store was not opened and is "
                         "left as it is", path)
                raise
            log.warning("DISK FULL: %s is open to read only, as it is; writes are refused "
                        "until there is room", path)
            conn, ident, notices = as_is
        else:
            conn, ident, notices = _open(path, device_id, synchronous, check, now)
            keeper.wrote()
    else:
        ensure_reserve(path.parent)
    if isinstance(conn, StoreConnection):
        conn.space = keeper
    warning = keeper.notice()
    if warning is not None:
        notices.append(warning)
    return conn, path, ident, notices


def _open_as_is(path: Path, keeper: SpaceKeeper
                ) -> tuple[StoreConnection, str, list[Notice]] | None:
    """The store at ``path`` opened to read, as it is, on a disk with no room; or None.

    ``immutable`` reads the main file alone and ignores a ``-wal``, so only a
    file whose WAL is empty or gone (a clean shutdown checkpoints it) is all
    there: with commits still in the WAL, this would show an older night, and
    the kiosk says the disk is full instead. The file must already be this
    version's store, since nothing can be migrated.
    """
    wal = path.with_name(path.name + "-wal")
    try:
        if path.stat().st_size == 0 or (wal.exists() and wal.stat().st_size > 0):
            return None
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?immutable=1", uri=True,
                               timeout=BUSY_TIMEOUT, factory=StoreConnection)
    except (OSError, sqlite3.Error):
        return None
    try:
        version = check_shape(conn, path, SCHEMA_VERSION)
        ident = get_meta(conn, "device_id")
        if version != SCHEMA_VERSION or ident is None:
            conn.close()
            return None
    except (sqlite3.Error, StoreError):
        conn.close()
        return None
    conn.refusal = DiskFull()
    conn.space = keeper
    return conn, ident, []


def _open(path: Path, device_id: str | None, synchronous: Synchronous, check: CheckLevel,
          now: Callable[[], float]) -> tuple[sqlite3.Connection, str, list[Notice]]:
    notices: list[Notice] = []
    fresh_after_damage = False
    if path.exists():
        why = _damage(path, check)
        if why is not None:
            moved = move_aside(path, now=now)
            log.error("STORE DAMAGED: %s is unusable (%s). Moved it to %s and started an "
                      "empty store; peers will send the tournament back.", path, why, moved)
            notices.append(Notice("store-corrupt", {"moved_to": moved.name}))
            fresh_after_damage = True
    try:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT, factory=StoreConnection)
    except sqlite3.Error as err:
        raise storage_error(err, path) from err
    try:
        configure(conn, synchronous=synchronous)
        found = schema_version(conn)
        if found > SCHEMA_VERSION:
            raise StoreTooNew(found=found, known=SCHEMA_VERSION)
        done = migrate(conn)
        if done:
            log.info("store %s migrated to schema %d", path, SCHEMA_VERSION)
        ident = get_meta(conn, "device_id")
        if ident is None:
            # After damage the old file may still hold this device's events under
            # the configured id; a new id can never clash with those seqs.
            # 48 random bits, as a uuid4's first 12 hex digits (no uuid: it imports platform).
            ident = os.urandom(6).hex() if fresh_after_damage or not device_id else device_id
            with conn:
                set_meta(conn, "device_id", ident)
                set_meta(conn, "created_at", now())
        elif device_id and device_id != ident:
            log.warning("config names this device %s, but its store says %s; keeping %s",
                        device_id, ident, ident)
    except sqlite3.Error as err:
        with contextlib.suppress(sqlite3.Error):
            conn.close()
        raise storage_error(err, path) from err
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.close()
        raise
    return conn, ident, notices
