"""``pubpoker points``: the league points table for a number of entrants (Q1)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Final

from kiosk.cli.bounds import read_at_most
from kiosk.cli.help_words import help_text
from rules.errors import RulesError
from rules.house import PointsScheme
from rules.i18n import DEFAULT_LANGUAGE, OsReason, count
from rules.points import NoPointsTable, PointsTable, group_points, points_table

__all__ = ["register"]

_TEXT: Final[dict[str, dict[str, str]]] = {
    "nn": {"title": "Poeng for {entrants} ({scheme})", "place": "Plass",
           "points": "Poeng", "nested": "for djupt nøsta", "not-object": "skal vere eit "
           "JSON-objekt {{…}}", "not-json": "ikkje JSON (linje {line}, kolonne {column})",
           "not-utf8": "ikkje tekst i UTF-8"},
    "nb": {"title": "Poeng for {entrants} ({scheme})", "place": "Plass",
           "points": "Poeng", "nested": "for dypt nøstet", "not-object": "skal være et "
           "JSON-objekt {{…}}", "not-json": "ikke JSON (linje {line}, kolonne {column})",
           "not-utf8": "ikke tekst i UTF-8"},
    "da": {"title": "Point for {entrants} ({scheme})", "place": "Plads",
           "points": "Point", "nested": "for dybt indlejret", "not-object": "skal være et "
           "JSON-objekt {{…}}", "not-json": "ikke JSON (linje {line}, kolonne {column})",
           "not-utf8": "ikke tekst i UTF-8"},
    "en": {"title": "Points for {entrants} ({scheme})", "place": "Place",
           "points": "Points", "nested": "nested too deeply", "not-object": "expected a "
           "JSON object {{…}}", "not-json": "not JSON (line {line}, column {column})",
           "not-utf8": "not UTF-8 text"},
}


class UnreadableTable(RulesError, ValueError):
    messages = {
        "nn": "Kan ikkje lese poengtabellen {path}: {reason}",
        "nb": "Kan ikke lese poengtabellen {path}: {reason}",
        "da": "Kan ikke læse pointtabellen {path}: {reason}",
        "en": "Cannot read the points table {path}: {reason}",
    }


def register(sub: Any, lang: str = DEFAULT_LANGUAGE) -> None:
    parser = sub.add_parser("points", help=help_text("points", lang),
                            description=help_text("points.description", lang))
    parser.add_argument("--entrants", type=int, required=True,
                        help=help_text("points.entrants", lang))
    parser.add_argument(
        "--scheme", choices=[s.value for s in PointsScheme], default=PointsScheme.PF_POKERKLUB,
        help=help_text("points.scheme", lang))
    example = '{"per_place": [10, 7, 5], "default": 1, "bonus_per": 10, "bonus_places": 3}'
    parser.add_argument("--table", type=Path, metavar="FILE",
                        help=help_text("points.table", lang, example=example))
    parser.set_defaults(func=run)


def _load_table(path: Path, text: dict[str, str]) -> PointsTable:
    # The reasons in the TD's words; only the operating system's own stays as it says it.
    try:
        data = json.loads(read_at_most(path).decode("utf-8"))
    except OSError as err:
        raise UnreadableTable(path=str(path), reason=OsReason.of(err)) from None
    except UnicodeDecodeError:
        raise UnreadableTable(path=str(path), reason=text["not-utf8"]) from None
    except json.JSONDecodeError as err:
        raise UnreadableTable(path=str(path), reason=text["not-json"].format(
            line=err.lineno, column=err.colno)) from None
    except RecursionError:  # json recurses per nested [ or {
        raise UnreadableTable(path=str(path), reason=text["nested"]) from None
    if not isinstance(data, dict):
        raise UnreadableTable(path=str(path), reason=text["not-object"].format())
    return PointsTable.from_dict(data)


def run(args: argparse.Namespace) -> int:
    lang = args.lang if args.lang in _TEXT else DEFAULT_LANGUAGE
    text = _TEXT[lang]
    scheme = PointsScheme(args.scheme)
    table = None
    if scheme is PointsScheme.TABLE:
        if args.table is None:
            raise NoPointsTable()
        table = _load_table(args.table, text)
    rows = points_table(args.entrants, scheme, table)

    labels = [(f"{a}" if a == b else f"{a}–{b}", str(pts)) for a, b, pts in group_points(rows)]
    width = max(len(text["place"]), *(len(place) for place, _ in labels))
    print(text["title"].format(entrants=count(args.entrants, "entrant", lang),
                               scheme=scheme.value))
    print(f"{text['place']:<{width}}  {text['points']}")
    for place, pts in labels:
        print(f"{place:<{width}}  {pts:>{len(text['points'])}}")
    return 0
