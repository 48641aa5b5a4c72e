"""``pubpoker config check PATH``: is this pubpoker.toml good?

Run it on a laptop before putting the SD card back in the Pi: it prints
``OK`` or one sentence naming the key and what is wrong, and exits 2.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from kiosk.config import DEFAULT_PATH, ConfigError, load_config


def register(sub: Any, lang: str = "nn") -> None:
    parser = sub.add_parser("config", help="the device's pubpoker.toml")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    check = actions.add_parser("check", help="validate a pubpoker.toml")
    check.add_argument("path", nargs="?", default=str(DEFAULT_PATH),
                       help=f"the file (default: {DEFAULT_PATH})")
    check.set_defaults(func=_check)


def _check(args: argparse.Namespace) -> int:
    try:
        load_config(args.path)
    except ConfigError as err:
        print(err.translate(args.lang), file=sys.stderr)
        return 2
    print("OK")
    return 0
