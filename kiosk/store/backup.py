"""A consistent copy of the store while the kiosk runs.

SQLite's online backup API copies the database as of one read transaction;
in WAL mode that read does not block the kiosk's writes, so a backup can be
taken mid-tournament. The copy is written next to the target under a
temporary name, switched to a single-file journal, checked, flushed to disk
and only then renamed into place: a half-written backup never has the
target's name.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

from kiosk.lazylog import logger
from kiosk.store.errors import (
    BackupFailed,
    BackupNotAFile,
    BackupOfDamagedStore,
    DiskFull,
    StoreError,
)
from kiosk.store.tx import primary_code, write_error
from rules.i18n import OsReason
from rules.records import RecordMethods, record

__all__ = ["BackupReport", "backup"]

log = logger(__name__)  # logging is imported when something is logged

#: SQLite's codes for a file damaged inside (a bad page, a bad header).
_DAMAGED = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})


@record
class BackupReport(RecordMethods):
    """What a backup copied: where to, and how much."""

    path: Path
    bytes: int
    events: int


def backup(source: Path | sqlite3.Connection, dest: str | os.PathLike[str]) -> BackupReport:
    """Copy the store at ``source`` (a path or an open connection) to ``dest``.

    ``dest`` may be a directory, in which case the copy keeps the store's name.
    """
    target = Path(dest)
    if target.is_dir():
        name = source.name if isinstance(source, Path) else "pubpoker.db"
        target = target / name
    if target.exists() and not target.is_file():
        # The copy is put in place by a rename: /dev/null or a pipe would be replaced by it.
        raise BackupNotAFile(path=str(target))
    tmp = target.with_name(target.name + ".part")
    own = isinstance(source, Path)
    src = sqlite3.connect(source) if isinstance(source, Path) else source
    try:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        # Made by the OS first: a folder that is not there, read-only or not ours
        # is then said in the room's language, not as SQLite's "unable to open".
        tmp.touch()
        dst = sqlite3.connect(tmp)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")
            check = dst.execute("PRAGMA integrity_check").fetchone()[0]
            if check != "ok":
                # The copy is page for page the store's: its damage is the store's.
                log.info("backup to %s: the copy's integrity check: %s", target, check)
                raise BackupOfDamagedStore(path=str(target))
            (events,) = dst.execute("SELECT COUNT(*) FROM events").fetchone()
        finally:
            dst.close()
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, target)
        _fsync_dir(target.parent)
    except StoreError:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise
    except sqlite3.Error as err:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        # SQLite's own words only in a verbose log: the room reads what they mean.
        log.info("backup to %s: %s", target, err)
        if primary_code(err) in _DAMAGED:
            raise BackupOfDamagedStore(path=str(target)) from err
        failure = write_error(err, tmp)
        if isinstance(failure, DiskFull):
            raise failure from err
        raise BackupFailed(path=str(target), reason=failure) from err
    except OSError as err:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise BackupFailed(path=str(target), reason=OsReason.of(err)) from err
    finally:
        if own:
            src.close()
    return BackupReport(target, target.stat().st_size, int(events))


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
