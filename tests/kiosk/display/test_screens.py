"""The renderers at 720p, 1080p and 4K: they draw, they scale, and they read at 10 m.

Readability is measured from the pixels: the digits' height is the bounding
box of lit pixels found in the digits band, not a number taken from the code.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path
from typing import cast

import pygame
import pytest

from kiosk.display import fonts
from kiosk.display.layout import Frame
from kiosk.display.screens import (
    break_digits_box,
    clock_digits_box,
    paused_banner_box,
    render_break,
    render_break_tick,
    render_clock,
    render_clock_tick,
    render_moves,
    render_results,
    render_seating,
)
from kiosk.display.viewmodels import (
    ClockView,
    break_view,
    clock_view,
    moves_view,
    results_view,
    seating_view,
)
from kiosk.fonts import BOLD, REGULAR
from rules.commands import BustPlayers, DrawButton, PauseClock
from rules.state import Tournament
from tests.kiosk.display.conftest import SIZES
from tests.rules.tournament_kit import Night

#: A pixel brighter than this in every channel's sum counts as lit.
_LIT = 120
#: Shared time inside the colour-up break of pf-pokerklub (the third break).
_COLOUR_UP_BREAK = 6 * 1800 + 600 + 1800 + 10


def _lit_mask(surface: pygame.Surface, area: pygame.Rect) -> pygame.mask.Mask:
    """Pixels in ``area`` that are not dark: lit text or shapes."""
    sub = surface.subsurface(area)
    dark = pygame.mask.from_threshold(sub, (0, 0, 0, 255), (_LIT // 3, _LIT // 3, _LIT // 3, 255))
    dark.invert()
    return dark


def _ink_box(surface: pygame.Surface, area: pygame.Rect) -> pygame.Rect:
    """Bounding box of every lit pixel in ``area``, in surface coordinates."""
    # pygame's stubs type this as one Rect; it returns a list of them.
    rects = cast(list[pygame.Rect], _lit_mask(surface, area).get_bounding_rects())
    assert rects, "nothing drawn in the area"
    box = pygame.Rect(rects[0]).unionall(rects[1:])
    return box.move(area.topleft)


def _lit_count(surface: pygame.Surface, area: pygame.Rect | None = None) -> int:
    return _lit_mask(surface, area or surface.get_rect()).count()


def _grey(surface: pygame.Surface, area: pygame.Rect) -> list[int]:
    """Luminance of every 2nd pixel of ``area``, to compare shapes and not hues."""
    out = []
    for y in range(area.top, area.bottom, 2):
        for x in range(area.left, area.right, 2):
            r, g, b, _ = surface.get_at((x, y))
            out.append((299 * r + 587 * g + 114 * b) // 1000)
    return out


@pytest.fixture(scope="module")
def big_night() -> Night:
    night = Night().started(150)
    for table in (1, 2, 3):
        night.do(DrawButton(table))
    busted = 0
    while not night.state.moves:
        busted += 1
        night.do(BustPlayers((f"p{busted}",)))
    return night


Screen = Callable[[pygame.Surface], None]


def _screens(state: Tournament, done: Tournament) -> dict[str, Screen]:
    return {
        "clock": lambda s: render_clock(s, clock_view(state, 1000.0)),
        "break": lambda s: render_break(s, break_view(state, _COLOUR_UP_BREAK)),
        "seating": lambda s: render_seating(s, seating_view(state, 0.0)),
        "moves": lambda s: render_moves(s, moves_view(state, 0.0)),
        "results": lambda s: render_results(s, results_view(done, 0.0)),
    }


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("screen", ["clock", "break", "seating", "moves", "results"])
def test_every_screen_draws_at_every_size(big_night: Night, finished: Tournament,
                                          size: tuple[int, int], screen: str) -> None:
    surface = pygame.Surface(size)
    surface.fill((255, 0, 255))
    _screens(big_night.state, finished)[screen](surface)
    # The whole surface is repainted (no magenta left) and something is on it.
    assert pygame.mask.from_threshold(surface, (255, 0, 255, 255), (1, 1, 1, 255)).count() == 0
    lit = _lit_count(surface)
    assert lit > size[0] * size[1] // 200
    # Nothing runs into the side edges: the margin stays dark.
    margin = Frame(surface).margin
    for edge in (pygame.Rect(0, 0, margin // 2, size[1]),
                 pygame.Rect(size[0] - margin // 2, 0, margin // 2, size[1])):
        assert _lit_count(surface, edge) == 0, screen


def test_screens_write_pngs(big_night: Night, finished: Tournament, tmp_path: Path) -> None:
    for name, draw in _screens(big_night.state, finished).items():
        surface = pygame.Surface((1920, 1080))
        draw(surface)
        pygame.image.save(surface, str(tmp_path / f"{name}.png"))
        assert pygame.image.load(str(tmp_path / f"{name}.png")).get_size() == (1920, 1080)


def _digits_band(surface: pygame.Surface, box: pygame.Rect) -> pygame.Rect:
    """The full-width band round the digits box, with room above and below (inside
    the band the digits own, between the blinds and the paused banner)."""
    pad = box.height // 16
    return pygame.Rect(0, box.top - pad, surface.get_width(), box.height + 2 * pad)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_clock_digits_are_a_quarter_of_the_screen(big_night: Night,
                                                  size: tuple[int, int]) -> None:
    surface = pygame.Surface(size)
    running = clock_view(big_night.state, 1000.0)
    for view in (running, dataclasses.replace(running, paused=True, paused_text="x")):
        render_clock(surface, view)
        ink = _ink_box(surface, _digits_band(surface, clock_digits_box(surface)))
        assert ink.height / size[1] >= 0.24, (view.digits, ink)
        assert ink.width < size[0]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_break_digits_are_a_quarter_of_the_screen(big_night: Night,
                                                  size: tuple[int, int]) -> None:
    surface = pygame.Surface(size)
    render_break(surface, break_view(big_night.state, _COLOUR_UP_BREAK))
    ink = _ink_box(surface, _digits_band(surface, break_digits_box(surface)))
    assert ink.height / size[1] >= 0.24


def test_long_times_still_fit_the_width(big_night: Night) -> None:
    surface = pygame.Surface((1280, 720))
    view = dataclasses.replace(clock_view(big_night.state, 0.0), digits="1:02:05")
    render_clock(surface, view)
    ink = _ink_box(surface, _digits_band(surface, clock_digits_box(surface)))
    margin = Frame(surface).margin
    assert ink.left >= margin and ink.right <= 1280 - margin
    assert ink.height / 720 >= 0.20


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_paused_is_a_banner_with_words(size: tuple[int, int]) -> None:
    night = Night().started(54)
    running = clock_view(night.state, 100.0)
    night.do(PauseClock(), at=100.0)
    paused = clock_view(night.state, 100.0)
    assert running.digits == paused.digits and paused.paused
    band = pygame.Rect(paused_banner_box(pygame.Surface(size)))
    before, after = pygame.Surface(size), pygame.Surface(size)
    render_clock(before, running)
    render_clock(after, paused)
    # The banner changes brightness (shape), not only hue, over most of the band ...
    old, new = _grey(before, band), _grey(after, band)
    changed = sum(1 for a, b in zip(old, new, strict=True) if abs(a - b) > 64)
    assert changed > len(old) * 0.5
    # ... and carries dark words on it: not a plain block of colour.
    dark = sum(1 for v in new if v < 64)
    assert len(new) * 0.03 < dark < len(new) * 0.6
    # The running clock leaves the band empty.
    assert max(old) < 64


def test_paused_break_has_the_banner_too(big_night: Night) -> None:
    surface = pygame.Surface((1920, 1080))
    view = break_view(big_night.state, _COLOUR_UP_BREAK)
    render_break(surface, view)
    band = paused_banner_box(surface, on_break=True)
    assert _lit_count(surface, band) == 0
    render_break(surface, dataclasses.replace(view, paused=True, paused_text="Klokka er stoppa"))
    assert _lit_count(surface, band) > band.width * band.height // 2


def test_last_minute_draws_a_frame_not_only_a_colour(big_night: Night) -> None:
    size = (1920, 1080)
    calm, warned = pygame.Surface(size), pygame.Surface(size)
    view = clock_view(big_night.state, 1000.0)
    render_clock(calm, view)
    render_clock(warned, dataclasses.replace(view, last_minute=True))
    band = _digits_band(calm, clock_digits_box(calm))
    calm_ink, warned_ink = _ink_box(calm, band), _ink_box(warned, band)
    assert warned_ink.width > calm_ink.width and warned_ink.height > calm_ink.height


def test_digit_glyphs_are_cached(big_night: Night) -> None:
    surface = pygame.Surface((1920, 1080))
    render_clock(surface, clock_view(big_night.state, 0.0))
    render_clock(surface, dataclasses.replace(clock_view(big_night.state, 0.0),
                                              digits="12:34"))
    render_clock(surface, dataclasses.replace(clock_view(big_night.state, 0.0),
                                              digits="56:78"))
    render_clock(surface, dataclasses.replace(clock_view(big_night.state, 0.0),
                                              digits="90:00"))
    misses = fonts.glyph.cache_info().misses
    fonts_opened = fonts.font.cache_info().misses
    # A later tick renders no glyph and opens no font it has not seen.
    render_clock(surface, dataclasses.replace(clock_view(big_night.state, 0.0),
                                              digits="47:59"))
    assert fonts.glyph.cache_info().misses == misses
    assert fonts.font.cache_info().misses == fonts_opened


def test_fonts_are_bundled_with_their_licence() -> None:
    assert REGULAR.is_file() and BOLD.is_file()
    assert (REGULAR.parent / "LICENSE-DejaVu.txt").is_file()
    assert REGULAR.parent.name == "fonts" and REGULAR.parent.parent.name == "kiosk"


_NEWER_THAN_PYGAME_2_1 = re.compile(
    r"pygame\.Window|FRect|set_script|\.align\s*=|SysFont\(|fblits|pygame\._sdl2|get_fonts")


def test_only_the_pygame_2_1_api_is_used() -> None:
    """The Pi runs Debian's pygame 2.1.2; nothing newer may creep in."""
    package = Path(fonts.__file__).parent
    for source in sorted(package.glob("*.py")):
        found = _NEWER_THAN_PYGAME_2_1.findall(source.read_text(encoding="utf-8"))
        assert not found, (source.name, found)


def _dark_columns(surface: pygame.Surface, area: pygame.Rect) -> list[tuple[int, int]]:
    """Runs of x (start, end) inside ``area`` where no pixel is lit, between lit parts."""
    mask = _lit_mask(surface, area)
    spans = sorted((r.left, r.right) for r in
                   cast(list[pygame.Rect], mask.get_bounding_rects()))
    runs, reach = [], spans[0][1]
    for left, right in spans[1:]:
        if left > reach:
            runs.append((area.x + reach, area.x + left))
        reach = max(reach, right)
    return runs


def test_long_names_stay_in_their_table(big_night: Night) -> None:
    surface = pygame.Surface((1280, 720))
    view = seating_view(big_night.state, 0.0)
    long = "Kari Nordmann-Østerbø-Langenavnsen " * 4
    tables = tuple(dataclasses.replace(t, seats=tuple(
        dataclasses.replace(line, name=long) for line in t.seats)) for t in view.tables)
    render_seating(surface, dataclasses.replace(view, tables=tables))
    grid = Frame(surface).box(0.12, 0.98)
    # Three columns of tables, and a dark gap between neighbours all the way down.
    gaps = _dark_columns(surface, grid)
    assert len(gaps) == 2, gaps
    assert all(end - start >= 8 for start, end in gaps)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_tick_redraws_what_a_second_changes(big_night: Night,
                                                         size: tuple[int, int]) -> None:
    state = big_night.state
    ticked, full = pygame.Surface(size), pygame.Surface(size)
    before, after = clock_view(state, 1000.0), clock_view(state, 1770.0)
    assert (before.digits, before.last_minute) != (after.digits, after.last_minute)
    changed = {f.name for f in dataclasses.fields(ClockView)
               if getattr(before, f.name) != getattr(after, f.name)}
    assert changed == {"digits", "last_minute", "until_break_text", "until_break_line"}
    render_clock(ticked, before)
    dirty = render_clock_tick(ticked, after)
    render_clock(full, after)
    assert _same(ticked, full)
    assert sum(r.width * r.height for r in dirty) < size[0] * size[1] * 0.45
    # And back out of the last minute (the frame must go too), and on the break screen.
    render_clock_tick(ticked, before)
    render_clock(full, before)
    assert _same(ticked, full)
    brk = break_view(state, _COLOUR_UP_BREAK)
    late = dataclasses.replace(brk, digits="00:42", last_minute=True)
    render_break(ticked, brk)
    render_break_tick(ticked, late)
    render_break(full, late)
    assert _same(ticked, full)


def _same(a: pygame.Surface, b: pygame.Surface) -> bool:
    return bytes(pygame.image.tostring(a, "RGB")) == bytes(pygame.image.tostring(b, "RGB"))
