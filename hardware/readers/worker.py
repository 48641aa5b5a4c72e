"""Runs one card reader on its own thread and puts what it reads on the queue.

The thread owns the serial port and nothing else: it only puts
:class:`~hardware.inputs.CardRead` and :class:`~hardware.inputs.ReaderStatus`
on the kiosk's queue. It survives an unplugged reader: on any error it closes
the port, says ``connected=False`` once, and reopens with a backoff that
doubles from 0.5 s to 8 s; when the reader is back it says ``connected=True``.
Nothing ever propagates out of the thread.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from queue import Full, Queue
from types import TracebackType

from hardware.inputs import CardRead, Input, ReaderStatus
from hardware.readers.base import CardReader

__all__ = ["CardReaderWorker", "Deduper"]

log = logging.getLogger(__name__)


class Deduper:
    """Drops a UID seen again within ``window`` seconds of the last time it was seen.

    The window slides: a reader such as the RDM6300 repeats the frame for as
    long as a tag lies on it, and that is one read, not one every 1.5 s. The
    tag is read again once it has been away for the window.

    >>> d = Deduper(1.5)
    >>> [d.accept("A", t) for t in (0.0, 1.0, 2.0, 3.6)]
    [True, False, False, True]
    >>> d.accept("B", 3.7)
    True
    """

    def __init__(self, window: float = 1.5) -> None:
        self.window = window
        self._seen: dict[str, float] = {}

    def accept(self, uid: str, now: float) -> bool:
        last = self._seen.get(uid)
        self._seen[uid] = now
        if len(self._seen) > 64:
            self._seen = {u: t for u, t in self._seen.items() if now - t < self.window}
        return last is None or not now - last < self.window


class CardReaderWorker:
    """One reader, one thread: ``start()``, then ``stop()`` (or use ``with``).

    ``open_reader`` opens (and, for a PN532, wakes) the reader; it is called
    again after every failure. ``sleep`` waits out the backoff (by default it
    returns early when the worker is stopped); ``clock`` stamps the messages
    and drives the deduplication.
    """

    def __init__(
        self,
        name: str,
        open_reader: Callable[[], CardReader],
        queue: Queue[Input],
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], object] | None = None,
        dedupe: float = 1.5,
        backoff: float = 0.5,
        max_backoff: float = 8.0,
    ) -> None:
        self.name = name
        self._open = open_reader
        self._queue = queue
        self._clock = clock
        self._stopping = threading.Event()
        self._sleep: Callable[[float], object] = sleep or self._stopping.wait
        self._dedupe = Deduper(dedupe)
        self._backoff = backoff
        self._max_backoff = max_backoff
        self._thread: threading.Thread | None = None
        self.reads = 0  # UIDs put on the queue
        self.repeats = 0  # UIDs dropped as repeats
        self.failures = 0  # connections lost
        self.connected = False
        self._rejected_before = 0  # corrupt frames counted by readers since closed
        self._current: CardReader | None = None

    @property
    def rejected(self) -> int:
        """Corrupt frames (or lines) the reader's parser dropped, over every reconnect."""
        return self._rejected_before + _rejected(self._current)

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError(f"card reader {self.name} already started")
        # Not a daemon: stop() must be called, and the suite's thread check
        # catches a worker left running.
        self._thread = threading.Thread(target=self._run, name=f"card-reader-{self.name}")
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the thread and wait for it; the port is closed when it ends."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                log.error("card reader %s did not stop within %s s", self.name, timeout)

    def is_alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def __enter__(self) -> CardReaderWorker:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def _run(self) -> None:
        delay = self._backoff
        down_reported = False
        while not self._stopping.is_set():
            try:
                reader = self._open()
            except Exception as exc:
                if not down_reported:
                    self._status(False, f"cannot open: {_describe(exc)}")
                    down_reported = True
                self._wait(delay)
                delay = min(delay * 2, self._max_backoff)
                continue
            self._current = reader
            self.connected = True
            self._status(True, "connected")
            down_reported = False
            delay = self._backoff
            try:
                self._pump(reader)
            except Exception as exc:
                self.failures += 1
                log.warning("card reader %s: %s", self.name, _describe(exc))
                self._status(False, _describe(exc))
                down_reported = True
            finally:
                self.connected = False
                self._current = None
                self._rejected_before += _rejected(reader)
                try:
                    reader.close()
                except Exception:
                    log.debug("card reader %s: close failed", self.name, exc_info=True)
            if down_reported:
                self._wait(delay)
                delay = min(delay * 2, self._max_backoff)

    def _pump(self, reader: CardReader) -> None:
        while not self._stopping.is_set():
            for uid in reader.read():
                now = self._clock()
                if self._dedupe.accept(uid, now):
                    self.reads += 1
                    self._put(CardRead(uid=uid, reader=self.name, at=now))
                else:
                    self.repeats += 1

    def _wait(self, seconds: float) -> None:
        if not self._stopping.is_set():
            self._sleep(seconds)

    def _status(self, connected: bool, detail: str) -> None:
        self._put(ReaderStatus(self.name, connected=connected, detail=detail, at=self._clock()))

    def _put(self, message: Input) -> None:
        try:
            self._queue.put_nowait(message)
        except Full:
            log.warning("input queue full: dropped %r", message)


def _rejected(reader: CardReader | None) -> int:
    """A reader's count of corrupt frames; 0 for one that keeps none."""
    count = getattr(reader, "rejected", 0)
    return count if isinstance(count, int) else 0


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
