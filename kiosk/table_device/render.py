"""Drawing a :class:`~kiosk.table_screen.TableScreenView` on a table's panel.

Made for the small HDMI and SPI panels at a table (800×480, 480×320): bands
that never overlap, top to bottom: the table number large with the called
clock and the tournament clock beside it; the level and blinds; the seats in
two columns; up to three notes (time not confirmed, paused, moves, the last
action); the buttons' prompt in a box. Every text shrinks to its box, never
clipped. A second changes only the clock, the called clock's countdown and
the undo countdown: :func:`render_table_tick` redraws just those from cached
glyphs, as the wall clock does (the device is a Pi Zero-class box).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import pygame

from kiosk.display.layout import (
    BLACK,
    DIM,
    GREY,
    WHITE,
    YELLOW,
    Align,
    Frame,
    draw_glyph_line,
    draw_text,
    fit_size,
    redraw_changed_glyphs,
)
from kiosk.display.painter import TICKS, Painter, Tick
from kiosk.display.registry import RENDERERS
from kiosk.table_screen import SeatMark, TableScreenView

__all__ = ["NOTE_LINES", "Drawn", "notes", "record_texts", "render_table_screen",
           "render_table_tick", "table_painter"]

_HEAD: Final = (0.035, 0.185)
_INFO: Final = (0.19, 0.255)
_SEATS: Final = (0.265, 0.655)
_NOTES: Final = (0.665, 0.835)
_PROMPT: Final = (0.845, 0.985)
#: Notes shown at most; the rest wait (moves are also on the wall's moves screen).
NOTE_LINES: Final = 3


@dataclass(frozen=True)
class Drawn:
    """One text as drawn: its box and where its pixels went (for the layout tests)."""

    value: str
    box: pygame.Rect
    rect: pygame.Rect


#: Where each drawn text is reported while a recorder is set (:func:`record_texts`).
_recorders: list[Callable[[Drawn], None]] = []


def record_texts(recorder: Callable[[Drawn], None] | None) -> None:
    """Report every text the renderer draws to ``recorder`` (None: stop)."""
    _recorders.clear()
    if recorder is not None:
        _recorders.append(recorder)


def _text(surface: pygame.Surface, value: str, box: pygame.Rect, *, colour: tuple[int, int, int]
          = WHITE, bold: bool = False, align: Align = "left", size: int | None = None
          ) -> pygame.Rect:
    rect = draw_text(surface, value, box, colour=colour, bold=bold, align=align, size=size)
    for report in _recorders:
        if value:
            report(Drawn(value, box, rect))
    return rect


def _glyphs(surface: pygame.Surface, value: str, box: pygame.Rect, *,
            colour: tuple[int, int, int], bold: bool = True) -> pygame.Rect:
    rect = draw_glyph_line(surface, value, box, colour=colour, bold=bold, align="right")
    for report in _recorders:
        if value:
            report(Drawn(value, box, rect))
    return rect


# --- where things go ------------------------------------------------------------------

def _title_box(frame: Frame) -> pygame.Rect:
    return frame.box(*_HEAD, 0.0, 0.34)


def _call_box(frame: Frame) -> pygame.Rect:
    return frame.box(_HEAD[0] + 0.02, _HEAD[1] - 0.02, 0.36, 0.60)


def _digits_box(frame: Frame) -> pygame.Rect:
    return frame.box(*_HEAD, 0.62, 1.0)


def _note_box(frame: Frame, index: int, left: float = 0.0, right: float = 1.0) -> pygame.Rect:
    step = (_NOTES[1] - _NOTES[0]) / NOTE_LINES
    top = _NOTES[0] + index * step
    return frame.box(top, top + step, left, right)


def notes(view: TableScreenView) -> list[str]:
    """The note lines in the order they are shown: the time, a pause, moves, the last action.

    The last action's line is the key ``"last"`` (drawn with its undo countdown).
    """
    lines = [line for line in (view.unconfirmed, view.paused_text if view.paused else "")
             if line]
    lines += view.moves
    if view.last_action:
        lines.append("last")
    return lines[:NOTE_LINES]


def _undo_box(frame: Frame, view: TableScreenView) -> pygame.Rect | None:
    shown = notes(view)
    return _note_box(frame, shown.index("last"), 0.70, 1.0) if "last" in shown else None


# --- drawing ---------------------------------------------------------------------------

def _seat(surface: pygame.Surface, row: pygame.Rect, mark: SeatMark, empty: str,
          number_size: int, name_size: int, tags: bool) -> None:
    height = row.height
    if mark.chosen:
        # Chosen by ◀ ▶: a filled row and a pointer, not the colour alone.
        pygame.draw.rect(surface, YELLOW, row, border_radius=height // 5)
    ink = BLACK if mark.chosen else WHITE
    gap = max(2, height // 6)
    number = pygame.Rect(row.x, row.y, int(height * 1.25), height)
    _text(surface, f"▶{mark.seat}" if mark.chosen else str(mark.seat), number,
          colour=ink if mark.chosen else GREY, align="right",
          size=number_size)
    tag = pygame.Rect(number.right + gap, row.y + height // 10,
                      int(height * 1.9) if tags else 0, height - height // 5)
    if mark.role:
        # The button and blinds as boxed letters, readable without colour.
        pygame.draw.rect(surface, ink if mark.chosen else YELLOW, tag, max(1, height // 12),
                         border_radius=height // 6)
        _text(surface, mark.role, tag.inflate(-gap, -gap), colour=ink if mark.chosen
              else YELLOW, bold=True, align="center")
    name = pygame.Rect(tag.right + gap, row.y, row.right - tag.right - 2 * gap, height)
    label = mark.name or empty
    if mark.name and mark.sitting_out:
        label += " (…)"
    colour = ink if mark.name else DIM
    _text(surface, label, name, colour=colour, size=name_size)


def _name_width(width: int, height: int, tags: bool) -> int:
    """What :func:`_seat` leaves for the name in a row ``width`` wide."""
    gap = max(2, height // 6)
    return width - int(height * 1.25) - (int(height * 1.9) if tags else 0) - 3 * gap


def _seats(surface: pygame.Surface, frame: Frame, view: TableScreenView, empty: str) -> None:
    area = frame.box(*_SEATS)
    rows = max(1, -(-len(view.seats) // 2))
    gap = frame.margin
    width = (area.width - gap) // 2
    height = area.height // rows
    number_size = fit_size("▶10", int(height * 1.25), height)
    tags = any(mark.role for mark in view.seats)
    name_width = _name_width(width, height - max(1, height // 12), tags)
    full = fit_size("Åg", name_width, height)
    # One size for the names, as the wall's seating does; a name too long even
    # at 70 % of the row shrinks alone rather than every name with it.
    fits = [fit_size(m.name, name_width, height) for m in view.seats if m.name]
    name_size = max(min([full, *fits]), int(full * 0.7))
    for index, mark in enumerate(view.seats):
        column, line = divmod(index, rows)
        row = pygame.Rect(area.x + column * (width + gap), area.y + line * height, width,
                          height - max(1, height // 12))
        _seat(surface, row, mark, empty, number_size, name_size, tags)


def _prompt(surface: pygame.Surface, frame: Frame, view: TableScreenView) -> None:
    box = frame.box(*_PROMPT)
    said = bool(view.said) and not view.prompt_active
    lines = (view.said,) if said else view.prompt
    boxed = view.prompt_active or said
    if boxed:
        pygame.draw.rect(surface, YELLOW if view.prompt_active else WHITE, box,
                         max(2, frame.height // 120), border_radius=box.height // 6)
    inner = box.inflate(-box.height // 2, -max(4, box.height // 6))
    colour = YELLOW if view.prompt_active else (WHITE if said else GREY)
    height = inner.height // max(1, len(lines))
    # The idle hint is a reminder, not an order: no bigger than a two-line prompt's.
    size = None if boxed else fit_size("Åg", inner.width, inner.height // 2 + 2)
    for index, line in enumerate(lines):
        _text(surface, line, pygame.Rect(inner.x, inner.y + index * height, inner.width,
                                         height), colour=colour, bold=boxed, align="center",
              size=size)


def render_table_screen(surface: pygame.Surface, view: TableScreenView) -> None:
    """The whole screen, from scratch."""
    frame = Frame(surface)
    surface.fill(BLACK)
    _text(surface, view.title, _title_box(frame), bold=True)
    _tick_parts(surface, frame, view)
    _text(surface, view.level_line, frame.box(*_INFO), colour=WHITE)
    _seats(surface, frame, view, view.empty_text or "·")
    for index, line in enumerate(notes(view)):
        if line == "last":
            _text(surface, view.last_action, _note_box(frame, index, 0.0, 0.68), colour=GREY)
        else:
            _text(surface, line, _note_box(frame, index), colour=YELLOW)
    _prompt(surface, frame, view)


def _tick_parts(surface: pygame.Surface, frame: Frame, view: TableScreenView,
                before: TableScreenView | None = None) -> list[pygame.Rect]:
    """Draw the clock, the called clock and the undo countdown; only what changed."""
    undo = _undo_box(frame, view)
    parts = [(_digits_box(frame), "digits", GREY if view.paused else WHITE),
             (_call_box(frame), "clock", YELLOW),
             *([(undo, "undo", WHITE)] if undo is not None else [])]
    dirty: list[pygame.Rect] = []
    for box, field, colour in parts:
        after = getattr(view, field)
        if before is not None:
            old = getattr(before, field)
            if old == after:
                continue
            changed = redraw_changed_glyphs(surface, old, after, box, colour=colour,
                                            bold=True, align="right")
            if changed is not None:
                dirty += changed
                continue
            surface.fill(BLACK, box)
            dirty.append(box)
        _glyphs(surface, after, box, colour=colour)
    return dirty


def render_table_tick(surface: pygame.Surface, view: TableScreenView,
                      before: TableScreenView) -> list[pygame.Rect]:
    """Redraw only the countdowns that changed since ``before``; the dirty rects."""
    return _tick_parts(surface, Frame(surface), view, before)


def _tick_draw(surface: pygame.Surface, view: TableScreenView,
               before: TableScreenView | None) -> list[pygame.Rect]:
    return _tick_parts(surface, Frame(surface), view, before)


def table_painter(display: pygame.Surface, *, shift: bool = True) -> Painter:
    """A table device's painter: its panel, whole and by the second, and the wall's
    screens it shows on request (the seat finder, the help)."""
    return Painter(display, shift=shift,
                   renderers={**RENDERERS, TableScreenView: render_table_screen},
                   ticks={**TICKS, TableScreenView: Tick(("digits", "clock", "undo"),
                                                         _tick_draw)})
