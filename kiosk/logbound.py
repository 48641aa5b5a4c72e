"""The kiosk's log, bounded: no flood can make it grow without end.

On the appliance the kiosk's stderr goes to the journal, and on a laptop or
in a test to a file; either way a fault that repeats (a listener out of
descriptors, a reader that unplugs a thousand times, a peer that keeps
sending garbage) must not write megabytes a minute. The first few records of
each kind (logger, level, message template, exception type) in a window go
through whole, traceback and all; the rest are counted, and once the window
is over one line says how many were left out. Past :data:`PER_WINDOW` records
written in one window, all are counted alike. So at most
``PER_WINDOW`` records and ``SUMMARIES + 1`` summary lines reach the log a
window, whatever happens.

Like Python's last-resort handler it writes ``WARNING`` and above, message
only: journald stamps the time and unit itself.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable
from typing import IO, Any, Final

__all__ = ["BURST", "PER_WINDOW", "WINDOW", "BoundedHandler", "install"]

#: Records of one kind that go through whole in a window.
BURST: Final = 5
#: Records of all kinds together that go through in a window.
PER_WINDOW: Final = 100
#: Seconds of a window.
WINDOW: Final = 60.0
#: Kinds remembered at once: messages that are all different count as one.
KINDS: Final = 256
#: Kinds named in a window's summary; the rest are one line.
SUMMARIES: Final = 10

_Kind = tuple[str, int, str, str]


class BoundedHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """A stream handler that lets through :data:`BURST` records of a kind a window."""

    def __init__(self, stream: IO[str] | None = None, *, burst: int = BURST,
                 per_window: int = PER_WINDOW, window: float = WINDOW,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(stream)
        self.burst, self.per_window, self.window, self.clock = burst, per_window, window, clock
        self._started = clock()
        self._total = 0
        #: Per kind in this window: records seen, left out, and the template to name it by.
        self._seen: dict[_Kind, list[Any]] = {}

    def emit(self, record: logging.LogRecord) -> None:
        now = self.clock()
        if now - self._started >= self.window:
            self._summarise()
            self._started, self._total = now, 0
        seen = self._seen.setdefault(self._kind(record), [0, 0, str(record.msg)])
        seen[0] += 1
        if seen[0] <= self.burst and self._total < self.per_window:
            self._total += 1
            super().emit(record)
        else:
            seen[1] += 1

    def close(self) -> None:
        self._summarise()
        super().close()

    def _kind(self, record: logging.LogRecord) -> _Kind:
        exc = record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] else ""
        kind = (record.name, record.levelno, str(record.msg)[:200], exc)
        if kind not in self._seen and len(self._seen) >= KINDS:
            return ("", 0, "", "")  # every new kind past the cap counts as one
        return kind

    def _summarise(self) -> None:
        """A line per kind that had records left out in the window now over (a few at most)."""
        seen, self._seen = self._seen, {}
        left = [(name, dropped, template) for (name, *_), (_, dropped, template) in seen.items()
                if dropped > 0]
        for name, dropped, template in left[:SUMMARIES]:
            self._write(f"{dropped} more log record(s) like this were left out in "
                        f"{self.window:.0f} s: {name}: {template[:120]}")
        rest = sum(dropped for _, dropped, _ in left[SUMMARIES:])
        if rest:
            self._write(f"{rest} more log record(s) of other kinds were left out in "
                        f"{self.window:.0f} s")

    def _write(self, line: str) -> None:
        try:
            self.stream.write(line + self.terminator)
            self.flush()
        except Exception:  # a closed stderr: nothing to tell
            pass


def install(stream: IO[str] | None = None) -> BoundedHandler | None:
    """Give the root logger a bounded handler, unless logging was set up already."""
    root = logging.getLogger()
    if root.handlers:
        return None
    handler = BoundedHandler(stream if stream is not None else sys.stderr)
    handler.setLevel(logging.WARNING)
    root.addHandler(handler)
    return handler
