"""The screens: for each, when it is shown, its view model and how it is drawn.

One table instead of ``isinstance`` chains: a new screen is one
:class:`Screen` member and one :data:`SCREENS` row (a view model in
:mod:`.viewmodels`, a renderer in :mod:`.screens`, its words in
:mod:`.messages`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum, unique
from typing import Any, Final

import pygame

from kiosk.display import screens
from kiosk.display.layout import BLACK, GREY, Frame, draw_text
from kiosk.display.messages import text
from kiosk.display.seat_finder import SeatFinderView, seating_slot
from kiosk.display.viewmodels import (
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
    moves_view,
    results_view,
    standings_view,
)
from rules import clock as clocks
from rules.state import Phase, Tournament

__all__ = ["RENDERERS", "SCREENS", "Context", "Renderer", "Screen", "ScreenRow", "available",
           "render", "view_of"]


@unique
class Screen(StrEnum):
    """The screens in their rotation order; CLOCK is the break screen in a break."""

    CLOCK = "clock"
    SEATING = "seating"
    MOVES = "moves"
    RESULTS = "results"
    STANDINGS = "standings"


@dataclass(frozen=True)
class Context:
    """What a view is made from besides the tournament's state."""

    now: float
    lang: str
    power_cut: bool = False
    check_in_screen: bool = False
    season: str = ""
    standings: Sequence[tuple[int, str, int]] = ()
    #: When (shared time) the screen showing now was shown: a round of pages starts there.
    since: float = 0.0


def _clock(state: Tournament, ctx: Context) -> object:
    if ctx.check_in_screen and state.phase is Phase.CHECK_IN:
        return check_in_view(state, ctx.now, ctx.lang)
    assert state.config is not None
    if clocks.read(state.config.structure, state.clock, ctx.now).on_break:
        return break_view(state, ctx.now, ctx.lang, power_cut=ctx.power_cut)
    return clock_view(state, ctx.now, ctx.lang, power_cut=ctx.power_cut)


@dataclass(frozen=True)
class ScreenRow:
    #: Whether the screen has anything to show now.
    shown: Callable[[Tournament, Context], bool]
    view: Callable[[Tournament, Context], object]


SCREENS: Final[dict[Screen, ScreenRow]] = {
    Screen.CLOCK: ScreenRow(lambda s, c: True, _clock),
    # A field of more than one page: a round of its tables, then of the seat finder.
    Screen.SEATING: ScreenRow(lambda s, c: True,
                              lambda s, c: seating_slot(s, c.now, c.lang, since=c.since)),
    Screen.MOVES: ScreenRow(lambda s, c: bool(s.moves),
                            lambda s, c: moves_view(s, c.now, c.lang,
                                                    power_cut=c.power_cut)),
    Screen.RESULTS: ScreenRow(
        lambda s, c: any(e.place is not None for e in s.players.values()),
        lambda s, c: results_view(s, c.now, c.lang)),
    # The league table, before the night starts and once it has a winner.
    Screen.STANDINGS: ScreenRow(
        lambda s, c: (s.finished or s.phase is Phase.CHECK_IN) and bool(c.standings),
        lambda s, c: standings_view(c.season, c.standings, c.now, c.lang)),
}

#: Draws a view model on the canvas.
Renderer = Callable[[pygame.Surface, Any], None]

#: How each of the wall's view models is drawn on the canvas.
RENDERERS: Final[Mapping[type, Renderer]] = {
    ClockView: screens.render_clock,
    BreakView: screens.render_break,
    SeatingView: screens.render_seating,
    SeatFinderView: screens.render_seat_finder,
    MovesView: screens.render_moves,
    ResultsView: screens.render_results,
    CheckInView: screens.render_check_in,
    HelpView: screens.render_help,
    # A table device's own screen is drawn by a painter of its own
    # (kiosk.table_device.render.table_painter): the device sits above the wall.
}


def available(state: Tournament, ctx: Context) -> list[Screen]:
    return [screen for screen, row in SCREENS.items() if row.shown(state, ctx)]


def view_of(screen: Screen, state: Tournament, ctx: Context) -> object:
    """The view model of ``screen`` (None before a tournament exists)."""
    if state.config is None:
        return None
    return SCREENS[screen].view(state, ctx)


def render(canvas: pygame.Surface, view: object, lang: str,
           renderers: Mapping[type, Renderer] = RENDERERS) -> None:
    renderer = renderers.get(type(view))
    if renderer is not None:
        renderer(canvas, view)
        return
    canvas.fill(BLACK)
    draw_text(canvas, text("not_started", lang), Frame(canvas).box(0.45, 0.55),
              colour=GREY, align="center")
