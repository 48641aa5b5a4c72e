"""``pubpoker undo``: the TD's UNDO from a terminal, saying what it took back.

The same path as the TD's held UNDO button (:meth:`kiosk.station.Station.undo_newest`,
:func:`rules.undo.verify_undo`): the night's newest action still in force,
whichever device did it, every event of it at once. Undo again to take back
the action before it; an undo is itself not undone this way.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kiosk.station import Station

__all__ = ["register"]


def register(sub: Any, lang: str = "nn") -> None:
    from kiosk.cli.help_words import help_text
    from kiosk.cli.store_access import add_data_dir

    undo = sub.add_parser("undo", help=help_text("undo", lang))
    add_data_dir(undo, lang)
    undo.set_defaults(func=_undo)


def _undo(args: argparse.Namespace) -> int:
    from kiosk.cli.acting import station
    from kiosk.undone import UNDONE_LINE, undone_what
    from rules.refusals import NothingToUndo

    with station(args) as on:
        if on.tournament_id is None:
            raise NothingToUndo()
        names = {pid: e.name for pid, e in on.state.players.items()}
        outcome = on.undo_newest()
        if isinstance(outcome.refusal, NothingToUndo):
            # N3: a new, empty night the TD made over a running one: undoing
            # it switches back to the one it replaced.
            from kiosk.tonight_switch import undo_new

            back = undo_new(on, args.lang)
            if back is not None:
                print(back)
                return 0
        if outcome.refusal is not None:
            raise outcome.refusal
        what = undone_what(outcome.undone, names)
        if any(r.event.kind.value == "players-merged" for r in outcome.undone):
            # The merged player is back on the venue's list, with their cards and points.
            from kiosk.store.reconcile import reconcile

            reconcile(on.store.conn)
        now = _now(on, args.lang)
        if on.state.closed and on.tournament_id is not None:
            # The reopen was taken back (N1): the night is closed again, so its
            # status, results and export files are the close's once more.
            from kiosk.cli.store_access import store_path

            on.store.close_tournament(on.tournament_id, on.state,
                                      store_path(args).parent / "exports")
    template = UNDONE_LINE.get(args.lang) or UNDONE_LINE["en"]
    said = template.format(what=what.get(args.lang) or what["en"])
    # And what the night is now, so the TD need not ask (issue 44).
    print(f"{said}. {now}" if now else said)
    return 0


def _now(on: Station, lang: str) -> str | None:
    """The clock and the players after the undo: "Nivå 3: 300/600, 12:40 att; 23
    spelarar att" (before the seat draw, the players checked in). Nothing for a
    finished or closed night: its result stands as ``tournament show`` prints it."""
    from kiosk.cli.report import clock_document
    from kiosk.cli.show_words import clock_line
    from kiosk.undone import UNDONE_NOW
    from rules.i18n import count
    from rules.state import Phase

    state = on.state
    if state.config is None or state.finished or state.closed:
        return None
    clock = clock_line(clock_document(state, on.now()), lang)
    words = UNDONE_NOW.get(lang) or UNDONE_NOW["en"]
    if state.phase is Phase.CHECK_IN:
        return words["in"].format(clock=clock, players=count(state.entrants, "player", lang))
    return words["left"].format(clock=clock, players=count(state.remaining, "player", lang))
