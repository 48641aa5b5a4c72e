"""The websocket endpoint: peers at ``/sync``; a seam for a read-only phone view.

Phones will later read the tournament at ``/view`` through a handler passed
in here; until then any other path is answered 404 before the upgrade.

Every accepted connection passes the :class:`~kiosk.sync.gate.Gate` first,
in ``connection_made``, before websockets reads a byte of it: one over the
caps is reset at once, and one that has not proven the venue key by its
deadline is reset then (:class:`GatedConnection`). A process out of file
descriptors keeps running: asyncio pauses the listener for a second itself
(``selector_events._accept_connection``), and :func:`count_accept_pauses`
turns its error log (one per refused ``accept``, up to a hundred a pause)
into one counter and one line.
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
from http import HTTPStatus
from typing import Any, cast

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.http11 import Request, Response

from kiosk.sync.frames import MAX_FRAME
from kiosk.sync.gate import Gate, Ticket
from kiosk.sync.stats import Drop, SyncStats

__all__ = ["PEER_PATH", "VIEW_PATH", "GatedConnection", "count_accept_pauses",
           "start_server"]

log = logging.getLogger(__name__)

PEER_PATH = "/sync"
VIEW_PATH = "/view"
#: Seconds between two log lines about running out of descriptors (each pause counts).
PAUSE_LOG_EVERY = 60.0

Handler = Callable[[ServerConnection], Awaitable[None]]

_OUT_OF = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
#: SO_LINGER on, zero seconds: close() sends a reset and leaves no TIME_WAIT behind.
_RESET = struct.pack("ii", 1, 0)


def _reset(transport: asyncio.BaseTransport) -> None:
    sock = transport.get_extra_info("socket")
    if sock is not None:
        # Already gone: abort() below is all there is to do.
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _RESET)
    cast(asyncio.Transport, transport).abort()


class GatedConnection(ServerConnection):
    """A server connection that holds a place at the gate until it is proven."""

    def __init__(self, *args: Any, gate: Gate, stats: SyncStats, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.gate = gate
        self.stats = stats
        self.ticket: Ticket | None = None
        self._timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        now = self.loop.time()
        self.ticket = self.gate.admit(address, now)
        if self.ticket is None:
            # Nothing was set up for it: no handler task, no reader, no timer.
            self.stats.drop(Drop.HELD_OFF)
            _reset(transport)
            return
        super().connection_made(transport)
        self._timer = self.loop.call_at(self.ticket.due, self._due)

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
        if self.ticket is not None and self.gate.overdue(self.ticket, self.loop.time()):
            self.stats.drop(Drop.HELLO_TIMEOUT)
            self.gate.closed(self.ticket)
            _reset(self.transport)

    def _release(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


def count_accept_pauses(loop: asyncio.AbstractEventLoop, stats: SyncStats) -> None:
    """Count the listener's pauses for want of descriptors; log one line, not hundreds.

    asyncio reports each ``accept`` that failed with EMFILE or ENFILE to the
    loop's exception handler, removes the listener's reader and adds it back
    a second later; the process and every other descriptor it has (SQLite,
    the store watcher, the screen) go on as before. Other errors go to the
    handler that was there.
    """
    previous = loop.get_exception_handler()
    last_pause = -PAUSE_LOG_EVERY
    last_log = -PAUSE_LOG_EVERY
    pauses = 0

    def handle(lp: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        nonlocal last_pause, last_log, pauses
        exc = context.get("exception")
        if not (isinstance(exc, OSError) and exc.errno in _OUT_OF
                and "accept" in str(context.get("message", ""))):
            if previous is not None:
                previous(lp, context)
            else:
                lp.default_exception_handler(context)
            return
        now = time.monotonic()
        # One pause of the listener reports every accept tried in that tick.
        if now - last_pause >= 0.5:
            pauses += 1
            stats.drop(Drop.ACCEPT_PAUSED)
        last_pause = now
        if now - last_log >= PAUSE_LOG_EVERY:
            last_log = now
            log.warning("out of file descriptors (%s): not accepting peers for a second "
                        "(%d pauses so far)", exc.strerror, pauses)

    loop.set_exception_handler(handle)


async def start_server(peer: Handler, *, hosts: Sequence[str] | None, port: int,
                       gate: Gate, stats: SyncStats,
                       view: Handler | None = None, ping_interval: float = 1.0,
                       ping_timeout: float = 2.0) -> Server:
    routes = {PEER_PATH: peer}
    if view is not None:
        routes[VIEW_PATH] = view

    def route(conn: ServerConnection, request: Request) -> Response | None:
        if request.path not in routes:
            return conn.respond(HTTPStatus.NOT_FOUND, "no such endpoint\n")
        return None

    async def handler(conn: ServerConnection) -> None:
        await routes[conn.request.path if conn.request else PEER_PATH](conn)

    def connection(*args: Any, **kwargs: Any) -> GatedConnection:
        return GatedConnection(*args, gate=gate, stats=stats, **kwargs)

    count_accept_pauses(asyncio.get_running_loop(), stats)
    # asyncio's create_server takes a list of hosts; serve() passes it through.
    host = cast(Any, list(hosts)) if hosts else None
    return await serve(handler, host, port, create_connection=cast(Any, connection),
                       process_request=route, max_size=MAX_FRAME, compression=None,
                       ping_interval=ping_interval, ping_timeout=ping_timeout,
                       close_timeout=1, open_timeout=gate.deadline)
