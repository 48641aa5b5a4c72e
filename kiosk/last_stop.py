"""How the last kiosk on this store stopped: recorded beside the store, never guessed.

A kiosk that comes up with a running clock in its log has to know whether
time was lost while it was away. A power cut (or SIGKILL, or a crash) gives
no warning, so the kiosk records the opposite: :data:`FILE` in the data dir
says ``"running"`` from the moment a kiosk starts, and is rewritten to
``"stopped"`` when it stops cleanly (SIGTERM from systemd, Ctrl-C, q twice),
with the boot it ran in and its shared time at the stop. The next start
reads it (:func:`read`):

- ``"running"`` (**cut**): the last kiosk never said it stopped. The clock
  comes back paused at its checkpoint with the power-cut banner, as before
  (``Station.cold_start``).
- ``"stopped"`` (**clean**): the log is exact. The clock goes on as the log
  says, with no banner; shared time continues from the stop (in the same
  boot the same base, so a running clock loses nothing; after a reboot from
  the shared time at the stop).
- no file (**none**): no kiosk ever ran on this store; a clock started from
  the terminal (``pubpoker clock start``) was not cut. It goes on as the log
  says, in the terminal's shared time (the store's saved base).

A file that cannot be read as one of these counts as a cut: the banner asks
the TD, which is safe. Each write goes to a temporary file that is synced and
renamed over the old one (and the directory synced), so a power cut in the
middle leaves the old record or the new one, never half of one. A write that
fails (a full card) is logged and the night goes on: the worst it costs is a
banner that was not needed.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

__all__ = ["FILE", "LastStop", "boot_id", "mark_running", "mark_stopped", "read"]

log = logging.getLogger(__name__)

FILE: Final = "kiosk-run.json"
_BOOT_ID: Final = Path("/proc/sys/kernel/random/boot_id")


def boot_id() -> str:
    """This boot's id from the kernel ("" where there is none)."""
    try:
        return _BOOT_ID.read_text(encoding="ascii").strip()
    except OSError:
        return ""


@dataclass(frozen=True)
class LastStop:
    """What the record beside the store says about the last kiosk on it."""

    kind: Literal["cut", "clean", "none"]
    boot: str = ""
    #: Shared time at the clean stop, and the clock's base and speed then.
    shared: float | None = None
    base: float | None = None
    speed: float | None = None

    @property
    def same_boot(self) -> bool:
        return bool(self.boot) and self.boot == boot_id()


def read(data_dir: str | os.PathLike[str]) -> LastStop:
    """How the last kiosk on the store in ``data_dir`` stopped (see the module doc)."""
    path = Path(data_dir) / FILE
    try:
        raw = path.read_text(encoding="utf-8")[:4096]
    except FileNotFoundError:
        return LastStop("none")
    except OSError:
        return LastStop("cut")
    try:
        data = json.loads(raw)
        boot = str(data.get("boot", ""))
        if data["state"] == "stopped":
            return LastStop("clean", boot, float(data["shared"]), float(data["base"]),
                            float(data["speed"]))
    except (ValueError, KeyError, TypeError, AttributeError):
        return LastStop("cut")
    return LastStop("cut", boot)


def mark_running(data_dir: str | os.PathLike[str]) -> None:
    """A kiosk runs on this store from now on: until :func:`mark_stopped`, a stop is a cut."""
    _write(Path(data_dir) / FILE, {"state": "running", "boot": boot_id(), "pid": os.getpid(),
                                   "at": time.time()})


def mark_stopped(data_dir: str | os.PathLike[str], *, shared: float, base: float,
                 speed: float) -> None:
    """This kiosk stops cleanly at shared time ``shared``: the log is exact for the next."""
    _write(Path(data_dir) / FILE, {"state": "stopped", "boot": boot_id(), "pid": os.getpid(),
                                   "at": time.time(), "shared": shared, "base": base,
                                   "speed": speed})


def _write(path: Path, data: dict[str, object]) -> None:
    temp = path.with_name(path.name + ".tmp")
    try:
        with open(temp, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(data) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError as err:
        log.error("could not record the kiosk's %s in %s: %s", data["state"], path, err)
        with contextlib.suppress(OSError):
            temp.unlink()
