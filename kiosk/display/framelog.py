"""``PUBPOKER_FRAME_LOG``: one line per frame shown, for tests and benchmarks outside.

Nothing else tells a process outside when a change reached the screen (the
status file is the state, written before the frame is drawn). With the
variable set, the loop appends after each flip or partial update::

    <time.monotonic()> <flip|update> <rowid> <running>

``rowid`` is the store's highest rowid folded into the state that frame
shows (-1 before a tournament), ``running`` the clock's state (1 or 0). A
latency benchmark finds an event's rowid in the store and the first frame at
or past it. Monotonic time is the machine's, shared by every process.
"""

from __future__ import annotations

import os
import time
from typing import IO, Final

from kiosk.station import Station

__all__ = ["ENV", "FrameLog", "from_env"]

ENV: Final = "PUBPOKER_FRAME_LOG"


class FrameLog:
    def __init__(self, path: str, station: Station) -> None:
        self.station = station
        self._out: IO[str] = open(path, "a", buffering=1, encoding="ascii")  # noqa: SIM115

    def shown(self, how: str) -> None:
        running = int(bool(self.station.state.clock.running))
        self._out.write(f"{time.monotonic():.6f} {how} {self.station.folded_rowid} {running}\n")

    def close(self) -> None:
        self._out.close()


def from_env(station: Station) -> FrameLog | None:
    path = os.environ.get(ENV)
    return FrameLog(path, station) if path else None
