"""``pubpoker standings [SEASON]``: the season's league table (Q2), as text or ``--json``.

The season is the current tournament's unless named. Every tournament of the
season has its results refreshed from its log first, as ``export standings``
does, so a night still being played counts as it stands.
"""

from __future__ import annotations

import argparse
from typing import Any

from kiosk.cli import report
from kiosk.cli.help_words import help_text
from kiosk.cli.store_access import add_data_dir, open_cli_store

__all__ = ["register"]


def register(sub: Any, lang: str = "nn") -> None:
    parser = sub.add_parser("standings", help=help_text("export.standings", lang))
    parser.add_argument("season", metavar="SEASON", nargs="?",
                        help=help_text("standings.season", lang))
    report.add_json_option(parser, lang)
    add_data_dir(parser, lang)
    parser.set_defaults(func=_standings)


def _standings(args: argparse.Namespace) -> int:
    from kiosk.cli import show_words

    with open_cli_store(args, must_exist=True) as store:
        season = args.season or _current_season(store)
        for t in store.tournaments(season):
            store.record_results(t.id)
        rows = store.standings(season)
    doc = report.standings_document(season, rows)
    if getattr(args, "json", False):
        report.print_json(doc)
    else:
        print("\n".join(show_words.standings_lines(doc, args.lang)))
    return 0


def _current_season(store: Any) -> str:
    from kiosk.cli.show_words import NoTournamentYet

    rows = store.tournaments()
    if not rows:
        raise NoTournamentYet()
    current = store.current_tournament()
    return str(next((r for r in rows if r.id == current), rows[-1]).season)
