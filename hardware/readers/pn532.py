"""PN532 NFC readers over HSU (the chip's UART mode), 115200 baud.

Every exchange is: the host sends a frame, the PN532 answers with an ACK
frame and then a response frame. A normal information frame is::

    00 00 FF LEN LCS TFI CMD DATA... DCS 00

with ``LEN`` counting TFI, CMD and DATA, ``LEN + LCS == 0`` and
``TFI + CMD + sum(DATA) + DCS == 0`` (mod 256). TFI is ``D4`` from the host
and ``D5`` from the PN532, whose response code is the command code plus one.
The ACK is ``00 00 FF 00 FF 00``; a host sends a NACK (``00 00 FF FF 00 00``)
to have a corrupted response sent again.

Start-up: wake the chip from power-down with ``55 55`` and a run of zeros,
``SAMConfiguration`` (normal mode), and ``RFConfiguration`` so that
``InListPassiveTarget`` gives up after a few tries instead of waiting for a
card for ever. :meth:`Pn532Reader.poll` then asks for one ISO14443A target and
returns its NFCID (UID) in upper-case hex.

>>> encode_frame(0x4A, b"\\x01\\x00").hex(" ")
'00 00 ff 04 fc d4 4a 01 00 e1 00'
>>> p = Pn532FrameParser()
>>> p.feed(bytes.fromhex("0000ff00ff00 0000ff0cf4d54b01010004080412345678ba00"))
[Ack(), Pn532Frame(tfi=213, payload=b'K\\x01\\x01\\x00\\x04\\x08\\x04\\x124Vx')]
>>> parse_target_uid(_[1])
'12345678'
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from hardware.readers.base import ReaderError, SerialPort, open_port

__all__ = [
    "ACK",
    "NACK",
    "Ack",
    "Frame",
    "Nack",
    "Pn532Frame",
    "Pn532FrameParser",
    "Pn532Reader",
    "Rejected",
    "encode_frame",
    "open_pn532",
    "parse_target_uid",
]

HOST_TFI: Final = 0xD4
CHIP_TFI: Final = 0xD5
ERROR_TFI: Final = 0x7F
SAM_CONFIGURATION: Final = 0x14
RF_CONFIGURATION: Final = 0x32
IN_LIST_PASSIVE_TARGET: Final = 0x4A

ACK: Final = b"\x00\x00\xff\x00\xff\x00"
NACK: Final = b"\x00\x00\xff\xff\x00\x00"
#: ``55 55`` then zeros: long enough for the chip to wake from power-down.
WAKE_UP: Final = b"\x55\x55" + bytes(14)
_START: Final = b"\x00\xff"
_UID_LENGTHS: Final = frozenset({4, 7, 10})


@dataclass(frozen=True)
class Ack:
    """The ACK frame: the PN532 took the command."""


@dataclass(frozen=True)
class Nack:
    """The NACK frame: send the last frame again."""


@dataclass(frozen=True)
class Pn532Frame:
    """A normal information frame whose length and data checksums were right."""

    tfi: int
    payload: bytes  # the command or response code, then its data

    @property
    def command(self) -> int | None:
        return self.payload[0] if self.payload else None

    @property
    def data(self) -> bytes:
        return self.payload[1:]


Frame = Ack | Nack | Pn532Frame


@dataclass(frozen=True)
class Rejected:
    """Where the parser dropped a corrupt frame, in stream order.

    Its place matters: a corrupt response read in the same chunk as its ACK
    comes after the ACK, and only that one is answered with a NACK.
    """


def encode_frame(command: int, data: bytes = b"", *, tfi: int = HOST_TFI) -> bytes:
    """A normal information frame, checksums and all."""
    body = bytes([tfi, command]) + data
    if len(body) > 255:
        raise ValueError("a normal frame carries at most 255 bytes")
    return (b"\x00\x00\xff" + bytes([len(body), -len(body) & 0xFF]) + body
            + bytes([-sum(body) & 0xFF, 0x00]))


class Pn532FrameParser:
    """A streaming frame parser that resynchronises on every ``00 FF`` start code.

    Frames with a bad length checksum or a bad data checksum are dropped and
    counted (``bad_lengths``, ``bad_checksums``); extended frames are never
    sent for these commands and count as bad lengths.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self.bad_lengths = 0
        self.bad_checksums = 0

    @property
    def rejected(self) -> int:
        return self.bad_lengths + self.bad_checksums

    def feed(self, data: bytes) -> list[Frame]:
        return [f for f in self.feed_marked(data) if not isinstance(f, Rejected)]

    def feed_marked(self, data: bytes) -> list[Frame | Rejected]:
        """The frames in ``data``, with a :class:`Rejected` where a corrupt one was dropped."""
        buf = self._buf
        buf += data
        out: list[Frame | Rejected] = []
        while True:
            start = buf.find(_START)
            if start < 0:
                # Keep a trailing 00: it may be the first half of a start code.
                del buf[: max(0, len(buf) - 1)]
                return out
            del buf[:start]
            if len(buf) < 4:
                return out
            length, lcs = buf[2], buf[3]
            if (length, lcs) == (0x00, 0xFF):
                out.append(Ack())
                del buf[:4]
            elif (length, lcs) == (0xFF, 0x00):
                out.append(Nack())
                del buf[:4]
            elif length == 0 or (length + lcs) & 0xFF:
                self.bad_lengths += 1
                out.append(Rejected())
                del buf[:2]
            elif len(buf) < 5 + length:
                return out  # wait for the rest
            else:
                body = bytes(buf[4 : 4 + length])
                if (sum(body) + buf[4 + length]) & 0xFF:
                    self.bad_checksums += 1
                    out.append(Rejected())
                    del buf[:2]  # a real frame may start inside the bad one
                else:
                    out.append(Pn532Frame(body[0], body[1:]))
                    del buf[: 5 + length]


def parse_target_uid(frame: Frame) -> str | None:
    """The NFCID of the first target in an ``InListPassiveTarget`` response.

    None when no target was found or the response is not well formed.
    """
    if not isinstance(frame, Pn532Frame) or frame.tfi != CHIP_TFI:
        return None
    if frame.command != IN_LIST_PASSIVE_TARGET + 1:
        return None
    # NbTg, then Tg, SENS_RES (2), SEL_RES, NFCIDLength, NFCID...
    data = frame.data
    if len(data) < 6 or data[0] == 0:
        return None
    size = data[5]
    if size not in _UID_LENGTHS or len(data) < 6 + size:
        return None
    return data[6 : 6 + size].hex().upper()


class Pn532Reader:
    """Drives one PN532 over a serial port; a :class:`~hardware.readers.base.CardReader`.

    Anything that breaks the exchange (no ACK, no response, an error frame)
    raises :class:`~hardware.readers.base.ReaderError`, and the worker
    reconnects, which wakes and configures the chip again.
    """

    def __init__(
        self,
        port: SerialPort,
        *,
        response_timeout: float = 1.0,
        passive_retries: int = 2,
        poll_interval: float = 0.1,
        max_nacks: int = 3,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], object] = time.sleep,
    ) -> None:
        self.port = port
        self.parser = Pn532FrameParser()
        self.response_timeout = response_timeout
        self.passive_retries = passive_retries
        self.poll_interval = poll_interval
        self.max_nacks = max_nacks
        self._clock = clock
        self._sleep = sleep
        self._frames: list[Frame | Rejected] = []
        self._last_poll: float | None = None

    def begin(self) -> None:
        """Wake the chip and configure it for polling."""
        self.port.write(WAKE_UP)
        self.command(SAM_CONFIGURATION, b"\x01\x14\x01")  # normal mode, 1 s, IRQ
        # CfgItem 5: MxRtyATR, MxRtyPSL, MxRtyPassiveActivation (0xFF = for ever).
        self.command(RF_CONFIGURATION, bytes([0x05, 0xFF, 0x01, self.passive_retries]))

    def command(self, code: int, data: bytes = b"") -> Pn532Frame:
        """Send one command; return its response after the ACK."""
        self._frames.clear()
        self.port.write(encode_frame(code, data))
        deadline = self._clock() + self.response_timeout
        while True:  # the ACK first; a stale frame from an earlier exchange is skipped
            frame = self._next_frame(deadline)
            if frame is None:
                raise ReaderError(f"PN532 sent no ACK for command 0x{code:02X}")
            if isinstance(frame, Ack):
                break
        nacks = 0
        while True:
            frame = self._next_frame(deadline)
            if isinstance(frame, Rejected) and nacks < self.max_nacks:
                # A corrupted response: ask for it again.
                nacks += 1
                self.port.write(NACK)
                deadline = self._clock() + self.response_timeout
                continue
            if frame is None or isinstance(frame, Rejected):
                raise ReaderError(f"PN532 sent no valid response to command 0x{code:02X}")
            if isinstance(frame, Pn532Frame):
                if frame.tfi == ERROR_TFI:
                    raise ReaderError(f"PN532 reported an error for command 0x{code:02X}")
                if frame.tfi == CHIP_TFI and frame.command == code + 1:
                    return frame
            # An ACK, a NACK or some other frame here is out of step: skip it.

    def poll(self) -> str | None:
        """Look for one card; its UID, or None when there is none."""
        return parse_target_uid(self.command(IN_LIST_PASSIVE_TARGET, b"\x01\x00"))

    def read(self) -> list[str]:
        """Poll at most every ``poll_interval`` (the worker calls this in a loop)."""
        if self._last_poll is not None:
            wait = self._last_poll + self.poll_interval - self._clock()
            if wait > 0:
                self._sleep(wait)
        self._last_poll = self._clock()
        uid = self.poll()
        return [uid] if uid is not None else []

    @property
    def rejected(self) -> int:
        """Corrupt frames dropped since it was opened (each answered by a NACK or a reconnect)."""
        return self.parser.rejected

    def close(self) -> None:
        self.port.close()

    def _next_frame(self, deadline: float) -> Frame | Rejected | None:
        """The next frame or rejected one, in the order they came; None at the deadline."""
        while not self._frames:
            if self._clock() >= deadline:
                return None
            chunk = self.port.read(max(1, self.port.in_waiting))
            if chunk:
                self._frames.extend(self.parser.feed_marked(chunk))
        return self._frames.pop(0)


def open_pn532(
    url: str,
    *,
    baudrate: int = 115200,
    timeout: float = 0.05,
    response_timeout: float = 1.0,
    passive_retries: int = 2,
    poll_interval: float = 0.1,
) -> Pn532Reader:
    """Open, wake and configure a PN532 in HSU mode on a serial URL."""
    port = open_port(url, baudrate=baudrate, timeout=timeout)
    reader = Pn532Reader(port, response_timeout=response_timeout,
                         passive_retries=passive_retries, poll_interval=poll_interval)
    try:
        reader.begin()
    except BaseException:
        port.close()
        raise
    return reader
