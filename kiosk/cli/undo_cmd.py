"""``pubpoker undo``: the TD's UNDO from a terminal, saying what it took back.

The same path as the TD's held UNDO button (:meth:`kiosk.station.Station.undo_newest`,
:func:`rules.undo.verify_undo`): the night's newest action still in force,
whichever device did it, every event of it at once. Undo again to take back
the action before it; an undo is itself not undone this way.
"""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["register"]


def register(sub: Any, lang: str = "nn") -> None:
    from kiosk.store.cli import add_data_dir

    undo = sub.add_parser("undo", help="take back the newest action and say what it was")
    add_data_dir(undo)
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
        if outcome.refusal is not None:
            raise outcome.refusal
        what = undone_what(outcome.undone, names)
    template = UNDONE_LINE.get(args.lang) or UNDONE_LINE["en"]
    print(template.format(what=what.get(args.lang) or what["en"]))
    return 0
