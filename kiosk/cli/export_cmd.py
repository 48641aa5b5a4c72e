"""``pubpoker export``: results of a tournament, standings of a season, as CSV or JSON.

Both are refreshed from the event log first, so an export made mid-tournament
or right after the final bust is up to date.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from kiosk.cli.bounds import is_store_file
from kiosk.cli.help_words import help_text
from kiosk.cli.store_access import add_data_dir, open_cli_store, store_path, write_output
from rules.errors import RulesError
from rules.i18n import DEFAULT_LANGUAGE

__all__ = ["register"]


def register(sub: Any, lang: str = DEFAULT_LANGUAGE) -> None:
    parser = sub.add_parser("export", help=help_text("export", lang),
                            description=help_text("export.description", lang))
    cmds = parser.add_subparsers(dest="export_command", required=True, metavar="WHAT")

    results = cmds.add_parser("results", help=help_text("export.results", lang))
    results.add_argument("tournament", metavar="TOURNAMENT",
                         help=help_text("tournament-id", lang))
    _common(results, lang)
    results.set_defaults(func=_results)

    standings = cmds.add_parser("standings", help=help_text("export.standings", lang))
    standings.add_argument("season", metavar="SEASON", help=help_text("export.season", lang))
    _common(standings, lang)
    standings.set_defaults(func=_standings)


def _common(parser: argparse.ArgumentParser, lang: str) -> None:
    parser.add_argument("--format", choices=("csv", "json"), default="csv",
                        help=help_text("format", lang, default="csv"))
    parser.add_argument("--output", "-o", type=Path, metavar="PATH",
                        help=help_text("export.output", lang))
    parser.add_argument("--machine-headers", action="store_true",
                        help=help_text("export.machine-headers", lang))
    add_data_dir(parser, lang)


#: A CSV's header row in the reader's language (a spreadsheet at the bar);
#: ``--machine-headers`` keeps the stable keys (place, name, …) for scripts.
#: English reads the keys themselves, so its scripts never change.
HEADERS: Final[Mapping[str, Mapping[str, str]]] = {
    "nn": {"place": "Plass", "name": "Namn", "points": "Poeng", "knockouts": "Slo ut",
           "player_id": "Spelarkode", "rank": "Plassering", "tournaments": "Turneringar",
           "placings": "Plasseringar", "card": "Kort"},
    "nb": {"place": "Plass", "name": "Navn", "points": "Poeng", "knockouts": "Slo ut",
           "player_id": "Spiller-id", "rank": "Plassering", "tournaments": "Turneringer",
           "placings": "Plasseringer", "card": "Kort"},
    "da": {"place": "Plads", "name": "Navn", "points": "Point", "knockouts": "Slog ud",
           "player_id": "Spiller-id", "rank": "Placering", "tournaments": "Turneringer",
           "placings": "Placeringer", "card": "Kort"},
    "en": {"place": "place", "name": "name", "points": "points", "knockouts": "knockouts",
           "player_id": "player_id", "rank": "rank", "tournaments": "tournaments",
           "placings": "placings", "card": "card"},
}


def headers(args: argparse.Namespace) -> Mapping[str, str] | None:
    """The CSV's header words for ``args`` (None: the machine keys)."""
    if getattr(args, "machine_headers", False):
        return None
    return HEADERS.get(args.lang, HEADERS["en"])


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
        text = store.export_results(args.tournament, args.format, headers(args))
    write_output(text, args.output, sys.stdout)
    return 0


def _standings(args: argparse.Namespace) -> int:
    _check_output(args)
    with open_cli_store(args, must_exist=True) as store:
        text = store.export_standings(args.season, args.format, headers(args))
    write_output(text, args.output, sys.stdout)
    return 0
