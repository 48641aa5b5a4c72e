"""What a button press, a key or a card tap means on this device.

The hardware adapters and the keyboard only report what happened, in one
vocabulary (:mod:`hardware.inputs`). This package decides, per role, what
that means: one dispatch table (:mod:`.dispatch`), card handling
(:mod:`.cards`), a name typed at the desk (:mod:`.prompts`, reading keys
as :mod:`.typed` values, not pygame's), one undo (:mod:`.undo`) and the
help screen (:mod:`.help`). Handlers return typed
effects (:mod:`.effects`): the controller submits the commands on the
station, the loop shows the rest.
"""

from __future__ import annotations

from kiosk.controls.dispatch import ROUTES, Controller, Input, Mode, Route
from kiosk.controls.effects import (
    AskQuit,
    CycleLanguage,
    Dismiss,
    Effect,
    NextScreen,
    Popup,
    Quit,
    ShowHelp,
    ShowScreen,
    Submit,
    UiEffect,
)
from kiosk.controls.messages import Say
from kiosk.role import Role

__all__ = ["ROUTES", "AskQuit", "Controller", "CycleLanguage", "Dismiss", "Effect", "Input", "Mode",
           "NextScreen", "Popup", "Quit", "Role", "Route", "Say", "ShowHelp", "ShowScreen",
           "Submit", "UiEffect"]
