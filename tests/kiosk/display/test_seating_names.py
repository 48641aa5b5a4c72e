"""The seating page laid out from its names (issue 49): whole names where the page has
room, a cut only where a name cannot fit at the smallest size, and then never two
names cut alike; a short last page spread across the width; names at 4.8 % of the
height.

The room is a Norwegian pub's: double first names, long surnames, and four "Nils
Kristian" at one table, two of them "Haug…".
"""

from __future__ import annotations

import doctest
from functools import cache
from itertools import product

import pygame
import pytest

from kiosk.display import layout
from kiosk.display.layout import Drawn, TextLog, recording
from kiosk.display.screens import bands_of, render_seating
from kiosk.display.viewmodels import SeatingView, seating_view
from rules.commands import CheckIn, DrawButton, DrawSeats, StartClock
from rules.state import Tournament
from tests.rules.tournament_kit import Night

SIZES = ((800, 480), (1280, 720), (1920, 1080), (3840, 2160))
#: Names at least this share of the screen height (their font size, the em).
NAME_HEIGHT = 0.048
#: The table the Nils Kristians sit at, and their seats.
NILS_TABLE = 2
NILS = {"Nils Kristian Stokkeland": 1, "Nils Kristian Haugland": 3,
        "Nils Kristian Haugen": 5, "Nils Kristian Holm": 8}
_FIRST = ("Anne Marit", "Per Olav", "Jan Erik", "Tor Arne", "Ole Martin", "Hans Petter",
          "Kari", "Magnus", "Ingrid", "Sigrid", "Øystein", "Åse", "Bjørn", "Solveig",
          "Torstein", "Ragnhild")
_LAST = ("Kristiansen", "Abrahamsen", "Thorbjørnsen", "Johannessen", "Christophersen",
         "Haugen-Solberg", "Berg", "Dahl", "Lund", "Moen", "Vik", "Østby", "Brekke",
         "Fjeld")


def names(players: int) -> list[str]:
    """``players`` different names, the Nils Kristians first."""
    rest = [f"{first} {last}" for last, first in product(_LAST, _FIRST)]
    # Spread the long and short ones over the tables: every seventh of the product.
    rest = rest[::7] + [n for i, n in enumerate(rest) if i % 7]
    return [*NILS, *rest][:players]


@cache
def room(players: int) -> Night:
    night = Night()
    for n, name in enumerate(names(players), 1):
        night.do(CheckIn(f"p{n}", name))
    night.do(DrawSeats(pinned={f"p{n}": (NILS_TABLE, seat)
                               for n, seat in enumerate(NILS.values(), 1)}))
    night.do(StartClock())
    for table in sorted(night.state.tables):
        night.do(DrawButton(table))
    return night


def _pages(state: Tournament) -> list[SeatingView]:
    first = seating_view(state, 0.0, "nn", page=0)
    return [seating_view(state, 0.0, "nn", page=p) for p in range(first.pages)]


def _draw(size: tuple[int, int], view: SeatingView) -> TextLog:
    surface = pygame.Surface(size)
    with recording() as log:
        render_seating(surface, view)
    return log


def _names_drawn(log: TextLog, view: SeatingView) -> list[tuple[str, Drawn]]:
    """(full name, what was drawn for it) for every seated name on the page, in seat order."""
    seated = [line.name for table in view.tables for line in table.seats if line.name]
    drawn = [t for t in log.visible() if t.value and not t.value.isdigit()
             and (t.value in seated or "…" in t.value or "." in t.value)]
    assert len(drawn) == len(seated), [t.value for t in drawn]
    return list(zip(seated, drawn, strict=True))


ROOMS = (128, 150)
_size_ids = [f"{w}x{h}" for w, h in SIZES]


def test_cut_apart_examples() -> None:
    cut_apart = layout.cut_apart  # type: ignore[attr-defined]
    runner = doctest.DocTestRunner()
    for test in doctest.DocTestFinder().find(cut_apart, "cut_apart",
                                             globs={"cut_apart": cut_apart}):
        runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.failed == 0 and results.attempted >= 3


def test_the_nils_kristians_sit_at_one_table_on_the_first_page() -> None:
    for players in ROOMS:
        view = seating_view(room(players).state, 0.0, "nn", page=0)
        table = next(t for t in view.tables if t.number == NILS_TABLE)
        assert sum(line.name.startswith("Nils Kristian") for line in table.seats) == 4


@pytest.mark.parametrize("players", ROOMS)
@pytest.mark.parametrize("size", SIZES, ids=_size_ids)
def test_no_two_names_on_a_page_are_drawn_alike(size: tuple[int, int], players: int) -> None:
    for view in _pages(room(players).state):
        pairs = _names_drawn(_draw(size, view), view)
        shown: dict[str, str] = {}
        for name, drawn in pairs:
            assert shown.setdefault(drawn.value, name) == name, (
                f"{name!r} and {shown[drawn.value]!r} both drawn as {drawn.value!r}")
            # Nor does a cut read as another name: "Nils Kristian…" beside two of them.
            if drawn.value.endswith("…"):
                others = [n for n, _ in pairs if n != name
                          and n.startswith(drawn.value[:-1])]
                assert not others, f"{name!r} drawn as {drawn.value!r} reads as {others}"


@pytest.mark.parametrize("players", ROOMS)
@pytest.mark.parametrize("size", SIZES, ids=_size_ids)
def test_names_that_fit_are_drawn_whole(size: tuple[int, int], players: int) -> None:
    """A name is cut only when it does not fit its cell at the smallest name size, and
    then it fills the cell: no cut name is narrower than its whole text where that had room."""
    for view in _pages(room(players).state):
        log = _draw(size, view)
        seats = [t for t in log.visible() if t.value.isdigit()]
        for name, drawn in _names_drawn(log, view):
            # The name's room starts at its seat number: no column kept empty between.
            seat = max((t for t in seats if t.rect.right <= drawn.box.x
                        and abs(t.rect.centery - drawn.rect.centery) < drawn.size // 2),
                       key=lambda t: t.rect.right)
            assert drawn.box.x - seat.rect.right <= drawn.size // 2, (
                f"{drawn.box.x - seat.rect.right} px between seat {seat.value} and {name!r}")
            if drawn.value == name:
                continue
            # Cut at the smallest size: a ladder step (6 %) less would be under 4.8 %.
            assert drawn.size / 1.06 < NAME_HEIGHT * size[1], (
                f"{name!r} cut to {drawn.value!r} at {drawn.size} px, not the smallest size")
            whole = layout.font(drawn.size).size(name)[0]
            assert whole > drawn.box.width, (
                f"{name!r} drawn as {drawn.value!r} though {whole} px fit {drawn.box.width}")
            # The cut fills the cell: no more than a few letters short of its width.
            assert layout.font(drawn.size).size(drawn.value)[0] > drawn.box.width - 3 * drawn.size


@pytest.mark.parametrize("players", ROOMS)
@pytest.mark.parametrize("size", SIZES, ids=_size_ids)
def test_names_are_at_least_4_8_percent_of_the_height(size: tuple[int, int],
                                                      players: int) -> None:
    for view in _pages(room(players).state):
        pairs = _names_drawn(_draw(size, view), view)
        assert min(d.size for _, d in pairs) >= NAME_HEIGHT * size[1]


@pytest.mark.parametrize("size", SIZES, ids=_size_ids)
def test_a_short_last_page_spreads_its_tables_across_the_width(size: tuple[int, int]) -> None:
    state = room(128).state
    last = _pages(state)[-1]
    assert len(last.tables) < last.tables_per_page  # 13 tables: 3, 3, 3, 3 and 1
    log = _draw(size, last)
    main = bands_of(pygame.Surface(size), last).rect("main")
    titles = [t for t in log.visible() if t.value in {table.title for table in last.tables}]
    assert len(titles) == len(last.tables)
    # The table's heading is centred in its cell: the cells share the whole width.
    for index, title in enumerate(sorted(titles, key=lambda t: t.rect.x)):
        share = main.width / len(last.tables)
        assert abs(title.box.centerx - (main.x + share * (index + 0.5))) < 0.05 * main.width
        assert title.box.width > 0.8 * share
    first = _draw(size, _pages(state)[0])
    sizes = {d.size for _, d in _names_drawn(first, _pages(state)[0])}
    last_sizes = {d.size for _, d in _names_drawn(log, last)}
    # The same name size as the full pages, within one step of the ladder.
    assert max(last_sizes) <= max(sizes) * 1.07

