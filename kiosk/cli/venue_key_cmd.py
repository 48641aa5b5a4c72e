"""``pubpoker venue-key new``: a fresh 32-byte venue key, as hex and as a QR code.

Every device of a venue needs the same key in ``[venue] key`` of its
``pubpoker.toml``; scanning the QR code from the terminal is quicker and
surer than typing 64 hex characters on the next device.
"""

from __future__ import annotations

import argparse
import io
import sys
from typing import Any

from kiosk.sync.auth import new_key

__all__ = ["register"]


def register(sub: Any, lang: str = "nn") -> None:
    parser = sub.add_parser("venue-key", help="make the key that lets a venue's devices sync")
    venue = parser.add_subparsers(dest="venue_key_command", required=True, metavar="ACTION")
    new = venue.add_parser(
        "new", help="generate a venue key; print it as hex and as a QR code for the next device")
    new.add_argument("--no-qr", action="store_true", help="print only the hex key")
    new.set_defaults(func=_new)


def qr_text(text: str) -> str:
    """The QR code of ``text`` drawn with block characters for a terminal."""
    import segno

    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def _new(args: argparse.Namespace) -> int:
    key = new_key().hex()
    print(key)
    if not args.no_qr:
        print(file=sys.stdout)
        print(qr_text(key), end="")
        print(f"\n[venue]\nkey = \"{key}\"")
    return 0
