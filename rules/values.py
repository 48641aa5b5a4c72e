"""Small value records shared by seating, balancing and the event log."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum, unique

from rules.records import RecordMethods, record

__all__ = ["Move", "MoveReason", "SeatAssignment", "SeatRef"]


@dataclass(frozen=True, order=True)
class SeatRef:
    """A seat at a table; both are numbered from 1 as the venue labels them."""

    table: int
    seat: int


@record
class SeatAssignment(RecordMethods):
    """Where one player sits, as decided by a draw."""

    player_id: str
    table: int
    seat: int

    @property
    def ref(self) -> SeatRef:
        return SeatRef(self.table, self.seat)


@unique
class MoveReason(StrEnum):
    BALANCE = "balance"
    BREAK = "break"


@record
class Move(RecordMethods):
    """A proposed move of one player; it stands until the player sits (S4).

    ``position_known`` is False when the source table's button was never
    reported, so the mover was chosen by the seeded fallback and the TD should
    check it.
    """

    player_id: str
    source: SeatRef
    target: SeatRef
    reason: MoveReason
    position_known: bool
