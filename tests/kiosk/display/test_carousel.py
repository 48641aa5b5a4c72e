"""The seating screen's one carousel, and the seat finder on demand (issue 49, item 2).

A full room used to alternate a page of tables with a page of names, each
kind counting its own pages: 15 tables and 150 names made 5 + 7 pages at
10 s, a player waiting more than two minutes for "S–T", and Tab landing
mid-round. Now the tables' pages and then the names' pages are one round
under one page count, the whole round within a minute, starting at page 1
whenever the screen is shown; FIND SEAT (a button, the ``f`` key, a table
device's press) shows the names' first page at once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from hardware.inputs import Action, ButtonPressed
from kiosk.app import App
from kiosk.bootstrap import Options, bootstrap
from kiosk.display.messages import text
from kiosk.display.registry import Screen
from kiosk.display.seat_finder import (
    CYCLE_SECONDS,
    SeatFinderView,
    carousel,
    seating_slot,
)
from kiosk.display.viewmodels import SeatingView
from kiosk.table_screen import TableScreenView
from rules.state import Tournament
from tests.kiosk.display.test_layout import NAMES, _night
from tests.kiosk.display.test_loop import _key, _start
from tests.kiosk.table_kit import desk_night, table_app


@pytest.fixture(scope="module")
def room() -> Tournament:
    """150 players on 15 tables."""
    return _night(NAMES).state


def _round(state: Tournament, since: float, lang: str = "nn") -> list[SeatingView | SeatFinderView]:
    round_ = carousel(state)
    return [seating_slot(state, since + (k + 0.5) * round_.page_seconds, lang, since=since)
            for k in range(round_.pages)]


def test_a_full_rooms_round_is_every_table_then_every_name_within_a_minute(
        room: Tournament) -> None:
    round_ = carousel(room)
    assert (round_.table_pages, round_.finder_pages) == (5, 7)
    assert round_.pages * round_.page_seconds <= CYCLE_SECONDS
    views = _round(room, since=1234.5)
    kinds = [type(view).__name__ for view in views]
    assert kinds == ["SeatingView"] * 5 + ["SeatFinderView"] * 7
    # One page count over the whole round, in order.
    assert [view.page_text for view in views] == [
        text("page", "nn", page=k, pages=12) for k in range(1, 13)]
    # Every table once, every seated name once.
    tables = Counter(t.number for v in views if isinstance(v, SeatingView) for t in v.tables)
    assert tables == Counter(list(room.tables))
    names = Counter(r.name for v in views if isinstance(v, SeatFinderView) for r in v.rows)
    assert names == Counter(e.name for e in room.players.values() if e.seat is not None)
    # And then it goes round again.
    assert _round(room, since=1234.5 + CYCLE_SECONDS) == views


def test_a_room_on_one_page_of_tables_has_no_round(one_table_room: Tournament) -> None:
    assert carousel(one_table_room).pages == 1
    views = {seating_slot(one_table_room, t, "nn") for t in (0.0, 7.0, 61.0, 1000.0)}
    assert len(views) == 1
    (view,) = views
    assert isinstance(view, SeatingView) and view.page_text == ""


@pytest.fixture(scope="module")
def one_table_room() -> Tournament:
    return _night(NAMES[:12]).state


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    app = bootstrap(Options(data_dir=str(tmp_path), size=(1280, 720)), fake=True)
    try:
        yield _start(app, players=150)
    finally:
        app.close()


def _page(app: App) -> str:
    app.loop.step(block=False)
    view = app.loop.view()
    assert isinstance(view, SeatingView | SeatFinderView), type(view)
    return f"{type(view).__name__} {view.page_text}"


def test_tab_to_the_seating_starts_its_round_at_page_one(app: App) -> None:
    assert app.time is not None
    period = carousel(app.station.state).page_seconds
    app.time.advance(37.3)  # anywhere in a round of shared time
    while app.loop.screen is not Screen.SEATING:
        _key(pygame.K_TAB)
        app.loop.step(block=False)
    pages = []
    for _ in range(13):
        pages.append(_page(app))
        app.time.advance(period)
    assert pages[0] == "SeatingView " + text("page", "nn", page=1, pages=12)
    assert pages[5] == "SeatFinderView " + text("page", "nn", page=6, pages=12)
    assert pages[12] == pages[0] and len(set(pages)) == 12


def test_f_shows_the_names_first_page_at_once_then_gives_the_screen_back(app: App) -> None:
    assert app.time is not None
    loop = app.loop
    round_ = carousel(app.station.state)
    for before in (Screen.CLOCK, Screen.SEATING):
        loop.show(before)
        app.time.advance(23.0)
        _key(pygame.K_f)
        shown = [_page(app)]
        for _ in range(round_.finder_pages - 1):
            app.time.advance(round_.page_seconds)
            shown.append(_page(app))
        assert shown == [f"SeatFinderView {text('page', 'nn', page=k, pages=12)}"
                         for k in range(6, 13)]
        app.time.advance(round_.page_seconds)
        loop.step(block=False)
        assert loop.screen is before, f"FIND SEAT did not give {before} back"


def test_a_table_devices_find_seat_shows_the_names_over_its_own_screen(tmp_path: Path) -> None:
    desk_night(tmp_path, NAMES[:60])
    app = table_app(tmp_path, (800, 480))
    try:
        loop = app.loop
        assert app.time is not None
        loop.step(block=False)
        assert isinstance(loop.view(), TableScreenView)
        round_ = carousel(app.station.state)
        assert round_.finder_pages >= 2
        loop.handle(ButtonPressed(Action.find_seat, long=False, at=app.time()))
        loop.step(block=False)
        view = loop.view()
        assert isinstance(view, SeatFinderView) and view.page == 0
        assert loop.painter.last is not None and loop.painter.last.view == view
        app.time.advance(round_.finder_pages * round_.page_seconds + 0.5)
        loop.step(block=False)
        assert isinstance(loop.view(), TableScreenView)
    finally:
        app.close()
