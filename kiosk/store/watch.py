"""A store-changed signal: a file descriptor that turns readable when another connection commits.

The kiosk's store has more than one writer: the TD's ``pubpoker`` commands
over SSH are a second process on the same SQLite file. A loop that sleeps
until something must change selects on :meth:`StoreWatcher.fileno` beside
its other wake-up sources, and calls :meth:`StoreWatcher.changed` when it is
readable::

    with StoreWatcher(store.path) as watcher:
        select.select([watcher, inputs_fd], [], [], timeout)
        if watcher.changed():
            station.tick()          # fold what the other process wrote

``PRAGMA data_version`` says whether another connection committed; inotify
(Linux, through libc: no new dependency) says when to ask. The two need a
go-between, and that is why this module has a small thread: the last thing
a commit writes that inotify can see is the WAL frames, and only *after*
them (the fsync under ``synchronous=FULL``, then the WAL index in the
memory-mapped ``-shm``, which inotify never sees) does the commit become
visible. Asked at the write, ``data_version`` has not moved yet, and no
event follows. So the thread looks again on a short, widening schedule
after each write (:class:`Settle`) until the commit shows, and only then
makes the descriptor readable: the consumer wakes once per change, not once
per look. With nothing written the thread sleeps in ``select`` and costs no
wake-ups at all. Where inotify is missing (not Linux), the thread asks
``data_version`` every :data:`FALLBACK_POLL` seconds instead.

A commit of the watching process's own other connections counts as
another connection's, so a kiosk also hears about its own writes; the
consumer's fold then finds nothing new, which costs one cheap look.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import os
import select
import sqlite3
import struct
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Final

from kiosk.lazylog import logger

__all__ = ["FALLBACK_POLL", "Settle", "StoreWatcher", "open_reader"]

log = logger(__name__)  # logging is imported when something is logged

#: Seconds between two looks at ``data_version`` where inotify is missing.
FALLBACK_POLL: Final = 1.0

# inotify(7); the values are the same on every Linux architecture.
_IN_MODIFY: Final = 0x00000002
_IN_MOVED_TO: Final = 0x00000080
_IN_CREATE: Final = 0x00000100
_IN_DELETE: Final = 0x00000200
_IN_Q_OVERFLOW: Final = 0x00004000
_IN_NONBLOCK: Final = os.O_NONBLOCK
_IN_CLOEXEC: Final = 0o2000000
_EVENT: Final = struct.Struct("iIII")


def open_reader(path: str | os.PathLike[str]) -> sqlite3.Connection:
    """A connection that only reads the store at ``path`` (for a watcher or sync's thread).

    Not ``mode=ro``: a read-only connection cannot create the ``-shm`` file
    when nobody else has the store open. ``query_only`` refuses every write.
    """
    conn = sqlite3.connect(os.fspath(path), timeout=2.0, check_same_thread=False,
                           isolation_level=None)
    conn.execute("PRAGMA query_only = ON")
    return conn


@dataclass
class Settle:
    """When to ask ``data_version`` again after a write to the store's files (pure).

    A look is: drain inotify, then ask ``data_version``. Writers take turns
    (SQLite's write lock), so the next commit's writes come after the last
    commit became visible. Hence: if ``data_version`` moves at a look *after*
    the one that drained the latest writes, the commit that made them is
    visible; nothing written so far is left to wait for. If it moves at the
    same look, the change may be an earlier commit's, so the watcher looks
    on for a short tail (a few times the latest write-to-visible delay). A
    write no commit follows (a checkpoint into the main file) is given up
    after ``horizon`` seconds.

    >>> s = Settle()
    >>> s.look(10.0, wrote=True, changed=False)
    >>> s.timeout(10.0)
    0.0005
    >>> s.look(10.004, wrote=False, changed=True)   # visible 4 ms after the write
    >>> s.timeout(10.004) is None
    True
    """

    #: Give up this many seconds after the latest write when nothing became visible.
    horizon: float = 1.0
    #: After a change that may be an earlier commit's: look on for this many
    #: write-to-visible delays (at least ``min_tail`` seconds).
    tail: float = 4.0
    min_tail: float = 0.01
    #: Seconds between looks: half the time since the write, within these bounds,
    #: so a commit that takes t seconds to show is seen by 1.5 t.
    min_gap: float = 0.0005
    max_gap: float = 0.1
    #: The latest write-to-visible delay seen (seconds): an fsync's worth.
    latency: float = 0.005
    _wrote_at: float | None = None
    #: Whether a change was seen at the look that drained the latest writes.
    _ambiguous: bool = False

    def look(self, now: float, *, wrote: bool, changed: bool) -> None:
        """Record one look: ``wrote`` if the drain found writes, ``changed`` if
        ``data_version`` moved since the look before."""
        if wrote:
            self._wrote_at = now
            self._ambiguous = changed
        elif changed and self._wrote_at is not None:
            if not self._ambiguous:
                self.latency = max(now - self._wrote_at, self.min_gap)
            self._wrote_at = None

    def timeout(self, now: float) -> float | None:
        """Seconds until the next look; None when nothing is awaited."""
        if self._wrote_at is None:
            return None
        elapsed = now - self._wrote_at
        limit = (min(self.horizon, max(self.min_tail, self.tail * self.latency))
                 if self._ambiguous else self.horizon)
        if elapsed >= limit:
            self._wrote_at = None
            return None
        return min(self.max_gap, max(self.min_gap, elapsed / 2))


class _Inotify:
    """The store's directory under inotify, reporting writes to the store's own files."""

    def __init__(self, directory: Path, names: frozenset[str]) -> None:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        fd = libc.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC)
        if fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")
        # The directory, not the files: the -wal and -journal come and go.
        mask = _IN_MODIFY | _IN_CREATE | _IN_MOVED_TO | _IN_DELETE
        if libc.inotify_add_watch(fd, os.fsencode(directory), mask) < 0:
            err = ctypes.get_errno()
            os.close(fd)
            raise OSError(err, f"inotify_add_watch {directory}")
        self.fd = fd
        self.names = names

    def drain(self) -> bool:
        """Read every pending event; True if one was about the store's files."""
        ours = False
        while True:
            try:
                data = os.read(self.fd, 64 * 1024)
            except BlockingIOError:
                return ours
            except OSError as err:
                if err.errno == errno.EINTR:
                    continue
                raise
            offset = 0
            while offset + _EVENT.size <= len(data):
                _wd, mask, _cookie, length = _EVENT.unpack_from(data, offset)
                name = data[offset + _EVENT.size:offset + _EVENT.size + length]
                offset += _EVENT.size + length
                if mask & _IN_Q_OVERFLOW or name.rstrip(b"\0").decode(
                        errors="replace") in self.names:
                    ours = True

    def close(self) -> None:
        os.close(self.fd)


class StoreWatcher:
    """Readable :meth:`fileno` once another connection committed to the store at ``path``.

    Use it from one thread (the one that selects on it). :meth:`close` stops
    the watcher's thread; it is also a context manager.
    """

    def __init__(self, path: str | os.PathLike[str], *,
                 fallback_poll: float = FALLBACK_POLL) -> None:
        self.path = Path(path).resolve()
        if not self.path.exists():
            raise FileNotFoundError(self.path)
        self.fallback_poll = fallback_poll
        self._signal_r, self._signal_w = os.pipe()
        self._stop_r, self._stop_w = os.pipe()
        for fd in (self._signal_r, self._signal_w, self._stop_r, self._stop_w):
            os.set_blocking(fd, False)
        name = self.path.name
        self._inotify: _Inotify | None = None
        if sys.platform.startswith("linux"):
            try:
                self._inotify = _Inotify(self.path.parent, frozenset(
                    {name, f"{name}-wal", f"{name}-journal"}))
            except (OSError, AttributeError) as err:  # no inotify: poll instead
                log.warning("no inotify for %s (%s): looking every %.1f s", self.path, err,
                            fallback_poll)
        #: True when a commit wakes :meth:`fileno` at once; False when it is polled.
        self.live = self._inotify is not None
        self.looks = 0
        self._started = threading.Event()
        self._failure: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="pubpoker-store-watch",
                                        daemon=True)
        self._thread.start()
        # The first data_version is taken before we return: no commit after
        # the constructor can go unnoticed.
        self._started.wait()
        if self._failure is not None:
            self.close()
            raise self._failure

    # --- the consumer's side ----------------------------------------------------------

    def fileno(self) -> int:
        """A descriptor for ``select``: readable once a commit was seen, until :meth:`changed`."""
        return self._signal_r

    def changed(self) -> bool:
        """Whether another connection committed since the last call (consumes the signal)."""
        seen = False
        while True:
            try:
                if not os.read(self._signal_r, 4096):
                    return seen
                seen = True
            except BlockingIOError:
                return seen

    def wait(self, timeout: float | None = None) -> bool:
        """Block until a commit is seen or ``timeout`` passes; whether one was."""
        ready, _, _ = select.select([self._signal_r], [], [], timeout)
        return bool(ready) and self.changed()

    def close(self) -> None:
        if self._stop_w < 0:
            return
        with contextlib.suppress(OSError):
            os.write(self._stop_w, b"x")
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(5)
        for fd in (self._signal_r, self._signal_w, self._stop_r, self._stop_w):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._stop_w = -1
        if self._inotify is not None:
            self._inotify.close()
            self._inotify = None

    def __enter__(self) -> StoreWatcher:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # --- the watcher's thread ----------------------------------------------------------

    def _run(self) -> None:
        version: int | None
        try:
            conn = open_reader(self.path)
        except BaseException as err:  # reported by the constructor
            self._failure = err
            self._started.set()
            return
        try:
            version = _data_version(conn)
        except sqlite3.Error as err:
            # A full disk (no room for SQLite's -shm): the first look that can
            # read says "changed", and the consumer looks for itself.
            log.warning("data_version of %s: %s", self.path, err)
            version = None
        self._started.set()
        settle = Settle()
        watched = [self._stop_r] + ([self._inotify.fd] if self._inotify is not None else [])
        try:
            while True:
                timeout = (settle.timeout(time.monotonic()) if self._inotify is not None
                           else self.fallback_poll)
                ready, _, _ = select.select(watched, [], [], timeout)
                if self._stop_r in ready:
                    return
                wrote = self._inotify.drain() if self._inotify is not None else False
                if not wrote and self._inotify is not None and timeout is None:
                    continue  # another file of the directory
                try:
                    now_version = _data_version(conn)
                except sqlite3.Error as err:
                    # Say "changed": a spurious look costs the consumer little,
                    # a missed commit much more.
                    log.warning("data_version of %s: %s", self.path, err)
                    now_version = None
                self.looks += 1
                changed = now_version is None or now_version != version
                version = now_version if now_version is not None else version
                settle.look(time.monotonic(), wrote=wrote, changed=changed)
                if changed:
                    with contextlib.suppress(BlockingIOError):  # full: already signalled
                        os.write(self._signal_w, b"!")
        finally:
            conn.close()


def _data_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA data_version").fetchone()[0])
