"""RDM6300 125 kHz EM4100 readers: a 14-byte ASCII frame per read, 9600 baud.

A frame is ``0x02``, ten ASCII hex digits (a version byte and a 4-byte tag
number), two ASCII hex digits of checksum (the XOR of the five data bytes)
and ``0x03``. The module repeats the frame while a tag stays in the field; the
worker drops the repeats. Its TX line is 5 V: see ``hardware/README.md``.

>>> frame = encode_frame("0A00C3F21B")
>>> frame
b'\\x020A00C3F21B20\\x03'
>>> p = Rdm6300Parser()
>>> p.feed(b"noise" + frame[:5]), p.feed(frame[5:])
([], ['0A00C3F21B'])
"""

from __future__ import annotations

from functools import reduce
from operator import xor

from hardware.readers.base import StreamReader, open_port

__all__ = ["Rdm6300Parser", "checksum", "encode_frame", "open_rdm6300"]

STX = 0x02
ETX = 0x03
_HEX = frozenset(b"0123456789ABCDEFabcdef")
_DIGITS = 12  # 10 data + 2 checksum


def checksum(data: bytes) -> int:
    """The XOR of the data bytes."""
    return reduce(xor, data, 0)


def encode_frame(uid: str) -> bytes:
    """The frame a module sends for ``uid`` (10 hex digits); for tests and tools."""
    data = bytes.fromhex(uid)
    if len(data) != 5:
        raise ValueError(f"an RDM6300 UID is 10 hex digits, not {uid!r}")
    return bytes([STX]) + f"{uid.upper()}{checksum(data):02X}".encode() + bytes([ETX])


class Rdm6300Parser:
    """A streaming parser: feed it bytes as they come, get the valid UIDs.

    It resynchronises on every ``0x02``, drops a frame with a byte that is not
    a hex digit or a missing ``0x03``, and counts frames whose checksum fails.
    """

    def __init__(self) -> None:
        self._frame: bytearray | None = None
        self.frames = 0
        self.bad_checksums = 0
        self.bad_frames = 0

    @property
    def rejected(self) -> int:
        """Frames dropped: cut short, not hex, or a failed checksum."""
        return self.bad_frames + self.bad_checksums

    def feed(self, data: bytes) -> list[str]:
        out: list[str] = []
        for byte in data:
            frame = self._frame
            if byte == STX:
                if frame:
                    self.bad_frames += 1
                self._frame = bytearray()
            elif frame is None:
                continue  # noise between frames
            elif len(frame) < _DIGITS:
                if byte in _HEX:
                    frame.append(byte)
                else:
                    self.bad_frames += 1
                    self._frame = None
            else:
                self._frame = None
                if byte != ETX:
                    self.bad_frames += 1
                    continue
                uid = self._check(frame)
                if uid is not None:
                    out.append(uid)
        return out

    def _check(self, frame: bytearray) -> str | None:
        text = frame.decode("ascii")
        data = bytes.fromhex(text[:10])
        if checksum(data) != int(text[10:], 16):
            self.bad_checksums += 1
            return None
        self.frames += 1
        return text[:10].upper()


def open_rdm6300(url: str, *, baudrate: int = 9600, timeout: float = 0.1) -> StreamReader:
    """Open an RDM6300 on a serial URL (``/dev/serial0`` on the Pi's UART)."""
    return StreamReader(open_port(url, baudrate=baudrate, timeout=timeout), Rdm6300Parser())
