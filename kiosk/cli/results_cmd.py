"""``pubpoker results show [ID]`` and ``pubpoker results recompute ID|--all``.

``show`` prints a tournament's places and points (the current one unless
named), refreshed from its log first, as text or ``--json``
(``docs/cli-json.md``).

Results stored by older versions can carry duplicate places (F3: a late
entry after a bust gave the next bust the same place). Recomputing refolds
the tournament's whole log with today's rules, rewrites its results and its
season's standings, and rewrites the export files of a closed night.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import Any, Final

from kiosk.cli import report
from kiosk.cli.help_words import help_text
from kiosk.cli.store_access import add_data_dir, open_cli_store, store_path
from rules.i18n import DEFAULT_LANGUAGE, format_place

__all__ = ["register"]

_TEXT: Final[dict[str, dict[str, str]]] = {
    "nn": {"same": "{name}: ingen plasseringar er endra",
           "changed": "{name}: plasseringar retta: {count}",
           "line": "  {player}: {before} → {after}", "none": "inga",
           "files": "  Skreiv {files}", "need": "Gje ein turnering eller --all"},
    "nb": {"same": "{name}: ingen plasseringer er endret",
           "changed": "{name}: plasseringer rettet: {count}",
           "line": "  {player}: {before} → {after}", "none": "ingen",
           "files": "  Skrev {files}", "need": "Oppgi en turnering eller --all"},
    "da": {"same": "{name}: ingen placeringer er ændret",
           "changed": "{name}: placeringer rettet: {count}",
           "line": "  {player}: {before} → {after}", "none": "ingen",
           "files": "  Skrev {files}", "need": "Angiv en turnering eller --all"},
    "en": {"same": "{name}: no places changed",
           "changed": "{name}: places corrected: {count}",
           "line": "  {player}: {before} → {after}", "none": "none",
           "files": "  Wrote {files}", "need": "Give a tournament or --all"},
}


def register(sub: Any, lang: str = DEFAULT_LANGUAGE) -> None:
    parser = sub.add_parser("results", help=help_text("results", lang))
    cmds = parser.add_subparsers(dest="results_command", required=True, metavar="ACTION")
    show = cmds.add_parser("show", help=help_text("results.show", lang))
    show.add_argument("tournament", metavar="TOURNAMENT", nargs="?",
                      help=help_text("tournament-id", lang))
    report.add_json_option(show, lang)
    add_data_dir(show, lang)
    show.set_defaults(func=_show)
    recompute = cmds.add_parser(
        "recompute", help=help_text("results.recompute", lang),
        description=help_text("results.recompute.description", lang))
    recompute.add_argument("tournament", metavar="TOURNAMENT", nargs="?",
                           help=help_text("tournament-id", lang))
    recompute.add_argument("--all", action="store_true", help=help_text("results.all", lang))
    add_data_dir(recompute, lang)
    recompute.set_defaults(func=_recompute)


def _show(args: argparse.Namespace) -> int:
    from kiosk.cli import show_words

    with open_cli_store(args, must_exist=True, to_read=True) as store:
        tid = args.tournament or store.current_tournament()
        if tid is None:
            raise show_words.NoTournamentYet()
        row = store.tournament(tid)
        if store.refusal is None:
            rows = store.record_results(row.id)  # refreshed from the log, as exports are
            row = store.tournament(row.id)
        else:  # a full disk: the same rows, folded from the log, not written
            state = store.fold(row.id).state
            rows = store.result_rows(row.id, state)
            if row.status != "closed":
                row = dataclasses.replace(row, status=state.phase.value)
    doc = report.results_document(row, _status(row.status), rows)
    if getattr(args, "json", False):
        report.print_json(doc)
    else:
        print("\n".join(show_words.results_lines(doc, args.lang)))
    return 0


def _status(stored: str) -> str:
    # record_results stores the phase; only a tournament never folded says "created".
    return "check-in" if stored == "created" else stored


def _recompute(args: argparse.Namespace) -> int:
    words = _TEXT.get(args.lang, _TEXT[DEFAULT_LANGUAGE])
    if bool(args.tournament) == bool(args.all):
        print(words["need"], file=sys.stderr)
        return 2
    folder = store_path(args).parent / "exports"
    with open_cli_store(args, must_exist=True) as store:
        ids = [t.id for t in store.tournaments()] if args.all else [
            store.tournament(args.tournament).id]
        for tid in ids:
            name = store.tournament(tid).name
            changes, files = store.recompute_results(tid, folder)
            if not changes:
                print(words["same"].format(name=name))
            else:
                print(words["changed"].format(name=name, count=len(changes)))
            for c in changes:
                print(words["line"].format(player=c.name, before=_place(c.before, args.lang),
                                           after=_place(c.after, args.lang)))
            if files:
                print(words["files"].format(files=", ".join(str(f) for f in files)))
    return 0


def _place(place: int | None, lang: str) -> str:
    if place is None:
        return _TEXT.get(lang, _TEXT[DEFAULT_LANGUAGE])["none"]
    return format_place(place, lang)
