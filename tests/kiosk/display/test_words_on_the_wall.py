"""Issue 19, the right words on the wall: pop-ups, the ticker and the help follow the
language, undo says what it took back, and the night ends on one winner banner.

Each test drives the real loop on a real (dummy) display, built by
``bootstrap(..., fake=True)``, through the keys a TD presses (``l``, ``u``,
``h``), and looks at what the loop drew (the painter's last frame and its
pixels), not only at the overlays' data.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pygame
import pytest

from kiosk.app import App
from kiosk.bootstrap import Options, bootstrap
from kiosk.controls.effects import ShowHelp
from kiosk.display.loop import Screen
from kiosk.display.screens import popup_box, ticker_box
from kiosk.display.shift import amplitude_for, pixel_shift
from kiosk.display.viewmodels import PAGE_SECONDS, HelpView, ResultsView
from rules.commands import BustPlayers
from tests.kiosk.display.test_loop import _start


def _app(tmp_path: Path, lang: str, players: int) -> App:
    app = bootstrap(Options(data_dir=str(tmp_path), size=(1280, 720), lang=lang), fake=True)
    return _start(app, players)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    made = _app(tmp_path, "nn", 54)
    try:
        yield made
    finally:
        made.close()


@pytest.fixture
def danish(tmp_path: Path) -> Iterator[App]:
    made = _app(tmp_path, "da", 54)
    try:
        yield made
    finally:
        made.close()


def _key(app: App, key: int, unicode: str = "") -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=unicode))
    app.loop.step(block=False)


def _on_screen(app: App, rect: pygame.Rect) -> pygame.Rect:
    assert app.time is not None
    return rect.move(pixel_shift(app.time(), amplitude_for(app.loop.display.get_height())))


def _pixels(app: App, rect: pygame.Rect) -> bytes:
    return pygame.image.tostring(app.loop.display.subsurface(_on_screen(app, rect)), "RGB")


def _lit_rows(app: App, rect: pygame.Rect) -> int:
    """How many pixel rows of ``rect`` carry text (anything well off black)."""
    sub = app.loop.display.subsurface(_on_screen(app, rect))
    lit = pygame.mask.from_threshold(sub, (0, 0, 0, 255), (40, 40, 40, 255))
    lit.invert()
    return sum(1 for y in range(lit.get_size()[1])
               if any(lit.get_at((x, y)) for x in range(0, lit.get_size()[0], 3)))


def test_l_says_a_danish_hand_for_hand_box_again_in_english(danish: App) -> None:
    """The issue's case: the box stayed Danish while the screen said "Level 5"."""
    loop = danish.loop
    _key(danish, pygame.K_h, "h")
    assert danish.station.state.hand_for_hand
    boxes = {p.kind: (p.title, p.line) for p in loop.overlays.popups}
    assert boxes["announcement"] == ("Hånd for hånd", "Vent på alle borde før næste hånd")
    drawn = _pixels(danish, popup_box(loop.display, loop.view()))
    _key(danish, pygame.K_l, "l")  # da → en
    assert loop.lang == "en"
    boxes = {p.kind: (p.title, p.line) for p in loop.overlays.popups}
    assert boxes["announcement"] == ("Hand for hand", "Wait for every table before the next hand")
    assert boxes["say"] == ("Hand for hand: each table presses HAND DONE after every hand", "")
    assert boxes["language"] == ("English", "")
    # What is drawn is the English box, not the Danish one left on the screen.
    shown = loop.painter.last
    assert shown is not None and shown.popup is not None and shown.lang == "en"
    assert shown.popup.title.startswith("Hand for hand")
    assert _pixels(danish, popup_box(loop.display, loop.view())) != drawn


def test_the_ticker_is_said_again_in_each_language(app: App) -> None:
    loop = app.loop
    assert app.station.submit(BustPlayers(("p7",))).ok
    loop.step(block=False)
    assert loop.overlays.ticker == ["Spelar 7 — 54. plass"]
    drawn = _pixels(app, ticker_box(loop.display, loop.view()))
    seen = []
    for _ in range(3):  # nn → nb → da → en
        _key(app, pygame.K_l, "l")
        seen.append((loop.lang, loop.overlays.ticker_text()))
    assert seen == [("nb", "Spelar 7 — 54. plass"), ("da", "Spelar 7 — 54. plads"),
                    ("en", "Spelar 7 — 54th")]
    shown = loop.painter.last
    assert shown is not None and shown.ticker == "Spelar 7 — 54th"
    assert _pixels(app, ticker_box(loop.display, loop.view())) != drawn


def test_the_help_follows_the_language(app: App) -> None:
    loop = app.loop
    loop.carry_out([ShowHelp(("pause", "start"))])
    loop.step(block=False)
    before = cast(HelpView, loop.view())
    assert before.title == "Knappane" and before.lines[0].startswith("PAUSE")
    _key(app, pygame.K_l, "l")
    _key(app, pygame.K_l, "l")
    _key(app, pygame.K_l, "l")
    after = cast(HelpView, loop.view())
    assert after.title == "The buttons"
    assert after.lines != before.lines and len(after.lines) == len(before.lines)


def test_u_says_what_it_took_back_in_all_four_languages(app: App) -> None:
    """Not "Angra" alone: "Angra" over "Spelar 7 slått ut", said again on each ``l``."""
    loop = app.loop
    assert app.station.submit(BustPlayers(("p7",))).ok
    loop.step(block=False)
    _key(app, pygame.K_u, "u")
    assert app.station.state.players["p7"].place is None
    said = []
    for n in range(4):
        popup = next(p for p in loop.overlays.popups if p.kind == "say")
        said.append((loop.lang, popup.title, popup.line))
        if n < 3:
            _key(app, pygame.K_l, "l")
    assert said == [("nn", "Angra", "Spelar 7 slått ut"), ("nb", "Angret", "Spelar 7 slått ut"),
                    ("da", "Fortrudt", "Spelar 7 slået ud"),
                    ("en", "Undone", "Spelar 7 eliminated")]
    # The box is not empty below its heading: the line is drawn there.
    loop.overlays.drop("language")
    loop.step(block=False)
    box = popup_box(loop.display, loop.view())
    lower = pygame.Rect(box.x + 20, box.centery + 10, box.width - 40, box.height // 2 - 30)
    assert _lit_rows(app, lower) > box.height // 10


def test_undo_in_the_demo_names_what_it_took_back(tmp_path: Path) -> None:
    """The demo's newest action is a table's hand: undo names the table."""
    from dataclasses import replace

    from kiosk.demo.run import DEMO_OPTIONS, start_demo

    run = start_demo(replace(DEMO_OPTIONS, headless=True, size=(1280, 720), temp_data=False,
                             data_dir=str(tmp_path)), fake=True)
    app = run.app
    try:
        for _ in range(10):
            run.time.advance_shared(60.0)
            app.loop.step(block=False)
        _key(app, pygame.K_u, "u")
        popup = next(p for p in app.loop.overlays.popups if p.kind == "say")
        assert popup.title == "Angra"
        assert popup.line.startswith(("ny hand på bord", "hand ferdig på bord")) or (
            "slått ut" in popup.line), popup
    finally:
        app.close()


def test_the_night_ends_on_one_winner_banner_and_page_one(tmp_path: Path) -> None:
    app = _app(tmp_path, "nn", 12)
    try:
        assert app.time is not None
        # Finish in a page slot the room's own count would show as page 2.
        now = app.station.now()
        slot = int(now // PAGE_SECONDS) + 1
        slot += slot % 2 == 0
        app.time.advance(slot * PAGE_SECONDS + 1 - now)
        assert int(app.station.now() // PAGE_SECONDS) % 2 == 1
        assert app.station.submit(BustPlayers(tuple(f"p{n}" for n in range(1, 12)))).ok
        app.loop.step(block=False)
        assert app.station.state.finished
        assert app.loop.screen is Screen.RESULTS
        view = cast(ResultsView, app.loop.view())
        assert (view.winner_label, view.winner_name) == ("Vinnar", "Spelar 12")
        assert (view.page, view.page_text) == (0, "Side 1 av 2")
        # No pop-up says "Vinnar" again over the banner.
        assert not [p for p in app.loop.overlays.popups if "Vinnar" in (p.title, p.line)]
        shown = app.loop.painter.last
        assert shown is not None and shown.popup is None
        app.time.advance(PAGE_SECONDS)
        app.loop.step(block=False)
        assert cast(ResultsView, app.loop.view()).page_text == "Side 2 av 2"
    finally:
        app.close()
