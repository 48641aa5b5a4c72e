"""A listener out of file descriptors: one counter and one log line, not a traceback an accept.

asyncio reports each ``accept`` that failed with EMFILE or ENFILE to the
loop's exception handler (with a full traceback, up to a hundred a pass),
removes the listener's reader and adds it back a second later; the process
and every other descriptor it has (SQLite, the store watcher, the screen) go
on as before. A flood that keeps a process at its limit would otherwise
write megabytes of tracebacks a minute into a log on an SD card.

Peer sync's loop and the phones' page's loop each install it on their own
event loop (:func:`kiosk.sync.server.start_server`,
:class:`kiosk.viewer.server.ViewerServer`).

A listener never takes the process's last descriptors either
(:func:`keep_reserve`): the wall, the store, the status file and the health
check open files as they go, and a kiosk that a room of phones or a flood
of strangers took to its limit would otherwise fail there (a font, a
``/sys`` read, an export) and stop.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import resource
import socket
import struct
import time
from collections.abc import Callable
from typing import Any, Final, cast

__all__ = ["LOG_EVERY", "OUT_OF", "RESERVE", "ReservingListener", "bind_listeners",
           "count_accept_pauses", "keep_reserve", "reserve_for"]

log = logging.getLogger(__name__)

#: Seconds between two log lines about running out of descriptors (each pause counts).
LOG_EVERY: Final = 60.0
#: Errors of ``accept`` that mean the process or the system is out of something.
OUT_OF: Final = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
#: Descriptors a listener leaves to the rest of the process: a few files at once
#: (the status file, an export, a backup's two databases, a ``/sys`` directory).
RESERVE: Final = 32
#: SO_LINGER on, zero seconds: close() sends a reset and leaves no TIME_WAIT behind.
_RESET: Final = struct.pack("ii", 1, 0)


def reserve_for(limit: int) -> int:
    """The descriptors kept back under a limit of ``limit``: :data:`RESERVE`, or a
    quarter of a small limit (a process squeezed to a few dozen still links to its
    peers).

    >>> reserve_for(4096), reserve_for(48)
    (32, 12)
    """
    return min(RESERVE, limit // 4)


def keep_reserve(conn: socket.socket) -> None:
    """Close ``conn`` and raise EMFILE if it took one of the process's last descriptors.

    ``accept`` returns the lowest free descriptor, so one at or above the
    limit less the reserve (:func:`reserve_for`) means fewer than that are left. The error is
    the one asyncio pauses a listener for (and :func:`count_accept_pauses`
    counts). The limit is read each time: ``prlimit`` can change it from outside.
    """
    limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if limit == resource.RLIM_INFINITY or conn.fileno() < limit - reserve_for(limit):
        return
    with contextlib.suppress(OSError):
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _RESET)
    conn.close()
    raise OSError(errno.EMFILE, "the last descriptors are kept for the kiosk itself")


def count_accept_pauses(loop: asyncio.AbstractEventLoop, count: Callable[[], None], *,
                        who: str, logger: logging.Logger = log,
                        log_every: float = LOG_EVERY) -> None:
    """Make ``loop`` call ``count()`` once a pause of a listener, and log one line a minute.

    ``who`` names what is not accepted for the while ("peers", "phones").
    Other errors go to the handler that was there.
    """
    previous = loop.get_exception_handler()
    last_pause = -log_every
    last_log = -log_every
    pauses = 0

    def handle(lp: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        nonlocal last_pause, last_log, pauses
        exc = context.get("exception")
        message = str(context.get("message", ""))
        if "_start_serving" in message and isinstance(exc, ValueError | OSError):
            # asyncio's retry a second after a pause, of a listener closed meanwhile
            # (the kiosk stopping): there is nothing left to serve, nor to report.
            return
        if not (isinstance(exc, OSError) and exc.errno in OUT_OF and "accept" in message):
            if previous is not None:
                previous(lp, context)
            else:
                lp.default_exception_handler(context)
            return
        now = time.monotonic()
        # One pause of the listener reports every accept tried in that pass.
        if now - last_pause >= 0.5:
            pauses += 1
            count()
        last_pause = now
        if now - last_log >= log_every:
            last_log = now
            logger.warning("out of file descriptors (%s): not accepting %s for a second "
                           "(%d pauses so far)", exc.strerror, who, pauses)

    loop.set_exception_handler(handle)


class ReservingListener(socket.socket):
    """A listening socket whose ``accept`` leaves the process its last descriptors."""

    def accept(self) -> tuple[socket.socket, Any]:
        conn, peer = super().accept()
        keep_reserve(conn)
        return conn, peer


def bind_listeners(host: str | None, port: int) -> list[ReservingListener]:
    """Bound (not yet listening) sockets on ``port`` for every address of ``host``.

    ``None`` is every address, as asyncio's ``create_server`` binds them: one
    socket for each address family, IPv6 ones IPv6 only, the first one's port
    for all when ``port`` is 0.
    """
    found: list[tuple[int, Any]] = []
    for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE):
        if (info[0], info[4]) not in found:
            found.append((info[0], info[4]))
    made: list[ReservingListener] = []
    try:
        for family, address in found:
            if made and port == 0:
                address = (address[0], made[0].getsockname()[1], *address[2:])
            sock = ReservingListener(family, socket.SOCK_STREAM)
            made.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(cast(Any, address))
    except BaseException:
        for sock in made:
            sock.close()
        raise
    return made
