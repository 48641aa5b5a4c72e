"""The folded state of one tournament.

State is a plain mutable record: folding 100,000 events a second leaves no
room for copying it per event. Only the reducer (:mod:`rules.reducer`)
changes it, and it checks an event fully before touching anything, so a
refused event leaves the state exactly as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum, unique

from rules.button import ButtonPosition
from rules.clock import ClockState
from rules.events import TournamentCreated
from rules.values import Move, SeatRef

__all__ = ["Entry", "Phase", "Rejection", "Table", "Tournament"]


@unique
class Phase(StrEnum):
    CHECK_IN = "check-in"
    SEATED = "seated"
    RUNNING = "running"
    FINISHED = "finished"


@dataclass
class Entry:
    """One player's part in this tournament."""

    player_id: str
    name: str
    checked_in: bool = False
    late: bool = False
    seat: SeatRef | None = None
    place: int | None = None
    busted_at: float | None = None
    knockouts: int = 0
    absent_since: float | None = None
    cards: tuple[str, ...] = ()

    @property
    def active(self) -> bool:
        return self.checked_in and self.place is None


@dataclass
class Table:
    """One table: its seats and who sits in them."""

    number: int
    seats: dict[int, str] = field(default_factory=dict)
    #: The position of the hand now being played; None until a table device
    #: reports it or the button is drawn.
    button: ButtonPosition | None = None
    #: The drawn button belongs to the next hand, so that hand must not move it.
    button_fresh: bool = False
    hands: int = 0
    #: B5: seats that wait for the button to pass before they are dealt in.
    sitting_out: list[int] = field(default_factory=list)
    #: S5: seats emptied by a move since the last hand began.
    moved_out: list[int] = field(default_factory=list)
    #: Hand for hand (C7): this table finished its hand and waits for the others.
    hand_done: bool = False
    #: C5: when the clock was last called here, and on which seat.
    clock_called_at: float | None = None
    clock_called_seat: int | None = None


@dataclass
class Rejection:
    """An event kept in the log but refused by the reducer, the same on every peer."""

    device_id: str
    seq: int
    kind: str
    code: str
    message: str


@dataclass
class Tournament:
    """The whole tournament as the log folds it."""

    config: TournamentCreated | None = None
    phase: Phase = Phase.CHECK_IN
    players: dict[str, Entry] = field(default_factory=dict)
    tables: dict[int, Table] = field(default_factory=dict)
    moves: dict[str, Move] = field(default_factory=dict)
    clock: ClockState = field(default_factory=ClockState)
    late_registration_closed: bool = False
    hand_for_hand: bool = False
    final_table: bool = False
    #: Closed for the league (``TournamentClosed``): only a reopen folds now.
    closed: bool = False
    break_order: tuple[int, ...] = ()
    entrants: int = 0
    remaining: int = 0
    #: F3: every bust in the order it happened, each as its event's groups
    #: (best first). Places are derived from it, so a late entry can move
    #: earlier busts down.
    eliminations: list[tuple[tuple[str, ...], ...]] = field(default_factory=list)
    sit_and_go_list: list[str] = field(default_factory=list)
    #: F2: registered players waiting for a seat, first in line first.
    waiting: list[str] = field(default_factory=list)
    sit_and_gos: dict[str, tuple[str, ...]] = field(default_factory=dict)
    rejected: list[Rejection] = field(default_factory=list)
    last_at: float = 0.0

    # --- queries -------------------------------------------------------------

    def seatmap(self) -> dict[int, dict[int, str]]:
        """Table → seat → player, for the seats players sit in now."""
        return {n: dict(t.seats) for n, t in self.tables.items()}

    def active(self) -> list[Entry]:
        return [e for e in self.players.values() if e.active]

    @property
    def winner(self) -> Entry | None:
        return next((e for e in self.players.values() if e.place == 1), None)

    @property
    def finished(self) -> bool:
        return self.phase is Phase.FINISHED

    def results(self) -> list[Entry]:
        """Every placed player, best first."""
        placed = [e for e in self.players.values() if e.place is not None]
        return sorted(placed, key=lambda e: (e.place or 0, e.name))

    def tables_still_playing(self) -> list[int]:
        """Hand for hand: tables whose hand is not over yet (empty: deal the next hand)."""
        return sorted(n for n, t in self.tables.items() if not t.hand_done)

    def absent_too_long(self, now: float) -> list[Entry]:
        """F6: players away past the house limit (pf-pokerklub: 20 minutes).

        The TD is shown them; eliminating one is the TD's bust, not automatic.
        """
        limit = self.config.house.absent_limit_minutes if self.config else None
        if limit is None:
            return []
        return [e for e in self.active()
                if e.absent_since is not None and now - e.absent_since > limit * 60]

    def by_card(self, uid: str) -> Entry | None:
        """The entrant whose card this is (UIDs as the store normalises them)."""
        return next((e for e in self.players.values() if uid in e.cards), None)

    def find(self, name_or_id: str) -> Entry | None:
        """A player by id, or by name ignoring case and surrounding spaces."""
        if name_or_id in self.players:
            return self.players[name_or_id]
        wanted = _fold_name(name_or_id)
        return next((e for e in self.players.values() if _fold_name(e.name) == wanted), None)


def _fold_name(name: str) -> str:
    return " ".join(name.split()).casefold()
