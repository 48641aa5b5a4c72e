"""The kiosk loop: wait for something to happen, act on it, redraw what changed.

One thread runs this loop and it alone touches state and pygame (STYLE 9).
Each iteration:

1. sleeps in ``select()`` on its own wake-up sources (:mod:`kiosk.display.wake`),
   never in SDL's timed wait, which polls every millisecond on KMSDRM and
   dummy: the input queue's pipe, the store's change signal, and a timeout to
   the next moment the picture must change (the clock's next second, the next
   page, the end of a pop-up, the next pixel shift), never less than a frame
   and never more than ``max_wait_ms`` (so the watchdog is fed);
2. translates keys (:mod:`kiosk.display.input`) and drains the input queue
   (hardware adapters and peer sync put their messages there, and the put
   wakes the loop);
3. runs the ``on_tick`` hooks, checkpoints the clock (``station.tick``) and
   pings the watchdog;
4. notices what the new state means for the room: busts go to the ticker,
   check-ins and the final table to a pop-up, a level change to a chime;
5. draws: nothing if the view is unchanged, only the digits (the tick
   renderers and ``pygame.display.update(rects)``) if only the time moved, and
   the whole screen otherwise.

The screens are drawn on an off-screen canvas the size of the display and
copied to it with the slow pixel shift (:mod:`kiosk.display.shift`), so a
tick copies only its dirty rects.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import queue
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum, unique
from typing import Any, Final, Protocol

import pygame

from kiosk.display import screens
from kiosk.display.input import Button, CardRead, Input, Keyboard, PeerRecords, Press, Wake
from kiosk.display.layout import BLACK, GREY, Frame, draw_text
from kiosk.display.messages import text
from kiosk.display.shift import amplitude_for, next_shift_at, pixel_shift
from kiosk.display.sound import Chimes, chime_for
from kiosk.display.viewmodels import (
    PAGE_SECONDS,
    BreakView,
    CheckInView,
    ClockView,
    HelpView,
    MovesView,
    ResultsView,
    SeatingView,
    break_view,
    check_in_view,
    clock_view,
    help_view,
    moves_view,
    results_view,
    seating_view,
    standings_view,
)
from kiosk.display.wake import Readable, Waker, sdl_poll_interval, sleep_until_woken
from kiosk.station import Outcome, Station
from kiosk.store import CardMatch, UnknownCard
from kiosk.table_screen import clock_call_line
from kiosk.timebase import time_of_day
from rules import clock as clocks
from rules.commands import (
    AdjustTime,
    CheckIn,
    Command,
    NextLevel,
    PreviousLevel,
    SetHandForHand,
    TogglePause,
    Undo,
)
from rules.events import Record
from rules.i18n import DEFAULT_LANGUAGE, LANGUAGES, format_place
from rules.state import Phase, Tournament

__all__ = [
    "POPUP_SECONDS",
    "TICKER_SECONDS",
    "InputQueue",
    "KioskLoop",
    "Message",
    "Popup",
    "Screen",
]

log = logging.getLogger(__name__)

#: How long a pop-up (check-in, final table, a refusal) stays up, in real seconds.
POPUP_SECONDS: Final = 5.0
#: How long a bust stays on the ticker.
TICKER_SECONDS: Final = 8.0
#: How long "press q again" waits for the second press.
QUIT_CONFIRM_SECONDS: Final = 5.0
#: How long new moves, or the seating after a draw, stay up before the clock returns.
NEWS_SECONDS: Final = 30.0
#: Wake a little after a digit boundary, not a little before it.
_AFTER_BOUNDARY: Final = 0.004

_EXPOSED: Final = tuple(e for e in (getattr(pygame, "VIDEOEXPOSE", None),
                                    getattr(pygame, "WINDOWEXPOSED", None),
                                    getattr(pygame, "VIDEORESIZE", None)) if e is not None)


class InputQueue(queue.Queue[Input]):
    """The loop's input queue; putting an item also wakes a sleeping loop.

    The wake is a byte down a pipe the loop selects on, so a card read from
    the reader thread is acted on at once, not at the next tick.
    """

    def __init__(self) -> None:
        super().__init__()
        self.waker = Waker()

    def put(self, item: Input, block: bool = True, timeout: float | None = None) -> None:
        super().put(item, block, timeout)
        self.waker.wake()

    def wake(self) -> None:
        """Wake the loop with nothing queued: look again (a button's edge)."""
        self.waker.wake()


class Message(Protocol):
    """What a controller answers with: text in the screen's language."""

    def translate(self, lang: str = ..., /) -> str: ...


@unique
class Screen(StrEnum):
    """The screens in their rotation order; CLOCK is the break screen in a break."""

    CLOCK = "clock"
    SEATING = "seating"
    MOVES = "moves"
    RESULTS = "results"
    STANDINGS = "standings"


@dataclass(frozen=True)
class Popup:
    title: str
    line: str
    until: float
    #: A new pop-up of the same kind replaces the one showing (check-in after check-in).
    kind: str = ""


def _noop() -> None:
    return None


_TICK_FIELDS: Final = {
    ClockView: ("digits", "until_break_text", "until_break_line", "last_minute"),
    BreakView: ("digits", "last_minute"),
}
#: A pause or resume changes these too; the banner band is redrawn with the digits.
_PAUSE_FIELDS: Final = ("paused", "paused_text")


def _partial(before: object, after: object) -> tuple[str, ...] | None:
    """What a partial redraw must cover, or None when the whole screen must be drawn.

    ``()`` means only the time moved (the tick renderers' rects);
    ``("paused",)`` means the paused banner changed as well.
    """
    fields = _TICK_FIELDS.get(type(after))
    if fields is None or type(before) is not type(after):
        return None
    if isinstance(before, ClockView) and isinstance(after, ClockView) and (
            bool(before.until_break_line) != bool(after.until_break_line)):
        return None  # the "next level" line moves over when the break line comes or goes
    kept = {name: getattr(before, name) for name in fields}
    if dataclasses.replace(after, **kept) == before:  # type: ignore[type-var]
        return ()
    kept.update((name, getattr(before, name)) for name in _PAUSE_FIELDS)
    if dataclasses.replace(after, **kept) == before:  # type: ignore[type-var]
        return ("paused",)
    return None


class KioskLoop:
    """The display loop of one device. Build it with :func:`kiosk.bootstrap.bootstrap`."""

    def __init__(
        self,
        station: Station,
        display: pygame.Surface,
        *,
        lang: str = DEFAULT_LANGUAGE,
        role: str = "display",
        inputs: queue.Queue[Input] | None = None,
        chimes: Chimes | None = None,
        watchdog: Callable[[], None] = _noop,
        on_tick: list[Callable[[], None]] | None = None,
        peers: Callable[[], int] = lambda: 0,
        monotonic: Callable[[], float] = time.monotonic,
        min_wait_ms: int = 10,
        max_wait_ms: int = 1000,
        rotate_seconds: float | None = None,
        shift: bool = True,
        status_sources: list[Callable[[str], Sequence[str]]] | None = None,
    ) -> None:
        self.station = station
        self.display = display
        self.lang = lang
        self.role = role
        self.inputs: queue.Queue[Input] = inputs if inputs is not None else InputQueue()
        self.chimes = chimes
        self.watchdog = watchdog
        self.on_tick: list[Callable[[], None]] = on_tick if on_tick is not None else []
        self.peers = peers
        #: Monotonic times some part must be polled by (a button's release settling).
        self.deadlines: list[Callable[[], float | None]] = []
        #: More things that wake the sleeping loop when readable (the store's
        #: change signal); one with ``drain()`` is drained when it did.
        self.wake_sources: list[Readable] = []
        self._sdl_poll: float | None = None
        self._sdl_checked_at = 0.0
        self._sdl_events: list[pygame.event.Event] = []
        self._standings_cache: tuple[float, tuple[str, list[tuple[int, str, int]]]] | None = None
        #: The wall clock's "21:47" for the status line (fixed under fake time).
        self.time_of_day: Callable[[], str] = time_of_day
        self.monotonic = monotonic
        self.min_wait_ms = min_wait_ms
        self.max_wait_ms = max_wait_ms
        self.rotate_seconds = rotate_seconds
        #: Handlers for inputs the loop does not know itself (the role's controller
        #: for the hardware's button and card messages). Each returns None when the
        #: input is not its business, or the messages to show: anything with
        #: ``translate(lang)``, shown big when its ``popup`` is true.
        self.handlers: list[Callable[[object], Sequence[Message] | None]] = []
        #: More warnings for the status line, in a language (the Pi's health, ...).
        self.status_sources: list[Callable[[str], Sequence[str]]] = status_sources or []
        self.keyboard = Keyboard()
        #: Called with each KEYDOWN before the keyboard's own keys; one that
        #: returns True has taken the key (a name being typed at check-in).
        self.key_filters: list[Callable[[pygame.event.Event], bool]] = []
        #: Show the check-in screen instead of the clock while players check in.
        self.check_in_screen = False
        self._help: tuple[tuple[str, ...], float] | None = None
        #: Given a keyboard-wedge card nobody owns; True when it took it (a name prompt).
        self.on_unknown_card: Callable[[str], bool] | None = None
        #: Lines for the side panel over the clock screen (the Sit & Go waiting
        #: list beside the main event); nothing is drawn while it gives none.
        self.side_panel: Callable[[str], Sequence[str]] = lambda lang: ()
        self.running = True
        #: Frames drawn (full redraws and ticks) and full redraws alone.
        self.frames = 0
        self.full_frames = 0
        self.iterations = 0
        self.screen = Screen.CLOCK
        self.popups: deque[Popup] = deque()
        self.ticker: list[str] = []
        self.ticker_until = 0.0
        #: This device's own commands, newest last, for ``u`` (undo).
        self.undo_stack: deque[tuple[Record, ...]] = deque(maxlen=200)
        self._quit_until = 0.0
        self._rotated_at = monotonic()
        self._amplitude = amplitude_for(display.get_height()) if shift else 0
        self._canvas = pygame.Surface(display.get_size()) if shift else display
        self._drawn: tuple[Any, ...] | None = None
        self._drawn_view: object = None
        self._drawn_offset = (0, 0)
        self._force_full = True
        self._reading: clocks.ClockReading | None = None
        self._seen_places: dict[str, int] = {}
        self._seen_in: set[str] = set()
        self._seen_moves: set[str] = set()
        self._seen_tables = False
        #: When a screen shown for news (moves, the draw) gives way to the clock again.
        self._return_at: float | None = None
        self._seen_flags: tuple[bool, bool, bool] = (False, False, False)
        self._observe(initial=True)

    # --- running ------------------------------------------------------------------------

    def run(self, *, frames: int | None = None,
            until: Callable[[], bool] | None = None) -> int:
        """Loop until quit, ``until()``, or ``frames`` iterations; returns the exit status.

        A frame is one iteration: the display is up to date at its end, whether
        or not anything needed drawing (an idle screen draws nothing for minutes).
        """
        while self.running:
            self.step()
            self.iterations += 1
            if frames is not None and self.iterations >= frames:
                break
            if until is not None and until():
                break
        return 0

    def step(self, *, block: bool = True) -> bool:
        """One iteration: sleep (unless ``block`` is False), act, draw. False once quitting."""
        if block:
            self.sleep(self.timeout_ms() / 1000)
        self._take_sdl_events()
        events, self._sdl_events = self._sdl_events, []
        for event in events:
            self._handle_event(event)
        while True:
            try:
                item = self.inputs.get_nowait()
            except queue.Empty:
                break
            self.handle(item)
        for hook in self.on_tick:
            hook()
        self.station.tick()
        self.watchdog()
        self._observe()
        self.draw()
        return self.running

    def sleep(self, seconds: float) -> None:
        """Block until woken (an input, a wake source) or ``seconds`` have passed.

        SDL's queue is looked at only as often as something can feed it
        (:func:`~kiosk.display.wake.sdl_poll_interval`).
        """
        if self._take_sdl_events():
            return  # a key or window event is already waiting
        waker = getattr(self.inputs, "waker", None)
        sources: list[Readable] = [*([waker] if waker is not None else []), *self.wake_sources]
        interval = self._sdl_interval()
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            chunk = left if interval is None else min(left, interval)
            ready = sleep_until_woken(chunk, sources)
            for source in ready:
                drain = getattr(source, "drain", None)
                if drain is not None:
                    drain()
            if ready or time.monotonic() >= end:
                return
            if interval is not None and self._take_sdl_events():
                return

    def _take_sdl_events(self) -> bool:
        """Move what SDL's queue holds to the loop's own list; True if anything."""
        if pygame.display.get_init():
            self._sdl_events.extend(pygame.event.get())
        return bool(self._sdl_events)

    def _sdl_interval(self) -> float | None:
        mono = time.monotonic()
        if mono >= self._sdl_checked_at:
            # A keyboard may be plugged in or pulled out at any time.
            self._sdl_checked_at = mono + 10.0
            driver = pygame.display.get_driver() if pygame.display.get_init() else "dummy"
            self._sdl_poll = sdl_poll_interval(driver)
        return self._sdl_poll

    def timeout_ms(self) -> int:
        """Milliseconds until the picture must next change (or the watchdog needs us)."""
        mono = self.monotonic()
        waits = [self.max_wait_ms / 1000]
        speed = max(self.station.clock.speed, 1e-9)
        state = self.station.state
        if state.config is not None and state.clock.running and self.screen is Screen.CLOCK:
            remaining = clocks.read(state.config.structure, state.clock,
                                    self.station.now()).remaining
            if remaining is not None:
                fraction = remaining - math.floor(remaining)
                waits.append((fraction or 1.0) / speed + _AFTER_BOUNDARY)
        if self.screen is not Screen.CLOCK:
            now = self.station.now()
            waits.append(((now // PAGE_SECONDS + 1) * PAGE_SECONDS - now) / speed
                         + _AFTER_BOUNDARY)
        for deadline in (self._popup_until(), self.ticker_until or None, self._quit_until or None,
                         (self._rotated_at + self.rotate_seconds) if self.rotate_seconds else None,
                         self._return_at, self._help[1] if self._help else None):
            if deadline is not None and deadline > mono:
                waits.append(deadline - mono + _AFTER_BOUNDARY)
        if self._amplitude:
            waits.append(next_shift_at(mono) - mono + _AFTER_BOUNDARY)
        for source in self.deadlines:
            deadline = source()
            if deadline is not None:
                waits.append(max(0.0, deadline - mono))
        return max(self.min_wait_ms, min(self.max_wait_ms, math.ceil(min(waits) * 1000)))

    def settle(self) -> None:
        """Take the state as it is now as seen: no pop-ups for what happened before."""
        self._seen_places.clear()
        self._seen_in.clear()
        self._seen_moves.clear()
        self._seen_tables = False
        self._observe(initial=True)
        self._force_full = True

    def stop(self) -> None:
        self.running = False

    # --- input --------------------------------------------------------------------------

    def _handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.stop()
        elif event.type == pygame.KEYDOWN:
            for taken in self.key_filters:
                if taken(event):
                    return
            for item in self.keyboard.translate(event, self.monotonic()):
                self.handle(item)
        elif event.type in _EXPOSED:
            self._force_full = True

    def handle(self, item: Input) -> None:
        """Act on one input message."""
        if isinstance(item, Press):
            self._press(item.button)
        elif isinstance(item, CardRead):
            self._card(item.uid)
        elif isinstance(item, PeerRecords):
            self.station.accept(item.records)
        elif isinstance(item, Wake):
            pass
        else:
            for handler in self.handlers:
                said = handler(item)
                if said is not None:
                    for message in said:
                        self.say(message)
                    break

    def say(self, message: Message) -> None:
        """Show a controller's message: a check-in or help big, anything else briefly."""
        big = bool(getattr(message, "popup", False))
        kind = "check-in" if str(getattr(message, "key", "")).startswith("checked-in") else "say"
        self.popup(message.translate(self.lang), "", kind=kind,
                   seconds=POPUP_SECONDS if big else 3.0)

    _COMMANDS: Final[dict[Button, Callable[[], Command]]] = {
        Button.PAUSE: TogglePause,
        Button.NEXT_LEVEL: NextLevel,
        Button.PREVIOUS_LEVEL: PreviousLevel,
        Button.ADD_MINUTE: lambda: AdjustTime(60),
        Button.REMOVE_MINUTE: lambda: AdjustTime(-60),
    }

    def _press(self, button: Button) -> None:
        mono = self.monotonic()
        if button in (Button.QUIT, Button.CONFIRM) and self._quit_until > mono:
            self.stop()
            return
        if self._quit_until:
            self._quit_until = 0.0
            self._drop_popups("quit")
        if button is Button.QUIT:
            self._quit_until = mono + QUIT_CONFIRM_SECONDS
            self.popup(text("quit_confirm", self.lang), text("quit_hint", self.lang),
                       kind="quit", seconds=QUIT_CONFIRM_SECONDS)
        elif button is Button.NEXT_SCREEN:
            self.next_screen()
        elif button is Button.LANGUAGE:
            self.lang = LANGUAGES[(LANGUAGES.index(self.lang) + 1) % len(LANGUAGES)]
            self.popup(text("language_name", self.lang), "", kind="language", seconds=2.0)
        elif button is Button.UNDO:
            self._undo()
        elif button is Button.HAND_FOR_HAND:
            self.submit(SetHandForHand(not self.station.state.hand_for_hand))
        elif button in self._COMMANDS:
            self.submit(self._COMMANDS[button]())

    def submit(self, command: Command) -> Outcome:
        """Submit this device's command; a refusal is shown, a success can be undone."""
        outcome = self.station.submit(command)
        if outcome.ok:
            if outcome.records:
                self.undo_stack.append(outcome.records)
        else:
            self.popup(text("refused", self.lang), outcome.message(self.lang), kind="refusal",
                       seconds=3.0)
        return outcome

    def _undo(self) -> None:
        if not self.undo_stack:
            self.popup(text("nothing_to_undo", self.lang), "", kind="undo", seconds=2.0)
            return
        records = self.undo_stack.pop()
        for record in reversed(records):
            outcome = self.station.submit(Undo(record.device_id, record.seq))
            if not outcome.ok:
                self.popup(text("refused", self.lang), outcome.message(self.lang),
                           kind="refusal", seconds=3.0)
                return
        self.popup(text("undone", self.lang), "", kind="undo", seconds=2.0)

    def _card(self, uid: str) -> None:
        result = self.station.store.players.lookup_card(uid)
        if isinstance(result, CardMatch):
            entry = self.station.state.players.get(result.player.id)
            if entry is not None and entry.checked_in:
                self._show_check_in(entry.player_id)  # a second tap shows the seat again
                return
            self.submit(CheckIn(result.player.id, result.player.name))
        elif isinstance(result, UnknownCard):
            if self.on_unknown_card is not None and self.on_unknown_card(uid):
                return
            self.popup(text("new_card", self.lang), text("new_card_hint", self.lang,
                                                          uid=result.uid), kind="card")
        else:
            self.popup(text("refused", self.lang), result.translate(self.lang), kind="card")

    # --- screens ------------------------------------------------------------------------

    def available(self) -> list[Screen]:
        state = self.station.state
        screens_ = [Screen.CLOCK, Screen.SEATING]
        if state.moves:
            screens_.append(Screen.MOVES)
        if any(e.place is not None for e in state.players.values()):
            screens_.append(Screen.RESULTS)
        if (state.finished or state.phase is Phase.CHECK_IN) and self._standings()[1]:
            # The league table, before the night starts and once it has a winner.
            screens_.append(Screen.STANDINGS)
        return screens_

    def _standings(self) -> tuple[str, list[tuple[int, str, int]]]:
        """This season's standings from the store, looked up at most every 30 s."""
        mono = self.monotonic()
        if self._standings_cache is not None and mono < self._standings_cache[0]:
            return self._standings_cache[1]
        store = self.station.store
        tid = self.station.tournament_id
        season = ""
        rows: list[tuple[int, str, int]] = []
        try:
            if tid is not None:
                season = store.tournament(tid).season
                rows = [(r.rank, r.name, r.points) for r in store.standings(season)]
        except Exception as err:  # a store error must not take the wall down
            log.warning("standings unavailable: %s", err)
        self._standings_cache = (mono + 30.0, (season, rows))
        return season, rows

    def next_screen(self) -> None:
        order = self.available()
        index = order.index(self.screen) if self.screen in order else -1
        self.show(order[(index + 1) % len(order)])

    def show(self, screen: Screen, *, for_seconds: float | None = None) -> None:
        """Show ``screen``; with ``for_seconds``, the clock comes back after that long."""
        self.screen = screen
        self._rotated_at = self.monotonic()
        self._return_at = None if for_seconds is None else self._rotated_at + for_seconds

    # --- overlays -----------------------------------------------------------------------

    def popup(self, title: str, line: str, *, kind: str = "", seconds: float = POPUP_SECONDS,
              front: bool = False) -> None:
        """Queue a pop-up; ``front`` shows it at once (a prompt being typed into)."""
        until = self.monotonic() + seconds
        if kind:
            self._drop_popups(kind)
        if front:
            self.popups.appendleft(Popup(title, line, until, kind))
        else:
            self.popups.append(Popup(title, line, until, kind))

    def _drop_popups(self, kind: str) -> None:
        self.popups = deque(p for p in self.popups if p.kind != kind)

    def show_help(self, lines: Sequence[str], *, seconds: float = 15.0) -> None:
        """The on-screen help (what each button does), over every screen for a while."""
        self._help = (tuple(lines), self.monotonic() + seconds)

    def current_popup(self) -> Popup | None:
        """The pop-up on the screen now, if any (for tests and the guide)."""
        return self._current_popup()

    def _current_popup(self) -> Popup | None:
        mono = self.monotonic()
        while self.popups and self.popups[0].until <= mono:
            self.popups.popleft()
        return self.popups[0] if self.popups else None

    def _popup_until(self) -> float | None:
        popup = self._current_popup()
        return popup.until if popup else None

    def _status(self) -> tuple[str, bool]:
        notices = [*self.station.store.warnings, *self.station.notices]
        parts = [self.time_of_day(), text("status", self.lang, role=self.role,
                                          peers=self.peers())]
        warnings = [n.translate(self.lang) for n in notices]
        for source in self.status_sources:
            warnings.extend(source(self.lang))
        return " · ".join([*parts, *warnings]), bool(warnings)

    def _show_check_in(self, player_id: str) -> None:
        entry = self.station.state.players[player_id]
        line = (text("checked_in_seat", self.lang, table=entry.seat.table, seat=entry.seat.seat)
                if entry.seat is not None else text("checked_in", self.lang))
        self.popup(entry.name, line, kind="check-in")

    def _observe(self, *, initial: bool = False) -> None:
        """Turn what changed in the state into pop-ups, ticker lines, chimes and screens."""
        state = self.station.state
        mono = self.monotonic()
        busted: list[tuple[int, str]] = []
        for entry in state.players.values():
            if entry.place is None:
                if self._seen_places.pop(entry.player_id, None) is not None:
                    # An undone bust leaves the ticker too.
                    self.ticker = [line for line in self.ticker if entry.name not in line]
            elif entry.player_id not in self._seen_places:
                self._seen_places[entry.player_id] = entry.place
                if entry.place > 1:
                    busted.append((entry.place, entry.name))
            if entry.checked_in and entry.player_id not in self._seen_in:
                self._seen_in.add(entry.player_id)
                if not initial:
                    self._show_check_in(entry.player_id)
        if busted and not initial:
            lines = [text("bust_line", self.lang, name=name, place=format_place(place, self.lang))
                     for place, name in sorted(busted)]
            if self.ticker_until <= mono:
                self.ticker = []
            self.ticker = (lines + self.ticker)[:3]
            self.ticker_until = mono + TICKER_SECONDS
        flags = (state.final_table, state.hand_for_hand, state.finished)
        news = self._news(state)
        if not initial:
            if news:
                self.show(news, for_seconds=NEWS_SECONDS)
            self._announce(state, flags)
        self._seen_flags = flags
        if self._return_at is not None and mono >= self._return_at:
            self.show(Screen.CLOCK)
        if self.screen not in self.available():
            self.show(Screen.CLOCK)
        if self.rotate_seconds and mono - self._rotated_at >= self.rotate_seconds:
            self.next_screen()
        self._chime(state)

    def _news(self, state: Tournament) -> Screen | None:
        """The screen the room should see for a while: the draw's seating, new moves."""
        tables = bool(state.tables)
        drawn = tables and not self._seen_tables
        self._seen_tables = tables
        moves = set(state.moves)
        fresh = moves - self._seen_moves
        self._seen_moves = moves
        if self.screen is Screen.RESULTS:
            return None
        if drawn:
            return Screen.SEATING
        return Screen.MOVES if fresh else None

    def _announce(self, state: Tournament, flags: tuple[bool, bool, bool]) -> None:
        final_table, hand_for_hand, finished = flags
        was_final, was_hfh, was_finished = self._seen_flags
        if final_table and not was_final:
            self.popup(text("final_table", self.lang), text("final_table_drawn", self.lang),
                       kind="announcement", seconds=2 * POPUP_SECONDS)
            self.show(Screen.SEATING, for_seconds=2 * NEWS_SECONDS)
        if hand_for_hand and not was_hfh:
            self.popup(text("hand_for_hand", self.lang), text("hand_for_hand_on", self.lang),
                       kind="announcement", seconds=2 * POPUP_SECONDS)
        if finished and not was_finished and state.winner is not None:
            self.popup(text("winner", self.lang), state.winner.name, kind="announcement",
                       seconds=3 * POPUP_SECONDS)
            self.show(Screen.RESULTS)

    def _chime(self, state: Tournament) -> None:
        if state.config is None:
            self._reading = None
            return
        reading = clocks.read(state.config.structure, state.clock, self.station.now())
        chime = chime_for(self._reading, reading)
        self._reading = reading
        if chime is not None and self.chimes is not None:
            self.chimes.play(chime)

    # --- drawing ------------------------------------------------------------------------

    def view(self) -> object:
        """The view model of the screen showing now (None before a tournament exists)."""
        state = self.station.state
        if self._help is not None:
            if self._help[1] > self.monotonic():
                return help_view(self._help[0], self.lang)
            self._help = None
        if state.config is None:
            return None
        now = self.station.now()
        if (self.check_in_screen and self.screen is Screen.CLOCK
                and state.phase is Phase.CHECK_IN):
            return check_in_view(state, now, self.lang)
        if self.screen is Screen.CLOCK:
            power_cut = any(n.key == "clock-restored" for n in self.station.notices)
            if clocks.read(state.config.structure, state.clock, now).on_break:
                return break_view(state, now, self.lang, power_cut=power_cut)
            return clock_view(state, now, self.lang, power_cut=power_cut)
        if self.screen is Screen.SEATING:
            return seating_view(state, now, self.lang)
        if self.screen is Screen.MOVES:
            return moves_view(state, now, self.lang)
        if self.screen is Screen.STANDINGS:
            season, rows = self._standings()
            return standings_view(season, rows, now, self.lang)
        return results_view(state, now, self.lang)

    def draw(self) -> str:
        """Bring the display up to date; returns "full", "tick" or "" (nothing changed)."""
        view = self.view()
        # The help screen is read while it is up: pop-ups wait behind it.
        popup = None if isinstance(view, HelpView) else self._current_popup()
        mono = self.monotonic()
        ticker = " · ".join(self.ticker) if self.ticker_until > mono else ""
        # A called clock (C5) outranks the busts: the room must see it count down.
        ticker = clock_call_line(self.station.state, self.station.now(), self.lang) or ticker
        offset = pixel_shift(mono, self._amplitude)
        side = tuple(self.side_panel(self.lang)) if isinstance(view, ClockView | BreakView) else ()
        key = (self.screen, popup, ticker, self._status(), offset, self.lang, side)
        if not self._force_full and key == self._drawn:
            if view == self._drawn_view:
                return ""
            partial = None if popup is not None else _partial(self._drawn_view, view)
            if partial is not None:
                self._tick(view, offset, banner=bool(partial))
                self._drawn_view = view
                return "tick"
        self._full(view, popup, ticker, offset, side)
        self._drawn, self._drawn_view, self._force_full = key, view, False
        return "full"

    def _render(self, view: object) -> None:
        canvas = self._canvas
        if isinstance(view, ClockView):
            screens.render_clock(canvas, view)
        elif isinstance(view, BreakView):
            screens.render_break(canvas, view)
        elif isinstance(view, SeatingView):
            screens.render_seating(canvas, view)
        elif isinstance(view, MovesView):
            screens.render_moves(canvas, view)
        elif isinstance(view, ResultsView):
            screens.render_results(canvas, view)
        elif isinstance(view, CheckInView):
            screens.render_check_in(canvas, view)
        elif isinstance(view, HelpView):
            screens.render_help(canvas, view)
        else:
            canvas.fill(BLACK)
            draw_text(canvas, text("not_started", self.lang), Frame(canvas).box(0.45, 0.55),
                      colour=GREY, align="center")

    def _full(self, view: object, popup: Popup | None, ticker: str,
              offset: tuple[int, int], side: Sequence[str] = ()) -> None:
        self._render(view)
        if side:
            screens.render_side_panel(self._canvas, list(side))
        status, warning = self._status()
        screens.render_status(self._canvas, status, warning=warning)
        if ticker:
            screens.render_ticker(self._canvas, ticker)
        if popup is not None:
            screens.render_popup(self._canvas, popup.title, popup.line)
        if self._canvas is not self.display:
            self.display.fill(BLACK)
            self.display.blit(self._canvas, offset)
        pygame.display.flip()
        self._drawn_offset = offset
        self.frames += 1
        self.full_frames += 1

    def _tick(self, view: object, offset: tuple[int, int], *, banner: bool = False) -> None:
        if isinstance(view, ClockView):
            rects = screens.render_clock_tick(self._canvas, view)
        else:
            assert isinstance(view, BreakView)
            rects = screens.render_break_tick(self._canvas, view)
        if banner:
            assert isinstance(view, ClockView | BreakView)
            rects.append(screens.render_paused_band(self._canvas, view))
        self._present(rects, offset)
        self.frames += 1

    def _present(self, rects: Sequence[pygame.Rect], offset: tuple[int, int]) -> None:
        if self._canvas is self.display:
            pygame.display.update(list(rects))
            return
        moved = [r.move(offset) for r in rects]
        for source, target in zip(rects, moved, strict=True):
            self.display.blit(self._canvas, target, source)
        pygame.display.update(moved)
