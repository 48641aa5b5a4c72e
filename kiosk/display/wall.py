"""The wall as the effects see it: what a button's handler or the room's news may ask of the loop.

:class:`~kiosk.display.loop.KioskLoop` is the one wall; :mod:`.effects`, which
carries out what a button's handler or the log's news (:mod:`.room`) asked
for, is written against this, so the loop that drives it is the only one that
knows it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from kiosk.display.overlays import HelpLines, Overlays, Text
    from kiosk.display.registry import Screen
    from kiosk.display.sound import Chimes

__all__ = ["Wall"]


class Wall(Protocol):
    overlays: Overlays
    chimes: Chimes | None

    @property
    def lang(self) -> str: ...

    @lang.setter
    def lang(self, lang: str) -> None: ...

    def popup(self, title: Text, line: Text, *, kind: str = "", seconds: float = ...,
              front: bool = False) -> None: ...

    def drop_popups(self, kind: str) -> None: ...

    def show(self, screen: Screen, *, for_seconds: float | None = None) -> None: ...

    def next_screen(self) -> None: ...

    def find_seat(self) -> None: ...

    def show_help(self, lines: HelpLines, *, seconds: float = ...) -> None: ...

    def settle(self) -> None: ...

    def stop(self) -> None: ...
