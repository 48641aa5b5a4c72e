"""Line-based readers: strict validation, any line ending, any split."""

from __future__ import annotations

import pytest

from hardware.readers import open_line_reader
from hardware.readers.line import LineParser


def test_hex_lines() -> None:
    p = LineParser(kind="hex")
    data = b"04a1b2c3\r\n04A1B2C3D4E5F6\n\r0123456789ABCDEF0123\r"
    assert p.feed(data) == ["04A1B2C3", "04A1B2C3D4E5F6", "0123456789ABCDEF0123"]
    assert p.rejected == 0


@pytest.mark.parametrize("line", [
    b"04A1B2C",  # 7 digits: too short
    b"04A1B2C3D",  # odd: not whole bytes
    b"04A1B2C3 ",  # trailing space
    b" 04A1B2C3",
    b"04A1B2G3",
    b"0123456789ABCDEF01234",  # 21: too long
    b"04A1B2C3\x00",
    "04A1B2C3é".encode(),
])
def test_hex_rejects(line: bytes) -> None:
    p = LineParser(kind="hex")
    assert p.feed(line + b"\r\n" + b"DEADBEEF\r\n") == ["DEADBEEF"]
    assert p.rejected == 1


def test_decimal_lines_keep_leading_zeros() -> None:
    p = LineParser(kind="decimal", min_len=10, max_len=10)
    assert p.feed(b"0012345678\r\n12345678901\r\n00123A5678\r\n") == ["0012345678"]
    assert p.rejected == 2


def test_an_overlong_line_is_dropped_whole_and_the_next_is_read() -> None:
    p = LineParser(kind="decimal")
    assert p.feed(b"1" * 500) == []
    assert p.feed(b"2222\r\n12345678\r\n") == ["12345678"]
    assert p.rejected == 1


@pytest.mark.parametrize("split", range(1, 10))
def test_split_across_reads(split: int) -> None:
    data = b"DEADBEEF\r\n"
    p = LineParser()
    assert p.feed(data[:split]) + p.feed(data[split:]) == ["DEADBEEF"]


def test_bad_configuration() -> None:
    with pytest.raises(ValueError):
        LineParser(kind="octal")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        LineParser(min_len=9, max_len=8)


def test_reader_on_loop_url() -> None:
    reader = open_line_reader("loop://", kind="decimal", timeout=0.05)
    try:
        reader.port.write(b"00123")
        got = reader.read()
        reader.port.write(b"45678\r\nabc\r\n")
        got += reader.read()
    finally:
        reader.close()
    assert got == ["0012345678"]
