"""One device's runtime: the only path by which tournament state changes.

A command is decided by the rules core against the folded state, made
durable in the store, and only then folded in, so the screen never shows
what a power cut could take back. Records from peers take the same path
from the store on. Everything here runs on the main loop's thread; peer I/O
and hardware callbacks only hand messages over through queues.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kiosk.lazylog import logger
from kiosk.store import Folded, Notice, Store, StoredEvent, StoreError
from kiosk.store.looks import LookSchedule
from kiosk.store.schema import get_meta, set_meta
from kiosk.store.tx import transaction
from kiosk.timebase import SharedClock
from rules.errors import RulesError
from rules.events import Event, Record
from rules.records import RecordMethods, record
from rules.state import Tournament

if TYPE_CHECKING:
    from rules.authority import NotForThisDevice
    from rules.commands import Command, CreateTournament

__all__ = ["NotForThisDevice", "Outcome", "Station"]


def __getattr__(name: str) -> Any:
    # The rules' commands and authority are a fifth of a read command's start-up
    # (tournament show decides nothing): imported once something is decided.
    if name == "NotForThisDevice":
        from rules.authority import NotForThisDevice

        return NotForThisDevice
    raise AttributeError(name)

log = logger(__name__)  # logging is imported when something is logged

#: Seconds between clock checkpoints (not events): the most a power cut loses.
CHECKPOINT_EVERY = 5.0
#: Where the kiosk leaves its shared-time offset for other processes on the device.
SHARED_OFFSET = "shared_time_offset"
#: The kiosk's clock speed (``pubpoker kiosk --speed``); absent is real time.
SHARED_SPEED = "shared_time_speed"


@record
class Outcome(RecordMethods):
    """What became of a command: its records, or the refusal to show."""

    records: tuple[Record, ...] = ()
    refusal: RulesError | StoreError | None = None
    #: For :meth:`Station.undo_newest`: the action's records it took back, oldest first.
    undone: tuple[Record, ...] = ()

    @property
    def ok(self) -> bool:
        return self.refusal is None

    def message(self, lang: str) -> str:
        return "" if self.refusal is None else self.refusal.translate(lang)


@dataclass
class Station:
    """This device's one way into the night: commands in, the folded state out."""

    store: Store
    clock: SharedClock
    rng: random.Random = field(default_factory=random.Random)
    #: Called with every record this device appended, for peer sync to push.
    on_local: list[Callable[[Sequence[Record]], None]] = field(default_factory=list)
    checkpoint_every: float = CHECKPOINT_EVERY
    notices: list[Notice] = field(default_factory=list)
    #: The device's roles ("table", "display,console"...) and table: events peers
    #: would refuse from this device are refused here, before they are stored.
    role: str | None = None
    table: int | None = None
    #: When a turn of the loop folds what other processes (the CLI) wrote: every
    #: turn, or, once the store's change signal is wired in, after each change.
    looks: LookSchedule = field(default_factory=LookSchedule)
    #: Called on the loop's thread after another process committed to the store,
    #: once the store's change signal is wired in (peer sync pushes the CLI's events).
    on_store_changed: list[Callable[[], None]] = field(default_factory=list)
    #: Called after rows from peers were stored (:meth:`accept`), with how many were new.
    on_accepted: list[Callable[[int], None]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.tournament_id: str | None = self.store.current_tournament()
        self._folded: Folded | None = None
        self._next_checkpoint = 0.0
        self._checkpoint_failing = False
        self._saved_offset: float | None = None
        #: The last checkpoint written: (tournament, position, running).
        self._checkpointed: tuple[str, float, bool] | None = None
        if self.tournament_id is not None:
            self._folded = self.store.fold(self.tournament_id)

    # --- state ------------------------------------------------------------------------

    @property
    def state(self) -> Tournament:
        return self._folded.state if self._folded is not None else Tournament()

    @property
    def folded_rowid(self) -> int:
        """The store's highest rowid folded into :attr:`state`; -1 with no tournament."""
        return self._folded.covered_rowid if self._folded is not None else -1

    def now(self) -> float:
        return self.clock.now()

    # --- start-up ---------------------------------------------------------------------

    def cold_start(self, *, peers_present: bool, owns_clock: bool = True,
                   cut: bool = True) -> None:
        """After power-on: keep shared time moving forward and restore the clock.

        A Pi's monotonic clock restarts at boot, so a lone device continues
        shared time from the last event it saw rather than going back in time.
        Alone after a ``cut`` (the last kiosk on the store never recorded a
        clean stop: :mod:`kiosk.last_stop`), a clock that was running comes
        back paused at its checkpoint (DESIGN: Time), with a notice the TD
        clears by pressing pause. Without a cut the log is exact and the clock
        goes on as it says.
        """
        state = self.state
        if not peers_present and state.last_at > self.clock.now():
            self.clock.offset += state.last_at - self.clock.now() + 1.0
        if self.tournament_id is None or self._folded is None or not owns_clock:
            # Only the display or console may emit clock events (peers refuse
            # a table's); a table device just follows the clock it is sent.
            return
        restore = None if not cut else self.store.cold_start_restore(
            self.tournament_id, state, now=self.now(), peers_present=peers_present)
        if restore is not None:
            try:
                self._commit([restore.event])
            except StoreError as err:
                # A full card after a power cut: the display comes up with the
                # clock as the log has it (the status line says why) rather than
                # not at all; the TD pauses it by hand once there is room.
                log.error("could not pause the clock after the power cut: %s", err)
            else:
                self.notices.append(restore.notice)
        notice = self.store.power_cut_notice(self.tournament_id, self.state)
        if notice is not None and notice not in self.notices:
            self.notices.append(notice)

    # --- the command path -----------------------------------------------------------------

    def submit(self, command: Command) -> Outcome:
        """Decide, make durable, then fold; a refusal changes nothing anywhere."""
        from rules.commands import CreateTournament, decide

        if isinstance(command, CreateTournament):
            return self.create(command)
        now = self.now()
        try:
            self._check_role(command)
            events = decide(self.state, command, now=now, rng=self.rng)
            self._check_role_of(events)
            records = self._commit(events)
        except (RulesError, StoreError) as err:
            log.info("refused %s: %s", type(command).__name__, err)
            return Outcome(refusal=err)
        self._clear_power_cut_notice(command, events)
        return Outcome(records=tuple(records))

    def create(self, command: CreateTournament, tournament_id: str | None = None) -> Outcome:
        """Start a new tournament on this device and make it the current one."""
        tid = tournament_id or f"t{self.rng.getrandbits(48):012x}"
        try:
            from rules.commands import decide

            events = decide(Tournament(), command, now=self.now(), rng=self.rng)
            records = self.store.append_new(tid, events, one_action=True)
        except (RulesError, StoreError) as err:
            return Outcome(refusal=err)
        self.store.set_current_tournament(tid)
        self.tournament_id = tid
        self._folded = self.store.fold(tid)
        self._announce(records)
        return Outcome(records=tuple(records))

    def newest_action(self, *, own: bool = False, window: float | None = None
                      ) -> tuple[Record, ...]:
        """The action UNDO would take back; raise why there is none.

        The TD's box takes back the night's newest action whichever device did
        it (a bust pressed at table 3 is undone at the desk); ``own`` limits it
        to this device's, within ``window`` real seconds (a table device's
        dealer, also on a fast-forwarded clock). The rules decide
        (:func:`rules.undo.verify_undo`).
        """
        from rules.refusals import NothingToUndo
        from rules.undo import verify_undo

        if self.tournament_id is None:
            raise NothingToUndo()
        records = self.store.records(self.tournament_id)
        device = self.store.device_id if own else None
        within = None if window is None else window * self.clock.speed
        return verify_undo(records, now=self.now(), device_id=device, within=within)

    def undo_newest(self, *, own: bool = False, window: float | None = None) -> Outcome:
        """UNDO: take back the newest action (:meth:`newest_action`), every event of
        it, as one action; a refusal says why."""
        from rules.undo import undo

        try:
            action = self.newest_action(own=own, window=window)
        except RulesError as err:
            return Outcome(refusal=err)
        outcome = self.submit(undo(action, now=self.now()))
        return Outcome(outcome.records, outcome.refusal, action if outcome.ok else ())

    def may(self, command: Command) -> bool:
        """Whether this device's role lets it give ``command`` now (grey out the rest)."""
        if self.role is None:
            return True
        from rules import authority

        return authority.can(self.state, command, self.role, self.table,
                             device_id=self.store.device_id)

    def _check_role(self, command: Command) -> None:
        """The rules' verdict on this device giving ``command``, before it is decided."""
        if self.role is not None:
            from rules import authority

            authority.verify(self.state, command, self.role, self.table,
                             device_id=self.store.device_id)

    def _check_role_of(self, events: Sequence[Event]) -> None:
        """What peers will check at receipt: never store an event they would drop."""
        if self.role is None:
            return
        for event in events:
            from rules import authority

            authority.verify_event(self.role, self.table, event, origin=self.store.device_id)

    def _commit(self, events: Sequence[object]) -> list[Record]:
        """Append one command's events as one action (one id, one undo), then fold."""
        assert self.tournament_id is not None and self._folded is not None
        records = self.store.append_new(self.tournament_id, events,  # type: ignore[arg-type]
                                        one_action=True)
        self._folded.catch_up()
        self._announce(records)
        return records

    def _announce(self, records: Sequence[Record]) -> None:
        for push in self.on_local:
            push(records)

    def _clear_power_cut_notice(self, command: Command, events: Sequence[Event]) -> None:
        from rules.commands import ResumeClock, Start, TogglePause
        from rules.events import ClockResumed

        resumed = isinstance(command, Start) and any(isinstance(e, ClockResumed) for e in events)
        if resumed or isinstance(command, ResumeClock | TogglePause):
            self.notices = [n for n in self.notices if n.key != "clock-restored"]

    def switch(self, tournament_id: str) -> None:
        """Make another tournament (a Sit & Go, the next night) this device's current one."""
        if self._folded is not None:
            self._folded.close()
        self.store.set_current_tournament(tournament_id)
        self.tournament_id = tournament_id
        self._folded = self.store.fold(tournament_id)

    def accept(self, records: Sequence[Record | StoredEvent]) -> int:
        """Records from a peer, stored rows kept byte for byte with their seals:
        durable first, then folded. Returns how many were new."""
        result = self.store.append(records)
        if self._folded is None:
            current = self.store.current_tournament()
            if current is not None:
                self.tournament_id = current
                self._folded = self.store.fold(current)
        elif self._folded is not None:
            self._folded.catch_up()
        if result.added:
            for hook in self.on_accepted:
                hook(len(result.added))
        return len(result.added)

    # --- housekeeping ---------------------------------------------------------------------

    def tick(self) -> None:
        """Called by the loop: fold what other processes wrote, checkpoint the clock."""
        now = self.now()
        if self._folded is not None and self.looks.due(now):
            # The CLI over SSH writes to the same file; its events show at once.
            self._folded.catch_up()
        if self.notices and self.state.clock.running:
            # The clock runs again, whoever resumed it (the terminal, a peer):
            # the power-cut banner no longer says what the clock does.
            self.notices = [n for n in self.notices if n.key != "clock-restored"]
        if now < self._next_checkpoint or self._folded is None or self.tournament_id is None:
            return
        self._next_checkpoint = now + self.checkpoint_every
        try:
            self._checkpoint(now)
        except StoreError as err:
            # A full or failing disk: the clock runs on from memory and the next
            # checkpoint tries again; the status line says why (store.disk_notice).
            (log.debug if self._checkpoint_failing else log.error)(
                "clock checkpoint not saved: %s", err)
            self._checkpoint_failing = True
        else:
            self._checkpoint_failing = False

    def _checkpoint(self, now: float) -> None:
        if self.tournament_id is None:
            return
        self._save_offset()
        clock = self.state.clock
        if not clock.started:
            return
        saved = (self.tournament_id, clock.position_at(now), clock.running)
        if not clock.running and saved == self._checkpointed:
            # A paused clock's checkpoint is already on disk and stands still:
            # no fsync every five seconds for nothing (a cold start restores
            # only a running clock).
            return
        self.store.save_checkpoint(self.tournament_id, saved[1], running=clock.running)
        self._checkpointed = saved

    def _save_offset(self) -> None:
        # The CLI on this machine reads it, to act in the same shared time.
        if self._saved_offset != self.clock.offset:
            with transaction(self.store.conn) as conn:
                # The base, not the offset: equal at speed 1, and right at any other.
                set_meta(conn, SHARED_OFFSET, repr(self.clock.base))
                set_meta(conn, SHARED_SPEED, repr(self.clock.speed))
            self._saved_offset = self.clock.offset

    def join_local_time(self) -> None:
        """For a second process on this device (the CLI): use the kiosk's shared time."""
        saved = get_meta(self.store.conn, SHARED_OFFSET)
        if saved is not None:
            speed = get_meta(self.store.conn, SHARED_SPEED)
            self.clock.follow(float(saved), 1.0 if speed is None else float(speed))
        last = self.state.last_at
        if last > self.clock.now():
            self.clock.offset += last - self.clock.now()

    def continue_time(self, *, base: float | None, speed: float | None,
                      at_least: float | None = None) -> None:
        """Before :meth:`cold_start`: shared time as it stood when this store was left.

        ``base`` and ``speed`` are a clock's of this boot (a kiosk that stopped
        cleanly, or the one the terminal used): at the same speed this clock
        runs as that one did, so nothing is lost between them. ``at_least``
        (the shared time at a stop in an earlier boot) keeps time from going back.
        """
        if base is not None and speed == self.clock.speed:
            self.clock.follow(base, self.clock.speed)
        if at_least is not None and at_least > self.clock.now():
            self.clock.offset += at_least - self.clock.now()

    def saved_time(self) -> tuple[float | None, float | None]:
        """The shared-time base and speed a kiosk left in the store for the terminal."""
        saved = get_meta(self.store.conn, SHARED_OFFSET)
        speed = get_meta(self.store.conn, SHARED_SPEED)
        return (None if saved is None else float(saved),
                1.0 if speed is None else float(speed))

    def close(self, *, snapshot_after: int = 1) -> None:
        """Save a snapshot (after ``snapshot_after`` new events at least) and close the store."""
        if self._folded is not None:
            self._folded.close(snapshot_after=snapshot_after)
        self.store.close()
