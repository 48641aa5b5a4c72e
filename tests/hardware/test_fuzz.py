"""Every parser against 100,000 random byte strings, plus Hypothesis on top.

Random bytes alone would almost never form a frame, so each string is a mix of
noise, valid frames, frames with a flipped byte, and cut-off frames. Each
string is fed whole and again in random pieces; the parsers must raise
nothing, agree with themselves, and give only UIDs that came from frames whose
checksums hold (checked against a reference written independently).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.readers.line import LineKind, LineParser
from hardware.readers.pn532 import (
    ACK,
    NACK,
    Ack,
    Frame,
    Nack,
    Pn532Frame,
    Pn532FrameParser,
    encode_frame,
    parse_target_uid,
)
from hardware.readers.rdm6300 import Rdm6300Parser, checksum
from hardware.readers.rdm6300 import encode_frame as rdm_frame

RDM_STRINGS = 40_000
PN532_STRINGS = 30_000
LINE_STRINGS = 30_000
assert RDM_STRINGS + PN532_STRINGS + LINE_STRINGS == 100_000

_RDM_FRAME = re.compile(rb"\x02([0-9A-Fa-f]{10})([0-9A-Fa-f]{2})\x03")


def pieces(rng: random.Random, data: bytes) -> list[bytes]:
    """``data`` cut at random places."""
    cuts = sorted(rng.sample(range(1, len(data)), min(len(data) - 1, rng.randrange(4))))
    return [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]


def mangle(rng: random.Random, frame: bytes) -> bytes:
    roll = rng.random()
    if roll < 0.5 or not frame:
        return frame
    if roll < 0.8:
        i = rng.randrange(len(frame))
        return frame[:i] + bytes([frame[i] ^ (1 << rng.randrange(8))]) + frame[i + 1 :]
    return frame[: rng.randrange(len(frame))]


def sample(rng: random.Random, makers: Sequence[Callable[[random.Random], bytes]]) -> bytes:
    out = b""
    for _ in range(rng.randrange(1, 5)):
        if rng.random() < 0.35:
            out += rng.randbytes(rng.randrange(0, 12))
        else:
            out += mangle(rng, rng.choice(makers)(rng))
    return out


# RDM6300 ---------------------------------------------------------------------------------

def _rdm_valid(rng: random.Random) -> bytes:
    frame = rdm_frame(rng.randbytes(5).hex())
    return frame.lower() if rng.random() < 0.2 else frame


def _rdm_near(rng: random.Random) -> bytes:
    return b"\x02" + bytes(rng.choice(b"0123456789ABCDEF\x02\x03") for _ in range(12)) + b"\x03"


def rdm_reference(data: bytes) -> list[str]:
    out = []
    for match in _RDM_FRAME.finditer(data):
        body, check = match.group(1).decode(), int(match.group(2), 16)
        if checksum(bytes.fromhex(body)) == check:
            out.append(body.upper())
    return out


def check_rdm(data: bytes, chunks: list[bytes]) -> None:
    whole = Rdm6300Parser().feed(data)
    parser = Rdm6300Parser()
    split = [uid for chunk in chunks for uid in parser.feed(chunk)]
    assert whole == split == rdm_reference(data)
    for uid in whole:
        assert re.fullmatch(r"[0-9A-F]{10}", uid)
        assert rdm_frame(uid) in data or rdm_frame(uid).lower() in data.lower()


def test_rdm6300_random_strings() -> None:
    rng = random.Random(6300)
    found = 0
    for _ in range(RDM_STRINGS):
        data = sample(rng, [_rdm_valid, _rdm_near])
        check_rdm(data, pieces(rng, data) if data else [])
        found += len(rdm_reference(data))
    assert found > RDM_STRINGS // 4  # the strings did exercise the valid path


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=80), st.randoms(use_true_random=False))
def test_rdm6300_hypothesis(data: bytes, rng: random.Random) -> None:
    check_rdm(data, pieces(rng, data) if data else [])


# PN532 -----------------------------------------------------------------------------------

def _pn_card(rng: random.Random) -> bytes:
    nfcid = rng.randbytes(rng.choice([4, 7, 10]))
    data = b"\x01\x01\x00\x44\x00" + bytes([len(nfcid)]) + nfcid
    return encode_frame(0x4B, data, tfi=0xD5)


def _pn_other(rng: random.Random) -> bytes:
    roll = rng.random()
    if roll < 0.3:
        return rng.choice([ACK, NACK, encode_frame(0x4B, b"\x00", tfi=0xD5)])
    if roll < 0.4:
        return b"\x00\x00\xff\xff\xff\x00\x05\xfb" + rng.randbytes(6)  # extended frame
    return encode_frame(rng.randrange(256), rng.randbytes(rng.randrange(8)),
                        tfi=rng.choice([0xD4, 0xD5]))


def frame_bytes(frame: Frame) -> bytes:
    """A frame's bytes from its start code, checksums recomputed from its content."""
    if isinstance(frame, Ack):
        return b"\x00\xff\x00\xff"
    if isinstance(frame, Nack):
        return b"\x00\xff\xff\x00"
    body = bytes([frame.tfi]) + frame.payload
    return b"\x00\xff" + bytes([len(body), -len(body) & 0xFF]) + body + bytes([-sum(body) & 0xFF])


def check_pn532(data: bytes, chunks: list[bytes]) -> None:
    whole = Pn532FrameParser().feed(data)
    parser = Pn532FrameParser()
    split = [frame for chunk in chunks for frame in parser.feed(chunk)]
    assert whole == split
    for frame in whole:
        # Found in the input with these very checksums: both held there.
        assert frame_bytes(frame) in data
        uid = parse_target_uid(frame)
        if uid is not None:
            assert isinstance(frame, Pn532Frame)
            assert len(uid) in (8, 14, 20)
            assert bytes.fromhex(uid) in frame.data


def test_pn532_random_strings() -> None:
    rng = random.Random(532)
    uids = 0
    for _ in range(PN532_STRINGS):
        data = sample(rng, [_pn_card, _pn_other])
        check_pn532(data, pieces(rng, data) if data else [])
        uids += sum(parse_target_uid(f) is not None for f in Pn532FrameParser().feed(data))
    assert uids > PN532_STRINGS // 4


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=80), st.randoms(use_true_random=False))
def test_pn532_hypothesis(data: bytes, rng: random.Random) -> None:
    check_pn532(data, pieces(rng, data) if data else [])


# Line-based ------------------------------------------------------------------------------

def _line_valid(rng: random.Random) -> bytes:
    digits = rng.choice([b"0123456789", b"0123456789ABCDEFabcdef"])
    body = bytes(rng.choice(digits) for _ in range(rng.randrange(6, 23)))
    return rng.choice([b"", b"\n"]) + body + rng.choice([b"\r\n", b"\n", b"\r"])


def _line_noise(rng: random.Random) -> bytes:
    alphabet = b"0123456789ABCDEFxyz \t\r\n\x00\xff"
    return bytes(rng.choice(alphabet) for _ in range(rng.randrange(30)))


def line_reference(data: bytes, kind: LineKind) -> list[str]:
    digits = "0-9A-Fa-f" if kind == "hex" else "0-9"
    lines = re.split(rb"[\r\n]", data)[:-1]  # the last one is not finished
    out = []
    for line in lines:
        whole_bytes = kind == "decimal" or len(line) % 2 == 0
        if re.fullmatch(f"[{digits}]{{8,20}}".encode(), line) and whole_bytes:
            out.append(line.decode().upper())
    return out


def check_line(data: bytes, chunks: list[bytes], kind: LineKind) -> None:
    whole = LineParser(kind=kind).feed(data)
    parser = LineParser(kind=kind)
    split = [uid for chunk in chunks for uid in parser.feed(chunk)]
    assert whole == split == line_reference(data, kind)


def test_line_random_strings() -> None:
    rng = random.Random(13)
    found = 0
    for i in range(LINE_STRINGS):
        kind: LineKind = "hex" if i % 2 else "decimal"
        data = sample(rng, [_line_valid, _line_noise])
        check_line(data, pieces(rng, data) if data else [], kind)
        found += len(line_reference(data, kind))
    assert found > LINE_STRINGS // 10


@settings(max_examples=500, deadline=None)
@given(
    st.binary(max_size=80),
    st.randoms(use_true_random=False),
    st.sampled_from(["hex", "decimal"]),
)
def test_line_hypothesis(data: bytes, rng: random.Random, kind: LineKind) -> None:
    check_line(data, pieces(rng, data) if data else [], kind)
