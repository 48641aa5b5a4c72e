"""This device's own events as its store holds them, whichever process wrote them.

The kiosk's main loop pushes what its station appends. The TD's
``pubpoker`` commands over SSH are another process on the same store: their
events are this device's too (same device id, next seqs), and until now they
waited for the next anti-entropy round. The sync thread watches the store
(:class:`kiosk.store.watch.StoreWatcher`) and asks the outbox for this
device's events it has not pushed yet; the main loop's pushes go through
:meth:`Outbox.take` so no event goes out twice. Sync thread only: it reads
with its own connection (:func:`kiosk.store.watch.open_reader`) and writes
nothing, so the store stays the main loop's.
"""

from __future__ import annotations

import sqlite3
from collections import deque
from collections.abc import Callable, Iterable

from kiosk.store.log import StoredEvent

__all__ = ["Outbox"]

_COLUMNS = "device_id, seq, lamport, tournament_id, kind, payload, mac, unreadable"


class Outbox:
    """Which of this device's seqs went out, and the ones that are still to go."""

    def __init__(self, conn: sqlite3.Connection, device_id: str,
                 seal: Callable[[StoredEvent], StoredEvent], *, limit: int = 2000) -> None:
        self.conn = conn
        self.device_id = device_id
        self.seal = seal
        self.limit = limit
        # What the store holds at the start goes out through the version vectors
        # exchanged as links open, not through a push.
        (top,) = conn.execute("SELECT MAX(seq) FROM events WHERE device_id = ?",
                              (device_id,)).fetchone()
        #: Every seq up to here was pushed (or was there at the start).
        self.top = int(top or 0)
        self._ahead: set[int] = set()
        #: Seqs :meth:`fresh` pushed that the main loop may push again (the
        #: kiosk's own, seen committed before its push came): the newest few.
        self._scanned: deque[int] = deque(maxlen=4096)

    def _mark(self, seq: int) -> bool:
        """Note ``seq`` as pushed; False if it already was."""
        if seq <= self.top or seq in self._ahead:
            return False
        self._ahead.add(seq)
        while self.top + 1 in self._ahead:
            self.top += 1
            self._ahead.discard(self.top)
        return True

    def take(self, rows: Iterable[StoredEvent]) -> list[StoredEvent]:
        """Of rows the main loop pushes, those :meth:`fresh` did not push already."""
        out = []
        for row in rows:
            if row.device_id == self.device_id:
                self._mark(row.seq)
                if row.seq in self._scanned:
                    self._scanned.remove(row.seq)
                    continue
            out.append(row)
        return out

    def fresh(self) -> tuple[list[StoredEvent], bool]:
        """This device's stored events not pushed yet, sealed; and whether more wait."""
        cur = self.conn.execute(
            f"SELECT {_COLUMNS} FROM events WHERE device_id = ? AND seq > ?"
            " ORDER BY seq LIMIT ?", (self.device_id, self.top, self.limit))
        found = [StoredEvent(*r) for r in cur]
        out = []
        for row in found:
            if not self._mark(row.seq) or row.unreadable is not None:
                continue  # never vouch for what this version cannot read
            self._scanned.append(row.seq)
            out.append(row if row.mac else self.seal(row))
        return out, len(found) >= self.limit
