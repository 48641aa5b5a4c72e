"""Replication, main-loop side: sign and push local events, apply peers' events.

The log is one signed, append-only feed per device; replicating is a set
union keyed by ``(device_id, seq)``, so it cannot conflict, and the store's
idempotent append makes every repeat harmless. Order and validity are the
reducer's (``(lamport, device_id, seq)``, the same on every peer).

- New local events are sealed (``mac`` column), then pushed at once. This
  device's events another process wrote (the TD's ``pubpoker`` over SSH)
  are pushed by the sync thread as it sees them committed
  (:meth:`SyncService.watch`); the vector announced here takes them in at
  the next tick.
- On connect and every few seconds each side sends its version vector; the
  other answers with ``missing_since`` in batches under the frame limit, and
  a batch marked ``more`` is answered with a fresh vector, until caught up.
- The store raises its Lamport clock to the highest it has seen on every
  append, so a local event always folds after everything this device knew.
- Events refused for their origin's role are refused by every peer alike;
  their seqs are skipped in the vector we announce, so they are not resent.
"""

from __future__ import annotations

import logging
import queue
import sqlite3
import time
from collections.abc import Sequence
from typing import Any

from kiosk.station import Station
from kiosk.store import StoreError
from kiosk.store.log import StoredEvent
from kiosk.store.looks import LookSchedule
from kiosk.sync.auth import event_seal
from kiosk.sync.link import Identity
from kiosk.sync.roles import allowed
from kiosk.sync.service import Incoming, SyncService, Want
from kiosk.sync.stats import Drop
from rules.events import Record, event_to_json

__all__ = ["Replicator"]

log = logging.getLogger(__name__)

#: Events per anti-entropy answer; the rest follow when the peer asks again.
BATCH_EVENTS = 2000


class Replicator:
    """Joins a :class:`Station` to a :class:`SyncService`. Main loop only."""

    def __init__(self, station: Station, service: SyncService, *, key: bytes,
                 me: Identity, batch_events: int = BATCH_EVENTS) -> None:
        self.station = station
        self.service = service
        self.key = key
        self.me = me
        self.batch_events = batch_events
        #: Seqs every peer refuses, per device; lost at restart (then resent once).
        self.refused: dict[str, set[int]] = {}
        self._skip_top: dict[str, int] = {}
        #: Seals of local events not yet written to the ``mac`` column. They go in
        #: one small transaction at the next tick, after the push: a crash before
        #: then loses nothing, as an unsealed own event is sealed when served.
        self._unwritten: list[tuple[str, str, int]] = []
        self._published: tuple[dict[str, int], str | None] | None = None
        #: When to ask the store whether another process moved the head: only
        #: after its commits, where the loop is told of them; else every tick.
        self._looks = LookSchedule(signalled=station.looks.signalled)
        station.on_local.append(self._on_local)
        if station.looks.signalled:
            # The kiosk's loop watches the store already, and tells of others' commits.
            service.watch(station.store.path, told=True)
            station.on_store_changed.append(service.store_changed)
            station.on_store_changed.append(self._looks.changed)
        else:
            service.watch(station.store.path)
        self.publish()

    @property
    def store(self) -> Any:
        return self.station.store

    # --- local events -----------------------------------------------------------------

    def seal(self, record: Record) -> StoredEvent:
        payload = event_to_json(record.event)
        mac = event_seal(self.key, record.device_id, record.seq, record.lamport,
                         record.tournament_id, payload, role=self.me.role, table=self.me.table)
        self._unwritten.append((mac, record.device_id, record.seq))
        return StoredEvent.of(record, mac)

    def write_seals(self) -> None:
        """Keep the seals of this device's events in the store (one transaction)."""
        if not self._unwritten:
            return
        conn = self.store.log.conn
        try:
            with conn:
                conn.executemany("UPDATE events SET mac = ? WHERE device_id = ? AND seq = ?",
                                 self._unwritten)
        except sqlite3.Error as err:
            # A full disk must not stop the display: the seals wait in memory
            # (the links already have them) and go to disk at a later tick.
            log.debug("seals not written yet: %s", err)
            return
        self._unwritten = []

    def _on_local(self, records: Sequence[Record]) -> None:
        rows = [self.seal(r) for r in records]
        self.service.push(rows)
        for record in records:
            why = allowed(self.me.role, self.me.table, record.event, origin=record.device_id)
            if why is not None:
                # The kiosk should not have offered it; peers will refuse it.
                log.error("this %s emitted %s: %s", self.me.role, record.event.kind, why)
                self.service.stats.drop(Drop.ROLE_LOCAL)
        self.publish()

    # --- peers' traffic ---------------------------------------------------------------

    def handle(self, item: object) -> bool:
        """Act on one inbound item; False if it is not sync's."""
        return self.handle_many([item]) == 1

    def handle_many(self, items: Sequence[object]) -> int:
        """Act on several inbound items at once: one durable append for all their
        events (one fsync, not one per frame). Returns how many were sync's."""
        incoming = [i for i in items if isinstance(i, Incoming)]
        wants = [i for i in items if isinstance(i, Want)]
        if incoming:
            self._incoming(incoming)
        for want in wants:
            self._answer(want)
        return len(incoming) + len(wants)

    def pump(self, limit: int = 1000) -> int:
        """Handle what is waiting in the service's inbound queue; how many items."""
        items: list[object] = []
        while len(items) < limit:
            try:
                items.append(self.service.inbound.get_nowait())
            except queue.Empty:
                break
        return self.handle_many(items)

    def _incoming(self, items: Sequence[Incoming]) -> None:
        rows: list[StoredEvent] = []
        refused = False
        for item in items:
            rows.extend(item.rows)
            for device_id, seq in item.refused:
                self.refused.setdefault(device_id, set()).add(seq)
                refused = True
        try:
            added = self.station.accept(rows) if rows else 0
        except StoreError as err:
            # Nothing was kept; the next exchange of vectors brings them again.
            log.error("could not store %d events from peers: %s", len(rows), err)
            return
        if added or refused:
            self.publish()
        for link in dict.fromkeys(i.link for i in items if i.more):
            self.service.send_have(link)

    def _answer(self, want: Want) -> None:
        rows: list[StoredEvent] = self.store.missing_since(want.vector,
                                                           limit=self.batch_events)
        more = len(rows) >= self.batch_events
        out: list[StoredEvent] = []
        for row in rows:
            if not row.mac:
                if row.device_id != self.store.device_id or row.unreadable is not None:
                    continue  # never vouch for an unsealed event of another device
                row = self.seal(row.record())
            out.append(row)
        if out or more:
            self.service.send_events(want.link, out, more)

    # --- what we announce -------------------------------------------------------------

    def vector(self) -> dict[str, int]:
        """The store's vector, stepping over seqs every peer refuses."""
        vector: dict[str, int] = dict(self.store.version_vector())
        for device_id, seqs in self.refused.items():
            top = max(vector.get(device_id, 0), self._skip_top.get(device_id, 0))
            while top + 1 in seqs or self.store.log.get(device_id, top + 1) is not None:
                top += 1
            self._skip_top[device_id] = top
            vector[device_id] = top
        return vector

    def publish(self) -> None:
        head = (self.vector(), self.station.tournament_id)
        self._published = head
        self.service.set_head(*head)

    def tick(self) -> None:
        """Called by the loop: write pending seals, take the latest shared time, and
        announce a head another process moved (or a switch of tournament)."""
        self.write_seals()
        published = self._published
        if (published is None or published[1] != self.station.tournament_id
                or (self._looks.due(time.monotonic()) and published[0] != self.vector())):
            self.publish()
        estimate = self.service.estimate
        if not estimate.uncertain and estimate.reference != self.me.device_id:
            self.station.clock.offset = estimate.offset

    @property
    def time_uncertain(self) -> bool:
        return self.service.estimate.uncertain
