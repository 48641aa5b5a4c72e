"""The phones' HTTP server: the page, the night's JSON, and a websocket that pushes it.

Built on the ``websockets`` server that peer sync already uses: its HTTP
handling (``process_request``) answers the few GETs of a static page, and
the upgrade at ``/live`` is the push. No framework of our own and no new
dependency; it is asyncio, so 200 phones are 200 small protocol objects on
one thread, not 200 threads.

It runs its own event loop on its own thread (``pubpoker-viewer``), apart
from peer sync's: a room full of phones never delays a peer's events, and it
runs without a venue key or a config (a laptop, a test). With no phones
connected nothing on that thread wakes: no timers, one ``epoll_wait``. The
main loop hands it each new document (:meth:`ViewerServer.publish`); the
thread only sends what it was given and never touches the state.

Read-only and bounded: GET only (anything else is 405), no request bodies
(websockets refuses them), request lines and headers capped by websockets
(8 KiB, 128 headers), a phone may send at most :data:`MAX_MESSAGE` bytes on
the websocket (it has nothing to say), a handshake has
:data:`OPEN_TIMEOUT` seconds, and at most :data:`MAX_CONNECTIONS` are open
(one more is told 503 as it arrives), at most :data:`PER_ADDRESS` of them from
one address (likewise). A phone is let go once :data:`MAX_UNSENT` bytes wait
for it, counting the kernel's send queue as well as the program's: a phone
that never reads what it is sent, or sends pings and never reads the pongs.
Each one refused or let go is counted by reason in :attr:`ViewerServer.drops`
(the status file's ``viewer.drops``). A process out of file descriptors
pauses the page's listener for a second at a time, counted in
:attr:`ViewerServer.accept_pauses` and logged once a minute
(:mod:`kiosk.accept_pauses`), never with a traceback an accept.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import ipaddress
import logging
import socket
import struct
import termios
import threading
from collections import Counter
from collections.abc import Callable, Mapping
from http import HTTPStatus
from importlib import resources
from typing import Any, Final, cast

from websockets.asyncio.server import Server, ServerConnection, broadcast, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from kiosk.accept_pauses import bind_listeners, count_accept_pauses

__all__ = ["LIVE_PATH", "MAX_CONNECTIONS", "MAX_UNSENT", "PER_ADDRESS", "ViewerServer",
           "stamped", "unsent"]

log = logging.getLogger(__name__)

LIVE_PATH: Final = "/live"
#: Open connections (pages loading and phones following) before a 503: a room
#: of 200 phones, each reconnecting once, with room to spare.
MAX_CONNECTIONS: Final = 500
#: Of those, open from one address (an IPv6 one: its /64, which one device may
#: have whole): a quarter. On a pub's Wi-Fi each phone has an address of its
#: own, so one address holding many is a laptop; but a guest network that NATs
#: every phone to one address (the kiosk on the staff's LAN) is rare, not
#: unheard of, and then this is the whole room's share: a pub night's 20 to 80
#: phones, each following and now and then reloading (four short GETs), fit in
#: it with room to spare. One laptop, meanwhile, leaves the room 375.
PER_ADDRESS: Final = MAX_CONNECTIONS // 4
#: A phone sends nothing but websocket control frames.
MAX_MESSAGE: Final = 256
OPEN_TIMEOUT: Final = 5.0
#: Seconds between the small "still here" message to each phone: a page that
#: hears nothing for three of them shows that it is stale (a dropped Wi-Fi
#: leaves a websocket open for minutes). Only while phones are connected.
HEARTBEAT: Final = 10.0
#: Bytes a phone may leave unread (a few documents, or pongs to its pings)
#: before it is let go: what waits in the program's buffer and in the kernel's
#: send queue together (:func:`unsent`).
MAX_UNSENT: Final = 256 * 1024
#: Why a connection was refused or let go (:attr:`ViewerServer.drops`): the
#: page full, its address's share full, too much unsent to it.
DROPS: Final = ("full", "address", "unsent")
#: Each phone's receive buffer (``SO_RCVBUF``; the kernel doubles it). asyncio reads
#: up to 256 KiB from a socket at a time, and websockets answers every frame in a read
#: before the loop looks at the next socket: thirty phones sending pings as fast as
#: they can made one turn of the loop take most of a second of a core, and a real
#: phone's GET waited three of them (over 3 s on a loaded box). With this little in
#: the kernel at a time a turn does a few milliseconds for each: a page's request
#: is a few hundred bytes, and a phone has nothing else to say.
RECEIVE_BUFFER: Final = 8 * 1024

_STATIC: Final = {"/": ("index.html", "text/html; charset=utf-8"),
                  "/index.html": ("index.html", "text/html; charset=utf-8"),
                  "/app.js": ("app.js", "text/javascript; charset=utf-8"),
                  "/style.css": ("style.css", "text/css; charset=utf-8")}
_SECURITY: Final = (("X-Content-Type-Options", "nosniff"),
                    ("Referrer-Policy", "no-referrer"),
                    ("Content-Security-Policy",
                     "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                     "frame-ancestors 'none'"))


_NOT_ALLOWED: Final = (b"HTTP/1.1 405 Method Not Allowed\r\nAllow: GET\r\n"
                       b"Content-Type: text/plain; charset=utf-8\r\nContent-Length: 10\r\n"
                       b"Connection: close\r\n\r\nread only\n")


_TOO_MANY: Final = (b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\n"
                    b"Content-Type: text/plain; charset=utf-8\r\nContent-Length: 16\r\n"
                    b"Connection: close\r\n\r\ntoo many phones\n")


#: The ioctl for a socket's unsent bytes (SIOCOUTQ is TIOCOUTQ's number on Linux);
#: None where there is none (a laptop not on Linux: asyncio's buffer alone).
_SIOCOUTQ: Final = getattr(termios, "TIOCOUTQ", None)


def unsent(transport: asyncio.BaseTransport) -> int:
    """Bytes written to ``transport`` that its peer has not taken: asyncio's buffer
    and the kernel's send queue (``SIOCOUTQ``), where a phone that never reads
    leaves them once the program's buffer has drained into it."""
    waiting = cast(asyncio.WriteTransport, transport).get_write_buffer_size()
    sock = transport.get_extra_info("socket")
    if sock is not None and _SIOCOUTQ is not None:
        with contextlib.suppress(OSError, ValueError):  # closed meanwhile
            raw = fcntl.ioctl(sock.fileno(), _SIOCOUTQ, b"\0\0\0\0")
            waiting += struct.unpack("i", raw)[0]
    return waiting


def _address(transport: asyncio.BaseTransport) -> str:
    """Whose share a connection counts against: its address, an IPv6 one's /64."""
    peer = transport.get_extra_info("peername")
    host = str(peer[0]) if isinstance(peer, tuple) and peer else ""
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class _GetOnly(ServerConnection):
    """A connection counted against the cap, answering 405 to anything but GET.

    Past the cap a connection is told 503 as it arrives, before a byte of it
    is read. websockets' parser refuses a request with a body by closing
    without a word, and would read the body's headers first; a POST here is
    told what it is at once, before anything else of it is read.
    """

    _head: bytes | None = b""

    def __init__(self, *args: Any, viewer: ViewerServer, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.viewer = viewer
        self.counted = False
        self.address = ""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        viewer = self.viewer
        self.address = address = _address(transport)
        full = ("full" if viewer.open >= viewer.max_connections else
                "address" if viewer.by_address[address] >= viewer.per_address else None)
        if full is not None:
            viewer.drops[full] += 1
            cast(asyncio.Transport, transport).write(_TOO_MANY)
            transport.close()
            self._head = None
            super().connection_made(transport)
            return
        viewer.open += 1
        viewer.by_address[address] += 1
        self.counted = True
        super().connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.counted:
            self.counted = False
            viewer = self.viewer
            viewer.open -= 1
            viewer.by_address[self.address] -= 1
            if viewer.by_address[self.address] <= 0:
                del viewer.by_address[self.address]
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if not self.counted:
            return
        if self._head is None:
            # Past the request line: what a phone sends on is its request's headers,
            # then control frames, each answered (a ping with a pong) into the send
            # buffer. One that does not take the answers is let go before they pile up.
            super().data_received(data)
            self.viewer.let_go_if_behind(self.transport)
            return
        if self._head is not None:
            self._head += data[:4]
            if not b"GET ".startswith(self._head[:4]):
                self._head = None
                self.transport.write(_NOT_ALLOWED)
                self.transport.close()
                return
            if len(self._head) >= 4:
                self._head = None
        super().data_received(data)


def stamped(document: bytes, now: float) -> bytes:
    """``document`` (a JSON object) with ``served``, the shared time it is sent at.

    A document is built when the night changes, at the shared time in its
    ``now``, and may be sent much later (a phone that opens the page after a
    quiet ten minutes); the page counts from ``served - now`` on, never from
    when the phone received it nor from the phone's own clock.

    >>> stamped(b'{"v":1,"now":10.0}', 612.5)
    b'{"v":1,"now":10.0,"served":612.5}'
    """
    body = document.rstrip()
    if not body.endswith(b"}") or body == b"{}":
        return document
    return body[:-1] + b',"served":' + repr(float(now)).encode() + b"}"


def _files() -> dict[str, tuple[bytes, str]]:
    folder = resources.files("kiosk.viewer") / "static"
    return {path: ((folder / name).read_bytes(), kind) for path, (name, kind) in _STATIC.items()}


def _response(status: HTTPStatus, body: bytes, kind: str,
              extra: Mapping[str, str] | None = None) -> Response:
    headers = Headers([("Content-Type", kind), ("Content-Length", str(len(body))),
                       ("Cache-Control", "no-store"), ("Connection", "close"), *_SECURITY,
                       *(extra or {}).items()])
    return Response(status.value, status.phrase, headers, body)


class ViewerServer:
    """The page's server on its own thread; :meth:`publish` from the main loop."""

    def __init__(self, *, host: str | None = None, port: int = 8080,
                 max_connections: int = MAX_CONNECTIONS, per_address: int = PER_ADDRESS,
                 document: bytes = b'{"v": 1, "tournament": false}',
                 clock: Callable[[], float] | None = None) -> None:
        self.host, self.port, self.max_connections = host, port, max_connections
        #: The shared tournament time now (the kiosk's, readable from any thread):
        #: every document goes out stamped with it (:func:`stamped`).
        self.clock = clock
        self._files = _files()
        #: What /night.json answers and a phone is sent first (the night at the start).
        self._document = document
        self._live: set[ServerConnection] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._servers: list[Server] = []
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._failure: BaseException | None = None
        self._stopping: asyncio.Event | None = None
        self._beat: asyncio.TimerHandle | None = None
        #: Documents sent to phones (each publish to each live phone counts one).
        self.sent = 0
        #: Connections open now, counted on the server's thread against the cap.
        self.open = 0
        #: Times the listener paused because the process was out of descriptors.
        self.accept_pauses = 0
        #: Connections open now from each address (:func:`_address`), against
        #: ``per_address``.
        self.per_address = per_address
        self.by_address: Counter[str] = Counter()
        #: Connections refused or let go, by reason (:data:`DROPS`); ints written on
        #: the server's thread, read from any.
        self.drops: dict[str, int] = dict.fromkeys(DROPS, 0)

    # --- main thread -------------------------------------------------------------------

    def start(self, timeout: float = 10.0) -> None:
        """Listen; raises OSError (the port taken, say) in the caller's thread."""
        self._thread = threading.Thread(target=self._run, name="pubpoker-viewer", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            self.stop()
            raise TimeoutError("viewer server did not start")
        if self._failure is not None:
            self._thread.join(5)
            raise self._failure

    def stop(self, timeout: float = 5.0) -> None:
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(stopping.set)
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    @property
    def phones(self) -> int:
        """Phones following live now (read from any thread: one int)."""
        return len(self._live)

    def publish(self, document: bytes) -> None:
        """A new document for ``/night.json`` and every live phone."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # stopping
                loop.call_soon_threadsafe(self._publish, document)

    # --- the server's thread -----------------------------------------------------------

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._main())
        except BaseException as err:  # reported to start()
            if not self._ready.is_set():
                self._failure = err
                self._ready.set()
            else:
                log.exception("viewer server stopped")
        finally:
            loop.close()

    async def _main(self) -> None:
        self._stopping = asyncio.Event()
        count_accept_pauses(asyncio.get_running_loop(), self._paused, who="phones",
                            logger=log)

        def connection(*args: Any, **kwargs: Any) -> _GetOnly:
            return _GetOnly(*args, viewer=self, **kwargs)

        try:
            # Sockets of our own, so that no phone takes the process's last descriptors.
            for sock in bind_listeners(self.host, self.port):
                # Set on the listener, so every accepted socket has it from its SYN.
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
                self._servers.append(await serve(
                    self._follow, sock=sock, process_request=self._route,
                    max_size=MAX_MESSAGE, max_queue=1, compression=None,
                    open_timeout=OPEN_TIMEOUT, ping_interval=None, close_timeout=1,
                    server_header=None, create_connection=cast(Any, connection)))
            sockets = [sock for server in self._servers for sock in server.sockets]
            if sockets:
                self.port = int(sockets[0].getsockname()[1])
            self._ready.set()
            await self._stopping.wait()
        finally:
            if self._beat is not None:
                self._beat.cancel()
            for server in self._servers:
                server.close()
            for server in self._servers:
                await server.wait_closed()

    def _paused(self) -> None:
        self.accept_pauses += 1

    def _route(self, conn: ServerConnection, request: Request) -> Response | None:
        if request.method != "GET":
            return _response(HTTPStatus.METHOD_NOT_ALLOWED, b"read only\n",
                             "text/plain; charset=utf-8", {"Allow": "GET"})
        path = request.path.split("?", 1)[0]
        if path == LIVE_PATH:
            if "websocket" not in request.headers.get("Upgrade", "").lower():
                return _response(HTTPStatus.UPGRADE_REQUIRED, b"websocket only\n",
                                 "text/plain; charset=utf-8")
            return None  # the upgrade; _follow takes it from there
        if path == "/night.json":
            return _response(HTTPStatus.OK, self._stamped(self._document), "application/json")
        found = self._files.get(path)
        if found is None:
            return _response(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")
        return _response(HTTPStatus.OK, found[0], found[1])

    async def _follow(self, conn: ServerConnection) -> None:
        """One phone following live: the document now, then each new one."""
        self._live.add(conn)
        if self._beat is None:
            self._beat = asyncio.get_running_loop().call_later(HEARTBEAT, self._heartbeat)
        try:
            await conn.send(self._stamped(self._document).decode())
            self.sent += 1
            async for _ in conn:  # a phone has nothing to say; reading sees it go
                pass
        except Exception:  # a phone that vanished or spoke garbage: just gone
            pass
        finally:
            self._live.discard(conn)

    def _publish(self, document: bytes) -> None:
        self._document = document
        self._send(self._stamped(document).decode())

    def _stamped(self, document: bytes) -> bytes:
        return document if self.clock is None else stamped(document, self.clock())

    def _send(self, message: str) -> None:
        """One encoded frame written to every phone's socket, awaiting none: a slow
        phone does not hold up the others. One that has not taken what it was sent
        (its Wi-Fi gone while TCP still thinks it is there) is let go rather than
        buffered for: it reconnects and is sent the whole night then."""
        for conn in list(self._live):
            if self.let_go_if_behind(conn.transport):
                self._live.discard(conn)
        if self._live:
            broadcast(self._live, message)
            self.sent += len(self._live)

    def let_go_if_behind(self, transport: asyncio.BaseTransport) -> bool:
        """Abort (and count) a connection with more than :data:`MAX_UNSENT` bytes
        waiting for its peer; True if it is gone."""
        if transport.is_closing():
            return True
        if unsent(transport) <= MAX_UNSENT:
            return False
        self.drops["unsent"] += 1
        cast(asyncio.Transport, transport).abort()
        return True

    def _heartbeat(self) -> None:
        if not self._live:
            self._beat = None  # no phones: no timer either
            return
        # The shared time now, so an open page re-syncs its countdown each beat.
        self._send("{}" if self.clock is None else f'{{"served":{self.clock()!r}}}')
        self._beat = asyncio.get_running_loop().call_later(HEARTBEAT, self._heartbeat)
