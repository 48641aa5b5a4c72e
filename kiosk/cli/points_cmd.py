"""``pubpoker points``: the league points table for a number of entrants (Q1)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Final

from kiosk.cli.bounds import read_at_most
from rules.errors import RulesError
from rules.house import PointsScheme
from rules.i18n import DEFAULT_LANGUAGE
from rules.points import NoPointsTable, PointsTable, group_points, points_table

__all__ = ["register"]

_TEXT: Final[dict[str, dict[str, str]]] = {
    "nn": {"title": "Poeng for {entrants} påmelde ({scheme})", "place": "Plass",
           "points": "Poeng"},
    "nb": {"title": "Poeng for {entrants} påmeldte ({scheme})", "place": "Plass",
           "points": "Poeng"},
    "da": {"title": "Point for {entrants} tilmeldte ({scheme})", "place": "Plads",
           "points": "Point"},
    "en": {"title": "Points for {entrants} entrants ({scheme})", "place": "Place",
           "points": "Points"},
}


class UnreadableTable(RulesError, ValueError):
    messages = {
        "nn": "Kan ikkje lese poengtabellen {path}: {reason}",
        "nb": "Kan ikke lese poengtabellen {path}: {reason}",
        "da": "Kan ikke læse pointtabellen {path}: {reason}",
        "en": "Cannot read the points table {path}: {reason}",
    }


def register(sub: Any, lang: str = "nn") -> None:
    parser = sub.add_parser(
        "points", help="print the league points for each finishing place",
        description="Print the league points table for a number of entrants.",
    )
    parser.add_argument("--entrants", type=int, required=True, help="number of entrants")
    parser.add_argument(
        "--scheme", choices=[s.value for s in PointsScheme], default=PointsScheme.PF_POKERKLUB,
        help="points scheme (default: pf-pokerklub)",
    )
    parser.add_argument(
        "--table", type=Path, metavar="FILE",
        help="JSON points table for --scheme table, e.g. "
             '{"per_place": [10, 7, 5], "default": 1, "bonus_per": 10, "bonus_places": 3}',
    )
    parser.set_defaults(func=run)


def _load_table(path: Path) -> PointsTable:
    try:
        data = json.loads(read_at_most(path).decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise UnreadableTable(path=str(path), reason=str(err)) from None
    except RecursionError:  # json recurses per nested [ or {
        raise UnreadableTable(path=str(path), reason="nested too deeply") from None
    if not isinstance(data, dict):
        raise UnreadableTable(path=str(path), reason="expected a JSON object")
    return PointsTable.from_dict(data)


def run(args: argparse.Namespace) -> int:
    lang = args.lang if args.lang in _TEXT else DEFAULT_LANGUAGE
    text = _TEXT[lang]
    scheme = PointsScheme(args.scheme)
    table = None
    if scheme is PointsScheme.TABLE:
        if args.table is None:
            raise NoPointsTable()
        table = _load_table(args.table)
    rows = points_table(args.entrants, scheme, table)

    labels = [(f"{a}" if a == b else f"{a}–{b}", str(pts)) for a, b, pts in group_points(rows)]
    width = max(len(text["place"]), *(len(place) for place, _ in labels))
    print(text["title"].format(entrants=args.entrants, scheme=scheme.value))
    print(f"{text['place']:<{width}}  {text['points']}")
    for place, pts in labels:
        print(f"{place:<{width}}  {pts:>{len(text['points'])}}")
    return 0
