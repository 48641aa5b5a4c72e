"""PN532 over HSU: the frame parser, and the driver against a scripted peer on a pty."""

from __future__ import annotations

import time
from queue import Empty, Queue

import pytest

from hardware.inputs import CardRead, Input, ReaderStatus
from hardware.readers import CardReaderWorker, ReaderError, open_pn532
from hardware.readers.pn532 import (
    ACK,
    NACK,
    Ack,
    Nack,
    Pn532Frame,
    Pn532FrameParser,
    Pn532Reader,
    encode_frame,
    parse_target_uid,
)
from tests.hardware.conftest import Pty
from tests.hardware.fake_pn532 import NO_CARD, FakePn532, card, corrupt


def test_frames_ack_and_nack() -> None:
    p = Pn532FrameParser()
    assert p.feed(ACK + NACK) == [Ack(), Nack()]
    frame = encode_frame(0x14, b"\x01\x14\x01")
    assert frame.hex(" ") == "00 00 ff 05 fb d4 14 01 14 01 02 00"
    assert p.feed(b"\x55\x55" + bytes(14) + frame) == [Pn532Frame(0xD4, b"\x14\x01\x14\x01")]


def test_bad_length_and_data_checksums_are_rejected() -> None:
    p = Pn532FrameParser()
    good = card("04A1B2C3D4E5F6")
    bad_lcs = good[:4] + bytes([good[4] ^ 1]) + good[5:]
    assert p.feed(bad_lcs + corrupt(good) + good) == [Pn532Frame(0xD5, good[6:-2])]
    assert (p.bad_lengths, p.bad_checksums) == (1, 1)


def test_garbage_and_split_frames() -> None:
    p = Pn532FrameParser()
    good = card("12345678")
    stream = b"\xff\x00\x00\x00\xff" + good + b"\x00\xff\x03" + ACK + good
    out = []
    for i in range(0, len(stream), 3):
        out += p.feed(stream[i : i + 3])
    assert [parse_target_uid(f) for f in out if isinstance(f, Pn532Frame)] == ["12345678"] * 2
    assert Ack() in out


@pytest.mark.parametrize("data, expected", [
    (b"\x01\x01\x00\x04\x08\x04\x12\x34\x56\x78", "12345678"),
    (b"\x01\x01\x00\x44\x00\x07\x04\xa1\xb2\xc3\xd4\xe5\xf6\x00", "04A1B2C3D4E5F6"),
    (b"\x00", None),  # no target
    (b"\x01\x01\x00\x04\x08\x05\x12\x34\x56\x78\x9a", None),  # 5 is not a UID length
    (b"\x01\x01\x00\x04\x08\x04\x12\x34", None),  # cut short
    (b"", None),
])
def test_target_uid(data: bytes, expected: str | None) -> None:
    assert parse_target_uid(Pn532Frame(0xD5, b"\x4b" + data)) == expected
    assert parse_target_uid(Pn532Frame(0xD5, b"\x15" + data)) is None  # not that response


def test_wake_configure_and_poll_against_a_scripted_peer(pty: Pty) -> None:
    peer = FakePn532(pty, [
        [NO_CARD],
        [corrupt(card("04A1B2C3D4E5F6")), card("04A1B2C3D4E5F6")],
        [card("DEADBEEF")],
    ])
    peer.start()
    try:
        reader = open_pn532(pty.path, response_timeout=1.0, poll_interval=0.0)
        try:
            assert reader.poll() is None
            assert reader.poll() == "04A1B2C3D4E5F6"  # the corrupted copy was refused
            assert reader.read() == ["DEADBEEF"]
            assert reader.parser.bad_checksums == 1
        finally:
            reader.close()
    finally:
        peer.stop()
    assert peer.raw.startswith(b"\x55\x55\x00\x00")
    commands = [f.command for f in peer.received if isinstance(f, Pn532Frame)]
    assert commands == [0x14, 0x32, 0x4A, 0x4A, 0x4A]
    sam, rf = (f for f in peer.received if isinstance(f, Pn532Frame) and f.command != 0x4A)
    assert sam.data == b"\x01\x14\x01"
    assert rf.data == b"\x05\xff\x01\x02"
    assert sum(isinstance(f, Nack) for f in peer.received) == 1


def test_a_response_corrupted_every_time_is_an_error(pty: Pty) -> None:
    bad = corrupt(card("DEADBEEF"))
    peer = FakePn532(pty, [[bad, bad, bad, bad]])
    peer.start()
    try:
        reader = open_pn532(pty.path, response_timeout=2.0)  # a loaded host answers slowly
        try:
            with pytest.raises(ReaderError, match="no valid response"):
                reader.poll()
            assert reader.parser.bad_checksums == 4  # the first and three NACKed copies
        finally:
            reader.close()
    finally:
        peer.stop()


class OneChunkPort:
    """A port whose reads hand over everything the chip has sent, as a slow host's do.

    Each write queues the chip's whole answer (``answers`` in turn) as one chunk.
    """

    def __init__(self, answers: list[bytes]) -> None:
        self.answers = answers
        self.written: list[bytes] = []
        self._chunk = b""

    @property
    def in_waiting(self) -> int:
        return len(self._chunk)

    def read(self, size: int = 1) -> bytes:
        chunk, self._chunk = self._chunk, b""
        return chunk

    def write(self, data: bytes, /) -> int:
        self.written.append(data)
        if self.answers:
            self._chunk += self.answers.pop(0)
        return len(data)

    def close(self) -> None:
        pass


def test_a_corrupt_response_read_with_its_ack_is_nacked_once() -> None:
    """A loaded host reads the ACK and the corrupt response in one chunk (CI saw it): the
    reader still NACKs it and takes the good copy. A corrupt frame before the ACK is stale
    and is not NACKed."""
    good = card("04A1B2C3D4E5F6")
    port = OneChunkPort([corrupt(NO_CARD) + ACK + corrupt(good), good])
    reader = Pn532Reader(port, response_timeout=0.2)
    assert reader.poll() == "04A1B2C3D4E5F6"
    assert port.written[1:] == [NACK]
    assert reader.rejected == 2


def test_corrupt_every_time_in_one_chunk_is_an_error_after_three_nacks() -> None:
    bad = corrupt(card("DEADBEEF"))
    port = OneChunkPort([ACK + bad, bad, bad, bad, bad])
    reader = Pn532Reader(port, response_timeout=0.2)
    with pytest.raises(ReaderError, match="no valid response"):
        reader.poll()
    assert port.written[1:] == [NACK] * 3
    assert reader.parser.bad_checksums == 4


def test_an_error_frame_is_an_error(pty: Pty) -> None:
    peer = FakePn532(pty, [])
    peer.start()
    try:
        reader = open_pn532(pty.path)
        try:
            with pytest.raises(ReaderError, match="error"):
                reader.command(0x99)
        finally:
            reader.close()
    finally:
        peer.stop()


def test_a_silent_chip_is_an_error_when_opening(pty: Pty) -> None:
    peer = FakePn532(pty, [], silent=True)
    peer.start()
    try:
        with pytest.raises(ReaderError, match="no ACK"):
            open_pn532(pty.path, response_timeout=0.2)
    finally:
        peer.stop()


def test_worker_reads_a_pn532_and_drops_the_card_lying_on_it(pty: Pty) -> None:
    peer = FakePn532(pty, [[card("DEADBEEF")]] * 5 + [[NO_CARD]] * 1000)
    peer.start()
    queue: Queue[Input] = Queue()
    try:
        with CardReaderWorker("nfc", lambda: open_pn532(pty.path, poll_interval=0.01),
                              queue) as worker:
            status = queue.get(timeout=5)
            read = queue.get(timeout=5)
            deadline = time.monotonic() + 5
            while worker.repeats < 4:
                assert time.monotonic() < deadline
                time.sleep(0.01)
    finally:
        peer.stop()
    assert isinstance(status, ReaderStatus) and status.connected
    assert isinstance(read, CardRead) and (read.uid, read.reader) == ("DEADBEEF", "nfc")
    with pytest.raises(Empty):
        queue.get_nowait()
