"""What each role may emit: one pure check, applied identically everywhere.

Design (why honest peers never disagree): the check is a pure function of
the event and the role and table its origin *signed into the event's seal*
(see :mod:`kiosk.sync.auth`). It reads no state, no clock and nothing about
the link it came over, so every peer that receives the same event reaches the
same verdict, whatever order or path it arrives by. A refused event is
dropped and counted on every peer alike. The signed hello frame adds one
more check on direct links: a device's own events must carry the role it
announced in its hello.

Two limits, by design. The device that emitted a refused event has it in its
own log (the station appends before sync sees it), so the kiosk should check
:func:`allowed` before it offers a command; sync counts such an event as
``role-local``. And whether a confirmed move targets the table's own table
depends on the state, which a receipt-time check cannot see without peers
disagreeing; only the reducer, folding in one order everywhere, can check it.

>>> from rules.events import LevelJumped, PlayersBusted
>>> allowed("table", 3, LevelJumped(at=0.0, period_index=2)) is None
False
>>> allowed("table", 3, PlayersBusted(at=0.0, groups=(("p1",),), table=3)) is None
True
>>> allowed("console", None, LevelJumped(at=0.0, period_index=2)) is None
True
>>> from rules.events import ClockCalled
>>> allowed("table", 3, ClockCalled(at=0.0, table=3)) is None
True
>>> allowed("table", 3, ClockCalled(at=0.0, table=2))
'table 3 may not report for table 2'
"""

from __future__ import annotations

from typing import Final

from kiosk.role import Role, parse_roles
from rules.events import (
    ButtonDrawn,
    ClockCalled,
    ClockPaused,
    ClockRestored,
    ClockResumed,
    ClockStarted,
    Event,
    FinalTableDrawn,
    HandFinished,
    HandStarted,
    LevelJumped,
    MoveConfirmed,
    MoveProposed,
    PlayersBusted,
    TimeAdjusted,
)

__all__ = ["BUST_CONSEQUENCES", "CLOCK_EVENTS", "Role", "allowed", "parse_roles"]


#: Clock and level events: only the TD's devices move the clock.
CLOCK_EVENTS: Final = (ClockStarted, ClockPaused, ClockResumed, LevelJumped, TimeAdjusted,
                       ClockRestored)


#: What the rules core decides along with a table's bust: the balancing moves
#: and the final-table draw. Refusing them would split the table from its peers.
BUST_CONSEQUENCES: Final = (MoveProposed, FinalTableDrawn)


def _table_may(table: int | None, event: Event) -> str | None:
    if table is None:
        return "a table device without a table number"
    # Its buttons: BUST, NEW HAND (the first draws the button), CLOCK, HAND DONE.
    if isinstance(event, PlayersBusted | HandStarted | ButtonDrawn | ClockCalled | HandFinished):
        if event.table != table:
            return f"table {table} may not report for table {event.table}"
        return None
    if isinstance(event, MoveConfirmed):
        # The move's target is in the state, not the event; the reducer, which
        # folds in one order everywhere, is where that part can be checked.
        return None
    if isinstance(event, BUST_CONSEQUENCES):
        return None
    return f"a table device may not emit {event.kind.value}"


def allowed(role: str, table: int | None, event: Event) -> str | None:
    """None if a device of ``role`` (and ``table``) may emit ``event``; else why not."""
    try:
        roles = parse_roles(role)
    except ValueError as err:
        return str(err)
    if roles & {Role.DISPLAY, Role.CONSOLE}:
        return None
    return _table_may(table, event)
