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

from kiosk.cli.help_words import help_text
from kiosk.sync.auth import new_key
from rules.i18n import DEFAULT_LANGUAGE

__all__ = ["register"]


def register(sub: Any, lang: str = DEFAULT_LANGUAGE) -> None:
    parser = sub.add_parser("venue-key", help=help_text("venue-key", lang))
    venue = parser.add_subparsers(dest="venue_key_command", required=True, metavar="ACTION")
    new = venue.add_parser("new", help=help_text("venue-key.new", lang))
    new.add_argument("--no-qr", action="store_true", help=help_text("venue-key.no-qr", lang))
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
