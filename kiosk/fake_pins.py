"""Mock GPIO pins driven from outside the process: for scenario tests only.

With ``PUBPOKER_FAKE_PINS=/path/to/fifo`` in its environment, the kiosk's
buttons sit on gpiozero's ``MockFactory`` instead of the real pins, and a
thread reads one command per line from that FIFO (made if missing):

- ``low 17`` / ``high 17``: drive BCM pin 17 (a button pulls its pin low);
- ``press 17 0.1``: low, 0.1 s, high (a tap);
- ``hold 17 2.0``: the same, for a long press.

Each command done is appended, with the monotonic time, to the file named
by ``PUBPOKER_FAKE_PINS_LOG`` if set (``<t> <command>`` per line), so a test
can compare what was injected with what the log acknowledged. The thread
stops when :meth:`FakePins.close` is called (``app.close()``).
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import stat
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["ENV", "LOG_ENV", "FakePins", "from_env"]

log = logging.getLogger(__name__)

ENV = "PUBPOKER_FAKE_PINS"
LOG_ENV = "PUBPOKER_FAKE_PINS_LOG"


class FakePins:
    """A ``MockFactory`` whose pins a FIFO's lines drive (see the module doc)."""

    def __init__(self, path: str | os.PathLike[str], *, record: str | None = None,
                 factory: Any = None) -> None:
        if factory is None:
            from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

            factory = MockFactory()
        self.factory = factory
        self.path = Path(path)
        self.record = record
        self.done = 0
        if not self.path.exists():
            os.mkfifo(self.path)
        elif not stat.S_ISFIFO(self.path.stat().st_mode):
            raise ValueError(f"{self.path} is not a FIFO")
        # Our own writer end keeps the FIFO from reporting EOF between test writers.
        self._fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)
        self._keep = os.open(self.path, os.O_WRONLY | os.O_NONBLOCK)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="fake-pins", daemon=True)
        self._thread.start()

    def apply(self, line: str) -> None:
        """Do one command; a bad line is logged and skipped."""
        words = line.split()
        if not words:
            return
        try:
            verb, pin = words[0], self.factory.pin(int(words[1]))
            if verb == "low":
                pin.drive_low()
            elif verb == "high":
                pin.drive_high()
            elif verb in ("press", "hold"):
                pin.drive_low()
                self._stop.wait(float(words[2]))
                pin.drive_high()
            else:
                raise ValueError(verb)
        except (IndexError, ValueError) as err:
            log.error("fake pins: bad command %r (%s)", line, err)
            return
        self.done += 1
        if self.record:
            with open(self.record, "a") as out:
                out.write(f"{time.monotonic():.3f} {' '.join(words)}\n")

    def _run(self) -> None:
        pending = b""
        while not self._stop.is_set():
            ready, _, _ = select.select([self._fd], [], [], 0.2)
            if not ready:
                continue
            try:
                chunk = os.read(self._fd, 4096)
            except BlockingIOError:
                continue
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for raw in lines:
                if self._stop.is_set():
                    return
                self.apply(raw.decode(errors="replace"))

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        for fd in (self._fd, self._keep):
            with contextlib.suppress(OSError):
                os.close(fd)


def from_env(environ: Mapping[str, str] | None = None) -> FakePins | None:
    """The fake pins the environment asks for, or None (the real pins)."""
    env = os.environ if environ is None else environ
    path = env.get(ENV)
    if not path:
        return None
    log.warning("buttons on fake pins driven from %s", path)
    return FakePins(path, record=env.get(LOG_ENV) or None)
