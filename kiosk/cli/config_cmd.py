"""``pubpoker config check PATH``: is this pubpoker.toml good?

Run it on a laptop before putting the SD card back in the Pi: it prints
``OK``, or every problem in the file (each on its line, with the key, what is
wrong and the usual fix) and exits 2.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Final

from kiosk.cli.help_words import help_text
from kiosk.config import (
    DEFAULT_PATH,
    ConfigError,
    ConfigSyntax,
    config_problems,
    read_config_text,
)
from rules.i18n import DEFAULT_LANGUAGE


def register(sub: Any, lang: str = DEFAULT_LANGUAGE) -> None:
    parser = sub.add_parser("config", help=help_text("config", lang))
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    check = actions.add_parser("check", help=help_text("config.check", lang))
    check.add_argument("path", nargs="?", default=str(DEFAULT_PATH),
                       help=help_text("config.check.path", lang, path=DEFAULT_PATH))
    check.set_defaults(func=_check)


#: "Line 4: …" before a problem the file's line names.
_LINE: Final = {"nn": "Linje", "nb": "Linje", "da": "Linje", "en": "Line"}


def _check(args: argparse.Namespace) -> int:
    try:
        problems = config_problems(read_config_text(args.path))
    except ConfigError as err:  # the file itself: not there, unreadable, not text
        print(err.translate(args.lang), file=sys.stderr)
        return 2
    if not problems:
        print("OK")
        return 0
    word = _LINE.get(args.lang, _LINE["en"])
    for line, err in sorted(problems, key=lambda p: (p[0] is None, p[0] or 0)):
        said = err.translate(args.lang)
        # A syntax error names its line and column itself.
        print(said if line is None or isinstance(err, ConfigSyntax) else f"{word} {line}: {said}",
              file=sys.stderr)
    return 2
