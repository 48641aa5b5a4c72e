"""Room on the data dir's disk, and a reserve that carries a night over a full disk.

A full SD card is not damage: the store refuses the write it cannot make
(:class:`~kiosk.store.errors.DiskFull`), keeps nothing partial, and goes on
once there is room. To make "goes on" happen before anyone has deleted
anything, the data dir holds ``pubpoker.reserve``: a few MB really allocated
(``posix_fallocate``, not a sparse file) while there is room. The first write
that hits a full disk deletes it and is tried once more, so the busts and
clock presses that follow still land; the store's state says ``low`` until
the reserve can be made again, and the display warns while there is time.

A :class:`SpaceKeeper` rides on the store's connection (see
:mod:`kiosk.store.open`), so the write paths find it without being handed it.
"""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path
from typing import Literal

from kiosk.lazylog import logger
from kiosk.store.errors import Notice
from rules.records import RecordMethods, record

__all__ = [
    "LOW_BYTES",
    "LOW_FRACTION",
    "NEARLY_FULL",
    "RESERVE_BYTES",
    "RESERVE_NAME",
    "DiskState",
    "Space",
    "SpaceKeeper",
    "ensure_reserve",
    "measure",
    "release_reserve",
    "reserve_fits",
    "reserve_path",
    "reserve_size",
]

log = logger(__name__)  # logging is imported when something is logged

RESERVE_NAME = "pubpoker.reserve"
#: A night is a few thousand events; their WAL frames and the checkpoint that
#: folds them into the file fit in this many times over.
RESERVE_BYTES = 4 * 1024 * 1024
#: Free space under min(LOW_BYTES, LOW_FRACTION of the disk) is "low": a warning
#: on the screen while there is still room to act. The fraction keeps a small
#: disk (a test's tmpfs) from being "low" for good.
LOW_BYTES = 32 * 1024 * 1024
LOW_FRACTION = 0.05
#: Less than this free counts as full.
NEARLY_FULL = 1024 * 1024
#: A reserve never takes more than this share of the disk.
_RESERVE_SHARE = 8

DiskState = Literal["ok", "low", "full"]


@record
class Space(RecordMethods):
    """One ``statvfs`` of the data dir's file system."""

    free: int
    total: int
    read_only: bool
    #: Files the disk can still name; None where it does not count them (btrfs).
    inodes_free: int | None = None

    @property
    def percent_free(self) -> float:
        return 100.0 * self.free / self.total if self.total else 0.0

    @property
    def low_threshold(self) -> int:
        return int(min(LOW_BYTES, LOW_FRACTION * self.total))

    @property
    def low(self) -> bool:
        """Under the warning threshold.

        >>> Space(free=10 << 20, total=1 << 30, read_only=False).low
        True
        >>> Space(free=512 << 20, total=1 << 30, read_only=False).low
        False
        """
        return self.free < self.low_threshold

    @property
    def full(self) -> bool:
        """No room left to speak of (a small disk's "full" is smaller than a big one's),
        or no file can be made: SQLite needs two for its -wal and -shm."""
        return self.free < min(NEARLY_FULL, self.low_threshold) or self.inodes_free == 0


def measure(directory: str | os.PathLike[str]) -> Space:
    """Free and total bytes of the file system holding ``directory``.

    ``f_bavail`` (what an unprivileged user may take) rather than ``f_bfree``:
    ext4 keeps 5 % for root, and the kiosk does not run as root.
    """
    st = os.statvfs(directory)
    return Space(free=st.f_bavail * st.f_frsize, total=st.f_blocks * st.f_frsize,
                 read_only=bool(st.f_flag & os.ST_RDONLY),
                 inodes_free=st.f_favail if st.f_files else None)


def reserve_path(directory: str | os.PathLike[str]) -> Path:
    return Path(directory) / RESERVE_NAME


def reserve_size(space: Space, size: int = RESERVE_BYTES) -> int:
    return min(size, space.total // _RESERVE_SHARE)


def reserve_fits(space: Space, size: int = RESERVE_BYTES) -> bool:
    """Whether a reserve can be made and leave the disk above its low threshold."""
    want = reserve_size(space, size)
    return not space.read_only and want > 0 and space.free - want >= space.low_threshold


def ensure_reserve(directory: str | os.PathLike[str], size: int = RESERVE_BYTES) -> bool:
    """Make the reserve if it is missing and the disk has room to spare; True if it exists.

    "Room to spare": after it, the disk is still above the low threshold, so
    making the reserve never itself pushes a disk into a warning.
    """
    path = reserve_path(directory)
    if path.exists():
        return True
    try:
        space = measure(directory)
        want = reserve_size(space, size)
        if not reserve_fits(space, size):
            return False
        partial = path.with_name(path.name + ".part")
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.posix_fallocate(fd, 0, want)
            os.fsync(fd)
        finally:
            os.close(fd)
        # Only a whole reserve carries the name, so a half-made one is never counted.
        os.replace(partial, path)
    except OSError as err:
        with contextlib.suppress(OSError):
            os.unlink(path.with_name(path.name + ".part"))
        if err.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES,
                             errno.EPERM, errno.EOPNOTSUPP):
            log.warning("could not make the disk reserve %s: %s", path, err)
        return False
    log.info("made the disk reserve %s (%d bytes)", path, want)
    return True


def release_reserve(directory: str | os.PathLike[str]) -> int:
    """Delete the reserve; the bytes it gave back (0 when there was none)."""
    path = reserve_path(directory)
    try:
        size = path.stat().st_size
        path.unlink()
    except FileNotFoundError:
        return 0
    except OSError as err:
        log.error("could not release the disk reserve %s: %s", path, err)
        return 0
    return size


class SpaceKeeper:
    """The store's view of its disk: full since the last refused write, low, or ok."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        #: The last write was refused for want of space, and none has landed since.
        self.full = False
        #: The reserve was given up to a full disk and is not back yet.
        self.released = False

    def on_full(self) -> bool:
        """A write found the disk full: give up the reserve; True if that made room."""
        self.full = True
        freed = release_reserve(self.directory)
        if freed:
            self.released = True
            log.warning("DISK FULL: released the %d-byte reserve %s to keep writing",
                        freed, reserve_path(self.directory))
        return freed > 0

    def wrote(self) -> None:
        if self.full:
            log.info("the store writes again after a full disk")
        self.full = False

    def state(self) -> DiskState:
        """Measure now (one statvfs), and remake the reserve once there is room."""
        try:
            space = measure(self.directory)
        except OSError:
            return "full" if self.full else "ok"
        if self.full:
            # Someone freed space: the banner goes before the next press proves it.
            if space.free <= space.low_threshold:
                return "full"
            self.full = False
        # A reserve that is gone and cannot be made again is as good as a low
        # disk: the next full disk would refuse the very next press.
        have_reserve = ensure_reserve(self.directory)
        if self.released and have_reserve:
            self.released = False
        if space.full and not have_reserve:
            return "full"  # no reserve to fall back on: the next write is refused
        return "low" if space.low or not have_reserve else "ok"

    def notice(self) -> Notice | None:
        """The status line's warning for the current state, or None when all is well."""
        state = self.state()
        if state == "full":
            return Notice("disk-full")
        if state == "low":
            try:
                free = measure(self.directory).free
            except OSError:
                free = 0
            megabytes = free // 1_000_000
            return Notice("disk-low", {"free": str(megabytes) if megabytes else "< 1"})
        return None
