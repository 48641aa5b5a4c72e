"""What each role may emit: one pure check, applied identically everywhere.

The rule lives in the rules core (:mod:`rules.authority`, which explains the
design); this is peer sync's spelling of it, the reason as plain text for
the log and counters.

Design (why honest peers never disagree): the check is a pure function of
the event and the role and table its origin *signed into the event's seal*
(see :mod:`kiosk.sync.auth`), and the origin's device id, which is part of
the event's sealed identity. It reads no state, no clock and nothing about
the link it came over, so every peer that receives the same event reaches
the same verdict, whatever order or path it arrives by. A refused event is
dropped and counted on every peer alike. The signed hello frame adds one
more check on direct links: a device's own events must carry the role it
announced in its hello.

Two limits, by design. The device that emitted a refused event has it in its
own log (the station appends before sync sees it), so the kiosk checks
:func:`rules.authority.verify` before it gives a command; sync counts such an
event as ``role-local``. And whether a confirmed move targets the table's
own table depends on the state, which a receipt-time check cannot see without
peers disagreeing; only the reducer, folding in one order everywhere, can
check it.

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
'Table 3 may not report for table 2'
"""

from __future__ import annotations

from rules.authority import BUST_CONSEQUENCES, CLOCK_EVENTS, event_refusal
from rules.events import Event
from rules.roles import Role, parse_roles

__all__ = ["BUST_CONSEQUENCES", "CLOCK_EVENTS", "Role", "allowed", "parse_roles"]


def allowed(role: str, table: int | None, event: Event, *,
            origin: str | None = None) -> str | None:
    """None if a device of ``role`` (and ``table``) may emit ``event``; else why not.

    ``origin``, the emitting device's id, lets a table device's undo of its
    own events through (:func:`rules.authority.event_refusal`).
    """
    refused = event_refusal(role, table, event, origin=origin)
    return None if refused is None else str(refused)
