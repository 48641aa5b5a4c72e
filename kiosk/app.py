"""A running kiosk: the parts :func:`kiosk.bootstrap.bootstrap` wired together.

A flow above the bootstrap (the night, :mod:`kiosk.night`) is made from the
:class:`Core` before the loop and hands its :class:`FlowParts` over as the loop
and the controls are built; nothing is set on the loop for it afterwards.
The hook points for the parts that come later are here:

- ``app.inputs``: a ``queue.Queue`` any thread may put on (a put also wakes
  the loop). Hardware adapters put their button and card messages there
  (:mod:`hardware.inputs`, the keyboard's too); peer sync puts its inbound
  items there;
- ``app.loop.receivers``: input type → who acts on it, one table handed to the
  loop when it is built: the role's controls (``app.loop.controls``,
  :mod:`kiosk.controls`) for buttons and cards, sync's replicator for its items;
- ``app.hooks`` (:class:`~kiosk.display.hooks.Hooks`), the registry the loop
  was built with: ``on_tick`` is called on the main thread once per loop turn
  (sync's replicator, the status file) and the effects one returns (the
  night's, :mod:`kiosk.night`) the loop carries out, None is nothing to show;
  ``deadlines`` wake the sleeping loop for a hook; ``status_sources`` add
  warnings to the status band;
- ``app.station.on_local``: called with every record this device appends.
"""

from __future__ import annotations

import queue
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import pygame

from kiosk.controls.dispatch import Rows
from kiosk.controls.effects import Settle
from kiosk.display.hooks import Hooks
from kiosk.display.loop import KioskLoop
from kiosk.display.parts import LoopParts
from kiosk.display.sound import Chimes
from kiosk.station import Station
from kiosk.store import Store
from kiosk.store.looks import LookSchedule
from kiosk.timebase import SharedClock, SimulatedTime

__all__ = ["RECOVERY_EVERY", "App", "Core", "Flow", "FlowParts", "ManualTime"]

#: Seconds between tries to write again, on a store opened as it is on a full disk.
RECOVERY_EVERY = 3.0


@dataclass
class ManualTime:
    """A monotonic clock that moves only when told: fake time for tests and fast demos."""

    t: float = 1000.0
    #: Called after every move, with the time already moved: what falls due on
    #: this clock (a button's release settling, a long press) is emitted by the
    #: move itself, as :class:`~kiosk.timebase.SimulatedTime`'s steps do.
    on_step: list[Callable[[], None]] = field(default_factory=list, repr=False)

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds
        for callback in list(self.on_step):
            callback()


@dataclass(frozen=True)
class Core:
    """What a kiosk has before its loop is built: what a flow made then may use.

    ``lang`` and ``sync`` are read when asked: the language the wall speaks now
    (it can change), and peer sync once it started (None without it).
    """

    store: Store
    station: Station
    clock: SharedClock
    data_dir: Path
    #: The loop's monotonic clock (fake time in tests).
    monotonic: Callable[[], float]
    lang: Callable[[], str]
    sync: Callable[[], Any]


def _nothing() -> None:
    return None


@dataclass(frozen=True)
class FlowParts:
    """What a flow above the bootstrap (the night, :mod:`kiosk.night`) hands the kiosk."""

    #: What the wall shows of it (the check-in screen, the side panel, its keys).
    loop: LoopParts = field(default_factory=LoopParts)
    #: Its rows, before the controls' table (NEW, UNDO on a new night, a card at the desk).
    rows: Rows = field(default_factory=Rows)
    #: The configured buttons, in the panel's order, for the help screen.
    buttons: tuple[str, ...] = ()
    #: Called once a turn, after every other hook; the effects it returns are carried out.
    tick: Callable[[], Sequence[object] | None] = _nothing
    #: Called when the kiosk closes.
    close: Callable[[], object] = _nothing


class Flow(Protocol):
    """A flow made from the :class:`Core` before the loop (the night)."""

    def parts(self) -> FlowParts: ...


@dataclass
class App:
    store: Store
    station: Station
    clock: SharedClock
    loop: KioskLoop
    chimes: Chimes
    data_dir: Path
    #: The fake monotonic clock when bootstrapped with ``fake=True`` (the
    #: demo's simulated time when it gave one).
    time: ManualTime | SimulatedTime | None = None
    #: The peer sync service :func:`kiosk.wiring.start_sync` started with the loop
    #: (the status file reads its drop counters); None without sync.
    sync: Any = None
    #: The phones' page's server once :func:`kiosk.viewer.attach.attach_viewer`
    #: started it (the status file reads its port and counters); None without it.
    viewer: Any = None
    #: The card readers' workers :func:`kiosk.wiring.attach_reader` started (the
    #: status file reads their counters: reads, repeats, corrupt frames, reconnects).
    readers: list[Any] = field(default_factory=list)
    #: Called once the first frame is on the screen (systemd's READY=1).
    on_ready: list[Callable[[], None]] = field(default_factory=list)
    #: Called by :meth:`close`, first to last: sync, readers and buttons stop here.
    on_close: list[Callable[[], object]] = field(default_factory=list)
    #: What the app had before its loop: what a flow was made from (:class:`Core`).
    core: Core | None = None
    #: The flow the bootstrap was handed (the night), made before the loop; None without.
    flow: Flow | None = None
    _temp: tempfile.TemporaryDirectory[str] | None = None
    _closed: bool = False
    #: When to look at which tournament the store calls current: every 2 s
    #: (monotonic), or after each change once the store's change signal is wired in.
    follow_looks: LookSchedule = field(default_factory=lambda: LookSchedule(every=2.0))
    _next_recovery: float = 0.0

    def follow_store(self) -> list[object] | None:
        """Switch to the store's current tournament when another process changed it.

        The TD starts tonight's tournament from the terminal (``pubpoker
        tournament new``), a second process writing the same store; the wall
        screen follows at once (within a couple of seconds without the store's
        change signal), with a fresh station folded from the store, and shows no
        pop-ups for what happened before (a tick hook: the loop carries out the
        :class:`~kiosk.controls.effects.Settle` it returns).
        """
        if not self.follow_looks.due(self.loop.monotonic()):
            return None
        current = self.store.current_tournament()
        if current is None or current == self.station.tournament_id:
            return None
        # The same station switches, so controllers and sync keep acting on it.
        self.station.switch(current)
        return [Settle()]

    @property
    def inputs(self) -> queue.Queue[Any]:
        return self.loop.inputs

    def recover_store(self) -> list[object] | None:
        """On a store opened as it is on a full disk, try every few seconds to write again.

        Once it can, what other processes committed meanwhile (the TD freed the
        space and pressed on) is looked at as after any commit of theirs.
        """
        if self.store.refusal is None:
            return None
        now = self.loop.monotonic()
        if now < self._next_recovery:
            return None
        self._next_recovery = now + RECOVERY_EVERY
        if not self.store.try_writable():
            return None
        self.follow_looks.changed()
        self.station.looks.changed()
        for hook in self.station.on_store_changed:
            hook()
        if self.sync is not None:
            self.sync.retry_watch()
        return [Settle()]

    @property
    def hooks(self) -> Hooks:
        """The observers' registry the loop was built with (:mod:`kiosk.display.hooks`)."""
        return self.loop.hooks

    def run(self, *, frames: int | None = None, until: Callable[[], bool] | None = None) -> int:
        """Run the loop until quit, ``frames`` frames, or ``until()``."""
        if self.loop.iterations == 0:
            self.loop.step(block=False)
            self.loop.iterations += 1
            for ready in self.on_ready:
                ready()
            if frames is not None and self.loop.iterations >= frames:
                return 0
        return self.loop.run(frames=frames, until=until)

    def screenshot(self, path: str | Path) -> None:
        pygame.image.save(self.loop.display, str(path))

    def close(self) -> None:
        """Stop every attached part, then the store and the display; idempotent."""
        if self._closed:
            return
        self._closed = True
        closers, self.on_close = self.on_close, []
        for close in closers:
            close()
        self.chimes.close()
        self.station.close()
        pygame.display.quit()
        if self._temp is not None:
            self._temp.cleanup()
            self._temp = None

    def __enter__(self) -> App:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
