# PYTHON_ARGCOMPLETE_OK
"""The ``pubpoker`` command line.

Each module in this package named ``*_cmd.py`` adds its own subcommands
through ``register(subparsers, lang)``, so areas of the CLI live beside each
other without sharing one long file. Only the module of the command typed is
imported (:mod:`kiosk.cli.commands` says which); the others stand in the
parser as stubs with their help line, so ``pubpoker --help`` imports none and
a command costs what it uses. Shell completion (argcomplete, ``$_ARGCOMPLETE``)
needs every command's options, so it builds the whole parser.

Refusals from the rules core are printed in the chosen language and exit
with status 2; nothing is half-done. Exit status: 0 done, 2 refused or bad
input, 1 an internal error (a traceback).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from kiosk import __version__
from kiosk.cli.args import (
    CliParser,
    check_arguments,
    check_json,
    command_of,
    language_of,
    words,
)
from kiosk.cli.commands import COMMANDS, command_help, module_of
from rules.errors import RulesError

__all__ = ["build_parser", "main"]


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser for ``argv``: only its command's module is imported.

    Without ``argv`` (or for a command the table does not know, so a module
    that registers one it has not been told of still works), every command's
    module is imported: the whole parser, for completion and for tests.
    """
    lang = language_of([] if argv is None else argv)
    CliParser.language = lang
    text = words(lang)
    parser = CliParser(prog="pubpoker", description=text["description"],
                       epilog=text["epilog"], top=True)
    parser.add_argument("--version", action="version", version=f"pubpoker {__version__}",
                        help=text["--version"])
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    wanted = None if argv is None else command_of(argv)
    only = module_of(wanted)
    full = argv is None or (wanted is not None and only is None)
    loaded: set[str] = set()
    modules = dict(COMMANDS)
    if full:  # and any module the table does not know yet
        import pkgutil

        for info in pkgutil.iter_modules(sys.modules[__name__].__path__):
            if info.name.endswith("_cmd") and info.name not in {m for m, _ in COMMANDS.values()}:
                modules[info.name] = (info.name, {})
    for name, (module, _) in modules.items():
        qualified = f"{__name__}.{module}"
        if full or qualified == only:
            if qualified not in loaded:
                loaded.add(qualified)
                importlib.import_module(qualified).register(sub, lang)
        else:
            sub.add_parser(name, help=command_help(name, lang), stub=True)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    completing = "_ARGCOMPLETE" in os.environ
    parser = build_parser(None if completing else given)
    if completing:
        import argcomplete  # only here: it costs an import on every other run

        argcomplete.autocomplete(parser)  # writes the completions and exits
    args = parser.parse_args(given)
    try:
        check_arguments(given)
        check_json(args)
        status = args.func(args)
    except RulesError as err:
        print(err.translate(args.lang), file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader stopped reading (``pubpoker tournament show | head``): not an
        # error of ours. Python would complain again flushing stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    return int(status or 0)


if __name__ == "__main__":
    raise SystemExit(main())
