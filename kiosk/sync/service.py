"""SyncService: all peer I/O in one asyncio loop on its own thread.

The main loop talks to it through thread-safe calls (``push``, ``set_head``,
``send_events``, ``send_have``, ``status``) and reads what it receives from
the ``inbound`` queue (:class:`Incoming` events, :class:`Want` requests);
only the main loop touches the store and the state (see
:mod:`kiosk.sync.replicate`). Frames are checked and events' seals and roles
verified here, before anything is queued.

Two things it does without the main loop, both read-only: it watches the
store (:meth:`SyncService.watch`) and pushes this device's events that
another process wrote (the TD's ``pubpoker`` over SSH) the moment they are
committed (:mod:`kiosk.sync.outbox`); and it hears the network change from
netlink (:mod:`kiosk.sync.netwatch`) instead of reading it on a timer.

With no peer, its timers back off (:mod:`kiosk.sync.rest`) once nothing has
happened for a while, and anything that happens wakes them at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import errno
import logging
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection

from kiosk.store.log import StoredEvent
from kiosk.store.watch import StoreWatcher, open_reader
from kiosk.sync.auth import event_seal, open_seal
from kiosk.sync.discovery import Discovery, Found, head_digest, network_signature
from kiosk.sync.frames import MAX_FRAME, EventRow, Frame, FrameType
from kiosk.sync.gate import Gate
from kiosk.sync.link import Identity, Link
from kiosk.sync.netwatch import NetWatch, open_netwatch
from kiosk.sync.outbox import Outbox
from kiosk.sync.rest import REST_AFTER, REST_CAP, Rest
from kiosk.sync.roles import allowed
from kiosk.sync.server import PEER_PATH, GatedConnection, Handler, Listening, start_server
from kiosk.sync.stats import Drop, SyncStats
from kiosk.sync.status import PeerStatus, SyncStatus, lag
from kiosk.sync.timesync import OffsetEstimator, Sample, TimeEstimate, choose_reference
from kiosk.timebase import SharedClock
from rules.records import RecordMethods, record

__all__ = ["Incoming", "SyncConfig", "SyncService", "Want"]

log = logging.getLogger(__name__)

#: Seconds between two announcements of a new log head.
ANNOUNCE_EVERY = 5.0
#: Payload bytes per ``events`` frame: well under the 1 MiB frame limit.
BATCH_BYTES = 512 * 1024


@record
class Incoming(RecordMethods):
    """Verified events from a peer, for the main loop to append and fold."""

    link: int
    peer: str
    rows: tuple[StoredEvent, ...]
    #: The sender has more for us: answer with a fresh ``have``.
    more: bool
    #: Genuine events every peer refuses for their role (see roles.py).
    refused: tuple[tuple[str, int], ...] = ()


@record
class Want(RecordMethods):
    """A peer's version vector: send it what it lacks."""

    link: int
    peer: str
    vector: Mapping[str, int]


@record
class SyncConfig(RecordMethods):
    #: Addresses to bind and announce on (the ``[network] interface``'s).
    addresses: tuple[str, ...] = ("127.0.0.1",)
    port: int = 0
    discover: bool = True
    #: Peers to dial without discovery, as (host, port).
    peers: tuple[tuple[str, int], ...] = ()
    ping_interval: float = 1.0
    ping_timeout: float = 2.0
    open_timeout: float = 2.0
    backoff_first: float = 0.2
    backoff_max: float = 5.0
    anti_entropy_every: float = 2.0
    time_every: float = 1.0
    #: Seconds between looks at the network's state where netlink is missing
    #: (backing off at rest; see :meth:`_watch_network`).
    watch_every: float = 2.0
    #: With no peer for this long, announce and browse again (doubling to 2 minutes).
    lonely_after: float = 15.0
    #: With no peer and nothing to push for this long, the timers back off ...
    rest_after: float = REST_AFTER
    #: ... doubling their sleeps up to this many seconds (see :mod:`kiosk.sync.rest`).
    rest_cap: float = REST_CAP
    #: Push this device's events other processes write (see :meth:`SyncService.watch`).
    watch_store: bool = True
    #: Seconds a connection has, from its accept (or dial) to its first genuine
    #: frame, before it is closed (:mod:`kiosk.sync.gate`). A real peer needs a
    #: few round trips; a stranger without the venue key never gets there.
    hello_timeout: float = 3.0
    #: Connections not yet proven, at most: in all, and from one address.
    max_waiting: int = 64
    max_waiting_per_address: int = 8


@dataclass
class _Target:
    key: str
    host: str
    port: int
    device_id: str | None = None
    kick: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None


def _row(event: StoredEvent) -> EventRow:
    return (event.device_id, event.seq, event.lamport, event.tournament_id, event.payload,
            event.mac)


def chunks(rows: Sequence[StoredEvent], budget: int = BATCH_BYTES
           ) -> list[list[StoredEvent]]:
    """Split rows into batches whose payloads fit one frame."""
    out: list[list[StoredEvent]] = []
    size = 0
    for row in rows:
        cost = len(row.payload.encode()) * 2 + len(row.mac) + 120
        if cost > MAX_FRAME // 2:
            log.error("event %s/%s is too big to send", row.device_id, row.seq)
            continue
        if not out or size + cost > budget:
            out.append([])
            size = 0
        out[-1].append(row)
        size += cost
    return out


class SyncService:
    def __init__(self, me: Identity, key: bytes, clock: SharedClock,
                 config: SyncConfig | None = None, *,
                 inbound: queue.Queue[Any] | None = None, stats: SyncStats | None = None,
                 on_inbound: Callable[[], None] | None = None,
                 view: Handler | None = None) -> None:
        self.me = me
        self.key = key
        self.clock = clock
        self.config = config = config or SyncConfig()
        self.inbound: queue.Queue[Any] = inbound if inbound is not None else queue.Queue()
        self.stats = stats or SyncStats()
        self._on_inbound = on_inbound
        self._view = view
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()
        self._failure: BaseException | None = None
        self._stopping: asyncio.Event | None = None
        self.port = config.port
        # Loop-owned state.
        self._links: dict[int, Link] = {}
        self._targets: dict[str, _Target] = {}
        self._vectors: dict[str, dict[str, int]] = {}
        self._seen: dict[str, float] = {}
        self._known: dict[str, tuple[str, str, int | None]] = {}
        self._head: dict[str, int] = {}
        self._tournament: str | None = None
        self._estimator = OffsetEstimator(speed=clock.speed)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._announcing = False
        self._server: Listening | None = None
        self._gate: Gate | None = None
        self._discovery: Discovery | None = None
        self._rest = Rest(config.rest_after, config.rest_cap, time.monotonic())
        #: Pulsed (set, then cleared) when something happens: resting timers wake.
        self._stirred: asyncio.Event | None = None
        self._netwatch: NetWatch | None = None
        #: Set by netlink (or a timer without it): read the network's state again.
        self._net_dirty = True
        self._store_path: Path | None = None
        self._pending_outbox: tuple[StoreWatcher | None, Outbox] | None = None
        #: What :meth:`watch` was asked to watch, for :meth:`retry_watch`.
        self._watching: tuple[Path, bool] | None = None
        self._watcher: StoreWatcher | None = None
        self._outbox: Outbox | None = None
        #: Times a timer of this service woke (time sync, anti-entropy, network).
        self.wakeups = 0
        #: Read by the main loop; replaced whole, never mutated.
        self.estimate = TimeEstimate(clock.offset, None, True, None)

    # --- life cycle (main thread) ----------------------------------------------------

    def start(self, timeout: float = 10.0) -> None:
        self._thread = threading.Thread(target=self._run, name="pubpoker-sync")
        self._thread.start()
        if not self._ready.wait(timeout):
            self.stop()
            raise TimeoutError("sync service did not start")
        if self._failure is not None:
            self._thread.join(5)
            raise RuntimeError("sync service failed to start") from self._failure

    def stop(self, timeout: float = 10.0) -> None:
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop already ended
                loop.call_soon_threadsafe(stopping.set)
        if self._thread is not None:
            self._thread.join(timeout)
        pending, self._pending_outbox = self._pending_outbox, None
        if pending is not None:  # watched, never run
            if pending[0] is not None:
                pending[0].close()
            pending[1].conn.close()

    def __enter__(self) -> SyncService:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- main-thread API ---------------------------------------------------------------

    def _call(self, fn: Callable[..., Any], *args: Any) -> None:
        if self._loop is not None and not self._loop.is_closed():
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(fn, *args)

    def set_head(self, vector: Mapping[str, int], tournament: str | None) -> None:
        self._call(self._set_head, dict(vector), tournament)

    def push(self, rows: Sequence[StoredEvent]) -> None:
        """New local events: to every linked peer now."""
        self._call(self._spawn_push, None, list(rows), False)

    def watch(self, path: str | os.PathLike[str], *, told: bool = False) -> None:
        """Push this device's events that any process commits to the store at ``path``.

        The kiosk's own are pushed by the main loop as it appends them; these
        are the others' (``pubpoker bust`` over SSH): the sync thread sees the
        commit and sends them at once, instead of at the next anti-entropy.
        ``told``: the kiosk's loop already watches the store and calls
        :meth:`store_changed` when another process commits, so no second
        watcher wakes for every commit of the kiosk's own (its clock
        checkpoints).
        """
        if not self.config.watch_store or self._store_path is not None:
            return
        self._watching = (Path(path), told)
        self._store_path = Path(path)
        # Opened here, not in the sync loop: that stays free for the links' handshakes.
        watcher = None
        try:
            if not told:
                watcher = StoreWatcher(self._store_path)
        except OSError as err:
            log.warning("not watching %s: %s", self._store_path, err)
            return
        try:
            outbox = Outbox(open_reader(self._store_path), self.me.device_id, self._seal)
        except sqlite3.Error as err:
            if watcher is not None:
                watcher.close()
            # A full disk (no room for SQLite's -shm): retry_watch tries again.
            log.warning("not watching %s: %s", self._store_path, err)
            self._store_path = None
            return
        self._pending_outbox = (watcher, outbox)
        self._call(self._open_outbox)

    def retry_watch(self) -> None:
        """Watch the store again if :meth:`watch` could not read it (the disk was full)."""
        if self._store_path is None and self._watching is not None:
            self.watch(self._watching[0], told=self._watching[1])

    def store_changed(self) -> None:
        """Another process committed to the watched store (from any thread)."""
        self._call(self._drain_outbox)

    def send_events(self, link: int, rows: Sequence[StoredEvent], more: bool) -> None:
        self._call(self._spawn_push, link, list(rows), more)

    def send_have(self, link: int) -> None:
        self._call(self._spawn_have, link)

    def peer_count(self) -> int:
        """Peers with an authenticated link now (read from the main thread)."""
        return sum(1 for link in list(self._links.values()) if link.session is not None)

    def peer_tournaments(self) -> set[str]:
        """The tournaments linked peers said they run, in their hellos (main thread)."""
        return {link.peer.tournament for link in list(self._links.values())
                if link.verified and link.peer is not None and link.peer.tournament}

    def status(self, timeout: float = 2.0) -> SyncStatus:
        loop = self._loop
        if loop is None or loop.is_closed():
            return SyncStatus(self.me.device_id, (), self.stats.drops(), self.stats.moved(),
                              self.estimate)
        return asyncio.run_coroutine_threadsafe(self._status(), loop).result(timeout)

    # --- the loop -------------------------------------------------------------------

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as err:  # reported through start()
            self._failure = err
            self._ready.set()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        self._stirred = asyncio.Event()
        try:
            self._open_outbox()
            self._gate = gate = Gate(total=self.config.max_waiting,
                                     per_address=self.config.max_waiting_per_address,
                                     deadline=self.config.hello_timeout)
            self._server = await start_server(
                self._accept, hosts=self.config.addresses, port=self.config.port,
                gate=gate, stats=self.stats, view=self._view,
                ping_interval=self.config.ping_interval,
                ping_timeout=self.config.ping_timeout)
            self.port = next(iter(self._server.sockets)).getsockname()[1]
            if self.config.discover:
                self._discovery = Discovery(self.me, addresses=self.config.addresses,
                                            port=self.port, on_found=self._found,
                                            on_lost=self._lost)
                await self._discovery.start(self._tournament, head_digest(self._head))
                self._spawn(self._watch_network())
            for host, port in self.config.peers:
                self._target(f"{host}:{port}", host, port, None)
            self._spawn(self._anti_entropy())
            self._spawn(self._time_sync())
        except BaseException as err:
            self._failure = err
            self._ready.set()
            await self._shutdown()
            return
        self._ready.set()
        await self._stopping.wait()
        await self._shutdown()

    async def _shutdown(self) -> None:
        self._open_outbox()  # so a watch handed over too late is closed with the rest
        self._close_outbox()
        if self._netwatch is not None:
            asyncio.get_running_loop().remove_reader(self._netwatch.fileno())
            self._netwatch.close()
            self._netwatch = None
        for task in list(self._tasks):
            task.cancel()
        for target in self._targets.values():
            if target.task is not None:
                target.task.cancel()
        for link in list(self._links.values()):
            with contextlib.suppress(TimeoutError, Exception):
                await asyncio.wait_for(link.close(), 1)
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._server.wait_closed(), 2)
        if self._discovery is not None:
            await self._discovery.close()
        pending = [t for t in self._tasks if not t.done()]
        pending += [t.task for t in self._targets.values() if t.task and not t.task.done()]
        if pending:
            await asyncio.wait(pending, timeout=2)

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # --- rest ---------------------------------------------------------------------------

    def _stir(self) -> None:
        """Something happened (a peer came or went, a write to push): timers wake now."""
        self._rest.stir(time.monotonic())
        if self._stirred is not None:
            # Set then clear: every sleeper wakes, later sleepers sleep.
            self._stirred.set()
            self._stirred.clear()

    async def _nap(self, seconds: float) -> None:
        """Sleep ``seconds``, or until :meth:`_stir`."""
        assert self._stirred is not None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stirred.wait(), seconds)
        self.wakeups += 1

    def _resting_sleep(self, period: float, last: float) -> float:
        return self._rest.next(period, last, now=time.monotonic())

    # --- the store: this device's events other processes write ---------------------

    def _open_outbox(self) -> None:
        """Take over the watcher and outbox :meth:`watch` opened (in the sync loop)."""
        pending, self._pending_outbox = self._pending_outbox, None
        if pending is None:
            return
        self._watcher, self._outbox = pending
        if self._watcher is not None:
            asyncio.get_running_loop().add_reader(self._watcher.fileno(), self._store_changed)
        self._drain_outbox()  # what landed between the outbox's first look and now

    def _close_outbox(self) -> None:
        if self._watcher is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(self._watcher.fileno())
            self._watcher.close()
            self._watcher = None
        if self._outbox is not None:
            self._outbox.conn.close()
            self._outbox = None

    def _seal(self, row: StoredEvent) -> StoredEvent:
        mac = event_seal(self.key, row.device_id, row.seq, row.lamport, row.tournament_id,
                         row.payload, role=self.me.role, table=self.me.table)
        return dataclasses.replace(row, mac=mac)

    def _store_changed(self) -> None:
        """A commit to the store: push this device's events nobody pushed yet."""
        if self._watcher is None or not self._watcher.changed():
            return
        self._drain_outbox()

    def _drain_outbox(self) -> None:
        if self._outbox is None:
            return
        try:
            rows, more = self._outbox.fresh()
        except sqlite3.Error as err:  # the next commit (or anti-entropy) tries again
            log.warning("reading this device's new events failed: %s", err)
            return
        if more:
            asyncio.get_running_loop().call_soon(self._drain_outbox)
        if rows:
            # Pushed to the links there are; a device alone lets its timers rest
            # (a peer that links later is sent ``have`` as the link opens).
            self._own_head()
            self._spawn(self._push(None, rows, False))

    def _own_head(self) -> None:
        """What this device has of its own feed: everything the outbox saw stored."""
        if self._outbox is not None:
            me = self.me.device_id
            top = max(self._head.get(me, 0), self._outbox.top)
            if top:
                self._head = {**self._head, me: top}

    # --- links ----------------------------------------------------------------------

    def _new_link(self, ws: Any, dialer: bool) -> Link:
        return Link(ws, key=self.key, me=self.me, dialer=dialer, stats=self.stats,
                    tournament=lambda: self._tournament, on_open=self._opened,
                    on_frame=self._frame, on_proven=self._proven)

    async def _accept(self, conn: ServerConnection) -> None:
        await self._serve(self._new_link(conn, dialer=False))

    async def _serve(self, link: Link) -> None:
        self._links[link.id] = link
        # An accepted link's deadline runs from its accept, at the gate; a dialled
        # one's from here: a stranger's mDNS record may point at a silent port.
        due = None
        if link.dialer:
            due = asyncio.get_running_loop().call_later(self.config.hello_timeout,
                                                        self._overdue, link)
        try:
            await link.run()
        except Exception:  # one bad link never takes the service down
            log.exception("link %d failed", link.id)
        finally:
            if due is not None:
                due.cancel()
            self._links.pop(link.id, None)
            if link.peer is not None:
                self._stir()  # a peer gone: a while at full cadence, to heal

    def _overdue(self, link: Link) -> None:
        if not link.verified:
            self.stats.drop(Drop.HELLO_TIMEOUT)
            transport = getattr(link.ws, "transport", None)
            if transport is not None:
                transport.abort()

    def _linked(self, device_id: str | None) -> bool:
        return device_id is not None and any(
            link.verified and link.peer is not None and link.peer.device_id == device_id
            for link in self._links.values())

    def _found(self, found: Found) -> None:
        for host in found.addresses[:1]:
            self._target(found.device_id, host, found.port, found.device_id)

    def _lost(self, device_id: str) -> None:
        target = self._targets.pop(device_id, None)
        if target is not None and target.task is not None:
            target.task.cancel()

    def _target(self, key: str, host: str, port: int, device_id: str | None) -> None:
        target = self._targets.get(key)
        if target is None:
            target = _Target(key, host, port, device_id)
            self._targets[key] = target
            target.task = self._spawn(self._dial(target))
        else:
            target.host, target.port = host, port
        target.kick.set()

    async def _pause(self, target: _Target, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(target.kick.wait(), seconds)
        target.kick.clear()

    async def _dial(self, target: _Target) -> None:
        """Keep one link to a peer: reconnect after 0.2 s, doubling to 5 s."""
        cfg = self.config
        delay = cfg.backoff_first
        while True:
            if self._linked(target.device_id):
                await self._pause(target, 1.0)
                continue
            healthy = False
            try:
                async with connect(f"ws://{target.host}:{target.port}{PEER_PATH}",
                                   max_size=MAX_FRAME, compression=None, proxy=None,
                                   ping_interval=cfg.ping_interval,
                                   ping_timeout=cfg.ping_timeout,
                                   open_timeout=cfg.open_timeout, close_timeout=1) as ws:
                    link = self._new_link(ws, dialer=True)
                    await self._serve(link)
                    healthy = link.verified
                    if link.peer is not None:
                        target.device_id = link.peer.device_id
            except asyncio.CancelledError:
                raise
            except OSError as err:
                if err.errno in (errno.ENETUNREACH, errno.ENETDOWN):
                    # Our own link is down. With netlink, the change that brings it
                    # back kicks every target (:meth:`_net_changed`), so wait for that
                    # (and now and then anyway); without, trying again soon costs the
                    # network nothing (no packet leaves) and reconnects at once.
                    if self._netwatch is None:
                        await self._pause(target, cfg.backoff_first)
                    else:
                        await self._pause(target, delay)
                        delay = min(delay * 2, cfg.backoff_max)
                    continue
            except Exception:
                log.debug("dial %s failed", target.key, exc_info=True)
            if healthy:
                delay = cfg.backoff_first
            await self._pause(target, delay)
            delay = cfg.backoff_first if healthy else min(delay * 2, cfg.backoff_max)

    # --- frames ---------------------------------------------------------------------

    async def _opened(self, link: Link) -> None:
        assert link.peer is not None
        self._known[link.peer.device_id] = (link.peer.name, link.peer.role, link.peer.table)
        self._seen[link.peer.device_id] = time.monotonic()
        self._stir()  # a peer: time sync and anti-entropy at their own periods again
        await self._have(link)

    def _proven(self, link: Link) -> bool:
        """The link's peer sent its first genuine frame of this session: it holds
        the key and is live (a replayed hello gets no further). Keep it or not.

        At most one proven link per peer. Two in opposite directions (peers that
        dialled each other at once): the one the lower device id dialled stays;
        both ends apply the same rule, so they agree whichever they prove first.
        Two this device accepted: the one accepted later stays (a peer redials
        when its old link died, before this end has noticed). Two this device
        dialled: the other end, which accepted them, decides; deciding here too
        could make the two ends keep different ones, by the order their frames
        arrived.
        """
        assert link.peer is not None
        if isinstance(link.ws, GatedConnection):
            link.ws.authenticated()
        elif self._gate is not None:
            # Dialled by this device: when the peer dials back (its process
            # restarted, say), its address is known at the gate.
            remote = getattr(link.ws, "remote_address", None)
            if remote:
                self._gate.remember(str(remote[0]))
        peer = link.peer.device_id
        keep_dialer = min(self.me.device_id, peer)

        def dialer_of(lk: Link) -> str:
            return self.me.device_id if lk.dialer else peer

        for other in list(self._links.values()):
            if (other is link or not other.verified or other.peer is None
                    or other.peer.device_id != peer):
                continue
            if dialer_of(link) != dialer_of(other):
                if dialer_of(link) != keep_dialer:
                    log.debug("link %d: %s has a link dialled the other way", link.id, peer)
                    self._spawn(link.close())
                    return False
                self._spawn(other.close())
            elif not link.dialer:
                # The later accept stays, whichever proved itself first.
                old, new = sorted((link, other), key=lambda lk: lk.id)
                log.debug("link %d replaces link %d from %s", new.id, old.id, peer)
                self._spawn(old.close())
                if old is link:
                    return False
        return True

    async def _have(self, link: Link) -> None:
        await link.send(FrameType.HAVE, vector=self._head, digest=head_digest(self._head))

    async def _frame(self, link: Link, frame: Frame) -> None:
        assert link.peer is not None
        peer = link.peer.device_id
        self._seen[peer] = time.monotonic()
        if frame.type is FrameType.HAVE:
            self._vectors[peer] = dict(frame["vector"])
            self._enqueue(Want(link.id, peer, dict(frame["vector"])))
        elif frame.type is FrameType.EVENTS:
            self._take_events(link, frame)
        elif frame.type is FrameType.TIME:
            t1 = self.clock.now()
            await link.send(FrameType.TIME_REPLY, t0=frame["t0"], t1=t1, t2=self.clock.now())
        elif frame.type is FrameType.TIME_REPLY:
            t3 = self._base_now()
            if peer == self._estimator.reference:
                self._estimator.add(Sample.of(frame["t0"], frame["t1"], frame["t2"], t3))
                self._update_estimate()

    def _enqueue(self, item: Incoming | Want) -> None:
        self.inbound.put(item)
        if self._on_inbound is not None:
            self._on_inbound()

    def _take_events(self, link: Link, frame: Frame) -> None:
        assert link.peer is not None
        rows: list[StoredEvent] = []
        refused: list[tuple[str, int]] = []
        for device_id, seq, lamport, tid, payload, mac in frame["events"]:
            try:
                verdict = self._verify(link, device_id, seq, lamport, tid, payload, mac)
            except Exception:  # a keyholder's garbage: dropped like any other
                log.warning("unreadable event %s/%s", device_id, seq, exc_info=True)
                verdict = Drop.MALFORMED
            if isinstance(verdict, StoredEvent):
                rows.append(verdict)
                continue
            self.stats.drop(verdict)
            if verdict is Drop.ROLE:
                refused.append((device_id, seq))
        self.stats.add("events_in", len(rows))
        if rows or refused or frame["more"]:
            self._enqueue(Incoming(link.id, link.peer.device_id, tuple(rows), frame["more"],
                                   tuple(refused)))

    def _verify(self, link: Link, device_id: str, seq: int, lamport: int, tid: str,
                payload: str, mac: str) -> StoredEvent | Drop:
        """The row to store, or why the event is dropped (the same on every peer)."""
        assert link.peer is not None
        seal = open_seal(self.key, device_id, seq, lamport, tid, payload, mac)
        if seal is None:
            return Drop.EVENT_MAC
        if device_id == link.peer.device_id and (seal.role, seal.table) != (
                link.peer.role, link.peer.table):
            return Drop.ROLE_CLAIM
        row = StoredEvent.received(device_id, seq, lamport, tid, payload, mac)
        if row.unreadable is None:
            why = allowed(seal.role, seal.table, row.record().event, origin=device_id)
            if why is not None:
                log.warning("refused %s/%s from a %s: %s", device_id, seq, seal.role, why)
                return Drop.ROLE
        return row

    # --- sending --------------------------------------------------------------------

    def _set_head(self, vector: dict[str, int], tournament: str | None) -> None:
        self._head = vector
        self._own_head()
        self._tournament = tournament
        if self._discovery is not None and not self._announcing:
            self._announcing = True
            self._spawn(self._announce())

    async def _announce(self) -> None:
        """Re-announce the log head, at most every few seconds: each update is a
        burst of multicast, and the TXT head is only a hint."""
        try:
            assert self._discovery is not None
            await self._discovery.update(self._tournament, head_digest(self._head))
            await asyncio.sleep(ANNOUNCE_EVERY)
            await self._discovery.update(self._tournament, head_digest(self._head))
        finally:
            self._announcing = False

    def _spawn_push(self, link_id: int | None, rows: list[StoredEvent], more: bool) -> None:
        if link_id is None:
            if self._outbox is not None:
                rows = self._outbox.take(rows)  # not what the store watch already sent
                self._own_head()
            if not rows:
                return
        self._spawn(self._push(link_id, rows, more))

    def _spawn_have(self, link_id: int) -> None:
        link = self._links.get(link_id)
        if link is not None and link.session is not None:
            self._spawn(self._have(link))

    async def _push(self, link_id: int | None, rows: list[StoredEvent], more: bool) -> None:
        if link_id is None:
            links = [lk for lk in self._links.values() if lk.session is not None]
        else:
            one = self._links.get(link_id)
            links = [one] if one is not None and one.session is not None else []
        batches = chunks(rows)
        for link in links:
            for i, batch in enumerate(batches):
                last = i == len(batches) - 1
                try:
                    await link.send(FrameType.EVENTS, events=[list(_row(r)) for r in batch],
                                    more=more or not last)
                    self.stats.add("events_out", len(batch))
                except Exception:  # the link is closing; anti-entropy resends
                    break

    def _net_changed(self) -> None:
        """Netlink says a link or address changed: read the network again, redial now."""
        assert self._netwatch is not None
        try:
            seen = self._netwatch.drain()
        except OSError as err:  # the socket broke: read the network on a timer instead
            log.warning("netlink failed (%s): reading the network on a timer", err)
            asyncio.get_running_loop().remove_reader(self._netwatch.fileno())
            self._netwatch.close()
            self._netwatch = None
            seen = True
        if seen:
            self._net_dirty = True
            for target in self._targets.values():
                target.kick.set()
            self._stir()

    async def _watch_network(self) -> None:
        """Rediscover when the network changes, or when nobody has answered for a while.

        A device that starts before its link is up (a Pi after a power cut
        boots faster than the pub's router) sent its announcement into
        nothing, and mDNS browsers back off to minutes between queries; the
        peers it knew have moved to new ports. Starting discovery again (on
        new sockets when the network changed; otherwise announcing and
        browsing afresh on the same ones) is cheap and finds them at once.

        The network is read only when netlink says it changed
        (:mod:`kiosk.sync.netwatch`), or, where there is no netlink, on a
        timer that backs off at rest; and only while no link works.
        """
        cfg = self.config
        self._netwatch = open_netwatch()
        if self._netwatch is not None:
            asyncio.get_running_loop().add_reader(self._netwatch.fileno(), self._net_changed)
        self._net_dirty = False
        last = await asyncio.to_thread(network_signature)
        lonely_since, patience = time.monotonic(), cfg.lonely_after
        delay = cfg.watch_every
        while True:
            now = time.monotonic()
            if any(link.verified for link in self._links.values()):
                # Linked: the network works, whatever changed (a new interface, say).
                # A change that breaks the links is acted on once they are gone
                # (a link that ends wakes this).
                lonely_since, patience = now, cfg.lonely_after
                await self._nap(cfg.rest_cap)
                continue
            wait = max(0.0, lonely_since + patience - now)
            if self._netwatch is None:
                delay = self._resting_sleep(cfg.watch_every, delay)
                wait = min(wait, delay)
            if not self._net_dirty:
                await self._nap(wait)
            if any(link.verified for link in self._links.values()):
                continue
            if self._netwatch is None:
                self._net_dirty = True  # the timer is all there is to go by
            lonely = time.monotonic() - lonely_since >= patience
            changed = False
            if self._net_dirty:
                self._net_dirty = False
                now_signature = await asyncio.to_thread(network_signature)
                changed = now_signature != last
                if changed:
                    last = now_signature
            if not (changed or lonely) or self._discovery is None:
                continue
            if lonely:
                lonely_since, patience = time.monotonic(), min(patience * 2, 120.0)
            log.info("rediscovering peers (%s)", "network changed" if changed else "alone")
            try:
                # New sockets only for a new network; alone on the same one, the
                # announcement and the browser's queries start over on the old ones.
                await (self._discovery.restart() if changed else self._discovery.refresh())
            except Exception:  # the link may still be down: try again on the next change
                log.warning("rediscovery failed", exc_info=True)

    async def _anti_entropy(self) -> None:
        cfg = self.config
        delay = cfg.anti_entropy_every
        while True:
            if any(link.session is not None for link in self._links.values()):
                delay = cfg.anti_entropy_every
                await asyncio.sleep(delay)
                self.wakeups += 1
                for link in list(self._links.values()):
                    if link.session is not None:
                        with contextlib.suppress(Exception):
                            await self._have(link)
            else:
                # Nobody to tell: a link's first ``have`` goes as it opens (_opened).
                delay = self._resting_sleep(cfg.anti_entropy_every, delay)
                await self._nap(delay)

    # --- shared time ----------------------------------------------------------------

    def _base_now(self) -> float:
        offset = self.clock.offset
        return self.clock.now() - offset

    def _reference(self) -> str | None:
        devices = [(self.me.device_id, self.me.role)]
        devices += [(lk.peer.device_id, lk.peer.role) for lk in self._links.values()
                    if lk.verified and lk.peer is not None]
        return choose_reference(devices)

    def _update_estimate(self) -> None:
        is_reference = self._estimator.reference == self.me.device_id
        self.estimate = self._estimator.estimate(self._base_now(), self.clock.offset,
                                                 is_reference=is_reference)

    async def _time_sync(self) -> None:
        cfg = self.config
        delay = cfg.time_every
        while True:
            reference = self._reference()
            self._estimator.reset(reference)
            self._update_estimate()
            link = next((lk for lk in self._links.values() if lk.verified and lk.peer
                         and lk.peer.device_id == reference), None)
            if link is not None and reference != self.me.device_id:
                with contextlib.suppress(Exception):
                    await link.send(FrameType.TIME, t0=self._base_now())
                warm = len(self._estimator.samples) < 4
                delay = 0.1 if warm else cfg.time_every
                await asyncio.sleep(delay)
                self.wakeups += 1
            else:
                # Nothing to measure: this device is the reference, or none is
                # linked. Which one it is changes only as links open and close,
                # and those wake this at once.
                delay = self._resting_sleep(cfg.time_every, delay)
                await self._nap(delay)

    async def _status(self) -> SyncStatus:
        now = time.monotonic()
        connected = {lk.peer.device_id for lk in self._links.values()
                     if lk.verified and lk.peer is not None}
        peers = []
        for device_id, (name, role, table) in sorted(self._known.items()):
            behind, ahead = lag(self._head, self._vectors.get(device_id, {}))
            seen = self._seen.get(device_id)
            tournament = next((lk.peer.tournament for lk in self._links.values()
                               if lk.peer and lk.peer.device_id == device_id), None)
            peers.append(PeerStatus(device_id, name, role, table, device_id in connected,
                                    None if seen is None else now - seen, behind, ahead,
                                    tournament))
        return SyncStatus(self.me.device_id, tuple(peers), self.stats.drops(),
                          self.stats.moved(), self.estimate)
