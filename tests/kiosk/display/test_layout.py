"""Nothing on a wall screen is clipped, covered or too small: checked from what was drawn.

Every screen is drawn at 800x480, 720p, 1080p and 4K in all four languages
with the worst content a night can bring (the longest words of the
catalogues, long Nordic names of up to 40 characters, 1 and 15 tables, 150
players), with the bust ticker, the status line and the largest pop-up on
top, as the painter draws them. The renderers write every line through
:mod:`kiosk.display.layout`, whose log (:func:`~kiosk.display.layout.recording`)
gives each line's rect; the test asserts from those rects that

* no line leaves the screen or the band it belongs to (:mod:`kiosk.display.bands`),
* no pop-up or ticker covers part of a line (whole is fine: it comes back),
* no two lines touch,
* every line is at least its band's smallest size (names on seating: 4 %),
* only names are shortened with an ellipsis, never words or numbers.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from itertools import combinations

import pygame
import pytest

from hardware.inputs import Action
from kiosk.controls.help import help_lines
from kiosk.display import bands as layout_bands
from kiosk.display import qr
from kiosk.display.layout import Drawn, TextLog, recording
from kiosk.display.messages import text
from kiosk.display.registry import render
from kiosk.display.screens import (
    bands_of,
    clock_digits_box,
    render_popup,
    render_side_panel,
    render_status,
    render_ticker,
)
from kiosk.display.seat_finder import seat_finder_view
from kiosk.display.viewmodels import (
    BreakView,
    ClockView,
    MovesView,
    ResultRow,
    ResultsView,
    break_view,
    check_in_view,
    clock_view,
    help_view,
    seating_view,
    standings_view,
)
from rules.commands import CheckIn, DrawButton, DrawSeats, StartClock
from rules.i18n import LANGUAGES, format_place
from rules.names import PLAYER_NAME_MAX, TOURNAMENT_NAME_MAX
from rules.state import Tournament
from tests.rules.tournament_kit import Night

SIZES = ((800, 480), (1280, 720), (1920, 1080), (3840, 2160))
#: Shared time inside pf-pokerklub's colour-up break (the third break).
COLOUR_UP_BREAK = 6 * 1800 + 600 + 1800 + 10

_FIRST = ("Kristoffer", "Marianne", "Torbjørn", "Ingeborg", "Åsmund", "Gunnhild", "Hallvard",
          "Margrethe", "Øystein", "Ragnhild", "Bjørnar", "Solveig", "Sigbjørn", "Aslaug",
          "Wenche")
_LAST = ("Wilhelmsen-Fjellheim", "Kristiansdatter Østbø", "Skjæveland Aasmundsen",
         "Hågensen Brækkhus", "Thorvaldsen Lillehagen", "Bjørnstad-Kvalsvik",
         "Grønvold Haugerud", "Sæthre-Mikkelsen", "Frøysland Tveitnes", "Aarsæther")
#: 150 long Nordic names, the longest at the limit a name may have.
NAMES = tuple(f"{first} {last}"[:PLAYER_NAME_MAX] for last in _LAST for first in _FIRST)
assert max(map(len, NAMES)) >= 30 and len(set(NAMES)) == 150
LONGEST = "Margrethe Kristiansdatter Østbø-Wilhelms"
assert len(LONGEST) == PLAYER_NAME_MAX
EVENT = ("Fredagspoker på Kvinnherad Bryggeri og Vertshus – haustsesongen, "
         "kvalifisering 3")[:TOURNAMENT_NAME_MAX]


def _night(names: tuple[str, ...]) -> Night:
    night = Night()
    for index, name in enumerate(names, start=1):
        night.do(CheckIn(f"p{index}", name))
    night.do(DrawSeats())
    night.do(StartClock())
    for table in sorted(night.state.tables):
        night.do(DrawButton(table))
    return night


@pytest.fixture(scope="module")
def full() -> Tournament:
    """150 players with long names on 15 tables."""
    return _night((LONGEST, *NAMES[1:])).state


@pytest.fixture(scope="module")
def one_table() -> Tournament:
    return _night((LONGEST, *NAMES[1:10])).state


@pytest.fixture(scope="module")
def checking_in() -> Tournament:
    night = Night()
    for index, name in enumerate((LONGEST, *NAMES[1:]), start=1):
        night.do(CheckIn(f"p{index}", name))
    return night.state


def _longest(*values: str) -> str:
    return max(values, key=len)


def _popups(lang: str) -> list[tuple[str, str]]:
    """The room's pop-ups (room.py), with the longest name."""
    return [
        (LONGEST, text("checked_in_seat", lang, table=15, seat=10)),
        (text("final_table", lang), text("final_table_drawn", lang)),
        (text("hand_for_hand", lang), text("hand_for_hand_on", lang)),
        (text("winner", lang), LONGEST),
    ]


def _ticker(lang: str) -> str:
    lines = [text("bust_line", lang, name=name, place=format_place(place, lang))
             for place, name in ((150, LONGEST), (149, NAMES[1]), (148, NAMES[2]))]
    return " · ".join(lines)


def _status(lang: str) -> str:
    return " · ".join(("23:59", text("status", lang, role="display", peers=12),
                       text("power_cut", lang)))


View = Callable[[str], object]


def _views(full: Tournament, one_table: Tournament, checking_in: Tournament
           ) -> dict[str, View]:
    """Every screen with its worst content, by name."""
    late = 9 * 1800 + 3 * 600 + 5.0  # a level with a big-blind ante, a break ahead

    def clock(lang: str) -> object:
        return dataclasses.replace(
            clock_view(full, late, lang), name=EVENT,
            badges=(text("final_table", lang), text("hand_for_hand", lang)),
            digits="00:59", paused=True, paused_text=text("power_cut", lang), last_minute=True,
            next_line=text("label_value", lang, label=text("next_level", lang), value=" – ".join(
                (text("level", lang, number=10), "10 000 / 20 000",
                 text("ante", lang, ante="20 000")))),
            until_break_line=text("label_value", lang, label=text("until_break", lang),
                                  value="1:59:59"))

    def breaking(lang: str) -> object:
        view = break_view(full, COLOUR_UP_BREAK, lang)
        assert view.colour_up
        return dataclasses.replace(view, name=EVENT, paused=True,
                                   paused_text=_longest(text("power_cut", lang),
                                                        text("break_over", lang)))

    def moves(lang: str) -> object:
        lines = tuple(text("move_line", lang, name=name, from_table=15, from_seat=10,
                           to_table=14, to_seat=10) for name in (LONGEST, *NAMES[1:10]))
        return MovesView(text("move", lang), lines, text("no_moves", lang), 11, 12,
                         text("page", lang, page=12, pages=12),
                         clock_text=text("power_cut", lang), clock_paused=True)

    def results(lang: str) -> object:
        rows = tuple(ResultRow(place, format_place(place, lang), name, "150")
                     for place, name in zip(range(141, 151), (LONGEST, *NAMES[1:10]),
                                            strict=True))
        return ResultsView(text("results", lang), text("winner", lang), LONGEST,
                           text("points", lang), rows, "", 14, 15,
                           text("page", lang, page=15, pages=15))

    def standings(lang: str) -> object:
        return standings_view("2026", [(rank, name, 1234) for rank, name in
                                       enumerate((LONGEST, *NAMES[1:10]), start=141)],
                              0.0, lang)

    def check_in(lang: str) -> object:
        return dataclasses.replace(check_in_view(checking_in, 0.0, lang, page=0), name=EVENT)

    return {
        "clock": clock,
        "break": breaking,
        "seating-15": lambda lang: seating_view(full, 0.0, lang, page=0),
        "seating-1": lambda lang: seating_view(one_table, 0.0, lang),
        "finder-first": lambda lang: seat_finder_view(full, 0.0, lang, page=0),
        "finder-last": lambda lang: seat_finder_view(full, 0.0, lang, page=-1),
        "moves": moves,
        "results": results,
        "standings": standings,
        "check-in": check_in,
        "help": lambda lang: help_view(help_lines(list(Action), lang), lang),
        "not-started": lambda lang: None,
    }


# --- drawing as the painter does, and what the log says --------------------------------


def _side(lang: str) -> list[str]:
    """A Sit & Go's waiting list beside the main event (night.py's side_lines)."""
    return [f"{text('sng_title', lang)} (6)", SIDE_NAMES, text("sng_deadline", lang, time="21:30")]


SIDE_NAMES = ", ".join(NAMES[:6])


def _draw(surface: pygame.Surface, view: object, lang: str, popup: tuple[str, str] | None
          ) -> tuple[TextLog, dict[str, range]]:
    """The screen, the side panel (clock and break), the status line, the ticker and a
    pop-up, in the painter's order; each part's lines in the log."""
    side = isinstance(view, ClockView | BreakView)
    with recording() as log:
        parts = {}
        for part, draw in (
                ("screen", lambda: render(surface, view, lang)),
                ("side", lambda: side and render_side_panel(surface, _side(lang), view)),
                ("status", lambda: render_status(surface, _status(lang), warning=True)),
                ("ticker", lambda: render_ticker(surface, _ticker(lang), view=view)),
                ("popup", lambda: popup and render_popup(surface, *popup, view=view))):
            start = len(log.texts)
            draw()
            parts[part] = range(start, len(log.texts))
    return log, parts


def _band_of(text_rect: pygame.Rect, part: str, bands: layout_bands.Bands
             ) -> layout_bands.Band | None:
    if part == "side" and bands["side"].rect.contains(text_rect):
        return bands["side"]
    if part not in ("screen", "side"):
        band = bands[part]
        return band if band.rect.contains(text_rect) else None
    owners = [b for name, b in bands.items() if name not in ("popup", "ticker", "status", "qr")
              and (name != "side" or part == "side") and b.rect.contains(text_rect)]
    return owners[0] if owners else None


def _problems(surface: pygame.Surface, view: object, log: TextLog, parts: dict[str, range],
              names: tuple[str, ...]) -> Iterator[str]:
    height = surface.get_height()
    screen = surface.get_rect()
    bands = bands_of(surface, view)
    part_of = {i: part for part, indexes in parts.items() for i in indexes}
    for drawn, cover in log.clipped():
        yield f"{drawn.value!r} half covered by a fill at {cover}"
    shown = log.shown()
    for index, drawn in shown:
        part = part_of[index]
        if not screen.contains(drawn.rect):
            yield f"{drawn.value!r} leaves the screen: {drawn.rect}"
            continue
        band = _band_of(drawn.rect, part, bands)
        if band is None:
            yield f"{drawn.value!r} ({part}) is in no band whole: {drawn.rect}"
        elif drawn.size < band.min_text * height:
            yield (f"{drawn.value!r} in {band.name} is {drawn.size / height:.1%} high, "
                   f"below {band.min_text:.1%}")
        if drawn.value.endswith("…") and not any(
                n.startswith(drawn.value[:-1]) for n in (*names, EVENT, SIDE_NAMES)):
            yield f"{drawn.value!r} is cut and is not a name"
    for (_, a), (_, b) in combinations(shown, 2):
        if a.rect.colliderect(b.rect):
            yield f"{a.value!r} {a.rect} overlaps {b.value!r} {b.rect}"


def _worst_popup(lang: str) -> tuple[str, str]:
    """One pop-up with the longest title and the longest line (what shrinks most)."""
    popups = _popups(lang)
    return (max((t for t, _ in popups), key=len), max((line for _, line in popups), key=len))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_no_text_is_clipped_covered_or_too_small(size: tuple[int, int], full: Tournament,
                                                 one_table: Tournament,
                                                 checking_in: Tournament) -> None:
    surface = pygame.Surface(size)
    names = (LONGEST, *NAMES)
    problems = []
    for lang in LANGUAGES:
        for name, make in _views(full, one_table, checking_in).items():
            view = make(lang)
            # With and without the pop-up: it hides rows while it is up, and they must
            # stand whole on their own too.
            for popup in (None, _worst_popup(lang)):
                log, parts = _draw(surface, view, lang, popup)
                problems += [f"{lang} {name}{' +popup' if popup else ''}: {p}"
                             for p in _problems(surface, view, log, parts, names)]
    assert not problems, "\n".join(problems[:40])


@pytest.mark.parametrize("size", SIZES[:2], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_popup_fits_its_band_on_the_clock_and_a_page(size: tuple[int, int], lang: str,
                                                           full: Tournament) -> None:
    surface = pygame.Surface(size)
    views = (clock_view(full, 1000.0, lang), seating_view(full, 0.0, lang, page=0))
    for view in views:
        for popup in _popups(lang):
            log, parts = _draw(surface, view, lang, popup)
            problems = list(_problems(surface, view, log, parts, (LONGEST, *NAMES)))
            assert not problems, problems
            shown = {t.value for t in log.visible()}
            # Over the seating, a short pop-up is one line in the ticker's band.
            assert {popup[0], popup[1]} <= shown or f"{popup[0]}  {popup[1]}" in shown


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_popup_over_the_seating_leaves_every_seat_and_name_readable(
        size: tuple[int, int], full: Tournament) -> None:
    """Issue 49: a check-in's box over the seating right after the draw hid the seats
    everyone was looking for. Over the tables and the seat finder it takes the
    ticker's band."""
    surface = pygame.Surface(size)
    for view in (seating_view(full, 0.0, "nn", page=0), seat_finder_view(full, 0.0, "nn")):
        bare, _ = _draw(surface, view, "nn", None)
        # The ticker's busts give way to it for the pop-up's seconds; the seats do not.
        ticker = bands_of(surface, view).rect("ticker")
        seats = {t.value for t in bare.visible() if not ticker.colliderect(t.rect)}
        assert len(seats) > 20
        for popup in _popups("nn"):
            log, _ = _draw(surface, view, "nn", popup)
            assert seats <= {t.value for t in log.visible()}, (
                f"{popup} hid part of {type(view).__name__}")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_popup_and_ticker_leave_the_digits_blinds_and_field_row(size: tuple[int, int],
                                                                full: Tournament) -> None:
    """The issue's hand-for-hand box sat over the blinds, and the ticker over the field row."""
    surface = pygame.Surface(size)
    view = clock_view(full, 1000.0, "nn")
    log, _ = _draw(surface, view, "nn", _popups("nn")[2])
    visible = {t.value for t in log.visible()}
    assert {view.digits, view.blinds_line, view.level_text} <= visible
    log, _ = _draw(surface, view, "nn", None)
    visible = {t.value for t in log.visible()}
    assert {view.players_text, view.average_text, view.chips_text} <= visible
    qr = layout_bands.qr_slot(surface)
    assert qr.height <= 0.18 * size[1] + 1
    assert not any(t.rect.colliderect(qr) for t in log.visible()), "the QR corner is not free"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_time_of_day_and_seat_names_read_at_ten_metres(size: tuple[int, int],
                                                       full: Tournament) -> None:
    surface = pygame.Surface(size)
    height = size[1]
    log, _ = _draw(surface, clock_view(full, 1000.0, "nn"), "nn", None)
    clock_time = [t for t in log.visible() if t.value == "23:59"]
    assert clock_time and clock_time[0].size >= 0.03 * height
    digits = [t for t in log.visible() if t.box == clock_digits_box(surface)]
    assert digits[0].rect.height >= 0.29 * height
    for view in (seating_view(full, 0.0, "nn", page=0), seat_finder_view(full, 0.0, "nn")):
        log, _ = _draw(surface, view, "nn", None)
        names = [t for t in log.visible() if any(n.startswith(t.value.rstrip("…"))
                                                 for n in NAMES)]
        assert len(names) >= 10
        assert min(t.size for t in names) >= 0.04 * height


def _seats_shown(log: TextLog) -> list[Drawn]:
    return [t for t in log.visible() if t.value.isdigit()]


def test_seating_shows_every_seat_of_two_tables_at_720p_with_the_ticker() -> None:
    """The issue: two tables a page at 1280x720 sliced seat 9 and hid seat 10."""
    state = _night(NAMES[:20]).state
    surface = pygame.Surface((1280, 720))
    view = seating_view(state, 0.0, "nn")
    assert len(view.tables) == 2
    log, parts = _draw(surface, view, "nn", None)
    seats = sorted(t.value for t in _seats_shown(log) if t.value != "")
    assert seats.count("9") == 2 and seats.count("10") == 2
    ticker = bands_of(surface, view).rect("ticker")
    assert not any(t.rect.colliderect(ticker) for i, t in enumerate(log.texts)
                   if i in parts["screen"])


def test_results_row_ten_stands_clear_of_the_ticker() -> None:
    """The issue: the results list was clipped at "28. plass" under the ticker."""
    surface = pygame.Surface((1280, 720))
    rows = tuple(ResultRow(p, format_place(p, "nn"), NAMES[p], "") for p in range(21, 31))
    view = ResultsView("Resultat", "", "", "", rows, "", 2, 3, "Side 3 av 3")
    log, parts = _draw(surface, view, "nn", None)
    assert not list(_problems(surface, view, log, parts, NAMES))
    assert {"28. plass", "30. plass"} <= {t.value for t in log.visible()}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_last_minutes_frame_stays_in_the_digits_band(size: tuple[int, int],
                                                         full: Tournament) -> None:
    """The frame is a shape, not text: the log does not see it, the pixels do."""
    surface = pygame.Surface(size)
    running = dataclasses.replace(clock_view(full, 1000.0, "nn"), digits="00:59",
                                  last_minute=True, paused=False)
    on_break = dataclasses.replace(break_view(full, COLOUR_UP_BREAK, "nn"), digits="00:59",
                                   last_minute=True, paused=False)
    for view in (running, on_break):
        render(surface, view, "nn")
        banner = bands_of(surface, view).rect("banner")
        assert not _lit(surface, banner), f"the frame reaches the banner on {type(view)}"


def _lit(surface: pygame.Surface, area: pygame.Rect) -> int:
    """How many pixels of ``area`` are not dark."""
    dark = pygame.mask.from_threshold(surface.subsurface(area), (0, 0, 0, 255), (40, 40, 40, 255))
    return area.width * area.height - int(dark.count())


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_phones_qr_code_sits_in_its_corner(size: tuple[int, int],
                                              full: Tournament) -> None:
    """kiosk.display.qr puts the code in the corner the clock screen keeps for it: it
    must be that corner, drawn (its white modules), and clear of every line, with a
    paused banner, the ticker and the fullest rows on the screen."""
    surface = pygame.Surface(size)
    qr.install("http://192.168.1.20:8080/", ("pubpoker-display.local",))
    try:
        view = dataclasses.replace(clock_view(full, 1000.0, "nn"), paused=True,
                                   paused_text=text("power_cut", "nn"))
        log, _ = _draw(surface, view, "nn", None)
        box = qr.qr_box(surface)
        assert box is not None and box == layout_bands.qr_slot(surface)
        bands = bands_of(surface, view)
        assert not bands.rect("digits").colliderect(box)
        own = {"pubpoker-display.local"}
        assert not [t.value for t in log.visible()
                    if t.value not in own and t.rect.colliderect(box)]
        assert _lit(surface, box) > box.width * box.height // 8
    finally:
        qr.uninstall()
