"""Connections that never prove the venue key are held off and closed on time.

In one process, on loopback: the victim listens on 127.0.0.1 and strangers
come from 127.0.0.2 and up (all of 127/8 is this machine), so the victim
tells them apart by address as it would on the pub's Wi-Fi.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import secrets
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.sync.server import ServerConnection, serve

from kiosk.accept_pauses import count_accept_pauses
from kiosk.sync.auth import new_key, session_id
from kiosk.sync.frames import decode_frame
from kiosk.sync.link import Identity
from kiosk.sync.service import SyncConfig, SyncService
from kiosk.sync.stats import Drop, SyncStats
from kiosk.timebase import SharedClock
from tests.sync.attacker import hello, make
from tests.sync.harness import wait_for

# Each waits out an admission deadline or a hold-off in real time.
pytestmark = pytest.mark.realproc

KEY = new_key()
DEADLINE = 0.8


@pytest.fixture
def victim() -> Iterator[SyncService]:
    config = SyncConfig(discover=False, watch_store=False, hello_timeout=DEADLINE,
                        max_waiting=12, max_waiting_per_address=4)
    with SyncService(Identity("victim", "display"), KEY, SharedClock(), config) as svc:
        yield svc


def raw(svc: SyncService, source: str) -> socket.socket:
    return socket.create_connection(("127.0.0.1", svc.port), timeout=5,
                                    source_address=(source, 0))


def lifetime(sock: socket.socket, limit: float = 10.0) -> float:
    """Seconds until the other end closes ``sock`` (it never hears from us)."""
    start = time.monotonic()
    sock.settimeout(limit)
    try:
        while sock.recv(4096):
            pass
    except ConnectionResetError:
        pass
    finally:
        sock.close()
    return time.monotonic() - start


def held_off(svc: SyncService, source: str) -> float:
    """Seconds a connection from ``source`` lived; 0 if reset before connect() returned.

    The victim resets a connection over the share as it accepts it. On a loaded
    machine that can happen before this thread wakes from connect(), which then
    raises ECONNRESET: the quickest hold-off there is.
    """
    try:
        sock = raw(svc, source)
    except ConnectionResetError:
        return 0.0
    return lifetime(sock)


def upgraded(svc: SyncService, source: str) -> ClientConnection:
    # websockets answers the victim's pings by itself: only the hello is missing.
    return connect(f"ws://127.0.0.1:{svc.port}/sync", proxy=None, compression=None,
                   open_timeout=5, source_address=(source, 0))


def ws_lifetime(ws: ClientConnection, limit: float = 10.0) -> float:
    start = time.monotonic()
    try:
        while time.monotonic() - start < limit:
            ws.recv(timeout=limit)
    except (ConnectionClosed, TimeoutError):
        pass
    return time.monotonic() - start


@contextmanager
def genuine(svc: SyncService, device: str, source: str = "127.0.0.9"
            ) -> Iterator[ClientConnection]:
    """A keyholder's link, proven: its hello, then a frame of the session."""
    with upgraded(svc, source) as ws:
        mine = secrets.token_hex(16)
        ws.send(hello(KEY, mine, device=device))
        theirs = decode_frame(ws.recv(timeout=5))
        session = session_id(mine, theirs["challenge"])
        ws.send(make(KEY, "have", 2, session, vector={}, digest=""))
        yield ws


def connected(svc: SyncService) -> set[str]:
    """Peers whose links are proven."""
    return {p.device_id for p in svc.status().peers if p.connected}


def test_a_silent_tcp_connection_is_closed_at_the_deadline(victim: SyncService) -> None:
    took = lifetime(raw(victim, "127.0.0.2"))
    assert DEADLINE - 0.05 <= took <= DEADLINE + 0.5
    wait_for(lambda: victim.stats.drops().get("hello-timeout") == 1, 2,
             what="the timeout to be counted")


def test_an_upgrade_without_a_hello_is_closed_at_the_deadline(victim: SyncService) -> None:
    """Pings answered, so keepalive alone would keep it for ever."""
    with upgraded(victim, "127.0.0.2") as ws:
        took = ws_lifetime(ws)
    assert DEADLINE - 0.05 <= took <= DEADLINE + 0.5
    assert victim.stats.drops().get("hello-timeout") == 1


def test_one_address_is_held_off_beyond_its_share_and_others_still_get_in(
        victim: SyncService) -> None:
    waiting = [raw(victim, "127.0.0.2") for _ in range(4)]
    # Over the share: reset as they are accepted, long before the deadline.
    assert max(held_off(victim, "127.0.0.2") for _ in range(6)) < DEADLINE / 2
    wait_for(lambda: victim.stats.drops().get("held-off") == 6, 2,
             what="the six held off to be counted")
    # A keyholder from elsewhere links while that address is full, and stays.
    with genuine(victim, "friend") as friend:
        wait_for(lambda: connected(victim) == {"friend"}, 3, what="the friend's link")
        assert ws_lifetime(friend, limit=DEADLINE * 2) >= DEADLINE * 2 - 0.05
    assert all(lifetime(s) < DEADLINE for s in waiting)  # closed by now
    assert victim.stats.drops().get("hello-timeout") == 4


def test_many_addresses_together_stop_at_the_total(victim: SyncService) -> None:
    waiting = [raw(victim, f"127.0.0.{n}") for n in range(2, 5) for _ in range(4)]
    assert held_off(victim, "127.0.0.5") < DEADLINE / 2
    wait_for(lambda: victim.stats.drops().get("held-off") == 1, 2,
             what="the late one to be counted")
    for sock in waiting:
        sock.close()
    # Places are freed as connections close: a newcomer waits its full time again.
    wait_for(lambda: lifetime(raw(victim, "127.0.0.6")) >= DEADLINE - 0.05, 5,
             every=0.1, what="a place to be free again")


def test_a_second_proven_link_from_one_device_replaces_the_first(
        victim: SyncService) -> None:
    with genuine(victim, "twin") as first:
        wait_for(lambda: connected(victim) == {"twin"}, 3, what="the first link")
        with genuine(victim, "twin", source="127.0.0.10") as second:
            # The old one is closed (a peer redials when its old link died) ...
            assert ws_lifetime(first, limit=3.0) < 2.0
            # ... the new one stays, past the deadline, and is the only one.
            closed = threading.Event()

            def watch() -> None:
                ws_lifetime(second, limit=DEADLINE * 2)
                closed.set()

            threading.Thread(target=watch, daemon=True).start()
            assert not closed.wait(DEADLINE * 2 - 0.1)
            assert victim.peer_count() == 1
    assert "hello-timeout" not in victim.stats.drops()


def test_a_peer_that_linked_before_relinks_while_strangers_fill_their_places(
        victim: SyncService) -> None:
    with genuine(victim, "table1"):
        wait_for(lambda: connected(victim) == {"table1"}, 3, what="the table's first link")
    wait_for(lambda: not connected(victim), 3, what="the link to end")
    strangers = [raw(victim, f"127.0.0.{n}") for n in range(2, 5) for _ in range(4)]
    assert held_off(victim, "127.0.0.5") < DEADLINE / 2  # the strangers' pool is full
    with genuine(victim, "table1"):
        wait_for(lambda: connected(victim) == {"table1"}, 3, what="the table to relink")
    for sock in strangers:
        sock.close()


def test_a_dialled_peer_that_never_says_hello_is_left_at_the_deadline() -> None:
    """A stranger's mDNS record may point at a port that upgrades and then is silent."""
    lives: list[float] = []
    silent_ends = threading.Event()

    def tarpit(ws: ServerConnection) -> None:
        born = time.monotonic()
        with contextlib.suppress(ConnectionClosed):
            for _ in ws:  # the dialler's hello, unanswered
                pass
        lives.append(time.monotonic() - born)
        silent_ends.set()

    with serve(tarpit, "127.0.0.1", 0, compression=None) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        port = server.socket.getsockname()[1]
        config = SyncConfig(discover=False, watch_store=False, hello_timeout=DEADLINE,
                            peers=(("127.0.0.1", port),))
        with SyncService(Identity("dialler", "table", 1), KEY, SharedClock(), config) as svc:
            assert silent_ends.wait(DEADLINE + 2)
            wait_for(lambda: svc.stats.drops().get("hello-timeout", 0) >= 1, 2,
                     what="the timeout to be counted")
        server.shutdown()
    assert DEADLINE - 0.05 <= lives[0] <= DEADLINE + 0.5


def test_a_pause_for_want_of_descriptors_is_counted_once_and_logged_once(
        caplog: pytest.LogCaptureFixture) -> None:
    """asyncio reports every accept of one pass that failed; that is one pause."""
    stats = SyncStats()
    others: list[dict[str, Any]] = []

    async def run() -> None:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _, context: others.append(context))
        count_accept_pauses(loop, lambda: stats.drop(Drop.ACCEPT_PAUSED), who="peers")
        for _ in range(2):
            for _ in range(100):  # one pass of asyncio's accept loop
                loop.call_exception_handler({
                    "message": "socket.accept() out of system resource",
                    "exception": OSError(errno.EMFILE, "Too many open files")})
            await asyncio.sleep(0.6)
        loop.call_exception_handler({"message": "something else"})

    with caplog.at_level(logging.WARNING, logger="kiosk.accept_pauses"):
        asyncio.run(run())
    assert stats.drops() == {"accept-paused": 2}
    assert sum("out of file descriptors" in r.message for r in caplog.records) == 1
    assert [c["message"] for c in others] == ["something else"]
