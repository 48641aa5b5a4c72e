"""Fold at start-up from a snapshot, so start-up does not grow with the log.

A snapshot is the folded state of one tournament (``rules.fold.snapshot``)
saved with the fold key of the last record in it and the log's highest rowid
at that moment. Start-up restores it and folds only the rows that arrived
later. Correctness comes first, so the whole log is folded again when

- any later row sorts at or before the snapshot's key (a peer's late event),
  or is an undo (both handled by :class:`rules.fold.Replay`);
- the snapshot was written by different rules code (a reducer fix must not
  be hidden by a state folded by the old one);
- the restored state's digest does not match the one saved with it.

A snapshot is checked before it is written, too: one that would not restore
to the state it was taken from (a state field the codec cannot carry) is not
saved, and the log names the first field that differs, instead of every
later start-up warning that the digest does not match.

:class:`Folded` keeps a tournament's state in step with the log as events
land, and saves a fresh snapshot every ``snapshot_every`` events and on
:meth:`Folded.close`.
"""

from __future__ import annotations

import hashlib
import json
import os
import reprlib
import sqlite3
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import rules
from kiosk.lazylog import logger
from kiosk.store.errors import StoreWriteFailed
from kiosk.store.log import EventLog
from kiosk.store.tx import transaction
from rules.fold import Replay, fold, restore_snapshot, snapshot, state_digest
from rules.records import RecordMethods, record
from rules.state import Tournament

__all__ = [
    "Folded",
    "SnapshotInfo",
    "drop_snapshots",
    "full_fold",
    "load_folded",
    "rules_fingerprint",
    "snapshot_info",
]

log = logger(__name__)  # logging is imported when something is logged

#: Save a snapshot after this many newly folded events.
SNAPSHOT_EVERY = 500

#: A ``pubpoker`` command leaves a new snapshot only once this many events came
#: after the last: saving one encodes, checks and restores the whole state (about
#: 8 ms on this machine, a third of a ``checkin``), while the next command folds
#: a tail of 32 events again in about 1 ms.
CLI_SNAPSHOT_AFTER = 32


@cache
def rules_fingerprint() -> str:
    """What the rules core's source files are: a snapshot only fits the code that folded it.

    Their names, sizes and modification times, not their bytes: every command
    asks, and reading the whole core cost each one 2 ms. Any edit or upgrade
    changes a time, and a false "other code" only costs a full fold.
    """
    digest = hashlib.sha256()
    root = Path(rules.__file__).parent
    with os.scandir(root) as entries:
        for entry in sorted(entries, key=lambda e: e.name):
            if entry.name.endswith(".py"):
                found = entry.stat()
                digest.update(f"{entry.name}:{found.st_size}:{found.st_mtime_ns};".encode())
    return digest.hexdigest()[:16]


@record
class SnapshotInfo(RecordMethods):
    """Where a tournament's saved state stands in the log."""

    tournament_id: str
    key: tuple[int, str, int]
    max_rowid: int
    digest: str
    code: str
    saved_at: float


class Folded:
    """One tournament's state, kept in step with the log."""

    def __init__(self, log_: EventLog, tournament_id: str, replay: Replay, covered_rowid: int,
                 *, from_snapshot: bool, snapshot_every: int = SNAPSHOT_EVERY,
                 wall: Callable[[], float] = time.time) -> None:
        self.log = log_
        self.tournament_id = tournament_id
        self.replay = replay
        #: Every row up to this rowid is folded into ``state``.
        self.covered_rowid = covered_rowid
        self.from_snapshot = from_snapshot
        self.snapshot_every = snapshot_every
        self.since_snapshot = 0
        #: Full refolds since start-up (late events, undos): for tests and the log.
        self.refolds = 0
        self._wall = wall

    @property
    def state(self) -> Tournament:
        return self.replay.state

    def catch_up(self) -> int:
        """Fold every row that landed since the last call; return how many."""
        top = self.log.max_rowid()
        if top <= self.covered_rowid:
            return 0
        fresh = self.log.records(self.tournament_id, after_rowid=self.covered_rowid,
                                upto_rowid=top)
        last = self.replay.last_key
        if fresh and last is not None and fresh[0].key <= last:
            self._refold()
        else:
            for record in fresh:
                self.replay.add(record)
        self.covered_rowid = top
        self.since_snapshot += len(fresh)
        if self.snapshot_every and self.since_snapshot >= self.snapshot_every:
            self.save()
        return len(fresh)

    def _refold(self) -> None:
        self.refolds += 1
        self.replay.refold()

    def save(self) -> None:
        """Write a snapshot of the state as folded so far (one small transaction)."""
        key = self.replay.last_key
        if key is None or getattr(self.log.conn, "refusal", None) is not None:
            return  # nothing yet, or a store opened as it is on a full disk: no room
        state = self.replay.state
        data = snapshot(state)
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        digest = state_digest(state)
        problem = _round_trip_problem(data, text, digest)
        if problem is not None:
            log.error("snapshot of %s would not restore as folded (%s); not saved",
                      self.tournament_id, problem)
            self.since_snapshot = 0
            return
        try:
            self._write(key, digest, text)
        except StoreWriteFailed as err:
            # A snapshot only saves start-up time: on a full disk the fold goes
            # on in memory, and a later event tries again.
            log.warning("snapshot of %s not saved: %s", self.tournament_id, err)
            return
        self.since_snapshot = 0

    def _write(self, key: tuple[int, str, int], digest: str, text: str) -> None:
        with transaction(self.log.conn) as conn:
            conn.execute(
                "INSERT INTO snapshots (tournament_id, lamport, device_id, seq, max_rowid,"
                " digest, code, state, saved_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (tournament_id) DO UPDATE SET lamport = excluded.lamport,"
                " device_id = excluded.device_id, seq = excluded.seq,"
                " max_rowid = excluded.max_rowid, digest = excluded.digest,"
                " code = excluded.code, state = excluded.state, saved_at = excluded.saved_at",
                (self.tournament_id, key[0], key[1], key[2], self.covered_rowid,
                 digest, rules_fingerprint(), text, self._wall()))

    def close(self, *, snapshot_after: int = 1) -> None:
        """On a clean shutdown: fold what is left and save a snapshot, if at least
        ``snapshot_after`` events came after the last one (or none was read)."""
        self.catch_up()
        if self.since_snapshot >= snapshot_after or not self.from_snapshot:
            self.save()


def _round_trip_problem(data: dict[str, Any], text: str, digest: str) -> str | None:
    """Why ``text`` would not restore to the state ``data`` and ``digest`` describe."""
    try:
        restored = restore_snapshot(json.loads(text))
    except ValueError as err:
        return str(err)
    if state_digest(restored) == digest:
        return None
    return _first_difference(data, snapshot(restored), "") or "the digest differs"


def _first_difference(saved: Any, restored: Any, path: str) -> str | None:
    """The first place two JSON values differ, type included (``0`` is not ``0.0``)."""
    if isinstance(saved, dict) and isinstance(restored, dict):
        for key in sorted(saved.keys() | restored.keys()):
            if key not in saved or key not in restored:
                return f"{path}/{key} is {'lost' if key in saved else 'new'}"
            found = _first_difference(saved[key], restored[key], f"{path}/{key}")
            if found is not None:
                return found
        return None
    if isinstance(saved, list) and isinstance(restored, list) and len(saved) == len(restored):
        for index, (a, b) in enumerate(zip(saved, restored, strict=True)):
            found = _first_difference(a, b, f"{path}/{index}")
            if found is not None:
                return found
        return None
    if type(saved) is type(restored) and saved == restored:
        return None
    return f"{path or '/'}: {reprlib.repr(saved)} comes back as {reprlib.repr(restored)}"


def snapshot_info(conn: sqlite3.Connection, tournament_id: str) -> SnapshotInfo | None:
    row = conn.execute(
        "SELECT lamport, device_id, seq, max_rowid, digest, code, saved_at FROM snapshots"
        " WHERE tournament_id = ?", (tournament_id,)).fetchone()
    if row is None:
        return None
    return SnapshotInfo(tournament_id, (int(row[0]), str(row[1]), int(row[2])), int(row[3]),
                        str(row[4]), str(row[5]), float(row[6]))



def _restore(conn: sqlite3.Connection, info: SnapshotInfo) -> Tournament | None:
    if info.code != rules_fingerprint():
        log.info("snapshot of %s is from other rules code; folding the whole log",
                 info.tournament_id)
        return None
    (text,) = conn.execute("SELECT state FROM snapshots WHERE tournament_id = ?",
                           (info.tournament_id,)).fetchone()
    try:
        state = restore_snapshot(json.loads(text))
    except ValueError as err:
        log.warning("snapshot of %s unusable (%s); folding the whole log",
                    info.tournament_id, err)
        return None
    if state_digest(state) != info.digest:
        log.warning("snapshot of %s does not match its digest; folding the whole log",
                    info.tournament_id)
        return None
    return state


def load_folded(log_: EventLog, tournament_id: str, *, use_snapshot: bool = True,
                snapshot_every: int = SNAPSHOT_EVERY,
                wall: Callable[[], float] = time.time) -> Folded:
    """The tournament's state: from its snapshot plus later rows, or a full fold."""
    conn = log_.conn
    top = log_.max_rowid()
    info = snapshot_info(conn, tournament_id) if use_snapshot else None
    state = _restore(conn, info) if info is not None else None
    if info is not None and state is not None:
        late = [k for k in log_.keys_after(tournament_id, info.max_rowid) if k <= info.key]
        if not late:
            replay = Replay(state=state, last_key=info.key, retain=False,
                            load_all=lambda: log_.records(tournament_id))
            folded = Folded(log_, tournament_id, replay, info.max_rowid, from_snapshot=True,
                            snapshot_every=snapshot_every, wall=wall)
            folded.catch_up()
            return folded
        log.info("%d events of %s arrived late behind the snapshot; folding the whole log",
                 len(late), tournament_id)
    records = log_.records(tournament_id, upto_rowid=top)
    replay = Replay(records, retain=False, load_all=lambda: log_.records(tournament_id))
    folded = Folded(log_, tournament_id, replay, top, from_snapshot=False,
                    snapshot_every=snapshot_every, wall=wall)
    folded.since_snapshot = len(records)
    if snapshot_every and len(records) >= snapshot_every:
        folded.save()
    return folded


def drop_snapshots(conn: sqlite3.Connection, tournament_ids: set[str] | None = None) -> None:
    """Forget snapshots (all, or of some tournaments) so the next start folds in full."""
    with transaction(conn):
        if tournament_ids is None:
            conn.execute("DELETE FROM snapshots")
        else:
            conn.executemany("DELETE FROM snapshots WHERE tournament_id = ?",
                             [(t,) for t in tournament_ids])


def full_fold(log_: EventLog, tournament_id: str) -> Tournament:
    """The state from the whole log, with no snapshot: the reference for tests."""
    return fold(log_.records(tournament_id))

