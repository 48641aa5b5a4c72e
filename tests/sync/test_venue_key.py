"""``pubpoker venue-key new`` prints a fresh key as hex and as a terminal QR code."""

from __future__ import annotations

import pytest

from kiosk.cli import main
from kiosk.sync.auth import parse_key


def test_venue_key_new_prints_hex_and_a_qr_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["venue-key", "new"]) == 0
    out = capsys.readouterr().out
    key = out.splitlines()[0]
    assert len(parse_key(key)) == 32
    assert "█" in out and "▀" in out
    assert f'key = "{key}"' in out


def test_every_key_is_new(capsys: pytest.CaptureFixture[str]) -> None:
    keys = set()
    for _ in range(3):
        main(["venue-key", "new", "--no-qr"])
        keys.add(capsys.readouterr().out.strip())
    assert len(keys) == 3 and all(len(k) == 64 for k in keys)
