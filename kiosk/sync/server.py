"""The websocket endpoint: peers at ``/sync``; a seam for a read-only phone view.

Phones will later read the tournament at ``/view`` through a handler passed
in here; until then any other path is answered 404 before the upgrade.

Every connection passes the :class:`~kiosk.sync.gate.Gate` inside the
listening socket's ``accept`` (:class:`_Listener`): one over the caps is
reset there and then, before asyncio makes a transport or websockets a
protocol and a task for it; a flood costs an accept and a close each. One
admitted and not proven by its deadline is reset then
(:class:`GatedConnection`). A handler for ``/view`` (phones, no key) must
call :meth:`GatedConnection.authenticated` itself once it has what it needs.

A process out of file descriptors keeps running: asyncio pauses the
listener for a second itself (``selector_events._accept_connection``), and
:func:`kiosk.accept_pauses.count_accept_pauses` turns its error log (one per failed ``accept``,
up to a hundred a pause) into one counter and one line.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import socket
import struct
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any, cast

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.http11 import Request, Response

from kiosk.accept_pauses import count_accept_pauses, keep_reserve
from kiosk.sync.frames import MAX_FRAME
from kiosk.sync.gate import Gate, Ticket
from kiosk.sync.stats import Drop, SyncStats

__all__ = ["PEER_PATH", "VIEW_PATH", "Admission", "GatedConnection", "Listening",
           "start_server"]

log = logging.getLogger(__name__)

PEER_PATH = "/sync"
VIEW_PATH = "/view"
#: The kernel's queue of connections not yet accepted: a burst waits there
#: rather than being dropped (and retried by the peer a second later).
BACKLOG = 512
#: Refusals in one call of accept(): then the loop's other work gets its turn.
REFUSE_AT_ONCE = 64

Handler = Callable[[ServerConnection], Awaitable[None]]

#: SO_LINGER on, zero seconds: close() sends a reset and leaves no TIME_WAIT behind.
_RESET = struct.pack("ii", 1, 0)


def _reset(transport: asyncio.BaseTransport) -> None:
    sock = transport.get_extra_info("socket")
    if sock is not None:
        # Already gone: abort() below is all there is to do.
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _RESET)
    cast(asyncio.Transport, transport).abort()


@dataclass
class Admission:
    """The gate, and the tickets of sockets accepted but not yet connected."""

    gate: Gate
    stats: SyncStats
    _accepted: dict[Any, Ticket] = field(default_factory=dict)

    def at_accept(self, peer: Any) -> bool:
        """Admit the socket just accepted from ``peer``, or count it held off."""
        now = time.monotonic()
        if self._accepted:  # normally a loop pass or two old; never left behind
            for key, lost in list(self._accepted.items()):
                if now >= lost.due:
                    del self._accepted[key]
                    self.gate.closed(lost)
        ticket = self.gate.admit(str(peer[0]), now)
        if ticket is None:
            self.stats.drop(Drop.HELD_OFF)
            return False
        self._accepted[peer] = ticket
        return True

    def at_connection(self, peer: Any) -> Ticket | None:
        """The ticket of a new connection (admitted now if it came another way)."""
        accepted = self._accepted.pop(peer, None)
        if accepted is not None:
            return accepted
        ticket = self.gate.admit(str(peer[0]) if peer else "?", time.monotonic())
        if ticket is None:
            self.stats.drop(Drop.HELD_OFF)
        return ticket


class _Listener(socket.socket):
    """A listening socket whose ``accept`` resets what the gate refuses."""

    def __init__(self, family: int, admission: Admission) -> None:
        super().__init__(family, socket.SOCK_STREAM)
        self.admission = admission

    def accept(self) -> tuple[socket.socket, Any]:
        for _ in range(REFUSE_AT_ONCE):
            fd, peer = self._accept()  # type: ignore[attr-defined]
            conn = socket.socket(self.family, self.type, self.proto, fileno=fd)
            keep_reserve(conn)
            if self.admission.at_accept(peer):
                return conn, peer
            with contextlib.suppress(OSError):
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _RESET)
            conn.close()
        # As if the queue were empty: asyncio tries again on the loop's next pass.
        raise BlockingIOError(errno.EAGAIN, "enough refusals for one pass")


class GatedConnection(ServerConnection):
    """A server connection that holds a place at the gate until it is proven."""

    def __init__(self, *args: Any, admission: Admission, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.gate = admission.gate
        self.admission = admission
        self.stats = admission.stats
        self.ticket: Ticket | None = None
        self._timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.ticket = self.admission.at_connection(transport.get_extra_info("peername"))
        if self.ticket is None:
            # Nothing was set up for it: no handler task, no reader, no timer.
            _reset(transport)
            return
        super().connection_made(transport)
        self._timer = self.loop.call_later(self.ticket.due - time.monotonic(), self._due)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.ticket is None:  # held off in connection_made
            return
        self._release()
        self.gate.closed(self.ticket)
        super().connection_lost(exc)

    def authenticated(self) -> None:
        """The peer sent a genuine frame of this link's session: it waits no more."""
        self._release()
        if self.ticket is not None:
            self.gate.authenticated(self.ticket)

    def _due(self) -> None:
        self._timer = None
        if self.ticket is not None and self.gate.overdue(self.ticket, time.monotonic()):
            self.stats.drop(Drop.HELLO_TIMEOUT)
            self.gate.closed(self.ticket)
            _reset(self.transport)

    def _release(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


@dataclass
class Listening:
    """The websocket servers of a device: one per listening socket."""

    servers: list[Server]

    @property
    def sockets(self) -> list[Any]:
        return [sock for server in self.servers for sock in server.sockets]

    def close(self) -> None:
        for server in self.servers:
            server.close()

    async def wait_closed(self) -> None:
        await asyncio.gather(*(server.wait_closed() for server in self.servers))


def _listeners(hosts: Sequence[str] | None, port: int,
               admission: Admission) -> list[_Listener]:
    """Bound sockets for every address of ``hosts`` (all, if None), on one port."""
    addresses: list[tuple[int, Any]] = []
    wanted: list[str | None] = list(hosts or []) or [None]
    for host in wanted:
        for info in socket.getaddrinfo(
                host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE):
            if (info[0], info[4]) not in addresses:
                addresses.append((info[0], info[4]))
    made: list[_Listener] = []
    try:
        for family, address in addresses:
            if made and port == 0:  # the first one's port for all: one to announce
                address = (address[0], made[0].getsockname()[1], *address[2:])
            sock = _Listener(family, admission)
            made.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
    except BaseException:
        for sock in made:
            sock.close()
        raise
    return made


async def start_server(peer: Handler, *, hosts: Sequence[str] | None, port: int,
                       gate: Gate, stats: SyncStats,
                       view: Handler | None = None, ping_interval: float = 1.0,
                       ping_timeout: float = 2.0) -> Listening:
    routes = {PEER_PATH: peer}
    if view is not None:
        routes[VIEW_PATH] = view

    def route(conn: ServerConnection, request: Request) -> Response | None:
        if request.path not in routes:
            return conn.respond(HTTPStatus.NOT_FOUND, "no such endpoint\n")
        return None

    async def handler(conn: ServerConnection) -> None:
        await routes[conn.request.path if conn.request else PEER_PATH](conn)

    admission = Admission(gate, stats)

    def connection(*args: Any, **kwargs: Any) -> GatedConnection:
        return GatedConnection(*args, admission=admission, **kwargs)

    count_accept_pauses(asyncio.get_running_loop(), lambda: stats.drop(Drop.ACCEPT_PAUSED),
                        who="peers", logger=log)
    servers: list[Server] = []
    try:
        for sock in _listeners(hosts, port, admission):
            servers.append(await serve(
                handler, sock=sock, backlog=BACKLOG, create_connection=cast(Any, connection),
                process_request=route, max_size=MAX_FRAME, compression=None,
                ping_interval=ping_interval, ping_timeout=ping_timeout,
                close_timeout=1, open_timeout=gate.deadline))
    except BaseException:
        for server in servers:
            server.close()
        raise
    return Listening(servers)
