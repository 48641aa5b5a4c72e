"""What a part above the loop shows on the wall, handed to the loop when it is built.

The night (:mod:`kiosk.night`) and a table device (:mod:`kiosk.table_device`)
are made before the loop and give it these; nothing sets them on the loop
afterwards (STYLE 15).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kiosk.controls.typed import KeyTyped
from kiosk.display.overlays import Popup

__all__ = ["KeyFilter", "LoopParts", "SidePanel", "TableScreen"]

#: Called with each key pressed first: effects (maybe none) when it took the key
#: (a name being typed at check-in), None to leave it to the next, then the keyboard.
KeyFilter = Callable[[KeyTyped], Sequence[object] | None]
#: Lines for the side panel over the clock, in a language.
SidePanel = Callable[[str], Sequence[str]]
#: A table device's own screen's view, in the loop's language, with the pop-up
#: up now (said in its prompt box, not over its seats).
TableScreen = Callable[[str, Popup | None], object]


def _no_lines(lang: str) -> Sequence[str]:
    return ()


@dataclass(frozen=True)
class LoopParts:
    """The loop's parts from above it; the defaults are a wall without a night."""

    #: Show the check-in screen instead of the clock while players check in.
    check_in_screen: bool = False
    #: Lines for the side panel over the clock (the Sit & Go's beside the main event).
    side_panel: SidePanel = _no_lines
    #: Each key pressed goes to these first, in order (:data:`KeyFilter`).
    key_filters: tuple[KeyFilter, ...] = ()
    #: A table device's own screen (:mod:`kiosk.table_device`): shown instead
    #: of the wall's screens, pop-ups included.
    table_screen: TableScreen | None = None
