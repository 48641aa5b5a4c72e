"""UNDO: one action taken back, whichever input asked (a held button, ``u``).

The TD's box takes back the night's newest action, whichever device did it
(a bust typed at table 3 is taken back at the desk); a table device only its
own, within :attr:`~kiosk.controls.dispatch.Controller.undo_window` real
seconds. Which records make one action is the rules' call
(:func:`rules.undo.verify_undo`: the events of one command share an id).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiosk.controls.effects import Effect, Submit
from kiosk.controls.messages import Say, undone_what
from rules import undo as undos
from rules.errors import RulesError
from rules.refusals import NothingToUndo

if TYPE_CHECKING:
    from kiosk.controls.dispatch import Controller

__all__ = ["undo_newest"]


def undo_newest(ctl: Controller) -> list[Effect]:
    station = ctl.station
    try:
        action = station.newest_action(own=not ctl.td,
                                       window=None if ctl.td else ctl.undo_window)
    except NothingToUndo:
        return [Say("nothing-to-undo")]
    except RulesError as err:
        return [Say("refused", error=err)]
    names = {pid: e.name for pid, e in station.state.players.items()}
    what = undone_what(action, names)
    return [Submit(undos.undo(action, now=station.now()),
                   ok=(Say("undone", {"what": what}, popup=True),))]
