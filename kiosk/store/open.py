"""Opening the store, and what to do when the file is damaged.

A file that is not SQLite, cannot be read, or fails ``PRAGMA quick_check``
is never deleted: it is renamed ``pubpoker.db.corrupt-YYYYmmddTHHMMSS``
(with its ``-wal`` and ``-shm``), a fresh store is created, and the store's
``warnings`` carry a notice for the display's status line, besides an ERROR
in the log. Peers then send the tournament back through sync.

A database that is merely busy (another process holds a lock) is not
damaged, and is refused with :class:`StoreLocked` instead of moved. A
directory that cannot be made or written is refused with
:class:`kiosk.paths.DataDirUnusable` before SQLite is asked.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import time
import uuid
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Literal

from kiosk.paths import db_path, ensure_data_dir
from kiosk.store.errors import Notice, StoreLocked, StoreTooNew
from kiosk.store.migrations import SCHEMA_VERSION, migrate, schema_version
from kiosk.store.schema import Synchronous, configure, get_meta, set_meta

__all__ = ["CheckLevel", "move_aside", "open_database"]

log = logging.getLogger(__name__)

CheckLevel = Literal["quick", "full", "none"]
#: Seconds to wait for another process's lock before calling the store busy.
BUSY_TIMEOUT = 5.0
_HEADER = b"SQLite format 3\x00"


def _damage(path: Path, check: CheckLevel) -> str | None:
    """Why the file at ``path`` cannot be used as it is, or None if it is fine."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(len(_HEADER))
    except OSError as err:
        return f"unreadable: {err.strerror or err}"
    if head and head != _HEADER:
        return "not an SQLite database"
    if not head:
        return None  # an empty file is a database SQLite will initialise
    try:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT)
    except sqlite3.Error as err:
        return f"cannot open: {err}"
    try:
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        if check != "none":
            pragma = "quick_check" if check == "quick" else "integrity_check"
            rows = conn.execute(f"PRAGMA {pragma}").fetchall()
            if rows != [("ok",)]:
                return f"{pragma}: {'; '.join(str(r[0]) for r in rows[:5])}"
    except sqlite3.Error as err:
        code = getattr(err, "sqlite_errorcode", None)
        primary = code & 0xFF if isinstance(code, int) else None
        if primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            raise StoreLocked() from err
        # Anything else (corrupt, not a database, I/O error) makes it unusable.
        return str(err)
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
) -> tuple[sqlite3.Connection, Path, str, list[Notice]]:
    """Open (creating, migrating or replacing a damaged file) the store's database.

    Returns the connection, its path, this device's id and notices for the display.
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
    ensure_data_dir(path.parent)
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
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT)
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
            ident = uuid.uuid4().hex[:12] if fresh_after_damage or not device_id else device_id
            with conn:
                set_meta(conn, "device_id", ident)
                set_meta(conn, "created_at", now())
        elif device_id and device_id != ident:
            log.warning("config names this device %s, but its store says %s; keeping %s",
                        device_id, ident, ident)
    except sqlite3.OperationalError as err:
        conn.close()
        code = getattr(err, "sqlite_errorcode", 0) or 0
        if code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            raise StoreLocked() from err
        raise
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.close()
        raise
    return conn, path, ident, notices
