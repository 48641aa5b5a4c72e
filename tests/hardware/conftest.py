"""Fixtures for the hardware adapters: a clock moved by hand, and ptys."""

from __future__ import annotations

import os
import select
import threading
import tty
from collections.abc import Iterator

import pytest


class FakeClock:
    """A monotonic clock that only moves when the test says so."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


class Pty:
    """A pseudo-terminal standing in for a serial adapter: the test holds the master.

    The test keeps a slave descriptor open too, so reads on the master do not
    fail before the code under test has opened the slave.
    """

    def __init__(self) -> None:
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.path = os.ttyname(self._slave)
        self.closed = False

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def read(self, timeout: float) -> bytes:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return b""
        try:
            return os.read(self.master, 4096)
        except OSError:  # no slave open at this moment
            return b""

    def close(self) -> None:
        """Pull the plug: the reader's port fails and its device node goes away."""
        if not self.closed:
            self.closed = True
            os.close(self.master)
            os.close(self._slave)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def pty() -> Iterator[Pty]:
    p = Pty()
    yield p
    p.close()


@pytest.fixture(autouse=True)
def no_card_reader_left_running() -> Iterator[None]:
    """Every worker is stopped by its test, daemon or not."""
    yield
    left = [t.name for t in threading.enumerate() if t.name.startswith("card-reader-")]
    assert not left, f"card reader threads left running: {left}"
