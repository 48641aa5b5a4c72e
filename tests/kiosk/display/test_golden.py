"""Golden screenshots of every wall screen at 720p, 1080p and 4K.

Each screen is drawn from a fixed tournament under SDL's dummy driver and
compared with its reference PNG in ``golden/``. Fonts come from the bundled
TTF, so the pixels match; the tolerance only absorbs freetype's antialiasing
differences between versions: a pixel counts as different when a channel
is off by more than :data:`CHANNEL_TOLERANCE`, and at most
:data:`MAX_DIFFERENT` of the pixels may differ.

4K references would be large, so at 3840x2160 a quarter-size copy
(``pygame.transform.smoothscale`` to 960x540) is compared instead; it still
catches a moved box or a missing line.

Regenerate after an intended change with ``PUBPOKER_SAVE_GOLDEN=1 pytest
tests/kiosk/display/test_golden.py``, look at the PNGs, and commit them. The
same run refreshes the README's screenshots in ``images/screens/``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from kiosk.display.messages import text
from kiosk.display.screens import (
    render_break,
    render_clock,
    render_moves,
    render_popup,
    render_results,
    render_seat_finder,
    render_seating,
    render_status,
    render_ticker,
)
from kiosk.display.seat_finder import seat_finder_view
from kiosk.display.viewmodels import (
    break_view,
    clock_view,
    moves_view,
    results_view,
    seating_view,
    standings_view,
)
from kiosk.table_device.render import render_table_screen
from kiosk.table_screen import table_screen_view
from rules.commands import BustPlayers, CallClock, DrawButton, PauseClock
from rules.state import Tournament
from tests.kiosk.display.conftest import SIZES, venue_night
from tests.kiosk.display.test_seating_names import room
from tests.rules.tournament_kit import Night

GOLDEN = Path(__file__).resolve().parent / "golden"
SCREENSHOTS = Path(__file__).resolve().parents[3] / "images" / "screens"
SAVE = os.environ.get("PUBPOKER_SAVE_GOLDEN") == "1"
#: A channel this far off (of 255) makes a pixel count as different.
CHANNEL_TOLERANCE = 48
#: The share of pixels that may differ.
MAX_DIFFERENT = 0.005
#: Wider than this, the reference is a quarter-size copy.
DOWNSCALE_ABOVE = 1920
#: Shared time inside pf-pokerklub's colour-up break (the third break).
COLOUR_UP_BREAK = 6 * 1800 + 600 + 1800 + 10
#: The README shows these, at 1280x720 (and the table device's, at 800x480).
README_SCREENS = ("clock", "break", "seating", "seatfinder", "checkin", "results", "table")
#: A table device's own screen: a small HDMI panel and an SPI one.
TABLE_SIZES = ((800, 480), (480, 320))


def _night(players: int) -> Night:
    night = venue_night(players)
    for table in sorted(night.state.tables):
        night.do(DrawButton(table))
    return night


def _four_moves() -> Night:
    """150 players on 15 tables, busted from table 1 on until four moves are pending."""
    night = _night(150)
    busted = 0
    while len(night.state.moves) < 4:
        busted += 1
        night.do(BustPlayers((f"p{busted}",)), at=60.0 * busted)
    return night


@pytest.fixture(scope="module")
def field() -> Night:
    return _four_moves()


@pytest.fixture(scope="module")
def called() -> Night:
    """The same room, and the clock called at the first move's table."""
    night = _four_moves()
    table = next(iter(night.state.moves.values())).source.table
    night.do(CallClock(table), at=night.now + 5)
    return night


@pytest.fixture(scope="module")
def paused() -> Tournament:
    night = _night(54)
    night.do(PauseClock(), at=1000.0)
    return night.state


Draw = Callable[[pygame.Surface], None]


def _screens(field: Night, paused: Tournament, finished: Tournament) -> dict[str, Draw]:
    state = field.state
    fresh = _fresh()
    # 128 players: 13 tables, and table 13 alone on the fifth page.
    last_page = _night(128).state

    def checkin(surface: pygame.Surface) -> None:
        view = clock_view(fresh, 65.0)
        render_clock(surface, view)
        render_status(surface, "19:02 · " + text("status", "nn", role="display", peers=0))
        render_popup(surface, "Kari Nordmann", text("checked_in_seat", "nn", table=3, seat=7),
                     view=view)

    def clock(surface: pygame.Surface) -> None:
        render_clock(surface, clock_view(fresh, 1000.0))
        render_status(surface, "19:17 · " + text("status", "nn", role="display", peers=2))

    def clockcall(surface: pygame.Surface) -> None:
        view = clock_view(fresh, 1000.0)
        render_clock(surface, view)
        render_ticker(surface, "Klokke på bord 3: 17", view=view)

    return {
        "clock": clock,
        "paused": lambda s: render_clock(s, clock_view(paused, 1500.0)),
        "break": lambda s: render_break(s, break_view(state, COLOUR_UP_BREAK)),
        "seating": lambda s: render_seating(s, seating_view(state, 0.0, page=0)),
        # Four "Nils Kristian" at table 2 among long double names: cut apart at 720p.
        "seatingnames": lambda s: render_seating(s, seating_view(room(150).state, 0.0, page=0)),
        "seatinglast": lambda s: render_seating(s, seating_view(last_page, 0.0, page=4)),
        "seatfinder": lambda s: render_seat_finder(s, seat_finder_view(state, 0.0, page=0)),
        "moves": lambda s: render_moves(s, moves_view(state, 0.0, page=0)),
        "results": lambda s: render_results(s, results_view(finished, 0.0, page=0)),
        "checkin": checkin,
        "clockcall": clockcall,
        "standings": lambda s: render_results(s, standings_view(
            "2026", [(1, "Kari Nordmann", 41), (2, "Ola Nordmann", 35), (3, "Per Hansen", 35),
                     (4, "Anne Berg", 12)], 0.0)),
    }


def _fresh() -> Tournament:
    return _night(54).state


def _reference_form(surface: pygame.Surface) -> pygame.Surface:
    width, height = surface.get_size()
    if width > DOWNSCALE_ABOVE:
        return pygame.transform.smoothscale(surface, (width // 4, height // 4))
    return surface


def _plain(surface: pygame.Surface) -> pygame.Surface:
    """A copy in one pixel format: a loaded PNG is 24-bit, a drawn surface 32-bit."""
    copy = pygame.Surface(surface.get_size())
    copy.blit(surface, (0, 0))
    return copy


def _different(actual: pygame.Surface, expected: pygame.Surface) -> int:
    """How many pixels differ by more than the tolerance in some channel."""
    actual, expected = _plain(actual), _plain(expected)
    same = pygame.mask.from_threshold(
        actual, (0, 0, 0, 0),
        (CHANNEL_TOLERANCE, CHANNEL_TOLERANCE, CHANNEL_TOLERANCE, 255), expected)
    return actual.get_width() * actual.get_height() - same.count()


SCREENS = ("clock", "paused", "break", "seating", "seatingnames", "seatinglast", "seatfinder",
           "moves", "results", "checkin", "clockcall", "standings")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("screen", SCREENS)
def test_screen_matches_its_golden_image(field: Night, paused: Tournament,
                                         finished: Tournament, screen: str,
                                         size: tuple[int, int]) -> None:
    surface = pygame.Surface(size)
    _screens(field, paused, finished)[screen](surface)
    _compare(surface, screen, size)


def _compare(surface: pygame.Surface, screen: str, size: tuple[int, int]) -> None:
    actual = _reference_form(surface)
    path = GOLDEN / f"{screen}-{size[0]}x{size[1]}.png"
    if SAVE:
        GOLDEN.mkdir(exist_ok=True)
        pygame.image.save(actual, str(path))
        if size in (SIZES[0], TABLE_SIZES[0]) and screen in README_SCREENS:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, SCREENSHOTS / f"{screen}.png")
        return
    assert path.exists(), f"no golden image {path.name}: run with PUBPOKER_SAVE_GOLDEN=1"
    expected = pygame.image.load(str(path))
    assert expected.get_size() == actual.get_size()
    different = _different(actual, expected)
    share = different / (actual.get_width() * actual.get_height())
    assert share <= MAX_DIFFERENT, (
        f"{path.name}: {share:.2%} of pixels differ; if intended, regenerate with "
        "PUBPOKER_SAVE_GOLDEN=1 and look at the PNGs")


def _table_device(night: Night) -> Draw:
    """The table a move leaves from, 12 s into its called clock."""
    state = night.state
    table = next(iter(state.moves.values())).source.table
    view = table_screen_view(state, table, night.now + 12.0, "nn")
    return lambda s: render_table_screen(s, view)


@pytest.mark.parametrize("size", TABLE_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_table_device_matches_its_golden_image(called: Night, size: tuple[int, int]
                                                   ) -> None:
    surface = pygame.Surface(size)
    _table_device(called)(surface)
    _compare(surface, "table", size)


def test_the_comparison_sees_a_real_change(field: Night, paused: Tournament,
                                           finished: Tournament) -> None:
    """A paused clock is not the running one: the tolerance does not hide a banner."""
    draw = _screens(field, paused, finished)
    running, stopped = pygame.Surface((1280, 720)), pygame.Surface((1280, 720))
    draw["clock"](running)
    draw["paused"](stopped)
    assert _different(running, stopped) / (1280 * 720) > MAX_DIFFERENT


def test_references_are_small() -> None:
    files = sorted(GOLDEN.glob("*.png"))
    assert len(files) == len(SCREENS) * len(SIZES) + len(TABLE_SIZES)
    big = [(f.name, f.stat().st_size) for f in files if f.stat().st_size > 300_000]
    assert not big
