"""The ``pubpoker`` command line.

Each module in this package named ``*_cmd.py`` adds its own subcommands
through ``register(subparsers)``, so areas of the CLI live beside each other
without sharing one long file. Refusals from the rules core are printed in
the chosen language and exit with status 2; nothing is half-done.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence

from kiosk.cli.args import CliParser, check_arguments, language_of
from kiosk.cli.help_words import help_text
from rules.errors import RulesError
from rules.i18n import DEFAULT_LANGUAGE, LANGUAGES

__all__ = ["build_parser", "main"]


def build_parser(lang: str = DEFAULT_LANGUAGE) -> argparse.ArgumentParser:
    parser = CliParser(prog="pubpoker", description=help_text("pubpoker", lang))
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=os.environ.get("PUBPOKER_LANG", DEFAULT_LANGUAGE),
        help=help_text("lang", lang),
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    package = sys.modules[__name__]
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if info.name.endswith("_cmd"):
            importlib.import_module(f"{__name__}.{info.name}").register(sub, lang)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser(language_of(sys.argv[1:] if argv is None else argv))
    args = parser.parse_args(argv)
    try:
        check_arguments(sys.argv[1:] if argv is None else argv)
        status = args.func(args)
    except RulesError as err:
        print(err.translate(args.lang), file=sys.stderr)
        return 2
    return int(status or 0)


if __name__ == "__main__":
    raise SystemExit(main())
