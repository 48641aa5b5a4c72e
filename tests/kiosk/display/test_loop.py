"""The kiosk loop under SDL's dummy driver: keys, redraws, overlays, timing.

Every test runs the real loop on a real (dummy) display, built by
``bootstrap(..., fake=True)``: shared time and the loop's own timers come
from a :class:`~kiosk.app.ManualTime` the test moves by hand.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pygame
import pytest

from hardware.inputs import Action, ButtonPressed, CardRead
from kiosk.app import App, FlowParts
from kiosk.bootstrap import Options, bootstrap
from kiosk.controls.effects import ShowScreen
from kiosk.controls.typed import Key, KeyTyped
from kiosk.display import loop as loop_mod
from kiosk.display.loop import Screen
from kiosk.display.parts import LoopParts
from kiosk.display.screens import clock_digits_box, paused_banner_box, popup_box, ticker_box
from kiosk.display.shift import amplitude_for, pixel_shift
from kiosk.display.sound import Chime
from kiosk.display.viewmodels import ClockView
from rules.commands import BustPlayers, CheckIn, CreateTournament, DrawSeats, StartClock
from rules.structure import preset

_LIT = 40
YELLOW_MIN = (200, 170, 0)


def _start(app: App, players: int = 54) -> App:
    station = app.station
    assert station.create(CreateTournament("Fredagspoker", preset("pubpoker"))).ok
    for n in range(1, players + 1):
        assert station.submit(CheckIn(f"p{n}", f"Spelar {n}")).ok
    assert station.submit(DrawSeats()).ok
    assert station.submit(StartClock()).ok
    app.loop.settle()
    app.loop.step(block=False)
    return app


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    app = bootstrap(Options(data_dir=str(tmp_path), size=(1280, 720)), fake=True)
    try:
        yield _start(app)
    finally:
        app.close()


def _key(key: int, unicode: str = "") -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=unicode))


def _offset(app: App) -> tuple[int, int]:
    assert app.time is not None
    return pixel_shift(app.time(), amplitude_for(app.loop.display.get_height()))


def _on_screen(app: App, rect: pygame.Rect) -> pygame.Rect:
    """Where a canvas rect is on the display, after the pixel shift."""
    return rect.move(_offset(app))


def _yellow_share(surface: pygame.Surface, rect: pygame.Rect) -> float:
    hits = total = 0
    for y in range(rect.top, rect.bottom, 3):
        for x in range(rect.left, rect.right, 7):
            r, g, b, _ = surface.get_at((x, y))
            total += 1
            hits += r >= YELLOW_MIN[0] and g >= YELLOW_MIN[1] and b < 100
    return hits / total


def _pixels(surface: pygame.Surface, rect: pygame.Rect) -> bytes:
    return pygame.image.tostring(surface.subsurface(rect), "RGB")


def _ink_height(surface: pygame.Surface, area: pygame.Rect) -> int:
    sub = surface.subsurface(area)
    dark = pygame.mask.from_threshold(sub, (0, 0, 0, 255), (_LIT, _LIT, _LIT, 255))
    dark.invert()
    rects = cast(list[pygame.Rect], dark.get_bounding_rects())
    return pygame.Rect(rects[0]).unionall(rects[1:]).height


# --- keys -----------------------------------------------------------------------------


def test_space_shows_paused_on_the_next_frame_and_stops_the_clock(app: App) -> None:
    """A KEYDOWN posted into pygame's queue: the next iteration pauses and draws the banner."""
    loop, display = app.loop, app.loop.display
    assert app.time is not None
    banner = _on_screen(app, paused_banner_box(display)).inflate(-40, -10)
    assert _yellow_share(display, banner) < 0.05
    frames = loop.frames
    _key(pygame.K_SPACE, " ")
    loop.step()  # blocks in pygame.event.wait: the key wakes it at once
    assert loop.frames == frames + 1
    assert not app.station.state.clock.running
    assert _yellow_share(display, banner) > 0.5
    digits = _on_screen(app, clock_digits_box(display))
    before = _pixels(display, digits)
    shown = cast(ClockView, loop.view()).digits
    app.time.advance(5.0)
    loop.step(block=False)
    assert cast(ClockView, loop.view()).digits == shown
    assert _pixels(display, digits) == before


def test_space_again_resumes(app: App) -> None:
    for _ in range(2):
        _key(pygame.K_SPACE, " ")
        app.loop.step()
    assert app.station.state.clock.running


def test_arrows_and_plus_minus_move_the_clock(app: App) -> None:
    loop = app.loop
    level = cast(ClockView, loop.view()).level_text
    _key(pygame.K_RIGHT)
    loop.step()
    assert cast(ClockView, loop.view()).level_text != level
    _key(pygame.K_LEFT)
    loop.step()
    assert cast(ClockView, loop.view()).level_text == level
    digits = cast(ClockView, loop.view()).digits
    _key(pygame.K_MINUS, "-")
    loop.step()
    assert cast(ClockView, loop.view()).digits != digits
    _key(pygame.K_KP_PLUS)
    loop.step()
    assert cast(ClockView, loop.view()).digits == digits


def test_tab_walks_the_screens_and_undo_takes_back_this_devices_last_command(app: App) -> None:
    loop = app.loop
    seen = []
    for _ in range(3):
        _key(pygame.K_TAB)
        loop.step()
        seen.append(loop.screen)
    assert seen == [Screen.SEATING, Screen.CLOCK, Screen.SEATING]
    _key(pygame.K_SPACE)
    loop.step()
    assert not app.station.state.clock.running
    _key(pygame.K_u)
    loop.step()
    assert app.station.state.clock.running
    said = loop.overlays.popups[-1]
    assert (said.title, said.line) == ("Angra", "klokka")


def test_undo_takes_back_the_nights_newest_action_until_nothing_is_left(app: App) -> None:
    """The TD's undo, from a key as from the button: the start, the draw, the check-ins."""
    undo = ButtonPressed(Action.undo, long=True, at=0.0)
    app.loop.handle(undo)
    assert not app.station.state.clock.started
    app.loop.handle(undo)
    assert not app.station.state.tables
    for _ in range(app.station.state.entrants):
        app.loop.handle(undo)
    assert app.station.state.entrants == 0
    app.loop.handle(undo)
    assert app.loop.overlays.popups[-1].title == "Ingenting å angre"


def test_h_turns_hand_for_hand_on_announces_it_and_off_again(app: App) -> None:
    """C7 from the keyboard: the TV says so, and a second h ends it."""
    loop = app.loop
    _key(pygame.K_h)
    loop.step()
    assert app.station.state.hand_for_hand
    assert any(p.title == "Hand for hand" for p in loop.overlays.popups)
    _key(pygame.K_h)
    loop.step()
    assert not app.station.state.hand_for_hand


def test_l_switches_the_language_round_the_four(app: App) -> None:
    loop = app.loop
    langs = []
    for _ in range(4):
        _key(pygame.K_l)
        loop.step()
        langs.append(loop.lang)
    assert langs == ["nb", "da", "en", "nn"]


def test_q_asks_first_and_quits_on_q_or_y(app: App) -> None:
    loop = app.loop
    _key(pygame.K_q)
    loop.step()
    assert loop.running and loop.overlays.popups[-1].kind == "quit"
    _key(pygame.K_SPACE)  # anything else cancels the question (and still acts)
    loop.step()
    assert loop.running and not any(p.kind == "quit" for p in loop.overlays.popups)
    _key(pygame.K_q)
    loop.step()
    _key(pygame.K_y)
    loop.step()
    assert not loop.running


def test_a_refused_command_is_shown_not_raised(app: App) -> None:
    loop = app.loop
    for _ in range(30):
        loop.handle(ButtonPressed(Action.prev_level, long=True, at=0.0))
    assert loop.overlays.popups[-1].title == "Ikkje gjort"


class _Watch:
    """A flow whose key filter notes each key and takes all but an arrow and Space."""

    def __init__(self) -> None:
        self.seen: list[KeyTyped] = []

    def watch(self, key: KeyTyped) -> list[object] | None:
        self.seen.append(key)
        return [] if key.key is not Key.char or key.char not in ("", " ") else None

    def parts(self) -> FlowParts:
        return FlowParts(LoopParts(key_filters=(self.watch,)))


@pytest.fixture
def watched(tmp_path: Path) -> Iterator[tuple[App, _Watch]]:
    watch = _Watch()
    app = bootstrap(Options(data_dir=str(tmp_path), size=(1280, 720)), fake=True,
                    flow=lambda core: watch)
    try:
        yield _start(app), watch
    finally:
        app.close()


def test_key_filters_see_each_key_typed_and_one_they_leave_goes_to_the_keyboard(
        watched: tuple[App, _Watch]) -> None:
    """The loop turns pygame's KEYDOWNs into the controls' typed keys (issue 50); the
    filters are the flow's, handed to the loop when it is built."""
    app, watch = watched
    loop, seen = app.loop, watch.seen
    level = cast(ClockView, loop.view()).level_text
    for key, char in [(pygame.K_RETURN, "\r"), (pygame.K_KP_ENTER, "\r"), (pygame.K_ESCAPE, "\x1b"),
                      (pygame.K_BACKSPACE, "\b"), (pygame.K_a, "Å"), (pygame.K_q, "q"),
                      (pygame.K_RIGHT, ""), (pygame.K_SPACE, " ")]:
        _key(key, char)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F5, mod=0))
    loop.step()
    assert seen == [KeyTyped(Key.enter), KeyTyped(Key.enter), KeyTyped(Key.escape),
                    KeyTyped(Key.backspace), KeyTyped(Key.char, "Å"), KeyTyped(Key.char, "q"),
                    KeyTyped(Key.char), KeyTyped(Key.char, " "), KeyTyped(Key.char)]
    # Taken: Escape and q did not ask to quit. Left: the arrow and Space went on.
    assert loop.running and not any(p.kind == "quit" for p in loop.overlays.popups)
    assert cast(ClockView, loop.view()).level_text != level
    assert not app.station.state.clock.running


# --- card reader (keyboard wedge) -------------------------------------------------------


def _wedge(uid: str) -> None:
    for char in uid:
        _key(getattr(pygame, f"K_{char}"), char)
    _key(pygame.K_RETURN, "\r")


def test_wedge_card_checks_a_late_player_in_and_pops_up_the_seat(app: App) -> None:
    player = app.store.players.add("Kari Nordmann", card="0012345678")
    loop = app.loop
    _wedge("0012345678")
    loop.step()
    entry = app.station.state.players[player.id]
    assert entry.checked_in and entry.seat is not None
    popup = loop.overlays.popups[-1]
    assert popup.title == "Kari Nordmann"
    assert popup.line == f"→ Bord {entry.seat.table}, sete {entry.seat.seat}"
    box = _on_screen(app, popup_box(loop.display, loop.view()))
    assert _yellow_share(loop.display, pygame.Rect(box.left, box.top, box.width, 12)) > 0.3


def test_unknown_card_says_new_card(app: App) -> None:
    app.loop.handle(CardRead("99887766", reader="keyboard", at=0.0))
    assert app.loop.overlays.popups[-1].title == "Nytt kort – skriv namnet"


def test_slow_digits_are_a_person_not_a_card(app: App) -> None:
    assert app.time is not None
    keyboard = app.loop.keyboard
    now = app.time()
    for i, char in enumerate("12345678"):
        event = pygame.event.Event(pygame.KEYDOWN, key=getattr(pygame, f"K_{char}"), unicode=char)
        assert keyboard.translate(event, now + i * 0.2) == ()
    enter = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, unicode="\r")
    assert keyboard.translate(enter, now + 1.7) == ()


def test_inputs_from_the_queue_are_handled_and_wake_the_loop(app: App) -> None:
    app.inputs.put(ButtonPressed(Action.pause, long=False, at=0.0))
    app.loop.step()  # the put woke the loop's select, so this does not wait
    assert not app.station.state.clock.running


# --- what the room sees -------------------------------------------------------------------


def test_a_bust_goes_on_the_ticker(app: App) -> None:
    loop = app.loop
    assert app.station.submit(BustPlayers(("p7",))).ok
    loop.step(block=False)
    assert loop.overlays.ticker == ["Spelar 7 — 54. plass"]
    box = _on_screen(app, ticker_box(loop.display, loop.view()))
    assert _ink_height(loop.display, box) > 10


def test_final_table_is_announced_and_seating_shown(tmp_path: Path) -> None:
    with bootstrap(Options(data_dir=str(tmp_path), size=(1280, 720)), fake=True) as app:
        _start(app, players=12)
        assert app.station.submit(BustPlayers(("p1", "p2", "p3"))).ok
        app.loop.step(block=False)
        assert app.station.state.final_table
        assert app.loop.overlays.popups[-1].title == "Finalebord"
        assert app.loop.screen is Screen.SEATING


def test_the_status_line_carries_the_power_cut_notice(app: App) -> None:
    from kiosk.store import Notice
    from rules.commands import PauseClock, ResumeClock

    # As after a power cut: the clock restored paused, with the notice.
    assert app.station.submit(PauseClock()).ok
    app.station.notices.append(Notice("clock-restored", {}))
    app.loop.step(block=False)
    text, warning = app.loop.status_line()
    # It names the button that resumes the clock (PAUSE; START is refused) and the command.
    assert warning and text.startswith("20:00 · Rolle: display")
    assert "Straumbrot: trykk pause eller køyr «pubpoker clock resume»" in text
    # Resumed from anywhere, the notice no longer says what the clock does.
    assert app.station.submit(ResumeClock()).ok
    app.loop.step(block=False)
    assert "Straumbrot" not in app.loop.status_line()[0]


def test_the_status_line_carries_the_pis_health(app: App) -> None:
    app.hooks.status_sources.append(lambda lang: ["Underspenning"] if lang == "nn" else [])
    text, warning = app.loop.status_line()
    assert warning and text.endswith("· Underspenning")


def test_the_loops_own_frames_read_at_ten_metres() -> None:
    """The digits on the loop's real display surface are at least 24 % of its height."""
    for size in ((1280, 720), (1920, 1080)):
        with bootstrap(Options(size=size, temp_data=True), fake=True) as app:
            _start(app)
            display = app.loop.display
            band = _on_screen(app, clock_digits_box(display)).inflate(0, display.get_height() // 20)
            assert _ink_height(display, band) / size[1] >= 0.24


# --- redrawing only what changed ----------------------------------------------------------


def test_a_second_redraws_only_the_digits(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    assert app.time is not None
    updates: list[object] = []
    flips: list[int] = []
    monkeypatch.setattr(pygame.display, "update", lambda rects=None: updates.append(rects))
    monkeypatch.setattr(pygame.display, "flip", lambda: flips.append(1))
    for _ in range(5):
        app.time.advance(1.0)
        assert app.loop.draw() in ("tick", "")
    assert not flips and len(updates) == 5
    width, height = app.loop.display.get_size()
    areas = []
    for rects in updates:
        assert isinstance(rects, list)
        areas.append(sum(r.width * r.height for r in rects) / (width * height))
    # 20:00 → 19:59 changes four digits; every second after it one: that digit
    # and the time to the break, not the band across the screen.
    assert max(areas) < 0.3 and sorted(areas)[2] < 0.08, areas
    assert app.loop.draw() == ""  # nothing moved: nothing drawn


def test_it_waits_for_the_next_second_and_not_longer_than_a_second(app: App) -> None:
    assert app.time is not None
    app.time.advance(0.25)
    wait = app.loop.timeout_ms()
    assert 700 <= wait <= 800
    _key(pygame.K_SPACE)
    app.loop.step()
    assert app.loop.timeout_ms() == app.loop.max_wait_ms


def test_an_idle_loop_sleeps_in_select_never_in_sdls_timed_wait(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """No busy loop: each iteration blocks once in select() for the computed timeout.

    SDL's ``event.wait(timeout)`` polls every millisecond on dummy and KMSDRM,
    so it must never be called.
    """
    import kiosk.display.wake as wake

    def no_sdl_wait(*args: object) -> None:
        raise AssertionError("pygame.event.wait polls every millisecond underneath")

    monkeypatch.setattr(pygame.event, "wait", no_sdl_wait)
    sleeps: list[float] = []
    real = wake.sleep_until_woken

    def counted(timeout: float, sources: list[wake.Readable]) -> list[wake.Readable]:
        sleeps.append(timeout)
        return real(timeout, sources)

    monkeypatch.setattr("kiosk.display.wake.sleep_until_woken", counted)
    assert app.loop.timeout_ms() >= 100
    # A tenth of a second each, not the loop's second: the test need not wait.
    monkeypatch.setattr(app.loop, "timeout_ms", lambda: 100)
    for _ in range(3):
        app.loop.step()
    # Under the dummy driver nothing feeds SDL: one select per iteration, not one per
    # 30 ms, and never SDL's millisecond polling.
    assert len(sleeps) == 3 and min(sleeps) >= 0.09


def test_a_queued_input_wakes_a_sleeping_loop_at_once(app: App) -> None:
    import threading
    import time as real_time

    from hardware.inputs import Action, ButtonPressed

    timer = threading.Timer(0.05, lambda: app.inputs.put(  # type: ignore[arg-type]
        ButtonPressed(Action.pause, long=False, at=0.0)))
    timer.start()
    began = real_time.monotonic()
    app.loop.sleep(5.0)
    woke = real_time.monotonic() - began
    timer.join()
    assert woke < 1.0
    app.loop.step(block=False)
    assert not app.station.state.clock.running


def test_the_watchdog_and_tick_hooks_run_every_iteration(app: App) -> None:
    calls: list[str] = []
    app.loop.watchdog = lambda: calls.append("dog")
    app.hooks.on_tick.append(lambda: calls.append("tick"))
    app.loop.step(block=False)
    app.loop.step(block=False)
    assert calls == ["tick", "dog", "tick", "dog"]


def test_the_loop_runs_the_hooks_it_was_built_with(app: App) -> None:
    """Issue 50: the observers register on the registry the loop was handed when it was
    built (app.hooks), not on the loop; a tick's effects are carried out, a deadline
    wakes the sleeping loop, a source's warning is on the status band."""
    assert app.hooks is app.loop.hooks
    assert app.loop.timeout_ms() > 100
    due = app.loop.monotonic() + 0.05
    app.hooks.deadlines.append(lambda: due)
    assert app.loop.timeout_ms() == 50
    shown = [ShowScreen("seating", for_seconds=30.0)]
    app.hooks.on_tick.append(lambda: shown)
    app.loop.step(block=False)
    assert app.loop.screen is Screen.SEATING
    app.hooks.status_sources.append(lambda lang: [f"varsel ({lang})"])
    text, warning = app.loop.status_line()
    assert warning and text.endswith("· varsel (nn)")


def test_the_level_change_chimes(app: App) -> None:
    assert app.time is not None
    app.time.advance(20 * 60 - 61)
    app.loop.step(block=False)
    app.time.advance(2)
    app.loop.step(block=False)
    app.time.advance(60)
    app.loop.step(block=False)
    assert list(app.chimes.played) == [Chime.WARNING, Chime.LEVEL]


def test_the_pixel_shift_moves_the_picture(app: App) -> None:
    """The canvas is copied to the new place; nothing is drawn anew for a move."""
    assert app.time is not None
    painter = app.loop.painter
    first = _offset(app)
    app.time.advance(180.0)
    full_frames = painter.full_frames
    app.loop.step(block=False)
    assert _offset(app) != first
    assert painter.last is not None and painter.last.offset == _offset(app)
    assert painter.full_frames == full_frames
    moved = pygame.image.tostring(painter.display, "RGB")
    painter.force_full()
    assert app.loop.draw() == "full"
    assert pygame.image.tostring(painter.display, "RGB") == moved


def test_the_loop_logs_nothing_alarming(app: App, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger=loop_mod.__name__):
        for _ in range(3):
            app.loop.step(block=False)
    assert not caplog.records


def test_the_screen_follows_a_tournament_the_terminal_started(tmp_path: Path) -> None:
    """``pubpoker tournament new`` runs in another process and writes the same store."""
    from kiosk.station import Station
    from kiosk.store import open_store
    from kiosk.timebase import SharedClock

    with bootstrap(Options(data_dir=str(tmp_path), size=(1280, 720)), fake=True) as app:
        assert app.time is not None
        app.loop.step(block=False)
        assert app.loop.view() is None
        with open_store(data_dir=tmp_path) as other:
            terminal = Station(other, SharedClock(source=app.time))
            assert terminal.create(CreateTournament("Fredag", preset("pubpoker"))).ok
            assert terminal.submit(CheckIn("p1", "Kari Nordmann")).ok
        app.time.advance(3.0)
        app.loop.step(block=False)
        assert app.station.tournament_id == terminal.tournament_id
        assert isinstance(app.loop.view(), ClockView)
        assert not app.loop.overlays.popups  # what happened before is not news


def test_the_hardware_buttons_and_reader_go_through_the_roles_controller(app: App) -> None:
    from hardware.inputs import Action, ButtonHint, ButtonPressed
    from hardware.inputs import CardRead as ReaderCard

    loop = app.loop
    app.inputs.put(ButtonPressed(Action.pause, long=False, at=0.0))
    loop.step()
    assert not app.station.state.clock.running
    app.inputs.put(ButtonPressed(Action.next_screen, long=False, at=0.0))
    loop.step()
    assert loop.screen is Screen.SEATING
    app.inputs.put(ButtonHint(Action.prev_level, at=0.0))
    loop.step()
    assert loop.overlays.popups[-1].title.startswith("Hald knappen inne")
    player = app.store.players.add("Kari Nordmann", card="04A23B1C")
    app.inputs.put(ReaderCard("04A23B1C", reader="rdm6300", at=0.0))
    loop.step()
    assert app.station.state.players[player.id].checked_in
    shown = [p for p in loop.overlays.popups if p.kind == "check-in"]
    assert len(shown) == 1 and shown[0].title == "Kari Nordmann"


def test_the_draw_shows_the_seating_and_then_the_clock_again(tmp_path: Path) -> None:
    from kiosk.display.loop import NEWS_SECONDS

    with bootstrap(Options(data_dir=str(tmp_path), size=(1280, 720)), fake=True) as app:
        assert app.time is not None
        station = app.station
        assert station.create(CreateTournament("Fredagspoker", preset("pubpoker"))).ok
        for n in range(1, 31):
            assert station.submit(CheckIn(f"p{n}", f"Spelar {n}")).ok
        app.loop.settle()
        app.loop.step(block=False)
        assert app.loop.screen is Screen.CLOCK
        assert station.submit(DrawSeats()).ok
        app.loop.step(block=False)
        assert app.loop.screen is Screen.SEATING
        app.time.advance(NEWS_SECONDS + 1)
        app.loop.step(block=False)
        assert app.loop.screen is Screen.CLOCK


def test_new_moves_are_shown_for_a_while(app: App) -> None:
    from kiosk.display.loop import NEWS_SECONDS

    assert app.time is not None
    busted = 0
    while not app.station.state.moves:
        busted += 1
        assert app.station.submit(BustPlayers((f"p{busted}",))).ok
    app.loop.step(block=False)
    assert app.loop.screen is Screen.MOVES
    assert NEWS_SECONDS * 1000 >= app.loop.timeout_ms() > 0
    # Its clock line turns on the second, with the clock screens in the room (issue 49).
    app.time.advance(0.25)
    assert 700 <= app.loop.timeout_ms() <= 800
    app.time.advance(NEWS_SECONDS + 1)
    app.loop.step(block=False)
    assert app.loop.screen is Screen.CLOCK


def test_a_called_clock_counts_down_on_the_wall(app: App) -> None:
    from rules.commands import CallClock

    _start(app)
    assert app.station.submit(CallClock(1)).ok
    app.loop.step(block=False)
    assert app.time is not None
    app.time.advance(7.0)
    app.loop.draw()
    from kiosk.table_screen import clock_call_line

    line = clock_call_line(app.station.state, app.station.now(), "nn")
    assert line == "Klokke på bord 1: 23"
    # It is what the ticker band carried in the frame just drawn.
    assert app.loop.painter.last is not None and app.loop.painter.last.ticker == line


def test_the_league_table_shows_once_the_night_has_a_winner(app: App) -> None:
    from kiosk.display.loop import Screen
    from kiosk.display.viewmodels import ResultsView
    from rules.commands import BustPlayers

    _start(app, players=3)
    assert Screen.STANDINGS not in app.loop.available()
    app.station.submit(BustPlayers(("p3",)))
    app.station.submit(BustPlayers(("p2",)))
    tid = app.station.tournament_id
    assert tid is not None
    app.station.store.record_results(tid)
    app.loop.standings.invalidate()  # the test does not wait the 30 s
    app.loop.step(block=False)
    assert Screen.STANDINGS in app.loop.available()
    app.loop.show(Screen.STANDINGS)
    view = app.loop.view()
    assert isinstance(view, ResultsView)
    season = app.station.store.tournament(tid).season
    assert view.title == f"Sesongpoeng {season}"
    assert [(r.place_text, r.name) for r in view.rows] == [
        ("1.", "Spelar 1"), ("2.", "Spelar 2"), ("3.", "Spelar 3")]
    assert app.loop.draw() == "full"


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_a_clock_ticked_digit_by_digit_looks_like_one_drawn_whole(
        tmp_path: Path, size: tuple[int, int]) -> None:
    """Each second redraws only the digits that changed; the picture must not drift
    from a full redraw of the same view, across tens, minutes, a pause, and the
    status line's time of day turning (its band alone is redrawn)."""
    app = _start(bootstrap(Options(data_dir=str(tmp_path), size=size), fake=True))
    try:
        assert app.time is not None
        painter = app.loop.painter
        wall = ["21:59"]
        app.loop.time_of_day = lambda: wall[0]
        app.loop.step(block=False)
        full_frames = painter.full_frames
        for second in range(75):
            app.time.advance(1.0)
            if second == 40:
                _key(pygame.K_SPACE, " ")  # pause: grey digits, the banner
            if second == 50:
                _key(pygame.K_SPACE, " ")
            if second in (20, 60):
                wall[0] = "22:00" if second == 20 else "22:01"
            app.loop.step(block=False)
        assert painter.full_frames == full_frames
        ticked = pygame.image.tostring(painter.canvas, "RGB")
        painter.force_full()
        assert app.loop.draw() == "full"
        assert pygame.image.tostring(painter.canvas, "RGB") == ticked
    finally:
        app.close()
