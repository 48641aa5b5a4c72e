"""Line-based ASCII readers: one UID per line, ended by CR, LF or CR LF.

Many USB readers in "serial mode" send the UID as decimal digits (often the
10-digit EM4100 number) or as hex. Validation is strict: a line is taken only
when every character is of the configured kind and its length is in range;
anything else, an over-long line included, is dropped and counted.

>>> p = LineParser(kind="hex")
>>> p.feed(b"04a1b2c3d4e5f6\\r\\nhello\\r\\n04A1"), p.feed(b"B2C3\\n")
(['04A1B2C3D4E5F6'], ['04A1B2C3'])
>>> LineParser(kind="decimal").feed(b"0012345678\\r\\n12ab\\r\\n")
['0012345678']
"""

from __future__ import annotations

from typing import Literal

from hardware.readers.base import StreamReader, open_port

__all__ = ["LineKind", "LineParser", "open_line_reader"]

LineKind = Literal["hex", "decimal"]
_ALPHABETS: dict[str, frozenset[int]] = {
    "hex": frozenset(b"0123456789ABCDEFabcdef"),
    "decimal": frozenset(b"0123456789"),
}
_ENDS = frozenset(b"\r\n")


class LineParser:
    """A streaming parser for one UID per line.

    Hex UIDs are whole bytes (an even number of digits) and come out in
    upper case; decimal UIDs come out as sent, leading zeros kept.
    """

    def __init__(self, *, kind: LineKind = "hex", min_len: int = 8, max_len: int = 20) -> None:
        if kind not in _ALPHABETS:
            raise ValueError(f"kind must be 'hex' or 'decimal', not {kind!r}")
        if not 1 <= min_len <= max_len:
            raise ValueError("need 1 <= min_len <= max_len")
        self.kind = kind
        self.min_len = min_len
        self.max_len = max_len
        self._alphabet = _ALPHABETS[kind]
        self._line = bytearray()
        self._overflow = False
        self.lines = 0
        self.rejected = 0

    def feed(self, data: bytes) -> list[str]:
        out: list[str] = []
        for byte in data:
            if byte in _ENDS:
                uid = self._finish()
                if uid is not None:
                    out.append(uid)
            elif len(self._line) >= self.max_len:
                self._overflow = True  # too long to be a UID: drop it all
            else:
                self._line.append(byte)
        return out

    def valid(self, line: bytes) -> bool:
        """Whether one line (without its end) is a UID of this kind."""
        return (
            self.min_len <= len(line) <= self.max_len
            and all(byte in self._alphabet for byte in line)
            and (self.kind != "hex" or len(line) % 2 == 0)
        )

    def _finish(self) -> str | None:
        line, overflow = bytes(self._line), self._overflow
        self._line.clear()
        self._overflow = False
        if not line and not overflow:
            return None  # the LF of a CR LF, or a blank line
        if overflow or not self.valid(line):
            self.rejected += 1
            return None
        self.lines += 1
        text = line.decode("ascii")
        return text.upper() if self.kind == "hex" else text


def open_line_reader(
    url: str,
    *,
    kind: LineKind = "hex",
    baudrate: int = 9600,
    timeout: float = 0.1,
    min_len: int = 8,
    max_len: int = 20,
) -> StreamReader:
    """Open a line-based reader on a serial URL (a USB reader's ``/dev/ttyACM0``...)."""
    parser = LineParser(kind=kind, min_len=min_len, max_len=max_len)
    return StreamReader(open_port(url, baudrate=baudrate, timeout=timeout), parser)
