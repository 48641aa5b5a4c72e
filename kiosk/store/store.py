"""The event store: one SQLite file holding the log and the venue's data.

:class:`Store` ties the parts together for the kiosk, sync and the CLI:

- ``append``/``append_new``: the durable, idempotent log (:mod:`.log`);
- ``version_vector``/``missing_since``: what sync exchanges;
- ``fold``: a tournament's state at start-up via its snapshot (:mod:`.snapshot`);
- ``save_checkpoint``/``cold_start_restore``: the clock after a power cut;
- ``players``: names and cards (:mod:`.players`);
- ``record_results``/``export_*``: results and standings (:mod:`.results`);
- ``backup``: a consistent copy while running (:mod:`.backup`).

Only the kiosk's main loop uses a Store; other threads hand it work through
a queue (sqlite3 connections refuse to be shared between threads anyway).
"""

from __future__ import annotations

import functools
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Mapping
from functools import cached_property
from pathlib import Path
from types import ModuleType, TracebackType
from typing import TYPE_CHECKING

from kiosk.lazylog import logger
from kiosk.store import checkpoint as checkpoints
from kiosk.store.backup import BackupReport, backup
from kiosk.store.errors import Notice, StoreError
from kiosk.store.log import AppendResult, EventLog, StoredEvent
from kiosk.store.open import CheckLevel, open_database
from kiosk.store.players import Players
from kiosk.store.schema import Synchronous, get_meta, set_meta
from kiosk.store.snapshot import SNAPSHOT_EVERY, Folded, drop_snapshots, load_folded
from kiosk.store.space import DiskState
from kiosk.store.tournaments import (
    TournamentRow,
    find_tournament,
    list_tournaments,
    on_added,
    set_season,
    set_status,
)
from kiosk.store.tx import retry_when_full, transaction
from rules.events import Event, Record
from rules.state import Tournament

if TYPE_CHECKING:
    import sqlite_utils

    from kiosk.store import results as results_mod

__all__ = ["Store", "open_store"]

log = logger(__name__)  # logging is imported when something is logged


def _results() -> ModuleType:
    """:mod:`kiosk.store.results`, imported when first needed (rules.points, rules.standings)."""
    from kiosk.store import results

    return results


class Store:
    """An open store. Use :func:`open_store` to get one."""

    def __init__(self, conn: sqlite3.Connection, path: Path, device_id: str,
                 warnings: list[Notice], *, wall: Callable[[], float] = time.time) -> None:
        self.conn = conn
        self.path = path
        self.device_id = device_id
        #: Notices for the display's status line (damaged file moved aside, …).
        self.warnings = warnings
        self._wall = wall
        self._data_version: int | None = None
        self.log = EventLog(self.conn, device_id, wall=wall)
        self.log.on_added.append(on_added)
        self.players = Players(self.conn, wall=wall)
        #: How to open the store again for writing (:meth:`try_writable`).
        self._reopen: Callable[[], tuple[sqlite3.Connection, Path, str, list[Notice]]] | None
        self._reopen = None
        # Rows decoded again would be written back: not on a store that cannot write.
        changed = set() if self.refusal is not None else self.log.reread_unreadable()
        if changed:
            log.info("events of %s became readable; their snapshots are dropped",
                     ", ".join(sorted(changed)))
            drop_snapshots(self.conn, changed)
        unread = self.unreadable_count()
        if unread:
            self.warnings.append(Notice("unreadable-events", {"count": unread}))

    def others_committed(self) -> bool:
        """Whether another connection (the CLI, a backup) committed since the last call.

        ``PRAGMA data_version`` on this store's own connection moves only for
        the commits of others, so the kiosk can tell its own checkpoints from
        the TD's commands when the store's watcher says "changed".
        """
        version = int(self.conn.execute("PRAGMA data_version").fetchone()[0])
        seen, self._data_version = self._data_version, version
        return seen is None or version != seen

    @cached_property
    def db(self) -> sqlite_utils.Database:
        """sqlite-utils over the same connection, for table work and ad-hoc queries."""
        import sqlite_utils

        return sqlite_utils.Database(self.conn)

    # --- the log -------------------------------------------------------------

    def append(self, items: Iterable[Record | StoredEvent]) -> AppendResult:
        """Durably append records (local or a peer's); see :meth:`EventLog.append`."""
        return self.log.append(items)

    def append_new(self, tournament_id: str, events: Iterable[Event], *,
                   one_action: bool = False) -> list[Record]:
        """Stamp local events with the next seqs and Lamport times, and append them;
        ``one_action``: they are one command's, and share its action id."""
        return self.log.append_new(tournament_id, events, one_action=one_action)

    def records(self, tournament_id: str) -> list[Record]:
        """A tournament's readable records in fold order."""
        return self.log.records(tournament_id)

    def version_vector(self) -> dict[str, int]:
        return self.log.version_vector()

    def missing_since(self, vector: Mapping[str, int], *, limit: int | None = None
                      ) -> list[StoredEvent]:
        return self.log.missing_since(vector, limit=limit)

    def unreadable_count(self) -> int:
        (n,) = self.conn.execute(
            "SELECT COUNT(*) FROM events WHERE unreadable IS NOT NULL").fetchone()
        return int(n)

    # --- tournaments and state ------------------------------------------------

    def fold(self, tournament_id: str, *, use_snapshot: bool = True,
             snapshot_every: int = SNAPSHOT_EVERY) -> Folded:
        """The tournament's folded state, kept in step by ``Folded.catch_up()``."""
        return load_folded(self.log, tournament_id, use_snapshot=use_snapshot,
                           snapshot_every=snapshot_every, wall=self._wall)

    def tournaments(self, season: str | None = None) -> list[TournamentRow]:
        return list_tournaments(self.conn, season)

    def tournament(self, name_or_id: str) -> TournamentRow:
        return find_tournament(self.conn, name_or_id)

    def current_tournament(self) -> str | None:
        """The tournament this device was running: set explicitly, else the newest created."""
        chosen = get_meta(self.conn, "current_tournament")
        if chosen:
            return chosen
        row = self.conn.execute(
            "SELECT tournament_id FROM events WHERE kind = 'tournament-created'"
            " AND unreadable IS NULL ORDER BY rowid DESC LIMIT 1").fetchone()
        return None if row is None else str(row[0])

    @retry_when_full
    def set_current_tournament(self, tournament_id: str) -> None:
        with transaction(self.conn):
            set_meta(self.conn, "current_tournament", tournament_id)

    def note(self, key: str, value: str) -> None:
        """A diagnostic for ``pubpoker doctor`` in the meta table (never worth the reserve)."""
        with transaction(self.conn):
            set_meta(self.conn, key, value)

    @retry_when_full
    def set_season(self, tournament_id: str, season: str) -> None:
        with transaction(self.conn):
            set_season(self.conn, tournament_id, season)

    # --- power cuts -----------------------------------------------------------

    @retry_when_full
    def save_checkpoint(self, tournament_id: str, position: float,
                        at_wall: float | None = None, *, running: bool = True
                        ) -> checkpoints.Checkpoint:
        return checkpoints.save_checkpoint(
            self.conn, tournament_id, position,
            self._wall() if at_wall is None else at_wall, running=running)

    def cold_start_restore(self, tournament_id: str, state: Tournament, *, now: float,
                           peers_present: bool) -> checkpoints.ColdStart | None:
        return checkpoints.cold_start_restore(self.conn, tournament_id, state, now=now,
                                              peers_present=peers_present)

    def power_cut_notice(self, tournament_id: str, state: Tournament) -> Notice | None:
        return checkpoints.power_cut_notice(self.conn, tournament_id, state)

    # --- results --------------------------------------------------------------

    @retry_when_full
    def record_results(self, tournament_id: str, state: Tournament | None = None
                       ) -> list[results_mod.ResultRow]:
        """Write results (and the season's standings) from the folded state."""
        if state is None:
            state = self.fold(tournament_id).state
        return _results().record_results(self.conn, tournament_id, state)

    def result_rows(self, tournament_id: str, state: Tournament
                    ) -> list[results_mod.ResultRow]:
        """The rows :meth:`record_results` would write, without writing (a full disk)."""
        return _results().result_rows(tournament_id, state)

    def results(self, tournament: str) -> list[results_mod.ResultRow]:
        return _results().results_of(self.conn, tournament)

    def standings(self, season: str) -> list[results_mod.StandingRow]:
        return _results().standings_of(self.conn, season)

    def export_results(self, tournament: str, fmt: results_mod.ExportFormat,
                       headers: Mapping[str, str] | None = None) -> str:
        """Results as CSV or JSON, refreshed from the log first (``headers``: the CSV's words)."""
        self.record_results(self.tournament(tournament).id)
        return _results().export_results(self.conn, tournament, fmt, headers)

    @retry_when_full
    def close_tournament(self, tournament_id: str, state: Tournament,
                         folder: Path) -> list[Path]:
        """The night is over: results and standings recorded, exports written, closed.

        One fold's results serve both export files (``export_results`` would refold
        the whole log for each). Returns the files written in ``folder``.
        """
        self.record_results(tournament_id, state)
        folder.mkdir(parents=True, exist_ok=True)
        files = []
        for fmt in ("csv", "json"):
            path = folder / f"results-{tournament_id}.{fmt}"
            path.write_text(_results().export_results(self.conn, tournament_id, fmt),
                            encoding="utf-8")
            files.append(path)
        with transaction(self.conn) as conn:
            set_status(conn, tournament_id, "closed")
        return files

    @retry_when_full
    def reopen_tournament(self, tournament_id: str, state: Tournament,
                          folder: Path) -> list[Path]:
        """The night is open again (N1): its status follows the log, results are
        rewritten from it, and the close's export files are removed (closing
        again writes them anew), so no file claims results that no longer stand.

        ``state`` is the fold after the reopen. Returns the files removed.
        """
        with transaction(self.conn) as conn:
            set_status(conn, tournament_id, state.phase.value)
        self.record_results(tournament_id, state)
        removed = []
        for fmt in ("csv", "json"):
            path = folder / f"results-{tournament_id}.{fmt}"
            if path.exists():
                path.unlink()
                removed.append(path)
        return removed

    def recompute_results(self, tournament: str, folder: Path
                          ) -> tuple[list[results_mod.PlaceChange], list[Path]]:
        """Refold a tournament's whole log and rewrite its results and standings.

        For results stored by older code (F3: duplicate places after late
        entries). The fold ignores snapshots, so nothing an older reducer
        folded survives; a closed tournament stays closed, and its export
        files in ``folder`` are rewritten. Returns the places that changed.
        """
        t = self.tournament(tournament)
        before = {r.player_id: r.place for r in self.results(t.id)}
        state = self.fold(t.id, use_snapshot=False).state
        rows = self.record_results(t.id, state)
        changes = [_results().PlaceChange(r.name, before.get(r.player_id), r.place) for r in rows
                   if before.get(r.player_id) != r.place]
        files = []
        for fmt in ("csv", "json"):
            path = folder / f"results-{t.id}.{fmt}"
            if t.status == "closed" or path.exists():
                folder.mkdir(parents=True, exist_ok=True)
                path.write_text(_results().export_results(self.conn, t.id, fmt),
                                encoding="utf-8")
                files.append(path)
        return changes, files

    def export_standings(self, season: str, fmt: results_mod.ExportFormat,
                         headers: Mapping[str, str] | None = None) -> str:
        """Standings as CSV or JSON, with every tournament's results refreshed first."""
        for t in self.tournaments(season):
            self.record_results(t.id)
        return _results().export_standings(self.conn, season, fmt, headers)

    # --- housekeeping ---------------------------------------------------------

    def disk_state(self) -> DiskState:
        """``full`` since a write was refused for want of space, ``low`` (under the
        threshold, or the reserve spent), else ``ok``; one statvfs per call."""
        keeper = getattr(self.conn, "space", None)
        return "ok" if keeper is None else keeper.state()

    def disk_notice(self) -> Notice | None:
        """The status line's warning about the disk, or None while all is well."""
        if self.refusal is not None:
            return Notice("disk-full")
        keeper = getattr(self.conn, "space", None)
        return None if keeper is None else keeper.notice()

    @property
    def refusal(self) -> StoreError | None:
        """Why this store cannot write now (opened as it is on a full disk), or None."""
        refusal: StoreError | None = getattr(self.conn, "refusal", None)
        return refusal

    def try_writable(self) -> bool:
        """Open the store for writing again if it was opened as it is; True if it writes.

        Cheap while the disk is still full (SQLite fails at once), so the kiosk
        tries every few seconds. On success the log, the players and every
        later read use the new connection; what the kiosk folded stays valid,
        since the file did not change (nobody could write it).
        """
        if self.refusal is None:
            return True
        if self._reopen is None:
            return False
        try:
            conn, _, ident, notices = self._reopen()
        except StoreError:
            return False
        if ident != self.device_id:  # pragma: no cover - the same file's own meta
            conn.close()
            return False
        old, self.conn = self.conn, conn
        self.log.conn = conn
        self.players.conn = conn
        self.__dict__.pop("db", None)
        self._data_version = None
        self.warnings.extend(notices)
        try:
            old.close()
        except sqlite3.Error as err:  # pragma: no cover - a read-only handle
            log.warning("closing the read-only store failed: %s", err)
        log.warning("the store at %s writes again: there is room on the disk", self.path)
        return True

    def backup(self, dest: str | os.PathLike[str]) -> BackupReport:
        return backup(self.conn, dest)

    def close(self) -> None:
        try:
            self.conn.close()
        except sqlite3.Error as err:  # pragma: no cover - nothing left to save
            log.error("closing the store failed: %s", err)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def open_store(
    path: str | os.PathLike[str] | None = None,
    *,
    data_dir: str | os.PathLike[str] | None = None,
    device_id: str | None = None,
    synchronous: Synchronous = "FULL",
    check: CheckLevel = "quick",
    wall: Callable[[], float] = time.time,
    as_is_when_full: bool = False,
    to_read: bool = False,
) -> Store:
    """Open the store at ``path`` (or ``data_dir/pubpoker.db``), creating it if needed.

    A damaged file is moved aside and replaced (see :mod:`.open`); the
    returned store's ``warnings`` then say so for the display.
    ``as_is_when_full`` (the kiosk): on a full disk, a store that reads but
    refuses writes (``refusal``) until :meth:`Store.try_writable` succeeds.
    ``to_read`` (a command that only reads): the same at once on a full disk,
    without spending the reserve.
    """
    conn, where, ident, notices = open_database(
        None if path is None else Path(path), data_dir=data_dir, device_id=device_id,
        synchronous=synchronous, check=check, now=wall, as_is_when_full=as_is_when_full,
        to_read=to_read)
    try:
        store = Store(conn, where, ident, notices, wall=wall)
    except BaseException:
        conn.close()
        raise
    if store.refusal is not None:
        store._reopen = functools.partial(open_database, where, device_id=ident,
                                          synchronous=synchronous, check="none", now=wall)
    return store
