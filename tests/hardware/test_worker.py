"""The reader worker: dedupe, unplug and replug on a pty, backoff, never raising."""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Callable
from pathlib import Path
from queue import Empty, Queue

import pytest

from hardware.inputs import CardRead, Input, ReaderStatus
from hardware.readers import CardReader, CardReaderWorker, open_rdm6300
from hardware.readers.rdm6300 import encode_frame
from tests.hardware.conftest import FakeClock, Pty

A = "0A00C3F21B"
B = "1F00AB12CD"


def next_message(queue: Queue[Input], timeout: float = 5.0) -> Input:
    try:
        return queue.get(timeout=timeout)
    except Empty:
        raise AssertionError(f"nothing on the queue within {timeout} s") from None


def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def point(link: Path, target: str) -> None:
    """Repoint a symlink atomically, as udev does for /dev/serial/by-id."""
    tmp = link.with_suffix(".new")
    os.symlink(target, tmp)
    os.replace(tmp, link)


class ScriptedReader:
    """A reader that returns batches of UIDs, then raises what it is told to."""

    def __init__(self, batches: list[list[str] | BaseException]) -> None:
        self.batches = batches
        self.closed = False

    def read(self) -> list[str]:
        if not self.batches:
            time.sleep(0.005)
            return []
        batch = self.batches.pop(0)
        if isinstance(batch, BaseException):
            raise batch
        return batch

    def close(self) -> None:
        self.closed = True


def test_repeats_within_1_5_s_are_dropped_and_accepted_again_after(clock: FakeClock) -> None:
    queue: Queue[Input] = Queue()
    pty = Pty()
    try:
        with CardReaderWorker("rdm", lambda: open_rdm6300(pty.path, timeout=0.02), queue,
                              clock=clock) as worker:
            assert next_message(queue) == ReaderStatus("rdm", True, "connected", clock.now)
            pty.write(encode_frame(A))
            first = next_message(queue)
            assert first == CardRead(A, "rdm", clock.now)
            clock.advance(1.0)
            pty.write(encode_frame(A) * 3)  # a tag lying on the reader: dropped
            wait_until(lambda: worker.repeats == 3)
            clock.advance(1.0)
            pty.write(encode_frame(A) + encode_frame(B))  # B is new
            assert next_message(queue) == CardRead(B, "rdm", clock.now)
            wait_until(lambda: worker.repeats == 4)  # A, 1.0 s after it was last seen
            clock.advance(1.6)  # A away for more than 1.5 s
            pty.write(encode_frame(A))
            assert next_message(queue) == CardRead(A, "rdm", clock.now)
            assert queue.empty()
    finally:
        pty.close()


def test_unplug_and_replug_on_a_repointed_symlink(tmp_path: Path, clock: FakeClock) -> None:
    queue: Queue[Input] = Queue()
    delays: list[float] = []

    def sleep(seconds: float) -> None:
        delays.append(seconds)
        time.sleep(0.01)  # the real backoff would be 0.5 s, 1 s, 2 s...

    link = tmp_path / "ttyRDM"
    first = Pty()
    point(link, first.path)
    second: Pty | None = None
    worker = CardReaderWorker("door", lambda: open_rdm6300(str(link), timeout=0.02), queue,
                              clock=clock, sleep=sleep)
    worker.start()
    try:
        assert next_message(queue) == ReaderStatus("door", True, "connected", clock.now)
        first.write(encode_frame(A))
        assert next_message(queue) == CardRead(A, "door", clock.now)

        first.close()  # unplugged
        down = next_message(queue)
        assert isinstance(down, ReaderStatus) and not down.connected
        assert down.detail  # pyserial's words, e.g. "SerialException: read failed: [Errno 5]..."
        while len(delays) < 3:  # it keeps trying, backing off, without more messages
            time.sleep(0.01)
        assert worker.is_alive()
        assert queue.empty()

        second = Pty()  # plugged in again: a new pty gets a new name
        point(link, second.path)
        assert next_message(queue) == ReaderStatus("door", True, "connected", clock.now)
        clock.advance(2.0)
        second.write(encode_frame(A)[:5])
        time.sleep(0.05)
        second.write(encode_frame(A)[5:])
        assert next_message(queue) == CardRead(A, "door", clock.now)
        assert worker.is_alive()
    finally:
        worker.stop()
        first.close()
        if second is not None:
            second.close()
    assert not worker.is_alive()
    assert delays[:3] == [0.5, 1.0, 2.0]
    assert all(b == min(a * 2, 8.0) for a, b in itertools.pairwise(delays))
    assert worker.failures == 1


def test_corrupt_frames_are_counted_across_a_reconnect(tmp_path: Path, clock: FakeClock) -> None:
    """A bad checksum and a frame cut short are dropped and counted, and the count
    survives the reader's reconnect (the status file reports it)."""
    queue: Queue[Input] = Queue()
    link = tmp_path / "ttyRDM"
    first = Pty()
    point(link, first.path)
    second: Pty | None = None
    worker = CardReaderWorker("door", lambda: open_rdm6300(str(link), timeout=0.02), queue,
                              clock=clock, sleep=lambda s: time.sleep(0.01))
    worker.start()
    try:
        assert next_message(queue) == ReaderStatus("door", True, "connected", clock.now)
        assert worker.connected
        bad_sum = encode_frame(A)[:11] + b"00" + b"\x03"
        first.write(bad_sum + encode_frame(A)[:6] + encode_frame(B))
        assert next_message(queue) == CardRead(B, "door", clock.now)
        assert worker.rejected == 2 and worker.reads == 1
        first.close()
        down = next_message(queue)
        assert isinstance(down, ReaderStatus) and not down.connected
        wait_until(lambda: not worker.connected)
        assert worker.rejected == 2
        second = Pty()
        point(link, second.path)
        assert next_message(queue) == ReaderStatus("door", True, "connected", clock.now)
        second.write(b"\x02ZZ" + encode_frame(A))
        assert next_message(queue) == CardRead(A, "door", clock.now)
        assert worker.rejected == 3
    finally:
        worker.stop()
        first.close()
        if second is not None:
            second.close()


def test_backoff_doubles_to_8_s_and_resets_after_a_good_open(clock: FakeClock) -> None:
    queue: Queue[Input] = Queue()
    delays: list[float] = []
    readers: list[ScriptedReader] = []
    opens = [OSError("no such device")] * 7 + ["ok", OSError("gone again"), "ok"]

    def open_reader() -> CardReader:
        what = opens.pop(0) if opens else "ok"
        if isinstance(what, BaseException):
            raise what
        batches: list[list[str] | BaseException] = (
            [[A], OSError("unplugged")] if not readers else [[B]]
        )
        readers.append(ScriptedReader(batches))
        return readers[-1]

    with CardReaderWorker("usb", open_reader, queue, clock=clock, sleep=delays.append):
        got = [next_message(queue) for _ in range(6)]
    assert got == [
        # Cannot open: said once, not seven times.
        ReaderStatus("usb", False, "cannot open: OSError: no such device", clock.now),
        ReaderStatus("usb", True, "connected", clock.now),
        CardRead(A, "usb", clock.now),
        ReaderStatus("usb", False, "OSError: unplugged", clock.now),
        # The first retry failed (nothing said: it is already down), the next worked.
        ReaderStatus("usb", True, "connected", clock.now),
        CardRead(B, "usb", clock.now),
    ]
    assert got[0] == ReaderStatus("usb", False, "cannot open: OSError: no such device", clock.now)
    assert delays[:7] == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0]
    assert delays[7:9] == [0.5, 1.0]  # reset after the good open, doubled after the failure
    assert all(r.closed for r in readers)


def test_nothing_escapes_the_thread(clock: FakeClock) -> None:
    queue: Queue[Input] = Queue()
    delays: list[float] = []
    reader = ScriptedReader([[A], RuntimeError("a bug in a parser"), [B]])
    with CardReaderWorker("x", lambda: reader, queue, clock=clock, sleep=delays.append) as w:
        messages = [next_message(queue) for _ in range(5)]
        assert w.is_alive()
    assert [type(m) for m in messages] == [ReaderStatus, CardRead, ReaderStatus, ReaderStatus,
                                           CardRead]
    assert isinstance(messages[2], ReaderStatus)
    assert messages[2].detail == "RuntimeError: a bug in a parser"
    assert messages[4] == CardRead(B, "x", clock.now)


def test_stop_interrupts_the_default_backoff() -> None:
    queue: Queue[Input] = Queue()

    def never_opens() -> CardReader:
        raise OSError("absent")

    worker = CardReaderWorker("gone", never_opens, queue, backoff=60.0)
    worker.start()
    next_message(queue)
    started = time.monotonic()
    worker.stop()
    assert time.monotonic() - started < 1.0
    assert not worker.is_alive()
    with pytest.raises(RuntimeError):
        worker.start()
