"""What every card reader shares: a typed serial port and the reader protocol.

Readers are opened from pyserial URLs (``serial_for_url``), so the same code
runs on ``/dev/serial0``, a USB adapter under ``/dev/serial/by-id/...``, a pty
in tests, or ``loop://``.
"""

from __future__ import annotations

from typing import Protocol, cast

import serial  # type: ignore[import-untyped]

__all__ = ["CardReader", "ReaderError", "SerialPort", "StreamParser", "StreamReader", "open_port"]


class ReaderError(OSError):
    """A reader stopped answering as it should; the worker reconnects.

    It is an ``OSError`` like pyserial's ``SerialException``, so an unplugged
    adapter and a reader that has gone silent are handled the same way.
    """


class SerialPort(Protocol):
    """The part of ``serial.Serial`` the readers use."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def close(self) -> None: ...


class CardReader(Protocol):
    """A connected reader: ``read`` blocks briefly and returns the UIDs seen."""

    def read(self) -> list[str]: ...

    def close(self) -> None: ...


class StreamParser(Protocol):
    """Turns a byte stream, in pieces of any size, into UIDs."""

    def feed(self, data: bytes) -> list[str]: ...

    @property
    def rejected(self) -> int:
        """Frames (or lines) dropped as corrupt so far."""
        ...


def open_port(url: str, *, baudrate: int, timeout: float) -> SerialPort:
    """Open a pyserial URL or device path; raises ``SerialException`` (an ``OSError``)."""
    return cast(SerialPort, serial.serial_for_url(url, baudrate=baudrate, timeout=timeout))


class StreamReader:
    """A reader that only talks: a port and a parser for what it sends."""

    def __init__(self, port: SerialPort, parser: StreamParser) -> None:
        self.port = port
        self.parser = parser

    def read(self) -> list[str]:
        # One byte blocks for at most the port's timeout; then take whatever
        # else has arrived, so a frame is rarely split across calls.
        data = self.port.read(max(1, self.port.in_waiting))
        return self.parser.feed(data) if data else []

    @property
    def rejected(self) -> int:
        """Corrupt frames its parser dropped since it was opened."""
        return self.parser.rejected

    def close(self) -> None:
        self.port.close()
