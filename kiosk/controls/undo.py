"""UNDO: one action taken back, whichever input asked (a held button, ``u``).

The TD's box takes back the night's newest action, whichever device did it
(a bust typed at table 3 is taken back at the desk); a table device only its
own, within :attr:`~kiosk.controls.device.Device.undo_window` real
seconds. Which records make one action is the rules' call
(:func:`rules.undo.verify_undo`: the events of one command share an id).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from kiosk.controls.device import Device
from kiosk.controls.effects import Effect, Submit
from kiosk.controls.messages import Say, undone_what
from kiosk.undone import UNDONE_TITLE
from rules import undo as undos
from rules.errors import RulesError
from rules.i18n import DEFAULT_LANGUAGE
from rules.refusals import NothingToUndo

__all__ = ["Undone", "undo_newest"]


@dataclass(frozen=True)
class Undone(Say):
    """ "Angra: Kari Nordmann slått ut": on the wall, "Angra" over what was taken back.

    ``params["what"]`` holds what, in every language (:func:`undone_what`).

    >>> said = Undone(params={"what": {"nn": "Kari slått ut", "en": "Kari eliminated"}})
    >>> said.translate("nn"), said.heading("en"), said.detail("en")
    ('Angra: Kari slått ut', 'Undone', 'Kari eliminated')
    """

    key: str = "undone"
    popup: bool = True

    def heading(self, lang: str = DEFAULT_LANGUAGE, /) -> str:
        return UNDONE_TITLE.get(lang) or UNDONE_TITLE["en"]

    def detail(self, lang: str = DEFAULT_LANGUAGE, /) -> str:
        what = self.params.get("what")
        if isinstance(what, Mapping):
            return str(what.get(lang) or what.get("en", ""))
        return str(what or "")


def undo_newest(ctl: Device) -> list[Effect]:
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
                   ok=(Undone(params={"what": what}),))]
