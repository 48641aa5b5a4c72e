"""Keyboard-wedge (USB HID) readers on their own input device, grabbed.

A wedge reader is a keyboard that types a card's number and Enter. Named in
the config by its ``/dev/input/by-id/usb-…-event-kbd`` path, it is read here
from the kernel's input device and grabbed (``EVIOCGRAB``): its keys reach
nobody else, so they are never keys for the clock, and a person typing on
another keyboard at the same moment cannot mix a digit into a card. Unplugged,
a read fails and the worker reopens it when it is back.

The key presses become characters (digits, ``A``–``F``, ``\\n`` for Enter)
for a :class:`~hardware.readers.line.LineParser`, so a card is one line, and a
line that is no card (too short, another key) is dropped and counted.

>>> codes = (11, 11, 2, 3, 4, 5, 6, 7, 8, 9, 28)  # 0 0 1 ... 8 Enter, each pressed
>>> events = b"".join(EVENT.pack(0, 0, EV_KEY, code, KEY_DOWN) for code in codes)
>>> EventChars().feed(events)
b'0012345678\\n'
"""

from __future__ import annotations

import errno
import fcntl
import os
import select
import struct

from hardware.readers.base import ReaderError, StreamReader
from hardware.readers.line import LineKind, LineParser

__all__ = ["EventChars", "EventPort", "open_wedge"]

#: ``struct input_event``: a timeval of two C longs, then type, code and value.
EVENT = struct.Struct("@llHHi")
EV_KEY = 1
KEY_DOWN = 1  # 0 is a release and 2 an auto-repeat: neither types a character
#: ``_IOW('E', 0x90, int)``: take the device's events for this descriptor alone.
EVIOCGRAB = 0x40044590

#: Linux key codes (input-event-codes.h) of what a wedge types.
KEY_CHARS: dict[int, bytes] = {
    2: b"1", 3: b"2", 4: b"3", 5: b"4", 6: b"5", 7: b"6", 8: b"7", 9: b"8", 10: b"9",
    11: b"0",
    79: b"1", 80: b"2", 81: b"3", 75: b"4", 76: b"5", 77: b"6", 71: b"7", 72: b"8",
    73: b"9", 82: b"0",  # the keypad's digits
    30: b"A", 48: b"B", 46: b"C", 32: b"D", 18: b"E", 33: b"F",
    28: b"\n", 96: b"\n",  # Enter, the keypad's Enter
}
#: Shift and the other modifiers, which a wedge may press around letters.
MODIFIERS = frozenset({29, 42, 54, 56, 97, 100, 125, 126})
#: Any other key: no character of a UID, so the line it is in is dropped.
OTHER = b"?"


class EventChars:
    """Turns a stream of input events, in pieces of any size, into typed characters."""

    def __init__(self) -> None:
        self._partial = b""

    def feed(self, data: bytes) -> bytes:
        data = self._partial + data
        whole = len(data) - len(data) % EVENT.size
        self._partial = data[whole:]
        out = bytearray()
        for _sec, _usec, kind, code, value in EVENT.iter_unpack(data[:whole]):
            if kind != EV_KEY or value != KEY_DOWN or code in MODIFIERS:
                continue
            out += KEY_CHARS.get(code, OTHER)
        return bytes(out)


class EventPort:
    """An input device's descriptor as the part of a serial port a StreamReader reads."""

    def __init__(self, fd: int, *, timeout: float = 0.1) -> None:
        self.fd = fd
        self.timeout = timeout
        self._chars = EventChars()
        self._typed = bytearray()

    @property
    def in_waiting(self) -> int:
        return len(self._typed)

    def read(self, size: int = 1) -> bytes:
        if not self._typed:
            ready, _, _ = select.select([self.fd], [], [], self.timeout)
            if ready:
                data = os.read(self.fd, EVENT.size * 64)  # OSError (ENODEV): unplugged
                if not data:
                    raise ReaderError("the keyboard reader's input device closed")
                self._typed += self._chars.feed(data)
        out = bytes(self._typed[:size])
        del self._typed[:size]
        return out

    def write(self, data: bytes, /) -> int | None:
        raise ReaderError("a keyboard reader takes no commands")

    def close(self) -> None:
        os.close(self.fd)


def open_wedge(url: str, *, kind: LineKind = "decimal", min_len: int = 8,
               max_len: int = 20) -> StreamReader:
    """Open and grab a wedge reader's input device (``/dev/input/by-id/…-event-kbd``)."""
    fd = os.open(url, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        fcntl.ioctl(fd, EVIOCGRAB, 1)
    except OSError as err:
        os.close(fd)
        if err.errno == errno.EBUSY:
            raise ReaderError(f"{url}: another program holds this keyboard") from None
        raise ReaderError(f"{url}: not a keyboard's input device ({err.strerror})") from None
    parser = LineParser(kind=kind, min_len=min_len, max_len=max_len)
    return StreamReader(EventPort(fd), parser)
