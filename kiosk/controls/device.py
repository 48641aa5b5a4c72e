"""What a handler sees of the device it runs on: the station, its roles and table,
and the little state a button box keeps (BUST pressed, the seat picked).

:class:`~kiosk.controls.dispatch.Controller` is one; the card and undo
handlers (:mod:`.cards`, :mod:`.undo`) are written against this and not the
controller, so the table that routes to them is the only one that knows them.
"""

from __future__ import annotations

from enum import StrEnum, unique
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from kiosk.role import Role
    from kiosk.station import Station

__all__ = ["Device", "Mode"]


@unique
class Mode(StrEnum):
    IDLE = "idle"
    #: BUST was pressed: the next card tap (or a seat chosen with the buttons) is out.
    BUST = "bust"


class Device(Protocol):
    station: Station
    roles: frozenset[Role]
    table: int | None
    #: A table device may undo its own last action within this many real seconds.
    undo_window: float
    mode: Mode
    selected_seat: int | None
    #: The last card nobody owns, waiting for the TD to type a name.
    unnamed_card: str | None

    @property
    def td(self) -> bool: ...

    def my_table(self) -> int: ...

    def my_seats(self) -> dict[int, str]: ...
