"""Bringing the display up to date at the least cost.

Nothing is drawn when nothing changed; only the digits (the tick renderers
and ``pygame.display.update(rects)``) when only the time moved; the whole
screen otherwise. The screens are drawn on an off-screen canvas the size of
the display and copied to it with the slow pixel shift
(:mod:`kiosk.display.shift`), so a tick copies only its dirty rects.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import pygame

from kiosk.display import screens
from kiosk.display.layout import BLACK
from kiosk.display.overlays import Popup
from kiosk.display.registry import RENDERERS, Renderer, render
from kiosk.display.shift import amplitude_for
from kiosk.display.viewmodels import BreakView, ClockView, MovesView

__all__ = ["TICKS", "Frame", "Painter", "Tick"]

#: Redraws what a second changed of a view over the one ``before`` (None: all of the
#: ticking parts); returns the dirty rects.
TickDraw = Callable[[pygame.Surface, Any, Any], list[pygame.Rect]]


@dataclass(frozen=True)
class Tick:
    """A view that a second changes in part: those fields, and how they are redrawn."""

    fields: tuple[str, ...]
    draw: TickDraw


#: The wall's views drawn by the second, not whole. A table device's painter has
#: its panel's too (kiosk.table_device.render): it sits above the wall's screens.
TICKS: Final[Mapping[type, Tick]] = {
    ClockView: Tick(("digits", "until_break_text", "until_break_line", "last_minute"),
                    screens.render_clock_tick),
    BreakView: Tick(("digits", "last_minute"), screens.render_break_tick),
    # The moves screen's clock line (issue 49): the time left turns every second.
    MovesView: Tick(("clock_text",), lambda surface, view, before:
                    screens.render_moves_tick(surface, view)),
}
#: A pause or resume changes these too; the banner band is redrawn with the digits.
_PAUSE_FIELDS: Final = ("paused", "paused_text")


def _partial(before: object, after: object, ticks: Mapping[type, Tick]
             ) -> tuple[str, ...] | None:
    """What a partial redraw must cover, or None when the whole screen must be drawn.

    ``()`` means only the time moved (the tick renderers' rects);
    ``("paused",)`` means the paused banner changed as well.
    """
    tick = ticks.get(type(after))
    if tick is None or type(before) is not type(after):
        return None
    fields = tick.fields
    if isinstance(before, ClockView) and isinstance(after, ClockView) and (
            bool(before.until_break_line) != bool(after.until_break_line)):
        return None  # the "next level" line moves over when the break line comes or goes
    kept = {name: getattr(before, name) for name in fields}
    if dataclasses.replace(after, **kept) == before:  # type: ignore[type-var]
        return ()
    if not isinstance(after, ClockView | BreakView):
        return None  # only those two have a paused band to redraw alone
    kept.update((name, getattr(before, name)) for name in _PAUSE_FIELDS)
    if dataclasses.replace(after, **kept) == before:  # type: ignore[type-var]
        return ("paused",)
    return None


@dataclass(frozen=True)
class Frame:
    """Everything one frame shows."""

    view: object
    popup: Popup | None
    ticker: str
    status: tuple[str, bool]
    offset: tuple[int, int]
    lang: str
    side: tuple[str, ...] = ()
    #: What else decides the picture (the screen shown).
    screen: str = ""


class Painter:
    """Draws frames on a display: whole, or by the second where ``ticks`` says how.

    ``renderers`` and ``ticks`` are the views it knows: the wall's, or a table
    device's (its panel's added).
    """

    def __init__(self, display: pygame.Surface, *, shift: bool = True,
                 renderers: Mapping[type, Renderer] = RENDERERS,
                 ticks: Mapping[type, Tick] = TICKS) -> None:
        self.shift = shift
        self.renderers, self.ticks = renderers, ticks
        #: Called with "flip" or "update" once a frame is on the screen (the frame log).
        self.on_shown: list[Callable[[str], None]] = []
        self.frames = 0
        self.full_frames = 0
        self.use_display(display)

    def use_display(self, display: pygame.Surface) -> None:
        """Draw on ``display`` from now on (the screen opened late), all of it next."""
        self.display = display
        self.amplitude = amplitude_for(display.get_height()) if self.shift else 0
        self.canvas = pygame.Surface(display.get_size()) if self.shift else display
        self.force_full()

    def force_full(self) -> None:
        #: The last frame drawn (what the screen shows).
        self.last: Frame | None = None
        self._drawn: tuple[Any, ...] | None = None

    def draw(self, frame: Frame) -> str:
        """Bring the display up to date; "full", "tick" or "" (nothing changed).

        "tick" is anything short of drawing the screen anew: the digits that
        changed, the status line's band (its time of day turns every minute),
        or the picture moved by the pixel shift (the canvas copied whole).
        """
        key = (frame.screen, frame.popup, frame.ticker, frame.lang, frame.side)
        drawn = self.last
        # A pop-up is drawn over everything: what changes under it is drawn whole.
        if key != self._drawn or drawn is None or (
                frame.popup is not None and frame.status != drawn.status):
            return self._draw_full(frame, key)
        rects: list[pygame.Rect] = []
        if frame.view != drawn.view:
            partial = (None if frame.popup is not None
                       else _partial(drawn.view, frame.view, self.ticks))
            if partial is None:
                return self._draw_full(frame, key)
            rects += self._tick(frame.view, banner=bool(partial))
        if frame.status != drawn.status:
            rects.append(screens.render_status(self.canvas, frame.status[0],
                                               warning=frame.status[1]))
        if frame.offset != drawn.offset:
            self._show_canvas(frame.offset)
        elif rects:
            self._present(rects, frame.offset)
        else:
            return ""
        self.frames += 1
        self.last = frame
        return "tick"

    def _draw_full(self, frame: Frame, key: tuple[Any, ...]) -> str:
        render(self.canvas, frame.view, frame.lang, self.renderers)
        if frame.side:
            screens.render_side_panel(self.canvas, list(frame.side), frame.view)
        status, warning = frame.status
        screens.render_status(self.canvas, status, warning=warning)
        if frame.ticker:
            screens.render_ticker(self.canvas, frame.ticker, view=frame.view)
        if frame.popup is not None:
            screens.render_popup(self.canvas, frame.popup.title, frame.popup.line,
                                 view=frame.view)
        self._show_canvas(frame.offset)
        self.frames += 1
        self.full_frames += 1
        self._drawn, self.last = key, frame
        return "full"

    def _show_canvas(self, offset: tuple[int, int]) -> None:
        if self.canvas is not self.display:
            self.display.fill(BLACK)
            self.display.blit(self.canvas, offset)
        pygame.display.flip()
        for shown in self.on_shown:
            shown("flip")

    def _tick(self, view: object, *, banner: bool = False) -> list[pygame.Rect]:
        # Drawn over the last view: only the digits that changed since (a banner
        # change redraws the band whole, as the pause changes the digits' colour).
        before = None if banner or self.last is None else self.last.view
        rects = self.ticks[type(view)].draw(self.canvas, view, before)
        if banner:
            assert isinstance(view, ClockView | BreakView)
            rects.append(screens.render_paused_band(self.canvas, view))
        return rects

    def _present(self, rects: Sequence[pygame.Rect], offset: tuple[int, int]) -> None:
        if self.canvas is self.display:
            pygame.display.update(list(rects))
        else:
            moved = [r.move(offset) for r in rects]
            for source, target in zip(rects, moved, strict=True):
                self.display.blit(self.canvas, target, source)
            pygame.display.update(moved)
        for shown in self.on_shown:
            shown("update")
