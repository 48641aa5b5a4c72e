"""The event log: durable, idempotent appends and the queries sync needs.

An append writes a batch in one transaction and returns only after the
commit, which under WAL with ``synchronous=FULL`` means after the fsync: a
bust the TD has seen on screen survives a power cut. ``(device_id, seq)``
names an event, so appending one twice does nothing; a *different* event
under a name already taken is reported, never written over.

Payloads are kept as the exact text received. One this version cannot read
(a newer peer's event, or garbage) is stored with the reason, left out of the
fold, and still served byte-for-byte to peers that ask for it.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from kiosk.lazylog import logger
from kiosk.store.errors import DiskFull, EventConflict
from kiosk.store.schema import get_meta_int, set_meta
from kiosk.store.tx import db_file, retry_when_full, rollback, transaction, write_error
from rules.events import Event, Record, UnreadableEvent, event_from_json, event_to_json
from rules.records import RecordMethods, record
from rules.undo import action_id
from rules.undo import stamp as stamp_action

__all__ = ["AppendResult", "EventLog", "StoredEvent"]

log = logger(__name__)  # logging is imported when something is logged

_COLUMNS = "device_id, seq, lamport, tournament_id, kind, payload, mac, unreadable"


@record
class StoredEvent(RecordMethods):
    """One row of the log: an event's identity, order and exact payload text."""

    device_id: str
    seq: int
    lamport: int
    tournament_id: str
    kind: str
    payload: str
    mac: str = ""
    #: None when this version can read the payload; otherwise why not.
    unreadable: str | None = None

    @property
    def key(self) -> tuple[int, str, int]:
        return (self.lamport, self.device_id, self.seq)

    @property
    def ident(self) -> tuple[str, int]:
        return (self.device_id, self.seq)

    @classmethod
    def of(cls, record: Record, mac: str = "") -> StoredEvent:
        """The row for a record this version wrote."""
        return cls(record.device_id, record.seq, record.lamport, record.tournament_id,
                   record.event.kind.value, event_to_json(record.event), mac)

    @classmethod
    def received(cls, device_id: str, seq: int, lamport: int, tournament_id: str,
                 payload: str, mac: str = "") -> StoredEvent:
        """The row for a payload from a peer, read or not.

        >>> StoredEvent.received("d1", 1, 1, "t1", '{"kind":"warp-drive","v":1}').unreadable
        "unknown event kind 'warp-drive'"
        """
        try:
            event = event_from_json(payload)
        except UnreadableEvent as err:
            return cls(device_id, seq, lamport, tournament_id, _kind_of(payload), payload,
                       mac, str(err) or "unreadable")
        return cls(device_id, seq, lamport, tournament_id, event.kind.value, payload, mac)

    def record(self) -> Record:
        """The decoded record; :class:`UnreadableEvent` if this version cannot read it."""
        if self.unreadable is not None:
            raise UnreadableEvent(self.unreadable)
        return Record(self.device_id, self.seq, self.lamport, self.tournament_id,
                      event_from_json(self.payload))


def _kind_of(payload: str) -> str:
    """Best-effort kind of an unreadable payload, for queries and the TD's list."""
    try:
        data = json.loads(payload)
    except ValueError:
        return "?"
    kind = data.get("kind") if isinstance(data, dict) else None
    return kind if isinstance(kind, str) else "?"


@record
class AppendResult(RecordMethods):
    """What an append of received events did: the new ones and the rest."""

    added: tuple[StoredEvent, ...] = ()
    duplicates: tuple[tuple[str, int], ...] = ()
    conflicts: tuple[EventConflict, ...] = ()


@dataclass
class _Vector:
    """Highest contiguous seq per device, kept up to date as events land."""

    top: dict[str, int] = field(default_factory=dict)
    #: Seqs above a gap, waiting for the gap to fill.
    above: dict[str, set[int]] = field(default_factory=dict)

    def add(self, device_id: str, seq: int) -> None:
        top = self.top.get(device_id, 0)
        if seq <= top:
            return
        if seq != top + 1:
            self.above.setdefault(device_id, set()).add(seq)
            return
        top = seq
        pending = self.above.get(device_id)
        while pending and top + 1 in pending:
            top += 1
            pending.discard(top)
        self.top[device_id] = top


class EventLog:
    """The ``events`` table of one open store, and this device's counters."""

    def __init__(self, conn: sqlite3.Connection, device_id: str,
                 *, wall: Callable[[], float] = time.time) -> None:
        self.conn = conn
        self.device_id = device_id
        self._wall = wall
        own_max = conn.execute(
            "SELECT MAX(seq) FROM events WHERE device_id = ?", (device_id,)).fetchone()[0]
        # Never reuse a seq: trust whichever of the log and meta is higher.
        self.last_seq = max(int(own_max or 0), get_meta_int(conn, "last_seq", 0))
        self.lamport = get_meta_int(conn, "lamport", 0)
        if self.lamport == 0:
            self.lamport = int(conn.execute("SELECT MAX(lamport) FROM events").fetchone()[0] or 0)
        self._vector: _Vector | None = None
        #: The vector holds every row up to this rowid (rows of other processes too).
        self._vector_rowid = 0
        #: Called inside the append transaction with the rows just added.
        self.on_added: list[Callable[[sqlite3.Connection, Sequence[StoredEvent], float], None]] = []

    # --- writing ------------------------------------------------------------

    def stamp(self, tournament_id: str, events: Iterable[Event], *,
              one_action: bool = False) -> list[Record]:
        """Records for new local events: the next seqs, Lamport times after all seen.

        ``one_action``: the events are one command's, and each carries the
        action id of the first one's seq (:func:`rules.undo.action_id`), so one
        undo takes back exactly that command.
        """
        if one_action:
            events = stamp_action(events, action_id(self.device_id, self.last_seq + 1))
        return [
            Record(self.device_id, self.last_seq + i, self.lamport + i, tournament_id, event)
            for i, event in enumerate(events, 1)
        ]

    def append_new(self, tournament_id: str, events: Iterable[Event], *,
                   one_action: bool = False) -> list[Record]:
        """Stamp and durably append local events; return their records.

        The seqs and Lamport times are taken inside the write transaction from
        what the file holds, so a second process on this device (the CLI while
        the kiosk runs) can never be handed the same seq.
        On :class:`StoreWriteFailed` nothing was written and no counter moved,
        so the caller keeps its state and may try again. The action id of
        ``one_action`` is taken there too, from the seq really given.
        """
        batch = list(events)
        if not batch:
            return []
        records: list[Record] = []

        def stamp_in_transaction(conn: sqlite3.Connection) -> list[StoredEvent]:
            (top_seq,) = conn.execute("SELECT MAX(seq) FROM events WHERE device_id = ?",
                                      (self.device_id,)).fetchone()
            (top_lamport,) = conn.execute("SELECT MAX(lamport) FROM events").fetchone()
            self.last_seq = max(self.last_seq, int(top_seq or 0))
            self.lamport = max(self.lamport, int(top_lamport or 0))
            records[:] = self.stamp(tournament_id, batch, one_action=one_action)
            return [StoredEvent.of(r) for r in records]

        self._write(stamp_in_transaction)
        return records

    def append(self, items: Iterable[Record | StoredEvent]) -> AppendResult:
        """Durably append a batch in one transaction; idempotent on ``(device_id, seq)``."""
        rows = [item if isinstance(item, StoredEvent) else StoredEvent.of(item)
                for item in items]
        for row in rows:
            _check(row)
        if not rows:
            return AppendResult()
        return self._write(lambda conn: rows)

    @retry_when_full
    def _write(self, rows_for: Callable[[sqlite3.Connection], list[StoredEvent]]
               ) -> AppendResult:
        """One write transaction; ``rows_for`` runs once the write lock is held."""
        now = self._wall()
        added: list[StoredEvent] = []
        duplicates: list[tuple[str, int]] = []
        conflicts: list[EventConflict] = []
        before = (self.last_seq, self.lamport)
        conn = self.conn
        refusal = getattr(conn, "refusal", None)
        if refusal is not None:
            raise refusal  # opened as it is on a full disk: nothing can be kept
        try:
            conn.execute("BEGIN IMMEDIATE")
            rows = rows_for(conn)
            for row in rows:
                _check(row)
            last_seq, lamport = self.last_seq, self.lamport
            for row in rows:
                cur = conn.execute(
                    "INSERT INTO events (device_id, seq, lamport, tournament_id, kind, payload,"
                    " mac, received_at, unreadable) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (device_id, seq) DO NOTHING",
                    (row.device_id, row.seq, row.lamport, row.tournament_id, row.kind,
                     row.payload, row.mac, now, row.unreadable))
                if cur.rowcount == 1:
                    added.append(row)
                    lamport = max(lamport, row.lamport)
                    if row.device_id == self.device_id:
                        last_seq = max(last_seq, row.seq)
                elif self._same(row):
                    duplicates.append(row.ident)
                else:
                    conflicts.append(EventConflict(device_id=row.device_id, seq=row.seq))
            if added:
                for hook in self.on_added:
                    hook(conn, added, now)
                if last_seq != before[0]:
                    set_meta(conn, "last_seq", last_seq)
                if lamport != before[1]:
                    set_meta(conn, "lamport", lamport)
            conn.execute("COMMIT")
        except sqlite3.Error as err:
            rollback(conn)
            self.last_seq, self.lamport = before
            failure = write_error(err, db_file(conn))
            # A full disk is the caller's to show, translated (and the space
            # keeper's to log); anything else is news for the journal.
            (log.info if isinstance(failure, DiskFull) else log.error)(
                "append failed, nothing kept: %s", err)
            raise failure from err
        except BaseException:
            rollback(conn)
            self.last_seq, self.lamport = before
            raise
        # Only now, with the batch on disk, does memory move on.
        self.last_seq, self.lamport = last_seq, lamport
        if self._vector is not None:
            for row in added:
                self._vector.add(row.device_id, row.seq)
        for conflict in conflicts:
            log.warning("kept the first of two events named %s/%s",
                        conflict.params["device_id"], conflict.params["seq"])
        return AppendResult(tuple(added), tuple(duplicates), tuple(conflicts))

    def _same(self, row: StoredEvent) -> bool:
        """Is the stored event under ``row``'s name the same event? Fill in a late MAC."""
        have = self.conn.execute(
            "SELECT lamport, tournament_id, payload, mac FROM events"
            " WHERE device_id = ? AND seq = ?", (row.device_id, row.seq)).fetchone()
        if have is None or (have[0], have[1], have[2]) != (
                row.lamport, row.tournament_id, row.payload):
            return False
        if row.mac and have[3] != row.mac:
            if have[3]:
                return False
            self.conn.execute("UPDATE events SET mac = ? WHERE device_id = ? AND seq = ?",
                              (row.mac, row.device_id, row.seq))
        return True

    def set_mac(self, device_id: str, seq: int, mac: str) -> None:
        """Sign a stored event once sync has a MAC for it."""
        with self.conn:
            self.conn.execute("UPDATE events SET mac = ? WHERE device_id = ? AND seq = ?",
                              (mac, device_id, seq))

    # --- reading ------------------------------------------------------------

    def records(self, tournament_id: str, *, after_rowid: int = 0,
                upto_rowid: int | None = None) -> list[Record]:
        """The readable records of a tournament in fold order.

        ``after_rowid`` leaves out what a snapshot already holds.
        """
        out: list[Record] = []
        for row in self.rows(tournament_id, after_rowid=after_rowid, upto_rowid=upto_rowid,
                             readable=True):
            try:
                out.append(row.record())
            except UnreadableEvent as err:  # pragma: no cover - flagged at append
                log.error("event %s/%s no longer reads: %s", row.device_id, row.seq, err)
        return out

    def rows(self, tournament_id: str | None = None, *, after_rowid: int = 0,
             upto_rowid: int | None = None, readable: bool | None = None
             ) -> list[StoredEvent]:
        """Stored rows in fold order; ``readable`` filters on the unreadable flag."""
        # No "rowid > 0" for the whole log: SQLite would take the rowid range for it and
        # walk every row, where the unreadable rows have a small index of their own.
        where = ["rowid > ?"] if after_rowid > 0 else ["1"]
        params: list[object] = [after_rowid] if after_rowid > 0 else []
        if upto_rowid is not None:
            where.append("rowid <= ?")
            params.append(upto_rowid)
        if tournament_id is not None:
            # After a rowid (a tail: what came since a snapshot) the rowid range is the
            # cheap way in; left to itself SQLite walks the tournament's whole index
            # (tens of ms at 100,000 events). The unary + keeps it off that index.
            where.append("+tournament_id = ?" if after_rowid > 0 else "tournament_id = ?")
            params.append(tournament_id)
        if readable is True:
            where.append("unreadable IS NULL")
        elif readable is False:
            where.append("unreadable IS NOT NULL")
        cur = self.conn.execute(
            f"SELECT {_COLUMNS} FROM events WHERE {' AND '.join(where)}"
            " ORDER BY lamport, device_id, seq", params)
        return [StoredEvent(*r) for r in cur]

    def keys_after(self, tournament_id: str, after_rowid: int) -> list[tuple[int, str, int]]:
        """Fold keys of readable events that arrived after ``after_rowid``."""
        return [(int(r[0]), str(r[1]), int(r[2])) for r in self.conn.execute(
            "SELECT lamport, device_id, seq FROM events"  # + : by rowid, as in rows()
            " WHERE rowid > ? AND +tournament_id = ? AND unreadable IS NULL", (after_rowid,
                                                                             tournament_id))]

    def get(self, device_id: str, seq: int) -> StoredEvent | None:
        r = self.conn.execute(f"SELECT {_COLUMNS} FROM events WHERE device_id = ? AND seq = ?",
                              (device_id, seq)).fetchone()
        return None if r is None else StoredEvent(*r)

    def max_rowid(self) -> int:
        return int(self.conn.execute("SELECT MAX(rowid) FROM events").fetchone()[0] or 0)

    def count(self, tournament_id: str | None = None) -> int:
        if tournament_id is None:
            return int(self.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0])
        return int(self.conn.execute(
            "SELECT COUNT(*) FROM events WHERE tournament_id = ?", (tournament_id,)
        ).fetchone()[0])

    def version_vector(self) -> dict[str, int]:
        """``{device_id: highest contiguous seq}``: what to tell a peer we have.

        Kept up to date as this connection appends, and from the rows another
        process appended (the TD's ``pubpoker`` on this device) at each call:
        one look along the rowid index.
        """
        if self._vector is None:
            self._vector_rowid = self.max_rowid()
            self._vector = self._build_vector()
        else:
            rows = self.conn.execute("SELECT rowid, device_id, seq FROM events WHERE rowid > ?",
                                     (self._vector_rowid,)).fetchall()
            for rowid, device_id, seq in rows:
                self._vector.add(str(device_id), int(seq))
                self._vector_rowid = max(self._vector_rowid, int(rowid))
        return {d: top for d, top in self._vector.top.items() if top > 0}

    def _build_vector(self) -> _Vector:
        vector = _Vector()
        for device_id, count, top in self.conn.execute(
                "SELECT device_id, COUNT(*), MAX(seq) FROM events GROUP BY device_id"):
            if count == top:  # seqs start at 1 and are unique: no gap
                vector.top[device_id] = int(top)
                continue
            for (seq,) in self.conn.execute(
                    "SELECT seq FROM events WHERE device_id = ? ORDER BY seq", (device_id,)):
                vector.add(device_id, int(seq))
        return vector

    def missing_since(self, vector: Mapping[str, int], *, limit: int | None = None
                      ) -> list[StoredEvent]:
        """Every event a peer with ``vector`` lacks, ordered by device and seq.

        A peer's vector counts only contiguous seqs, so some of these may be
        ones it already holds above a gap; appending them again does nothing.
        """
        devices = [r[0] for r in self.conn.execute("SELECT DISTINCT device_id FROM events")]
        out: list[StoredEvent] = []
        for device_id in sorted(devices):
            left = None if limit is None else limit - len(out)
            if left is not None and left <= 0:
                break
            cur = self.conn.execute(
                f"SELECT {_COLUMNS} FROM events WHERE device_id = ? AND seq > ?"
                " ORDER BY seq" + ("" if left is None else f" LIMIT {int(left)}"),
                (device_id, int(vector.get(device_id, 0))))
            out.extend(StoredEvent(*r) for r in cur)
        return out

    def reread_unreadable(self) -> set[str]:
        """Decode flagged rows again (after an upgrade); return tournaments that changed."""
        changed: set[str] = set()
        rows = self.rows(readable=False)
        fixed = []
        for row in rows:
            fresh = StoredEvent.received(row.device_id, row.seq, row.lamport,
                                         row.tournament_id, row.payload, row.mac)
            if fresh.unreadable is None:
                fixed.append(fresh)
                changed.add(row.tournament_id)
        if fixed:
            with transaction(self.conn):
                self.conn.executemany(
                    "UPDATE events SET unreadable = NULL, kind = ? WHERE device_id = ? AND seq = ?",
                    [(r.kind, r.device_id, r.seq) for r in fixed])
        return changed


def _check(row: StoredEvent) -> None:
    if not row.device_id or row.seq < 1 or row.lamport < 0 or not row.tournament_id:
        raise ValueError(f"bad event identity {row.device_id!r}/{row.seq}/{row.lamport}")
