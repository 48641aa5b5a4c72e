"""``pubpoker export``: results of a tournament, standings of a season, as CSV or JSON.

Both are refreshed from the event log first, so an export made mid-tournament
or right after the final bust is up to date.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from kiosk.cli.bounds import is_store_file
from kiosk.store.cli import add_data_dir, open_cli_store, store_path, write_output
from rules.errors import RulesError

__all__ = ["register"]


def register(sub: Any, lang: str = "nn") -> None:
    parser = sub.add_parser("export", help="export results or standings as CSV or JSON",
                            description="Export results or season standings.")
    cmds = parser.add_subparsers(dest="export_command", required=True, metavar="WHAT")

    results = cmds.add_parser("results", help="a tournament's places, points and knockouts")
    results.add_argument("tournament", metavar="TOURNAMENT", help="tournament id or name")
    _common(results)
    results.set_defaults(func=_results)

    standings = cmds.add_parser("standings", help="a season's league standings (Q2)")
    standings.add_argument("season", metavar="SEASON", help="season name, e.g. 2025")
    _common(standings)
    standings.set_defaults(func=_standings)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("csv", "json"), default="csv")
    parser.add_argument("--output", "-o", type=Path, metavar="PATH",
                        help="write to this file instead of standard output")
    add_data_dir(parser)


class OutputIsTheStore(RulesError, ValueError):
    messages = {
        "nn": "--output {path} er ei av fila til databasen; skriv eksporten ein annan stad",
        "nb": "--output {path} er en av filene til databasen; skriv eksporten et annet sted",
        "da": "--output {path} er en af databasens filer; skriv eksporten et andet sted",
        "en": "--output {path} is one of the store's files; write the export somewhere else",
    }


def _check_output(args: argparse.Namespace) -> None:
    """A CSV written over ``pubpoker.db`` (or its WAL) would be the end of the night."""
    if args.output is not None and is_store_file(store_path(args), args.output):
        raise OutputIsTheStore(path=str(args.output))


def _results(args: argparse.Namespace) -> int:
    _check_output(args)
    with open_cli_store(args, must_exist=True) as store:
        text = store.export_results(args.tournament, args.format)
    write_output(text, args.output, sys.stdout)
    return 0


def _standings(args: argparse.Namespace) -> int:
    _check_output(args)
    with open_cli_store(args, must_exist=True) as store:
        text = store.export_standings(args.season, args.format)
    write_output(text, args.output, sys.stdout)
    return 0
