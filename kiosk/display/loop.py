"""The kiosk loop: sleep until something happens, act on it, redraw what changed.

One thread runs this loop and it alone touches state and pygame (STYLE 9).
Shaped like Pygame Zero's main loop, each iteration:

1. **sleeps** in ``select()`` on its own wake-up sources (:mod:`.wake`),
   never in SDL's timed wait (which polls every millisecond on KMSDRM and
   dummy): the input queue's pipe, the store's change signal, and a timeout
   to the next moment the picture must change, at most ``max_wait_ms`` so
   the watchdog is fed;
2. **handles events**: keys become :mod:`hardware.inputs` messages
   (:mod:`.input`), and every queued input goes to its receiver in one table
   (:attr:`KioskLoop.receivers`): buttons and cards to the role's controls,
   whose effects the loop carries out;
3. **ticks**: the ``on_tick`` hooks of its :class:`~.hooks.Hooks` (the effects
   one returns carried out), the station's checkpoint, the watchdog;
4. **updates**: what the new state means for the room (:mod:`.announce`),
   chimes, and the season's standings;
5. **draws** through the :class:`~.painter.Painter`: nothing, the digits, or
   the whole screen.
"""

from __future__ import annotations

import math
import queue
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Protocol

import pygame

from hardware.inputs import ButtonHint, ButtonPressed, ButtonsHeld, CardRead, ReaderStatus
from kiosk.display.effects import say, show_effects
from kiosk.display.hooks import Hooks
from kiosk.display.input import Keyboard, typed
from kiosk.display.messages import text
from kiosk.display.overlays import (
    POPUP_SECONDS,
    TICKER_SECONDS,
    HelpLines,
    Overlays,
    Popup,
    Text,
)
from kiosk.display.painter import Frame, Painter
from kiosk.display.parts import LoopParts
from kiosk.display.registry import Context, Screen, available, view_of
from kiosk.display.room import NEWS_SECONDS, Room
from kiosk.display.seat_finder import carousel
from kiosk.display.shift import next_shift_at, pixel_shift
from kiosk.display.sound import Chimes
from kiosk.display.standings import Standings
from kiosk.display.viewmodels import (
    PAGE_SECONDS,
    BreakView,
    ClockView,
    HelpView,
    help_view,
    waiting_lines,
)
from kiosk.display.wake import InputQueue, Readable, Sleeper
from kiosk.station import Station
from kiosk.table_screen import clock_call_line
from kiosk.timebase import time_of_day as wall_time_of_day
from rules import clock as clocks
from rules.i18n import DEFAULT_LANGUAGE

__all__ = ["NEWS_SECONDS", "POPUP_SECONDS", "TICKER_SECONDS", "InputQueue", "KioskLoop",
           "Message", "Popup", "Screen"]

#: Wake a little after a digit boundary, not a little before it.
_AFTER_BOUNDARY: Final = 0.004
_EXPOSED: Final = tuple(e for e in (getattr(pygame, "VIDEOEXPOSE", None),
                                    getattr(pygame, "WINDOWEXPOSED", None),
                                    getattr(pygame, "VIDEORESIZE", None)) if e is not None)
_CONTROLLED: Final = (ButtonPressed, ButtonHint, ButtonsHeld, CardRead, ReaderStatus)


class Message(Protocol):
    """Text for the screen, translated when shown."""

    def translate(self, lang: str = ..., /) -> str: ...


class KioskLoop:
    """The display loop of one device. Build it with :func:`kiosk.bootstrap.bootstrap`."""

    def __init__(self, station: Station, display: pygame.Surface, *,
                 lang: str = DEFAULT_LANGUAGE, role: str = "display",
                 inputs: queue.Queue[Any] | None = None, chimes: Chimes | None = None,
                 watchdog: Callable[[], None] = lambda: None,
                 monotonic: Callable[[], float] = time.monotonic, min_wait_ms: int = 10,
                 max_wait_ms: int = 1000, rotate_seconds: float | None = None,
                 shift: bool = True,
                 hooks: Hooks | None = None,
                 painter: Painter | None = None, controls: Any = None,
                 time_of_day: Callable[[], str] = wall_time_of_day,
                 parts: LoopParts | None = None,
                 receivers: Mapping[type, Callable[[Any], None]] | None = None,
                 peers: Callable[[], int] = lambda: 0,
                 wake_sources: Sequence[Readable] = ()) -> None:
        self.station, self.role = station, role
        #: The pop-ups, ticker and help; they hold the language (:attr:`lang`).
        self.overlays = Overlays(monotonic, lang)
        self.inputs: queue.Queue[Any] = inputs if inputs is not None else InputQueue()
        self.chimes, self.watchdog, self.monotonic = chimes, watchdog, monotonic
        self.min_wait_ms, self.max_wait_ms = min_wait_ms, max_wait_ms
        self.rotate_seconds = rotate_seconds
        #: The wall's painter, or the one a table device hands it (its panel's views).
        self.painter = painter if painter is not None else Painter(display, shift=shift)
        self.standings = Standings(station)
        self.keyboard = Keyboard()
        #: Input type → who acts on it: the role's controls (``controls``, handed
        #: over by the bootstrap) for buttons and cards, sync's replicator for its
        #: frames (``receivers``, handed over with it).
        self.receivers: dict[type, Callable[[Any], None]] = {
            **{t: self._control for t in _CONTROLLED}, **(receivers or {})}
        #: The role's :class:`~kiosk.controls.Controller` (None: a role without any).
        self.controls: Any = controls
        #: The observers' registry (:mod:`.hooks`), the bootstrap's: the ticks run once
        #: a turn, the deadlines wake the sleeping loop, the sources add warnings.
        self.hooks = hooks if hooks is not None else Hooks()
        #: More things that wake the sleeping loop when readable (the store's change
        #: signal); one with ``drain()`` is drained when it did.
        self.wake_sources: list[Readable] = [*wake_sources]
        #: How many peers sync is linked to, for the status line.
        self.peers: Callable[[], int] = peers
        #: The wall clock's "21:47" for the status line (fixed under fake time).
        self.time_of_day: Callable[[], str] = time_of_day
        #: What the night or a table device shows on the wall (:mod:`.parts`), handed
        #: over by the bootstrap: keys go to its filters first, then to the keyboard.
        self.parts = parts if parts is not None else LoopParts()
        self.running = True
        self.iterations = 0
        self.screen = Screen.CLOCK
        self._rotated_at = monotonic()
        self._return_at: float | None = None
        #: The screen a temporary one (:meth:`find_seat`) gives the wall back to.
        self._return_to = Screen.CLOCK
        #: Shared time the screen was shown: its round of pages starts there.
        self._since = 0.0
        #: The seat finder asked for on a table device, over its own screen.
        self._finding = False
        self.room = Room(station.state)
        self.sleeper = Sleeper()

    @property
    def lang(self) -> str:
        """The language the screens speak."""
        return self.overlays.lang

    @lang.setter
    def lang(self, lang: str) -> None:
        # What is already up (a pop-up, the ticker, the help) is said again in it,
        # and the whole screen drawn again: the QR code's caption too.
        self.overlays.lang = lang
        self.painter.force_full()

    # --- the main loop --------------------------------------------------------------------

    def run(self, *, frames: int | None = None, until: Callable[[], bool] | None = None) -> int:
        """Loop until quit, ``until()``, or ``frames`` iterations; returns the exit status."""
        while self.running:
            self.step()
            self.iterations += 1
            if (frames is not None and self.iterations >= frames) or (until and until()):
                break
        return 0

    def step(self, *, block: bool = True) -> bool:
        """One iteration: sleep (unless ``block`` is False), act, draw. False once quitting."""
        if block:
            self.sleep(self.timeout_ms() / 1000)
        for event in self.sleeper.take_events():
            self._event(event)
        self.act()
        self.update()
        self.draw()
        return self.running

    def act(self) -> None:
        """The part of a turn that needs no screen: the queued inputs acted on, the hooks
        (sync's replicator, buttons, the status file), the clock's checkpoint and the
        watchdog. The kiosk waiting for a TV runs only this (:func:`kiosk.bootstrap._pump`)."""
        while True:
            try:
                item = self.inputs.get_nowait()
            except queue.Empty:
                break
            self.handle(item)
        for hook in self.hooks.on_tick:
            effects = hook()
            if effects is not None:
                self.carry_out(effects)
        self.station.tick()
        self.watchdog()

    def sleep(self, seconds: float) -> None:
        """Block until an input, a wake source, or ``seconds`` (:class:`.wake.Sleeper`)."""
        waker = getattr(self.inputs, "waker", None)
        self.sleeper.sleep(seconds, [*([waker] if waker is not None else []),
                                     *self.wake_sources])

    def timeout_ms(self) -> int:
        """Milliseconds until the picture must next change (or the watchdog needs us)."""
        mono = self.monotonic()
        waits = [self.max_wait_ms / 1000]
        speed = max(self.station.clock.speed, 1e-9)
        state, now = self.station.state, self.station.now()
        # The clock screen's digits, and the moves screen's clock line (issue 49),
        # turn on the second, as every other screen's in the room.
        if state.config is not None and state.clock.running and self.screen in (
                Screen.CLOCK, Screen.MOVES):
            remaining = clocks.read(state.config.structure, state.clock, now).remaining
            if remaining is not None:
                waits.append((remaining - math.floor(remaining) or 1.0) / speed + _AFTER_BOUNDARY)
        if self.screen is Screen.SEATING:
            period = carousel(state).page_seconds
            waits.append((period - (now - self._since) % period) / speed + _AFTER_BOUNDARY)
        elif self.screen is not Screen.CLOCK:
            waits.append(((now // PAGE_SECONDS + 1) * PAGE_SECONDS - now) / speed
                         + _AFTER_BOUNDARY)
        rotate = (self._rotated_at + self.rotate_seconds) if self.rotate_seconds else None
        ends = [*self.overlays.deadlines(), rotate, self._return_at]
        if self.painter.amplitude:
            ends.append(next_shift_at(mono))
        waits += [end - mono + _AFTER_BOUNDARY for end in ends if end is not None and end > mono]
        waits += [max(0.0, d - mono) for d in (s() for s in self.hooks.deadlines) if d is not None]
        return max(self.min_wait_ms, min(self.max_wait_ms, math.ceil(min(waits) * 1000)))

    def stop(self) -> None:
        self.running = False

    # --- input -------------------------------------------------------------------------

    def _event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.stop()
        elif event.type == pygame.KEYDOWN:
            key = typed(event)
            for keep in self.parts.key_filters:
                effects = keep(key)
                if effects is not None:
                    self.carry_out(effects)
                    break
            else:
                for item in self.keyboard.translate(event, self.monotonic()):
                    self.handle(item)
        elif event.type in _EXPOSED:
            self.painter.force_full()

    def handle(self, item: object) -> None:
        """Give one input to its receiver (an unknown kind is nobody's: dropped)."""
        receiver = self.receivers.get(type(item))
        if receiver is not None:
            receiver(item)

    def _control(self, item: object) -> None:
        if self.controls is not None:
            self.carry_out(self.controls.handle(item))

    def carry_out(self, effects: Sequence[object]) -> None:
        """Show what the controls (their submits already done) or the room asked for."""
        show_effects(self, effects)

    def say(self, message: Message) -> None:
        """A message: a check-in or help big, a refusal under "not done", the rest briefly."""
        say(self, message)

    # --- screens and overlays ----------------------------------------------------------

    def context(self) -> Context:
        season, rows = self.standings.rows
        return Context(self.station.now(), self.lang,
                       power_cut=any(n.key == "clock-restored" for n in self.station.notices),
                       check_in_screen=self.parts.check_in_screen, season=season, standings=rows,
                       since=self._since)

    def available(self) -> list[Screen]:
        return available(self.station.state, self.context())

    def next_screen(self) -> None:
        order = self.available()
        index = order.index(self.screen) if self.screen in order else -1
        self.show(order[(index + 1) % len(order)])

    def show(self, screen: Screen, *, for_seconds: float | None = None) -> None:
        """Show ``screen``; with ``for_seconds``, the clock comes back after that long."""
        self.screen = screen
        self._rotated_at = self.monotonic()
        self._return_at = None if for_seconds is None else self._rotated_at + for_seconds
        self._return_to = Screen.CLOCK
        self._since = self.station.now()
        self._finding = False

    def find_seat(self) -> None:
        """The seat finder's first page now, for one round of its names, then the screen
        shown before (a table device's own included); a room on one page of tables
        has no finder: that page is the finder."""
        back = self._return_to if self._return_at is not None else self.screen
        state, now = self.station.state, self.station.now()
        round_ = carousel(state)
        pages = round_.finder_pages or 1
        self.show(Screen.SEATING, for_seconds=pages * round_.page_seconds
                  / max(self.station.clock.speed, 1e-9))
        self._since = now - (round_.pages - pages) * round_.page_seconds
        self._return_to = back
        self._finding = self.parts.table_screen is not None

    def popup(self, title: Text, line: Text, *, kind: str = "", seconds: float = POPUP_SECONDS,
              front: bool = False) -> None:
        """Queue a pop-up; ``front`` shows it at once (a prompt being typed into)."""
        self.overlays.popup(title, line, kind=kind, seconds=seconds, front=front)

    def drop_popups(self, kind: str) -> None:
        self.overlays.drop(kind)

    def current_popup(self) -> Popup | None:
        return self.overlays.current()

    def show_help(self, lines: HelpLines, *, seconds: float = 15.0) -> None:
        """What each button does, over every screen for a while."""
        self.overlays.show_help(lines, seconds)

    def settle(self) -> None:
        """Take the state as it is now as told: no pop-ups for what happened before."""
        self.room.settle(self.station.state)
        self.painter.force_full()

    # --- update -------------------------------------------------------------------------

    def update(self) -> None:
        """Tell the room what changed (:mod:`.room`), then keep the screen's rotation."""
        mono = self.monotonic()
        self.carry_out(self.room.update(self.station.state, self.station.folded_rowid,
                                        self.station.now(), self.screen))
        if self._return_at is not None and mono >= self._return_at:
            self.show(self._return_to)
        if self.screen not in self.available():
            self.show(Screen.CLOCK)
        if self.rotate_seconds and mono - self._rotated_at >= self.rotate_seconds:
            self.next_screen()
        self.standings.refresh(mono)

    # --- draw -----------------------------------------------------------------------------

    def view(self) -> object:
        """The view model of the screen showing now (None before a tournament exists)."""
        lines = self.overlays.help_lines()
        if lines is not None:
            return help_view(lines, self.lang)
        table_screen = self.parts.table_screen
        if table_screen is not None and not self._finding:
            return table_screen(self.lang, self.overlays.current())
        return view_of(self.screen, self.station.state, self.context())

    def draw(self) -> str:
        """Bring the display up to date; returns "full", "tick" or "" (nothing changed)."""
        view = self.view()
        if self.parts.table_screen is not None and not isinstance(view, HelpView):
            # The table screen shows what was said in its prompt box, and its own
            # called clock: nothing lies over its seats.
            return self.painter.draw(Frame(view, None, "", self.status_line(),
                                           pixel_shift(self.monotonic(), self.painter.amplitude),
                                           self.lang, (), self.screen.value))
        # The help screen is read while it is up: pop-ups wait behind it.
        popup = None if isinstance(view, HelpView) else self.overlays.current()
        # A called clock (C5) outranks the busts: the room must see it count down.
        ticker = (clock_call_line(self.station.state, self.station.now(), self.lang)
                  or self.overlays.ticker_text())
        # The waiting list (F2) first, then the night's own (the Sit & Go's).
        side = (*waiting_lines(self.station.state, self.lang), *self.parts.side_panel(self.lang)) \
            if isinstance(view, ClockView | BreakView) else ()
        return self.painter.draw(Frame(view, popup, ticker, self.status_line(),
                                       pixel_shift(self.monotonic(), self.painter.amplitude),
                                       self.lang, side, self.screen.value))

    def status_line(self) -> tuple[str, bool]:
        """The status band: time of day, role and peers, then every warning; and whether any."""
        notices = [*self.station.store.warnings, *self.station.notices]
        warnings = [n.translate(self.lang) for n in notices]
        for source in self.hooks.status_sources:
            warnings.extend(source(self.lang))
        parts = [self.time_of_day(), text("status", self.lang, role=self.role,
                                          peers=self.peers())]
        return " · ".join([*parts, *warnings]), bool(warnings)

    # --- the painter's surface, for the rest of the kiosk ------------------------------

    @property
    def display(self) -> pygame.Surface:
        return self.painter.display

    def use_display(self, display: pygame.Surface) -> None:
        self.painter.use_display(display)

    @property
    def frames(self) -> int:
        return self.painter.frames

    @property
    def full_frames(self) -> int:
        return self.painter.full_frames

