"""Who may hold a sync connection before proving the venue key, and for how long.

Anyone on the pub's Wi-Fi can open connections to a device's sync port, and
each one costs the device a file descriptor. A connection is *waiting* from
the moment it is accepted until its peer has sent a genuine frame bound to
the link's session (:attr:`kiosk.sync.link.Link.verified`): only a holder of
the venue key gets that far. Waiting connections are capped in total and per
remote address, so one laptop cannot take them all, and each has a deadline:
a real peer needs a few round trips, a silent one is closed when it is due.
A proven link no longer counts here (at most one per peer is kept; see
:meth:`kiosk.sync.service.SyncService._proven`).

An address that has proven itself before (a peer of this night) waits in a
pool of its own, as large as the strangers': a flood from many addresses
fills the strangers' pool, but a table that lost its link relinks through
it. Only the last :data:`REMEMBERED` such addresses are kept.

Pure: the caller passes the time and does the closing.

>>> gate = Gate(total=3, per_address=2, deadline=3.0)
>>> a, b = gate.admit("10.0.0.9", now=0.0), gate.admit("10.0.0.9", now=0.1)
>>> gate.admit("10.0.0.9", now=0.2) is None  # a third from the same address
True
>>> gate.authenticated(a)
>>> gate.admit("10.0.0.9", now=0.3) is not None
True
>>> gate.overdue(b, now=3.1)
True
>>> [gate.admit(f"10.0.0.{n}", now=4.0) is None for n in (1, 2, 3)]  # the total
[False, False, True]
>>> gate.closed(b)
>>> gate.admit("10.0.0.9", now=4.0) is not None  # proven before: its own pool
True
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from enum import Enum

__all__ = ["REMEMBERED", "Gate", "Ticket"]

#: Addresses remembered as having proven the key (the most recent ones).
REMEMBERED = 256


class _State(Enum):
    WAITING = "waiting"
    AUTHENTICATED = "authenticated"
    CLOSED = "closed"


@dataclass(eq=False)
class Ticket:
    """One admitted connection's place at the gate."""

    address: str
    opened: float
    due: float
    #: Admitted from the pool of addresses that proved the key before.
    known: bool = False
    state: _State = _State.WAITING

    @property
    def waiting(self) -> bool:
        return self.state is _State.WAITING


@dataclass
class Gate:
    #: Waiting connections at most, from strangers together (and as many again
    #: from addresses that proved the key before) ...
    total: int
    #: ... and from one remote address.
    per_address: int
    #: Seconds a connection may wait, from its accept to its first proven frame.
    deadline: float
    _by_address: Counter[str] = field(default_factory=Counter, repr=False)
    #: Waiting now: strangers, and addresses known to have proven the key.
    _pools: Counter[bool] = field(default_factory=Counter, repr=False)
    _known: OrderedDict[str, None] = field(default_factory=OrderedDict, repr=False)

    def __post_init__(self) -> None:
        if self.total < 1 or self.per_address < 1 or self.deadline <= 0:
            raise ValueError(f"a gate needs room and time: {self!r}")

    @property
    def waiting(self) -> int:
        return self._pools[False] + self._pools[True]

    def waiting_from(self, address: str) -> int:
        return self._by_address[address]

    def admit(self, address: str, now: float) -> Ticket | None:
        """A ticket for a new connection from ``address``, or None: close it at once."""
        known = address in self._known
        if self._pools[known] >= self.total or self._by_address[address] >= self.per_address:
            return None
        self._pools[known] += 1
        self._by_address[address] += 1
        return Ticket(address, now, now + self.deadline, known)

    def authenticated(self, ticket: Ticket) -> None:
        """The peer proved the key: its connection waits no more."""
        if ticket.waiting:
            self.remember(ticket.address)
        self._leave(ticket, _State.AUTHENTICATED)

    def remember(self, address: str) -> None:
        """A peer at ``address`` proved the key (on a link either end dialled)."""
        self._known[address] = None
        self._known.move_to_end(address)
        while len(self._known) > REMEMBERED:
            self._known.popitem(last=False)

    def closed(self, ticket: Ticket) -> None:
        """The connection is gone (any time, any number of times)."""
        self._leave(ticket, _State.CLOSED)

    def overdue(self, ticket: Ticket, now: float) -> bool:
        """The connection still waits and its time is up: close it."""
        return ticket.waiting and now >= ticket.due

    def _leave(self, ticket: Ticket, state: _State) -> None:
        if not ticket.waiting:
            return
        ticket.state = state
        self._pools[ticket.known] -= 1
        self._by_address[ticket.address] -= 1
        if not self._by_address[ticket.address]:
            del self._by_address[ticket.address]
