"""What each role may do: the TD's devices anything, a table device its own table.

Two checks, one rule.

The **event** check (:func:`event_refusal`, :func:`verify_event`,
:func:`can_emit`) is what peer sync applies at receipt. It is a pure function
of the event and the role and table its origin *signed into the event's
seal* (``kiosk.sync.auth``), plus the origin's device id from the event's
identity. It reads no state, no clock and nothing about the link it came
over, so every peer that receives the same event reaches the same verdict,
whatever order or path it arrives by; a refused event is dropped and
counted on every peer alike. Whether a confirmed move targets the table's
own table depends on the state, which a receipt-time check cannot see
without peers disagreeing; only the reducer, folding in one order
everywhere, can check that.

The **command** check (:func:`verify`, :func:`can`) runs on the device that
would give the command, before anything is written, so the device never
stores an event its peers would drop. It may read the state (its own
device's, as the TD sees it), so it also refuses a table's confirmation of
a move to another table. A table device greys out what :func:`can` refuses,
and the refusal says why, in the venue's language.

>>> from rules.events import ClockCalled, LevelJumped, PlayersBusted
>>> can_emit("table", 3, LevelJumped(at=0.0, period_index=2))
False
>>> can_emit("table", 3, PlayersBusted(at=0.0, groups=(("p1",),), table=3))
True
>>> can_emit("console", None, LevelJumped(at=0.0, period_index=2))
True
>>> str(event_refusal("table", 3, ClockCalled(at=0.0, table=2)))
'Table 3 may not report for table 2'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from rules import commands as c
from rules.errors import RulesError
from rules.events import (
    ActionUndone,
    ButtonDrawn,
    ClockCalled,
    ClockPaused,
    ClockRestored,
    ClockResumed,
    ClockStarted,
    Event,
    EventKind,
    FinalTableDrawn,
    HandFinished,
    HandStarted,
    LevelJumped,
    MoveCancelled,
    MoveConfirmed,
    MoveProposed,
    PlayersBusted,
    TimeAdjusted,
    WaitlistAdmitted,
)
from rules.roles import TD_ROLES, Role, Roles, roles_of
from rules.state import Phase, Tournament

__all__ = [
    "BUST_CONSEQUENCES",
    "CLOCK_EVENTS",
    "TABLE_COMMANDS",
    "NoTableNumber",
    "NotAllowed",
    "NotForThisDevice",
    "NotOwnAction",
    "NotThisTable",
    "can",
    "can_emit",
    "event_refusal",
    "refusal",
    "verify",
    "verify_event",
]


class NotAllowed(RulesError, PermissionError):
    """Base of the refusals of a role: the command is fine, this device may not give it."""

    messages = {
        "nn": "Denne eininga kan ikkje gjere det",
        "nb": "Denne enheten kan ikke gjøre det",
        "da": "Denne enhed kan ikke gøre det",
        "en": "This device may not do that",
    }


class NotForThisDevice(NotAllowed):
    messages = {
        "nn": "Denne eininga kan ikkje gjere det ({kind}); bruk turneringsleiaren sin boks",
        "nb": "Denne enheten kan ikke gjøre det ({kind}); bruk turneringslederens boks",
        "da": "Denne enhed kan ikke gøre det ({kind}); brug turneringslederens boks",
        "en": "This device may not do that ({kind}); use the TD's box",
    }


class NotThisTable(NotAllowed):
    messages = {
        "nn": "Bord {table} kan ikkje melde for bord {other}",
        "nb": "Bord {table} kan ikke melde for bord {other}",
        "da": "Bord {table} kan ikke melde for bord {other}",
        "en": "Table {table} may not report for table {other}",
    }


class NoTableNumber(NotAllowed):
    messages = {
        "nn": "Ei bordeining treng bordnummeret sitt",
        "nb": "En bordenhet trenger bordnummeret sitt",
        "da": "En bordenhed skal have sit bordnummer",
        "en": "A table device needs its table number",
    }


class NotOwnAction(NotAllowed):
    messages = {
        "nn": ("Ei bordeining kan berre angre sine eigne handlingar;"
               " bruk turneringsleiaren sin boks"),
        "nb": "En bordenhet kan bare angre sine egne handlinger; bruk turneringslederens boks",
        "da": "En bordenhed kan kun fortryde sine egne handlinger; brug turneringslederens boks",
        "en": "A table device may only undo its own actions; use the TD's box",
    }


#: Clock and level events: only the TD's devices move the clock.
CLOCK_EVENTS: Final = (ClockStarted, ClockPaused, ClockResumed, LevelJumped, TimeAdjusted,
                       ClockRestored)

#: What the rules core decides along with a table's bust or confirmed move:
#: the balancing moves (a re-plan cancels a pending move first) and the
#: final-table draw, and the waiting list's first drawn into a freed seat (F2).
#: Refusing them would split the table from its peers.
BUST_CONSEQUENCES: Final = (MoveProposed, MoveCancelled, FinalTableDrawn, WaitlistAdmitted)

#: A table device's buttons, as events that name a table: BUST, NEW HAND (the
#: first draws the button), CLOCK, HAND DONE.
_TABLE_REPORTS: Final = (PlayersBusted, HandStarted, ButtonDrawn, ClockCalled, HandFinished)


# --- the event check (sync at receipt) ----------------------------------------------

def event_refusal(roles: Roles, table: int | None, event: Event, *,
                  origin: str | None = None) -> RulesError | None:
    """None if a device of ``roles`` (and ``table``) may emit ``event``; else why not.

    ``origin`` is the emitting device's id: a table device may undo its own
    events, and without it no undo of a table's is accepted.

    >>> from rules.events import ActionUndone, HandStarted
    >>> undo = ActionUndone(at=1.0, device_id="t3", seq=9)
    >>> event_refusal("table", 3, undo, origin="t3") is None
    True
    >>> str(event_refusal("table", 3, undo, origin="t4"))
    "A table device may only undo its own actions; use the TD's box"
    >>> str(event_refusal("bartender", None, HandStarted(at=0.0, table=1)))
    "Unknown device role: 'bartender'"
    """
    try:
        held = roles_of(roles)
    except RulesError as err:
        return err
    if held & TD_ROLES:
        return None
    return _table_may_emit(table, event, origin)


def _table_may_emit(table: int | None, event: Event, origin: str | None) -> RulesError | None:
    if table is None:
        return NoTableNumber()
    if isinstance(event, _TABLE_REPORTS):
        if event.table is None:
            return NotForThisDevice(kind=event.kind.value)
        if event.table != table:
            return NotThisTable(table=table, other=event.table)
        return None
    if isinstance(event, (MoveConfirmed, *BUST_CONSEQUENCES)):
        # A confirmed move's target is in the state, not the event: the reducer,
        # which folds in one order everywhere, is where that part is checked.
        return None
    if isinstance(event, ActionUndone):
        return None if origin is not None and event.device_id == origin else NotOwnAction()
    return NotForThisDevice(kind=event.kind.value)


def verify_event(roles: Roles, table: int | None, event: Event, *,
                 origin: str | None = None) -> None:
    """Raise why a device of ``roles`` may not emit ``event`` (see :func:`event_refusal`)."""
    refused = event_refusal(roles, table, event, origin=origin)
    if refused is not None:
        raise refused


def can_emit(roles: Roles, table: int | None, event: Event, *,
             origin: str | None = None) -> bool:
    """Whether a device of ``roles`` may emit ``event`` (see :func:`event_refusal`)."""
    return event_refusal(roles, table, event, origin=origin) is None


# --- the command check (the device that would give it) ------------------------------

def _own_table(table: int | None, named: int | None, kind: EventKind) -> RulesError | None:
    if named is None:
        return NotForThisDevice(kind=kind.value)
    return None if named == table else NotThisTable(table=table, other=named)


def _confirm(state: Tournament, cmd: c.ConfirmMove, table: int | None,
             device_id: str | None) -> RulesError | None:
    move = state.moves.get(cmd.player_id)
    if move is None or move.target.table == table:
        return None  # no such move is for the rules to say (MoveNotProposed)
    return NotThisTable(table=table, other=move.target.table)


def _undo(targets: tuple[tuple[str, int], ...], device_id: str | None) -> RulesError | None:
    if device_id is None or any(d != device_id for d, _ in targets):
        return NotOwnAction()
    return None


_TableCheck = Callable[[Tournament, Any, int | None, str | None], RulesError | None]

#: What a table device may give, each with what it checks.
TABLE_COMMANDS: Final[dict[type[c.Command], _TableCheck]] = {
    c.BustPlayers: lambda s, cmd, t, d: _own_table(t, cmd.table, EventKind.PLAYERS_BUSTED),
    c.StartHand: lambda s, cmd, t, d: _own_table(t, cmd.table, EventKind.HAND_STARTED),
    c.DrawButton: lambda s, cmd, t, d: _own_table(t, cmd.table, EventKind.BUTTON_DRAWN),
    c.CallClock: lambda s, cmd, t, d: _own_table(t, cmd.table, EventKind.CLOCK_CALLED),
    c.FinishHand: lambda s, cmd, t, d: _own_table(t, cmd.table, EventKind.HAND_FINISHED),
    c.ConfirmMove: _confirm,
    c.Undo: lambda s, cmd, t, d: _undo(((cmd.device_id, cmd.seq),), d),
    c.UndoAction: lambda s, cmd, t, d: _undo(cmd.targets, d),
}

#: The event a TD-only command is named by in a refusal.
_KINDS: Final[dict[type[c.Command], EventKind]] = {
    c.CreateTournament: EventKind.TOURNAMENT_CREATED,
    c.RegisterPlayer: EventKind.PLAYER_REGISTERED,
    c.RenamePlayer: EventKind.PLAYER_RENAMED,
    c.MergePlayers: EventKind.PLAYERS_MERGED,
    c.CheckIn: EventKind.PLAYER_CHECKED_IN,
    c.CloseLateRegistration: EventKind.LATE_REGISTRATION_CLOSED,
    c.RemoveFromWaitingList: EventKind.PLAYER_UNWAITLISTED,
    c.DrawSeats: EventKind.SEATS_DRAWN,
    c.StartClock: EventKind.CLOCK_STARTED,
    c.PauseClock: EventKind.CLOCK_PAUSED,
    c.ResumeClock: EventKind.CLOCK_RESUMED,
    c.NextLevel: EventKind.LEVEL_JUMPED,
    c.PreviousLevel: EventKind.LEVEL_JUMPED,
    c.JumpToLevel: EventKind.LEVEL_JUMPED,
    c.AdjustTime: EventKind.TIME_ADJUSTED,
    c.MarkAbsent: EventKind.PLAYER_ABSENT,
    c.MarkReturned: EventKind.PLAYER_RETURNED,
    c.CancelMove: EventKind.MOVE_CANCELLED,
    c.MovePlayer: EventKind.MOVE_PROPOSED,
    c.BreakTable: EventKind.MOVE_PROPOSED,
    c.SetBreakOrder: EventKind.BREAK_ORDER_SET,
    c.SetHandForHand: EventKind.HAND_FOR_HAND_SET,
    c.ListForSitAndGo: EventKind.SIT_AND_GO_LISTED,
    c.StartSitAndGo: EventKind.SIT_AND_GO_STARTED,
    c.StartNextSitAndGo: EventKind.SIT_AND_GO_STARTED,
    c.CloseTournament: EventKind.TOURNAMENT_CLOSED,
    c.ReopenTournament: EventKind.TOURNAMENT_REOPENED,
    c.ChooseTonight: EventKind.TONIGHT_CHOSEN,
}


def _kind(state: Tournament, command: c.Command) -> EventKind:
    if isinstance(command, c.Start):
        return EventKind.SEATS_DRAWN if state.phase is Phase.CHECK_IN else EventKind.CLOCK_STARTED
    if isinstance(command, c.TogglePause):
        if not state.clock.started:
            return EventKind.CLOCK_STARTED
        return EventKind.CLOCK_PAUSED if state.clock.running else EventKind.CLOCK_RESUMED
    return _KINDS.get(type(command), EventKind.ACTION_UNDONE)


def refusal(state: Tournament, command: c.Command, roles: Roles, table: int | None = None,
            *, device_id: str | None = None) -> RulesError | None:
    """None if a device of ``roles`` may give ``command`` in ``state``; else why not.

    ``table`` is a table device's table, ``device_id`` the device's own id
    (a table device may undo only its own actions). Whether the command
    itself is valid now is :func:`rules.commands.decide`'s to say.

    >>> from rules.commands import CallClock, NextLevel, Start
    >>> t = Tournament()
    >>> refusal(t, CallClock(3), "table", 3) is None, refusal(t, Start(), "console") is None
    (True, True)
    >>> str(refusal(t, NextLevel(), "table", 3))
    "This device may not do that (level-jumped); use the TD's box"
    """
    try:
        held = roles_of(roles)
    except RulesError as err:
        return err
    if held & TD_ROLES:
        return None
    assert Role.TABLE in held
    if table is None:
        return NoTableNumber()
    check = TABLE_COMMANDS.get(type(command))
    if check is None:
        return NotForThisDevice(kind=_kind(state, command).value)
    return check(state, command, table, device_id)


def verify(state: Tournament, command: c.Command, roles: Roles, table: int | None = None,
           *, device_id: str | None = None) -> None:
    """Raise why a device of ``roles`` may not give ``command`` (see :func:`refusal`).

    >>> from rules.commands import StartHand
    >>> verify(Tournament(), StartHand(2), "table", 3)
    Traceback (most recent call last):
    ...
    rules.authority.NotThisTable: Table 3 may not report for table 2
    """
    refused = refusal(state, command, roles, table, device_id=device_id)
    if refused is not None:
        raise refused


def can(state: Tournament, command: c.Command, roles: Roles, table: int | None = None,
        *, device_id: str | None = None) -> bool:
    """Whether a device of ``roles`` may give ``command``: a table device greys out the rest.

    >>> from rules.commands import BustPlayers, Start, UndoAction
    >>> t = Tournament()
    >>> can(t, BustPlayers(("p1",), table=3), "table", 3), can(t, Start(), "table", 3)
    (True, False)
    >>> can(t, UndoAction((("t3", 4),)), "table", 3, device_id="t3")
    True
    """
    return refusal(state, command, roles, table, device_id=device_id) is None
