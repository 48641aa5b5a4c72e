"""Keyboard-wedge readers: key events to characters, a pipe standing in for the device.

The host has no input devices (no uinput); the kernel's own device, grabbed,
is read in the booted appliance (tests/appliance/test_vm_readers.py).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.readers import ReaderError, StreamReader, open_wedge
from hardware.readers.line import LineParser
from hardware.readers.wedge import EV_KEY, EVENT, EventChars, EventPort

DIGITS = {"1": 2, "2": 3, "3": 4, "4": 5, "5": 6, "6": 7, "7": 8, "8": 9, "9": 10, "0": 11}
ENTER, SHIFT, SPACE, KP_ENTER = 28, 42, 57, 96


def key_event(code: int, value: int = 1) -> bytes:
    """One key event as the kernel writes it (1: pressed, 0: let go, 2: repeat)."""
    return EVENT.pack(0, 0, EV_KEY, code, value)


def typed(text: str) -> bytes:
    """What a wedge sends for ``text``: each key down and up, a sync event after each."""
    out = b""
    for char in text:
        code = ENTER if char == "\n" else DIGITS[char]
        out += key_event(code, 1) + EVENT.pack(0, 0, 0, 0, 0) + key_event(code, 0)
    return out


@pytest.fixture
def pipe() -> Iterator[tuple[StreamReader, int]]:
    read_end, write_end = os.pipe()
    reader = StreamReader(EventPort(read_end, timeout=0.05), LineParser(kind="decimal"))
    yield reader, write_end
    reader.close()
    with contextlib.suppress(OSError):
        os.close(write_end)


def read_all(reader: StreamReader, calls: int = 40) -> list[str]:
    out: list[str] = []
    for _ in range(calls):
        out += reader.read()
    return out


def test_key_downs_become_characters_releases_repeats_and_shift_do_not() -> None:
    chars = EventChars()
    repeat = key_event(DIGITS["7"], 2)
    assert chars.feed(typed("12") + repeat + key_event(SHIFT) + key_event(30)) == b"12A"
    assert chars.feed(key_event(SPACE) + key_event(KP_ENTER)) == b"?\n"


def test_an_event_split_across_reads_is_one_key() -> None:
    chars = EventChars()
    data = typed("90\n")
    got = b"".join(chars.feed(data[i:i + 5]) for i in range(0, len(data), 5))
    assert got == b"90\n"


def test_a_card_typed_on_the_device_is_one_uid(pipe: tuple[StreamReader, int]) -> None:
    reader, write_end = pipe
    os.write(write_end, typed("0012345678\n"))
    assert read_all(reader) == ["0012345678"]


def test_lines_that_are_no_card_are_dropped_and_counted(pipe: tuple[StreamReader, int]) -> None:
    reader, write_end = pipe
    os.write(write_end, typed("123\n"))  # too short
    os.write(write_end, typed("00123") + key_event(SPACE) + typed("45678\n"))  # another key
    os.write(write_end, typed("0012345679\n"))
    assert read_all(reader) == ["0012345679"]
    assert reader.rejected == 2


def test_a_closed_device_is_an_error_the_worker_reconnects_on(
        pipe: tuple[StreamReader, int]) -> None:
    reader, write_end = pipe
    os.close(write_end)
    with pytest.raises(ReaderError):
        read_all(reader)


def test_a_path_that_is_no_input_device_is_refused_and_closed(tmp_path: Path) -> None:
    path = tmp_path / "not-a-keyboard"
    path.write_bytes(b"")
    before = len(os.listdir("/proc/self/fd"))
    with pytest.raises(ReaderError, match="not a keyboard"):
        open_wedge(str(path))
    assert len(os.listdir("/proc/self/fd")) == before
    with pytest.raises(OSError):
        open_wedge(str(tmp_path / "unplugged"))
