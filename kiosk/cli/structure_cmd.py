"""``pubpoker structure``: show the blind structures."""

from __future__ import annotations

import argparse
from typing import Any

from kiosk.cli.help_words import help_text
from rules.i18n import DEFAULT_LANGUAGE, format_int
from rules.structure import PRESETS, AnteKind, Break, preset

WORDS = {
    "nn": {"level": "Nivå", "break": "Pause", "blinds": "Blindar", "ante": "Ante",
           "minutes": "min", "colour_up": "Fargebyte", "stack": "Startstack",
           "heads_up": "Heads-up: nivå på {m} min", "bb_ante": "BB-ante", "meal": "Matpause"},
    "nb": {"level": "Nivå", "break": "Pause", "blinds": "Blinds", "ante": "Ante",
           "minutes": "min", "colour_up": "Fargebytte", "stack": "Startstack",
           "heads_up": "Heads-up: nivå på {m} min", "bb_ante": "BB-ante", "meal": "Matpause"},
    "da": {"level": "Niveau", "break": "Pause", "blinds": "Blinds", "ante": "Ante",
           "minutes": "min", "colour_up": "Farveskift", "stack": "Startstack",
           "heads_up": "Heads-up: niveauer på {m} min", "bb_ante": "BB-ante",
           "meal": "Spisepause"},
    "en": {"level": "Level", "break": "Break", "blinds": "Blinds", "ante": "Ante",
           "minutes": "min", "colour_up": "Colour-up", "stack": "Starting stack",
           "heads_up": "Heads-up: {m}-minute levels", "bb_ante": "BB ante", "meal": "Meal break"},
}


def register(sub: Any, lang: str = DEFAULT_LANGUAGE) -> None:
    parser = sub.add_parser("structure", help=help_text("structure", lang))
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    show = actions.add_parser("show", help=help_text("structure.show", lang))
    show.add_argument("name", choices=sorted(PRESETS), help=help_text("structure.name", lang))
    show.set_defaults(func=_show)


def _show(args: argparse.Namespace) -> int:
    lang = args.lang
    w = WORDS[lang]
    structure = preset(args.name)
    print(f"{structure.name} — {w['stack']}: {format_int(structure.starting_stack, lang)}")
    number = 0
    for period in structure.periods:
        minutes = period.seconds // 60
        if isinstance(period, Break):
            label = w["meal"] if period.meal else w["break"]
            line = f"  {label:<10} {minutes:>3} {w['minutes']}"
            if period.colour_up:
                chips = ", ".join(format_int(c, lang) for c in period.colour_up)
                line += f"  ({w['colour_up']}: {chips})"
            print(line)
            continue
        number += 1
        blinds = f"{format_int(period.small_blind, lang)}/{format_int(period.big_blind, lang)}"
        line = f"  {w['level']} {number:>2}   {blinds:>15}   {minutes:>3} {w['minutes']}"
        if period.ante:
            kind = w["bb_ante"] if period.ante_kind is AnteKind.BIG_BLIND else w["ante"]
            line += f"   {kind} {format_int(period.ante, lang)}"
        print(line)
    if structure.heads_up_seconds:
        print(w["heads_up"].format(m=structure.heads_up_seconds // 60))
    return 0
