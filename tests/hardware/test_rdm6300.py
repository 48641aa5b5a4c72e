"""RDM6300 frames: the parser alone, and a reader on loop://."""

from __future__ import annotations

import doctest
import importlib

import pytest

from hardware.readers import open_rdm6300
from hardware.readers.rdm6300 import Rdm6300Parser, checksum, encode_frame

UID = "0A00C3F21B"
FRAME = encode_frame(UID)


@pytest.mark.parametrize("name", ["hardware.readers.rdm6300", "hardware.readers.line",
                                  "hardware.readers.pn532", "hardware.readers.wedge",
                                  "hardware.readers.worker"])
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0


def test_a_valid_frame_gives_the_uid_in_upper_case() -> None:
    assert len(FRAME) == 14
    assert FRAME[0] == 0x02 and FRAME[-1] == 0x03
    assert int(FRAME[11:13], 16) == checksum(bytes.fromhex(UID))
    p = Rdm6300Parser()
    assert p.feed(FRAME) == [UID]
    assert p.feed(FRAME.lower()) == [UID]
    assert p.feed(FRAME + encode_frame("1F00AB12CD")) == [UID, "1F00AB12CD"]
    assert p.frames == 4


def test_a_bad_checksum_is_rejected_and_counted() -> None:
    p = Rdm6300Parser()
    bad = FRAME[:11] + b"21" + FRAME[13:]
    assert p.feed(bad) == []
    assert p.bad_checksums == 1
    assert p.feed(FRAME) == [UID]  # and the next good frame is read


def test_garbage_between_frames_is_skipped() -> None:
    p = Rdm6300Parser()
    noise = b"\xff\x00hello\x03\x03 0A00"
    data = noise + FRAME + noise + b"\x020A00C3\x02" + FRAME + b"\x02ZZ" + FRAME
    assert p.feed(data) == [UID, UID, UID]
    assert p.bad_frames == 2  # the frame cut short by a new 0x02, and the one with "ZZ"
    assert p.feed(b"\x02" + FRAME[1:13] + b"\x04") == []  # no 0x03 at the end
    assert p.bad_frames == 3


@pytest.mark.parametrize("split", range(1, 14))
def test_a_frame_split_across_reads(split: int) -> None:
    p = Rdm6300Parser()
    assert p.feed(FRAME[:split]) == []
    assert p.feed(FRAME[split:]) == [UID]


def test_byte_by_byte() -> None:
    p = Rdm6300Parser()
    out = [uid for byte in FRAME * 3 for uid in p.feed(bytes([byte]))]
    assert out == [UID] * 3


def test_encode_refuses_a_wrong_length() -> None:
    with pytest.raises(ValueError):
        encode_frame("0A00")


def test_reader_on_loop_url_reads_split_frames() -> None:
    reader = open_rdm6300("loop://", timeout=0.05)
    try:
        reader.port.write(b"junk" + FRAME[:6])
        got = reader.read()
        reader.port.write(FRAME[6:] + FRAME[:1])
        got += reader.read()
        reader.port.write(FRAME[1:11] + b"00\x03")  # bad checksum
        got += reader.read()
        assert reader.read() == []  # nothing waiting: returns after the timeout
    finally:
        reader.close()
    assert got == [UID]
    assert isinstance(reader.parser, Rdm6300Parser)
    assert reader.parser.bad_checksums == 1
