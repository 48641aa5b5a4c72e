"""The wall screens: each draws one view model onto a surface of any size.

A renderer clears the whole surface and draws its view; it reads nothing but
the view and the surface size, so the same view gives the same pixels at the
same size (what golden screenshots rely on). Boxes are fractions of the
height; the time digits' ink is 30 % of the screen height on the clock and
break screens, and their box is public so the loop can redraw only the digits.

Nothing is said by colour alone: a paused clock gets a banner with words and
a pause sign, the last minute gets a frame round the digits, the colour-up a
boxed notice, and the dealer button a lettered disc.
"""

from __future__ import annotations

from typing import Final

import pygame

from kiosk.display.fonts import font
from kiosk.display.layout import (
    BLACK,
    DIM,
    GREY,
    WHITE,
    YELLOW,
    Frame,
    draw_digits,
    draw_glyph_line,
    draw_text,
    fit_size,
    redraw_changed_digits,
    redraw_changed_glyphs,
)
from kiosk.display.qr import draw_on_clock
from kiosk.display.viewmodels import (
    BreakView,
    CheckInView,
    ClockView,
    HelpView,
    MovesView,
    ResultsView,
    SeatingView,
    TableView,
)

__all__ = [
    "DIGIT_INK",
    "break_digits_box",
    "clock_digits_box",
    "paused_banner_box",
    "popup_box",
    "render_break",
    "render_break_tick",
    "render_check_in",
    "render_clock",
    "render_clock_tick",
    "render_help",
    "render_moves",
    "render_paused_band",
    "render_popup",
    "render_results",
    "render_seating",
    "render_side_panel",
    "render_status",
    "render_ticker",
    "status_box",
    "ticker_box",
]

#: Height of the time digits' ink as a fraction of the screen height (DESIGN: "about 1/4").
DIGIT_INK: Final = 0.30

_CLOCK_DIGITS: Final = (0.335, 0.335 + DIGIT_INK)
_BREAK_DIGITS: Final = (0.265, 0.265 + DIGIT_INK)
#: The full-width bands the digits (and the last-minute frame) own, between
#: the lines above and the paused banner below, so they can be redrawn alone.
_CLOCK_BAND: Final = (0.31, 0.685)
_BREAK_BAND: Final = (0.235, 0.60)
_CLOCK_BANNER: Final = (0.685, 0.775)
_BREAK_BANNER: Final = (0.60, 0.69)


def clock_digits_box(surface: pygame.Surface) -> pygame.Rect:
    """Where the clock screen's time digits are drawn (and may be redrawn alone)."""
    return Frame(surface).box(*_CLOCK_DIGITS)


def break_digits_box(surface: pygame.Surface) -> pygame.Rect:
    return Frame(surface).box(*_BREAK_DIGITS)


def _band(surface: pygame.Surface, top: float, bottom: float) -> pygame.Rect:
    frame = Frame(surface)
    return pygame.Rect(0, frame.y(top), frame.width, frame.y(bottom) - frame.y(top))


def paused_banner_box(surface: pygame.Surface, *, on_break: bool = False) -> pygame.Rect:
    """The band that carries the paused banner on the clock or break screen."""
    return _band(surface, *(_BREAK_BANNER if on_break else _CLOCK_BANNER))


# --- shared pieces -----------------------------------------------------------------


def _header(surface: pygame.Surface, frame: Frame, name: str,
            badges: tuple[str, ...] = ()) -> None:
    draw_text(surface, name, frame.box(0.02, 0.09, 0.0, 0.48), colour=GREY)
    # Badges are boxed words, so they read without their colour.
    x = frame.width - frame.margin
    box = frame.box(0.02, 0.095)
    for badge in reversed(badges):
        size = fit_size(badge, box.width // 3, int(box.height * 0.7), True)
        width = font(size, True).size(badge)[0] + box.height // 2
        rect = pygame.Rect(x - width, box.y, width, box.height)
        pygame.draw.rect(surface, YELLOW, rect, max(2, frame.height // 180))
        draw_text(surface, badge, rect, colour=YELLOW, bold=True, align="center", size=size)
        x = rect.left - box.height // 3


def _banner(surface: pygame.Surface, band: pygame.Rect, message: str) -> None:
    """A full-width yellow band with black words and a pause sign."""
    pygame.draw.rect(surface, YELLOW, band)
    bar_h = int(band.height * 0.6)
    bar_w = max(2, bar_h // 4)
    x = band.x + band.height // 2
    y = band.centery - bar_h // 2
    for offset in (0, bar_w * 2):
        pygame.draw.rect(surface, BLACK, pygame.Rect(x + offset, y, bar_w, bar_h))
    text_box = band.inflate(-(band.height * 3), -int(band.height * 0.2))
    draw_text(surface, message, text_box, colour=BLACK, bold=True, align="center")


def _digits(surface: pygame.Surface, box: pygame.Rect, digits: str, *, paused: bool,
            last_minute: bool) -> None:
    colour = YELLOW if last_minute else (GREY if paused else WHITE)
    drawn = draw_digits(surface, digits, box, colour=colour)
    if last_minute:
        # The frame, not only the yellow, says "last minute".
        pad = box.height // 12
        frame = pygame.Rect(drawn.left - 2 * pad, box.top - pad,
                            drawn.width + 4 * pad, box.height + 2 * pad)
        pygame.draw.rect(surface, YELLOW, frame, max(3, box.height // 30),
                         border_radius=pad)


def _labelled(surface: pygame.Surface, frame: Frame, left: float, right: float,
              label: str, value: str) -> None:
    draw_text(surface, label, frame.box(0.875, 0.92, left, right), colour=GREY, align="center")
    draw_text(surface, value, frame.box(0.92, 0.985, left, right), colour=WHITE, bold=True,
              align="center")


# --- screens --------------------------------------------------------------------------


def _changed_digits(surface: pygame.Surface, box: pygame.Rect, view: ClockView | BreakView,
                    before: object) -> list[pygame.Rect] | None:
    """Only the digits that changed since ``before`` was drawn, when nothing else did."""
    if (type(before) is not type(view) or view.last_minute
            or before.last_minute or before.paused != view.paused):  # type: ignore[attr-defined]
        return None  # the colour or the last minute's frame changes the whole band
    colour = GREY if view.paused else WHITE
    return redraw_changed_digits(surface, before.digits, view.digits, box,  # type: ignore[attr-defined]
                                 colour=colour)


def render_clock_tick(surface: pygame.Surface, view: ClockView, before: object = None
                      ) -> list[pygame.Rect]:
    """Redraw only what a second changes on a drawn clock screen; returns the dirty rects.

    Within a level only the time left, the time to the break and the
    last-minute frame move, so the loop calls this once a second and passes
    the rects to ``pygame.display.update``; anything else calls for a full
    :func:`render_clock`. Given the view ``before`` drawn last, only the
    digits that changed are drawn (usually one).
    """
    frame = Frame(surface)
    rects = _changed_digits(surface, clock_digits_box(surface), view, before)
    if rects is None:
        band = _band(surface, *_CLOCK_BAND)
        surface.fill(BLACK, band)
        _digits(surface, clock_digits_box(surface), view.digits, paused=view.paused,
                last_minute=view.last_minute)
        rects = [band]
    rects += draw_on_clock(surface, rects, view.digits)  # the phones' QR code (kiosk.viewer)
    until = _until_break_box(frame)
    # Set from cached glyphs, so a second redraws the one or two that changed.
    changed = (redraw_changed_glyphs(surface, before.until_break_line, view.until_break_line,
                                     until, align="right")
               if isinstance(before, ClockView) else None)
    if changed is None:
        surface.fill(BLACK, until)
        draw_glyph_line(surface, view.until_break_line, until, align="right")
        changed = [until]
    return [*rects, *changed]


def render_break_tick(surface: pygame.Surface, view: BreakView, before: object = None
                      ) -> list[pygame.Rect]:
    """Redraw only the countdown on a drawn break screen; returns the dirty rects."""
    rects = _changed_digits(surface, break_digits_box(surface), view, before)
    if rects is not None:
        return rects
    band = _band(surface, *_BREAK_BAND)
    surface.fill(BLACK, band)
    _digits(surface, break_digits_box(surface), view.digits, paused=view.paused,
            last_minute=view.last_minute)
    return [band]


def _until_break_box(frame: Frame) -> pygame.Rect:
    return frame.box(0.785, 0.86, 0.70, 1.0)


def render_clock(surface: pygame.Surface, view: ClockView) -> None:
    """The main clock: level, blinds, the time left, what is next, and the field."""
    frame = Frame(surface)
    surface.fill(BLACK)
    _header(surface, frame, view.name, badges=view.badges)
    draw_text(surface, view.level_text, frame.box(0.10, 0.19), colour=WHITE, bold=True,
              align="center")
    draw_text(surface, view.blinds_line, frame.box(0.19, 0.31), colour=YELLOW, bold=True,
              align="center")
    render_clock_tick(surface, view)
    if view.paused:
        _banner(surface, paused_banner_box(surface), view.paused_text)
    if view.until_break_line:
        # The time to the break is drawn by render_clock_tick, with the digits.
        draw_text(surface, view.next_line, frame.box(0.785, 0.86, 0.0, 0.68), colour=WHITE)
    else:
        draw_text(surface, view.next_line, frame.box(0.785, 0.86), colour=WHITE, align="center")
    _labelled(surface, frame, 0.0, 0.32, view.players_label, view.players_text)
    _labelled(surface, frame, 0.34, 0.66, view.average_label, view.average_text)
    _labelled(surface, frame, 0.68, 1.0, view.chips_label, view.chips_text)


def render_break(surface: pygame.Surface, view: BreakView) -> None:
    """The break: countdown, the level after it, and any colour-up in a box."""
    frame = Frame(surface)
    surface.fill(BLACK)
    _header(surface, frame, view.name)
    draw_text(surface, view.title, frame.box(0.09, 0.235), colour=YELLOW, bold=True,
              align="center")
    render_break_tick(surface, view)
    if view.paused:
        _banner(surface, paused_banner_box(surface, on_break=True), view.paused_text)
    draw_text(surface, view.after_line, frame.box(0.70, 0.785), colour=WHITE, bold=True,
              align="center")
    if view.colour_up:
        box = frame.box(0.80, 0.90, 0.05, 0.95)
        pygame.draw.rect(surface, YELLOW, box, max(3, frame.height // 120),
                         border_radius=box.height // 6)
        draw_text(surface, view.colour_up_text, box.inflate(-box.height, -box.height // 4),
                  colour=YELLOW, bold=True, align="center")
    draw_text(surface, view.players_line, frame.box(0.915, 0.98), colour=GREY, align="center")


def _grid(count: int) -> tuple[int, int]:
    """Columns and rows for ``count`` tables: at most three across."""
    columns = min(max(count, 1), 3)
    return columns, -(-max(count, 1) // columns)


def _table(surface: pygame.Surface, cell: pygame.Rect, table: TableView, mark: str,
           line_height: int) -> None:
    head = pygame.Rect(cell.x, cell.y, cell.width, int(line_height * 1.15))
    pygame.draw.rect(surface, WHITE, head, border_radius=line_height // 5)
    draw_text(surface, table.title, head.inflate(-line_height // 2, -line_height // 6),
              colour=BLACK, bold=True, align="center")
    size = fit_size("00", line_height * 4, int(line_height * 0.9))
    seat_w = int(line_height * 1.4)
    disc = line_height
    y = head.bottom + line_height // 6
    for line in table.seats:
        row = pygame.Rect(cell.x, y, cell.width, line_height)
        draw_text(surface, line.seat_text, pygame.Rect(row.x, row.y, seat_w, row.height),
                  colour=GREY if line.name else DIM, align="right", size=size)
        name_x = row.x + seat_w + line_height // 3
        if line.button:
            centre = (name_x + disc // 2, row.centery)
            pygame.draw.circle(surface, WHITE, centre, disc // 2 - 1)
            draw_text(surface, mark, pygame.Rect(name_x, row.y, disc, row.height).inflate(
                -disc // 4, -disc // 4), colour=BLACK, bold=True, align="center")
        name_x += disc + line_height // 4
        draw_text(surface, line.name, pygame.Rect(name_x, row.y, row.right - name_x, row.height),
                  colour=WHITE, size=size, shrink=False)
        y += line_height


def render_seating(surface: pygame.Surface, view: SeatingView) -> None:
    """One page of tables, each with every seat; a lettered disc marks the button."""
    frame = Frame(surface)
    surface.fill(BLACK)
    draw_text(surface, view.title, frame.box(0.02, 0.10, 0.0, 0.6), colour=WHITE, bold=True)
    draw_text(surface, view.page_text, frame.box(0.03, 0.09, 0.62, 1.0), colour=GREY,
              align="right")
    area = frame.box(0.12, 0.98)
    columns, rows = _grid(view.tables_per_page)
    gap = frame.margin
    cell_w = (area.width - gap * (columns - 1)) // columns
    cell_h = (area.height - gap * (rows - 1)) // rows
    seats = max((len(t.seats) for t in view.tables), default=10)
    # A header of 1.15 lines plus a small gap above the seats.
    line_height = min(int(cell_h / (seats + 1.35)), frame.y(0.075))
    for index, table in enumerate(view.tables):
        col, row = index % columns, index // columns
        cell = pygame.Rect(area.x + col * (cell_w + gap), area.y + row * (cell_h + gap),
                           cell_w, cell_h)
        _table(surface, cell, table, view.button_mark, line_height)


def _title(surface: pygame.Surface, frame: Frame, title: str, page_text: str) -> None:
    draw_text(surface, title, frame.box(0.02, 0.115, 0.0, 0.6), colour=WHITE, bold=True)
    draw_text(surface, page_text, frame.box(0.035, 0.10, 0.62, 1.0), colour=GREY, align="right")


def render_moves(surface: pygame.Surface, view: MovesView) -> None:
    """Pending moves, one per line, all at the size the longest line allows."""
    frame = Frame(surface)
    surface.fill(BLACK)
    _title(surface, frame, view.title, view.page_text)
    area = frame.box(0.14, 0.98)
    if not view.lines:
        draw_text(surface, view.empty_text, frame.box(0.45, 0.55), colour=GREY, align="center")
        return
    line_height = min(area.height // max(len(view.lines), 1), frame.y(0.085))
    size = min(fit_size(line, area.width, int(line_height * 0.85)) for line in view.lines)
    for index, line in enumerate(view.lines):
        row = pygame.Rect(area.x, area.y + index * line_height, area.width, line_height)
        draw_text(surface, line, row, colour=WHITE, size=size, shrink=False)


def _columns(surface: pygame.Surface, area: pygame.Rect, lines: tuple[str, ...],
             columns: int, rows: int, colour: tuple[int, int, int] = WHITE) -> None:
    width = area.width // columns
    height = area.height // rows
    size = int(height * 0.7)
    for index, line in enumerate(lines):
        column, row = divmod(index, rows)
        if column >= columns:
            break
        box = pygame.Rect(area.x + column * width, area.y + row * height, width - height // 2,
                          height)
        draw_text(surface, line, box, colour=colour, size=size, shrink=False)


def render_check_in(surface: pygame.Surface, view: CheckInView) -> None:
    """Check-in: who is in (three columns of names), the count against the seats."""
    frame = Frame(surface)
    surface.fill(BLACK)
    _header(surface, frame, view.name)
    draw_text(surface, view.title, frame.box(0.10, 0.20, 0.0, 0.55), colour=YELLOW, bold=True)
    draw_text(surface, view.count_text, frame.box(0.10, 0.20, 0.55, 1.0), colour=WHITE,
              bold=True, align="right")
    area = frame.box(0.23, 0.85)
    if not view.names:
        draw_text(surface, view.empty_text, frame.box(0.45, 0.55), colour=GREY, align="center")
    else:
        _columns(surface, area, view.names, 3, 10)
    draw_text(surface, view.hint, frame.box(0.88, 0.94, 0.0, 0.75), colour=GREY)
    draw_text(surface, view.page_text, frame.box(0.88, 0.94, 0.75, 1.0), colour=GREY,
              align="right")


def side_panel_box(surface: pygame.Surface) -> pygame.Rect:
    """The side panel's box: the right edge of the clock screen, clear of the digits' ink."""
    return Frame(surface).box(0.11, 0.30, 0.70, 1.0)


def render_side_panel(surface: pygame.Surface, lines: tuple[str, ...] | list[str]
                      ) -> pygame.Rect:
    """A boxed list beside the main event (the Sit & Go waiting list, its clock)."""
    frame = Frame(surface)
    box = side_panel_box(surface)
    surface.fill(BLACK, box)
    pygame.draw.rect(surface, GREY, box, max(2, frame.height // 300),
                     border_radius=box.height // 12)
    inner = box.inflate(-box.height // 6, -box.height // 10)
    rows = max(len(lines), 4)
    height = inner.height // rows
    for index, line in enumerate(lines[:rows]):
        draw_text(surface, line, pygame.Rect(inner.x, inner.y + index * height, inner.width,
                                             height),
                  colour=YELLOW if index == 0 else WHITE, bold=index == 0, cache=False)
    return box


def render_help(surface: pygame.Surface, view: HelpView) -> None:
    """What each button does, one line per button."""
    frame = Frame(surface)
    surface.fill(BLACK)
    draw_text(surface, view.title, frame.box(0.04, 0.14), colour=YELLOW, bold=True)
    area = frame.box(0.17, 0.95)
    rows = max(len(view.lines), 6)
    _columns(surface, area, view.lines, 1, rows)


def render_results(surface: pygame.Surface, view: ResultsView) -> None:
    """The winner in a box, then one page of places, names and points."""
    frame = Frame(surface)
    surface.fill(BLACK)
    _title(surface, frame, view.title, view.page_text)
    top = 0.14
    if view.winner_name:
        box = frame.box(0.135, 0.275)
        pygame.draw.rect(surface, YELLOW, box, max(3, frame.height // 120),
                         border_radius=box.height // 8)
        inner = box.inflate(-box.height // 2, -box.height // 5)
        label_w = int(inner.width * 0.3)
        draw_text(surface, view.winner_label, pygame.Rect(inner.x, inner.y, label_w, inner.height),
                  colour=YELLOW, bold=True)
        draw_text(surface, view.winner_name,
                  pygame.Rect(inner.x + label_w, inner.y, inner.width - label_w, inner.height),
                  colour=YELLOW, bold=True, align="center")
        top = 0.30
    if not view.rows:
        draw_text(surface, view.empty_text, frame.box(0.5, 0.6), colour=GREY, align="center")
        return
    if view.points_label:
        draw_text(surface, view.points_label, frame.box(top, top + 0.05, 0.86, 1.0),
                  colour=GREY, align="right")
    area = frame.box(top + 0.055, 0.98)
    line_height = min(area.height // max(len(view.rows), 1), frame.y(0.075))
    place_w = int(area.width * 0.2)
    size = min(fit_size(r.place_text, place_w, int(line_height * 0.85)) for r in view.rows)
    for index, result in enumerate(view.rows):
        y = area.y + index * line_height
        draw_text(surface, result.place_text, pygame.Rect(area.x, y, place_w, line_height),
                  colour=GREY, align="right", size=size)
        name_box = pygame.Rect(area.x + int(area.width * 0.24), y, int(area.width * 0.62),
                               line_height)
        draw_text(surface, result.name, name_box, colour=WHITE, bold=True, size=size,
                  shrink=False)
        points_box = pygame.Rect(area.x + int(area.width * 0.88), y, int(area.width * 0.12),
                                 line_height)
        draw_text(surface, result.points_text, points_box, colour=WHITE, align="right",
                  size=size)


# --- overlays (drawn by the loop over any screen) ---------------------------------------

#: The status line lives in the top margin, above every screen's header.
_STATUS: Final = (0.0, 0.021)
_TICKER: Final = (0.875, 0.985)
_POPUP: Final = (0.22, 0.78)


def popup_box(surface: pygame.Surface) -> pygame.Rect:
    """Where :func:`render_popup` draws: the middle of the screen, over the digits."""
    return Frame(surface).box(*_POPUP, 0.03, 0.97)


def render_popup(surface: pygame.Surface, title: str, line: str) -> pygame.Rect:
    """A boxed message in huge type, e.g. a check-in: "Kari Nordmann" / "→ Bord 3, sete 7"."""
    frame = Frame(surface)
    box = popup_box(surface)
    surface.fill(BLACK, box)
    pygame.draw.rect(surface, YELLOW, box, max(4, frame.height // 90),
                     border_radius=box.height // 12)
    inner = box.inflate(-box.height // 5, -box.height // 6)
    half = inner.height // 2
    draw_text(surface, title, pygame.Rect(inner.x, inner.y, inner.width, half), colour=WHITE,
              bold=True, align="center", cache=False)
    draw_text(surface, line, pygame.Rect(inner.x, inner.y + half, inner.width, half),
              colour=YELLOW, bold=True, align="center", cache=False)
    return box


def ticker_box(surface: pygame.Surface) -> pygame.Rect:
    return Frame(surface).box(*_TICKER)


def render_ticker(surface: pygame.Surface, message: str) -> pygame.Rect:
    """A boxed line along the bottom (busts: "Ola Nordmann — 37. plass")."""
    frame = Frame(surface)
    box = ticker_box(surface)
    surface.fill(BLACK, box.inflate(frame.margin, frame.margin // 2))
    pygame.draw.rect(surface, WHITE, box, max(2, frame.height // 240),
                     border_radius=box.height // 5)
    draw_text(surface, message, box.inflate(-box.height, -box.height // 5), colour=WHITE,
              bold=True, align="center", cache=False)
    return box


def status_box(surface: pygame.Surface) -> pygame.Rect:
    return Frame(surface).box(*_STATUS, 0.30, 1.0)


def render_status(surface: pygame.Surface, message: str, *, warning: bool = False) -> pygame.Rect:
    """The TD's status line (role, peers, storage warnings) in the top margin."""
    box = status_box(surface)
    surface.fill(BLACK, box)
    draw_text(surface, message, box, colour=YELLOW if warning else GREY, align="right",
              cache=False)
    return box


def render_paused_band(surface: pygame.Surface, view: ClockView | BreakView) -> pygame.Rect:
    """Draw (or clear) only the paused banner of a drawn clock or break screen.

    With :func:`render_clock_tick` this is all a pause or resume changes, so
    the loop answers the TD's button without redrawing the whole screen.
    """
    band = paused_banner_box(surface, on_break=isinstance(view, BreakView))
    surface.fill(BLACK, band)
    if view.paused:
        _banner(surface, band, view.paused_text)
    return band
