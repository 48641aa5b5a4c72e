"""Keyboard-wedge readers: fast digits and Enter are a card, typing is not."""

from __future__ import annotations

from hardware.inputs import CardRead
from hardware.readers.wedge import WedgeBuffer


def type_keys(w: WedgeBuffer, keys: list[str], start: float, gap: float) -> list[CardRead]:
    out = []
    for i, key in enumerate(keys):
        read = w.feed(key, start + i * gap)
        if read is not None:
            out.append(read)
    return out


def test_a_reader_burst_is_a_card() -> None:
    w = WedgeBuffer()
    got = type_keys(w, [*"0004567890", "\r"], 5.0, 0.008)
    assert got == [CardRead("0004567890", "keyboard", 5.08)]
    assert not w.pending


def test_a_person_typing_digits_is_not_a_card() -> None:
    w = WedgeBuffer()
    assert type_keys(w, [*"0004567890", "\r"], 5.0, 0.25) == []


def test_a_pause_starts_over() -> None:
    w = WedgeBuffer()
    assert type_keys(w, [*"12345"], 0.0, 0.01) == []
    # The reader's burst comes later: only it counts.
    assert type_keys(w, [*"87654321", "\n"], 3.0, 0.01) == [CardRead("87654321", "keyboard", 3.08)]


def test_letters_or_too_many_digits_spoil_the_burst() -> None:
    w = WedgeBuffer(max_len=10)
    assert type_keys(w, [*"1234a5678", "\r"], 0.0, 0.01) == []
    assert type_keys(w, [*"12345678901", "\r"], 1.0, 0.01) == []
    assert type_keys(w, [*"1234567", "\r"], 2.0, 0.01) == []  # too short
    assert type_keys(w, ["\r"], 3.0, 0.01) == []
    assert type_keys(w, [*"1234567890", "\r"], 4.0, 0.01) != []


def test_reader_name() -> None:
    w = WedgeBuffer(reader="hid-bar")
    (read,) = type_keys(w, [*"12345678", "\r"], 0.0, 0.001)
    assert read.reader == "hid-bar"
