"""Events: the frozen, past-tense records that make up the log.

Every change to a tournament is an event. Each is a frozen dataclass with a
kind (a :class:`EventKind`, whose value is what goes in the log) and a schema
version. A :class:`Record` wraps an event with where it came from
(``device_id``, ``seq``) and its Lamport time; ``(lamport, device_id, seq)``
is the one total order every device folds in.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import field
from enum import StrEnum, unique
from typing import Any, ClassVar, TypeVar

from rules.codec import CodecError, canonical_json, from_jsonable, to_jsonable
from rules.house import HouseRules
from rules.records import RecordMethods, record
from rules.structure import Structure
from rules.values import Move, SeatAssignment

__all__ = [
    "SCHEMA_VERSION",
    "ActionUndone",
    "BreakOrderSet",
    "ButtonDrawn",
    "ClockCalled",
    "ClockPaused",
    "ClockRestored",
    "ClockResumed",
    "ClockStarted",
    "Event",
    "EventKind",
    "FinalTableDrawn",
    "HandFinished",
    "HandForHandSet",
    "HandStarted",
    "LateRegistrationClosed",
    "LevelJumped",
    "MoveCancelled",
    "MoveConfirmed",
    "MoveProposed",
    "PlayerAbsent",
    "PlayerCheckedIn",
    "PlayerRegistered",
    "PlayerRenamed",
    "PlayerReturned",
    "PlayerSeated",
    "PlayerUnwaitlisted",
    "PlayerWaitlisted",
    "PlayersBusted",
    "PlayersMerged",
    "Record",
    "SeatsDrawn",
    "SitAndGoListed",
    "SitAndGoStarted",
    "SitAndGoUnlisted",
    "TimeAdjusted",
    "TonightChosen",
    "TournamentClosed",
    "TournamentCreated",
    "TournamentReopened",
    "UnreadableEvent",
    "WaitlistAdmitted",
    "decode_event",
    "encode_event",
    "event_from_json",
    "event_to_json",
]

#: The newest schema this code writes; a peer may send newer ones (kept unread).
SCHEMA_VERSION = 1


@unique
class EventKind(StrEnum):
    TOURNAMENT_CREATED = "tournament-created"
    PLAYER_REGISTERED = "player-registered"
    PLAYER_CHECKED_IN = "player-checked-in"
    PLAYER_RENAMED = "player-renamed"
    PLAYERS_MERGED = "players-merged"
    LATE_REGISTRATION_CLOSED = "late-registration-closed"
    SEATS_DRAWN = "seats-drawn"
    PLAYER_SEATED = "player-seated"
    CLOCK_STARTED = "clock-started"
    CLOCK_PAUSED = "clock-paused"
    CLOCK_RESUMED = "clock-resumed"
    LEVEL_JUMPED = "level-jumped"
    TIME_ADJUSTED = "time-adjusted"
    CLOCK_RESTORED = "clock-restored"
    PLAYERS_BUSTED = "players-busted"
    PLAYER_ABSENT = "player-absent"
    PLAYER_RETURNED = "player-returned"
    MOVE_PROPOSED = "move-proposed"
    MOVE_CONFIRMED = "move-confirmed"
    MOVE_CANCELLED = "move-cancelled"
    FINAL_TABLE_DRAWN = "final-table-drawn"
    BREAK_ORDER_SET = "break-order-set"
    BUTTON_DRAWN = "button-drawn"
    HAND_STARTED = "hand-started"
    HAND_FOR_HAND_SET = "hand-for-hand-set"
    HAND_FINISHED = "hand-finished"
    CLOCK_CALLED = "clock-called"
    SIT_AND_GO_LISTED = "sit-and-go-listed"
    SIT_AND_GO_UNLISTED = "sit-and-go-unlisted"
    SIT_AND_GO_STARTED = "sit-and-go-started"
    ACTION_UNDONE = "action-undone"
    TOURNAMENT_CLOSED = "tournament-closed"
    TOURNAMENT_REOPENED = "tournament-reopened"
    TONIGHT_CHOSEN = "tonight-chosen"
    PLAYER_WAITLISTED = "player-waitlisted"
    PLAYER_UNWAITLISTED = "player-unwaitlisted"
    WAITLIST_ADMITTED = "waitlist-admitted"


class UnreadableEvent(CodecError):
    """A payload this version cannot read: kept in the log, left out of the fold."""


@record(kw_only=True)
class Event(RecordMethods):
    """Base of every event. ``at`` is shared tournament time in seconds.

    ``action`` names the command (the one button press) the event came from:
    every event one command caused carries the same id, so one undo takes
    back exactly that press (:mod:`rules.undo`). Events written before ids
    existed have ``""``. It is the envelope's business, not the event's
    meaning, so it is left out of ``==`` and ``repr``, and an empty one is
    left out of the wire form: old payloads read, and spell, as they did.

    >>> ClockPaused(at=3.0, action="td:7") == ClockPaused(at=3.0)
    True
    """

    kind: ClassVar[EventKind]
    schema: ClassVar[int] = 1
    at: float
    action: str = field(default="", compare=False, repr=False)


_REGISTRY: dict[EventKind, type[Event]] = {}
E = TypeVar("E", bound=type[Event])


def _event(kind: EventKind) -> Callable[[E], E]:
    def register(cls: E) -> E:
        if kind in _REGISTRY:
            raise TypeError(f"two events claim {kind}")
        cls.kind = kind
        _REGISTRY[kind] = cls
        return cls
    return register


# --- set-up and entry -----------------------------------------------------

@_event(EventKind.TOURNAMENT_CREATED)
@record(kw_only=True)
class TournamentCreated(Event):
    """A tournament begins in check-in, with its structure and house rules."""

    name: str
    structure: Structure
    house: HouseRules = field(default_factory=HouseRules)
    #: Tables the venue has; None = as many as needed.
    max_tables: int | None = None
    #: Late registration stays open through this level number (F2).
    late_registration_levels: int = 4
    final_table_size: int = 9
    balance_tolerance: int = 1
    #: After a break, resume by itself (True) or wait for the TD.
    resume_after_break: bool = True
    #: F2: players in at once; more wait on the waiting list. None = the
    #: venue's seats (``max_tables`` × seats per table).
    capacity: int | None = None


@_event(EventKind.PLAYER_REGISTERED)
@record(kw_only=True)
class PlayerRegistered(Event):
    """A player joins tonight's list (a venue player or a walk-in)."""

    player_id: str
    name: str
    #: The player's card UIDs, so every device can tell who tapped in.
    cards: tuple[str, ...] = ()


@_event(EventKind.PLAYER_RENAMED)
@record(kw_only=True)
class PlayerRenamed(Event):
    """A guest checked in without a name ("Guest 3") gets their own."""

    player_id: str
    name: str


@_event(EventKind.PLAYERS_MERGED)
@record(kw_only=True)
class PlayersMerged(Event):
    """Two of the venue's players are one person: ``merged`` is ``keep`` from now on
    (their nights, cards and league points). The event carries what the venue's list
    knew of ``merged``, so an undo can bring them back on any device."""

    keep: str
    keep_name: str
    merged: str
    name: str
    cards: tuple[str, ...] = ()
    created: str = ""


@_event(EventKind.PLAYER_CHECKED_IN)
@record(kw_only=True)
class PlayerCheckedIn(Event):
    """A registered player is here and plays (F1)."""

    player_id: str


@_event(EventKind.LATE_REGISTRATION_CLOSED)
@record(kw_only=True)
class LateRegistrationClosed(Event):
    """No more entries (F2): closed by the TD or at its level."""


@_event(EventKind.SEATS_DRAWN)
@record(kw_only=True)
class SeatsDrawn(Event):
    """The start draw (S1): the draw's outcome is logged, so replay needs no RNG."""

    seats: tuple[SeatAssignment, ...]


@_event(EventKind.PLAYER_SEATED)
@record(kw_only=True)
class PlayerSeated(Event):
    """A late registrant drawn into a free seat (F2, S3)."""

    seat: SeatAssignment


# --- the clock ------------------------------------------------------------

@_event(EventKind.CLOCK_STARTED)
@record(kw_only=True)
class ClockStarted(Event):
    """The clock runs from the first level."""


@_event(EventKind.CLOCK_PAUSED)
@record(kw_only=True)
class ClockPaused(Event):
    """The clock stops where it is."""


@_event(EventKind.CLOCK_RESUMED)
@record(kw_only=True)
class ClockResumed(Event):
    """A paused clock runs on."""


@_event(EventKind.LEVEL_JUMPED)
@record(kw_only=True)
class LevelJumped(Event):
    """The clock moves to the start of another period (next, previous, a jump)."""

    period_index: int


@_event(EventKind.TIME_ADJUSTED)
@record(kw_only=True)
class TimeAdjusted(Event):
    """Seconds added to the current level (negative: taken off)."""

    seconds: float


@_event(EventKind.CLOCK_RESTORED)
@record(kw_only=True)
class ClockRestored(Event):
    """After a power cut with no peers: paused at the last saved position."""

    position: float


# --- busts, moves and tables ----------------------------------------------

@_event(EventKind.PLAYERS_BUSTED)
@record(kw_only=True)
class PlayersBusted(Event):
    """One or more players out in one hand (F3).

    ``groups`` lists them best-placed first; players in one group had equal
    starting stacks and share the better place.
    """

    groups: tuple[tuple[str, ...], ...]
    table: int | None = None
    #: The player who won the pot, credited with the knockouts.
    by: str | None = None


@_event(EventKind.PLAYER_ABSENT)
@record(kw_only=True)
class PlayerAbsent(Event):
    """A seated player is away: their blinds are still posted."""

    player_id: str


@_event(EventKind.PLAYER_RETURNED)
@record(kw_only=True)
class PlayerReturned(Event):
    """An absent player is back in their seat."""

    player_id: str


@_event(EventKind.MOVE_PROPOSED)
@record(kw_only=True)
class MoveProposed(Event):
    """Balancing asks a player to move to another seat."""

    move: Move


@_event(EventKind.MOVE_CONFIRMED)
@record(kw_only=True)
class MoveConfirmed(Event):
    """The moved player has sat down in their new seat."""

    player_id: str


@_event(EventKind.MOVE_CANCELLED)
@record(kw_only=True)
class MoveCancelled(Event):
    """A proposed move is not needed any more."""

    player_id: str


@_event(EventKind.FINAL_TABLE_DRAWN)
@record(kw_only=True)
class FinalTableDrawn(Event):
    """The players left are drawn to the final table's seats."""

    seats: tuple[SeatAssignment, ...]


@_event(EventKind.BREAK_ORDER_SET)
@record(kw_only=True)
class BreakOrderSet(Event):
    """The order in which tables are broken as players go out."""

    tables: tuple[int, ...]


@_event(EventKind.BUTTON_DRAWN)
@record(kw_only=True)
class ButtonDrawn(Event):
    """B8: the high-card draw for the button at one table."""

    table: int
    seat: int
    cards: tuple[tuple[int, str], ...] = ()


@_event(EventKind.HAND_STARTED)
@record(kw_only=True)
class HandStarted(Event):
    """A table device reports a new hand: the button moves on (B3-B5)."""

    table: int


@_event(EventKind.HAND_FOR_HAND_SET)
@record(kw_only=True)
class HandForHandSet(Event):
    """Hand-for-hand play (C7) is switched on or off."""

    on: bool


@_event(EventKind.HAND_FINISHED)
@record(kw_only=True)
class HandFinished(Event):
    """Hand for hand (C7): this table's hand is over; it waits for the others."""

    table: int


@_event(EventKind.CLOCK_CALLED)
@record(kw_only=True)
class ClockCalled(Event):
    """C5: the clock was called on a player at this table; ``at`` starts the countdown."""

    table: int
    seat: int | None = None


# --- Sit & Go --------------------------------------------------------------

@_event(EventKind.SIT_AND_GO_LISTED)
@record(kw_only=True)
class SitAndGoListed(Event):
    """A player puts their name down for the next sit-and-go."""

    player_id: str


@_event(EventKind.SIT_AND_GO_UNLISTED)
@record(kw_only=True)
class SitAndGoUnlisted(Event):
    """A player takes their name off the sit-and-go list."""

    player_id: str


# --- the waiting list (F2) -----------------------------------------------------

@_event(EventKind.PLAYER_WAITLISTED)
@record(kw_only=True)
class PlayerWaitlisted(Event):
    """Every seat is taken: a registered player waits, last on the waiting list (F2)."""

    player_id: str


@_event(EventKind.PLAYER_UNWAITLISTED)
@record(kw_only=True)
class PlayerUnwaitlisted(Event):
    """The TD takes a player off the waiting list."""

    player_id: str


@_event(EventKind.WAITLIST_ADMITTED)
@record(kw_only=True)
class WaitlistAdmitted(Event):
    """A seat came free while late registration is open: the first on the
    waiting list is checked in and drawn into a seat (F2, S3)."""

    seat: SeatAssignment


@_event(EventKind.SIT_AND_GO_STARTED)
@record(kw_only=True)
class SitAndGoStarted(Event):
    """A Sit & Go leaves the waiting list; it runs as its own tournament (G1)."""

    sit_and_go_id: str
    player_ids: tuple[str, ...]


# --- the end of the night ---------------------------------------------------

@_event(EventKind.TOURNAMENT_CLOSED)
@record(kw_only=True)
class TournamentClosed(Event):
    """The night is over for the league: its results stand and nothing changes them.

    Only a :class:`TournamentReopened` (the TD, asked twice) opens it again;
    an undo cannot take a close back, nor reach past one.
    """


@_event(EventKind.TOURNAMENT_REOPENED)
@record(kw_only=True)
class TournamentReopened(Event):
    """The TD opens a closed night again (to correct it); close it again after."""


# --- which one is tonight's -------------------------------------------------

@_event(EventKind.TONIGHT_CHOSEN)
@record(kw_only=True)
class TonightChosen(Event):
    """The TD made this tournament tonight's again (N3: switch back, or undo a NEW).

    It changes nothing in the tournament; which one is tonight's is read from
    the log (``kiosk.tonight.choose``), so every device follows it. No undo
    takes it back: the TD switches again instead.
    """


# --- undo -----------------------------------------------------------------

@_event(EventKind.ACTION_UNDONE)
@record(kw_only=True)
class ActionUndone(Event):
    """Cancels an earlier event by its identity; the log keeps both.

    Undoing an ``ActionUndone`` brings its target back (redo).
    """

    device_id: str
    seq: int


# --- the envelope and the wire form -----------------------------------------

@record
class Record(RecordMethods):
    """An event with its identity and place in the total order."""

    device_id: str
    seq: int
    lamport: int
    tournament_id: str
    event: Event

    @property
    def key(self) -> tuple[int, str, int]:
        """The fold order: Lamport time, then device, then sequence."""
        return (self.lamport, self.device_id, self.seq)

    @property
    def ident(self) -> tuple[str, int]:
        return (self.device_id, self.seq)


def encode_event(event: Event) -> dict[str, Any]:
    """Plain data for an event: its fields plus ``kind`` and schema ``v``.

    >>> data = encode_event(PlayerRegistered(at=12.5, player_id="p1", name="Kari"))
    >>> data["kind"], data["v"], data["name"], data["cards"], "action" in data
    ('player-registered', 1, 'Kari', [], False)
    >>> encode_event(ClockPaused(at=1.0, action="td:4"))["action"]
    'td:4'
    """
    data: dict[str, Any] = to_jsonable(event)
    if not event.action:
        # Spelt as before action ids existed: a stored payload re-encodes byte for byte.
        del data["action"]
    data["kind"] = event.kind.value
    data["v"] = event.schema
    return data


def decode_event(data: Any) -> Event:
    """The event for plain data, or :class:`UnreadableEvent` saying why not.

    >>> decode_event({"kind": "clock-paused", "v": 1, "at": 3.0})
    ClockPaused(at=3.0)
    >>> decode_event({"kind": "clock-paused", "v": 1, "at": 3.0, "action": "td:4"}).action
    'td:4'
    >>> decode_event({"kind": "clock-paused", "v": 9, "at": 3.0})
    Traceback (most recent call last):
    ...
    rules.events.UnreadableEvent: schema 9 of clock-paused is newer than this version reads
    """
    if not isinstance(data, dict):
        raise UnreadableEvent("an event must be an object")
    try:
        kind = EventKind(str(data.get("kind")))
    except ValueError:
        raise UnreadableEvent(f"unknown event kind {data.get('kind')!r}") from None
    cls = _REGISTRY[kind]
    version = data.get("v")
    if not isinstance(version, int) or isinstance(version, bool):
        raise UnreadableEvent("an event needs an integer schema version")
    if version > cls.schema:
        raise UnreadableEvent(f"schema {version} of {kind} is newer than this version reads")
    body = {k: v for k, v in data.items() if k not in ("kind", "v")}
    try:
        return from_jsonable(cls, body)
    except CodecError as err:
        raise UnreadableEvent(f"{kind}: {err}") from None
    except (TypeError, ValueError) as err:
        # A field that decodes but breaks a record's own invariant.
        raise UnreadableEvent(f"{kind}: {err}") from None


def event_to_json(event: Event) -> str:
    """Canonical JSON text of an event (what MACs and the log store)."""
    return canonical_json(encode_event(event))


def event_from_json(text: str | bytes) -> Event:
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as err:
        raise UnreadableEvent(f"not JSON: {err}") from None
    return decode_event(data)


def kinds() -> dict[EventKind, type[Event]]:
    """Every registered event class by kind (a test checks the set is closed)."""
    return dict(_REGISTRY)
