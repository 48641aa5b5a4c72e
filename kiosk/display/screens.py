"""The wall screens: each draws one view model onto a surface of any size.

A renderer clears the whole surface and draws its view; it reads nothing but
the view and the surface size, so the same view gives the same pixels at the
same size (what golden screenshots rely on). Every screen is cut into bands
(:mod:`.bands`) that reserve their space: title, main, ticker and status, so
the ticker or a pop-up never covers a seat, the digits or the blinds. The
time digits' ink is 30 % of the screen height on the clock and break
screens, and their box is public so the loop can redraw only the digits.

Nothing is said by colour alone: a paused clock gets a banner with words and
a pause sign, the last minute gets a frame round the digits, the colour-up a
boxed notice, and the dealer button a lettered disc.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

import pygame

from kiosk.display import bands as layout_bands
from kiosk.display.bands import Bands
from kiosk.display.fonts import font
from kiosk.display.layout import (
    BLACK,
    DIM,
    GREY,
    WHITE,
    YELLOW,
    Frame,
    cut_apart,
    draw_digits,
    draw_glyph_line,
    draw_text,
    erase,
    fit_size,
    ladder_size_at_least,
    ladder_size_below,
    redraw_changed_digits,
    redraw_changed_glyphs,
)
from kiosk.display.qr import draw_on_clock
from kiosk.display.seat_finder import SeatFinderView
from kiosk.display.viewmodels import (
    BreakView,
    CheckInView,
    ClockView,
    HelpView,
    MovesView,
    ResultsView,
    SeatingView,
    SeatLine,
    TableView,
)

__all__ = [
    "DIGIT_INK",
    "bands_of",
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
    "render_moves_tick",
    "render_paused_band",
    "render_popup",
    "render_results",
    "render_seat_finder",
    "render_seating",
    "render_side_panel",
    "render_status",
    "render_ticker",
    "side_panel_box",
    "status_box",
    "ticker_box",
]

#: Height of the time digits' ink as a fraction of the screen height (DESIGN: "about 1/4").
DIGIT_INK: Final = 0.30
assert abs(layout_bands.CLOCK_DIGITS[1] - layout_bands.CLOCK_DIGITS[0] - DIGIT_INK) < 1e-9


def bands_of(surface: pygame.Surface, view: object) -> Bands:
    """The bands of the screen that draws ``view`` (a page screen for anything else)."""
    if isinstance(view, ClockView):
        return layout_bands.clock_bands(surface)
    if isinstance(view, BreakView):
        return layout_bands.break_bands(surface)
    if isinstance(view, CheckInView):
        return layout_bands.check_in_bands(surface)
    if isinstance(view, SeatingView | SeatFinderView):
        return _seating_bands(surface)
    return layout_bands.page_bands(surface)


def _seating_bands(surface: pygame.Surface) -> Bands:
    """A page read at 10 m: names at 4 % of the height (the layout test checks
    them alone), the dealer's disc and the headings at 3.5 %. A pop-up takes the
    ticker's band here: after a draw the room reads its seats, and a check-in's
    box over the middle hid them (issue 49)."""
    bands = layout_bands.page_bands(surface, main_min=0.035)
    bands["popup"] = layout_bands.Band("popup", bands.rect("ticker"), 0.035)
    return bands


def clock_digits_box(surface: pygame.Surface) -> pygame.Rect:
    """Where the clock screen's time digits are drawn (and may be redrawn alone)."""
    return Frame(surface).box(*layout_bands.CLOCK_DIGITS)


def break_digits_box(surface: pygame.Surface) -> pygame.Rect:
    return Frame(surface).box(*layout_bands.BREAK_DIGITS)


def _band(surface: pygame.Surface, top: float, bottom: float) -> pygame.Rect:
    frame = Frame(surface)
    return pygame.Rect(0, frame.y(top), frame.width, frame.y(bottom) - frame.y(top))


def paused_banner_box(surface: pygame.Surface, *, on_break: bool = False) -> pygame.Rect:
    """The band that carries the paused banner on the clock or break screen."""
    return _band(surface, *(layout_bands.BREAK_BANNER if on_break
                            else layout_bands.CLOCK_BANNER))


def _split(rect: pygame.Rect, left: float, right: float) -> pygame.Rect:
    """The part of ``rect`` between two fractions of its width."""
    x0 = rect.x + round(rect.width * left)
    return pygame.Rect(x0, rect.y, rect.x + round(rect.width * right) - x0, rect.height)


# --- shared pieces -----------------------------------------------------------------


def _header(surface: pygame.Surface, frame: Frame, band: pygame.Rect, name: str,
            badges: tuple[str, ...] = ()) -> None:
    # Badges are boxed words, so they read without their colour; the name keeps
    # the left half, the badges the right.
    x = band.right
    for badge in reversed(badges):
        size = fit_size(badge, band.width // 4, int(band.height * 0.7), True)
        width = font(size, True).size(badge)[0] + band.height // 2
        rect = pygame.Rect(x - width, band.y, width, band.height)
        pygame.draw.rect(surface, YELLOW, rect, max(2, frame.height // 180))
        draw_text(surface, badge, rect, colour=YELLOW, bold=True, align="center", size=size)
        x = rect.left - band.height // 3
    # A long name is cut, not shrunk below the band's size.
    draw_text(surface, name, pygame.Rect(band.x, band.y, min(band.width // 2, x - band.x),
                                         band.height), colour=GREY,
              size=fit_size("Ag", band.width, band.height), shrink=False)


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


def _field(surface: pygame.Surface, bands: Bands, columns: list[tuple[str, str]]) -> None:
    """The field row (players left, average stack, chips): labels over values."""
    labels, values = bands.rect("field_labels"), bands.rect("field_values")
    gap = bands.frame.margin // 2
    share = 1 / max(len(columns), 1)
    for index, (label, value) in enumerate(columns):
        left, right = index * share, (index + 1) * share
        label_box = _split(labels, left, right).inflate(-gap, 0)
        value_box = _split(values, left, right).inflate(-gap, 0)
        draw_text(surface, label, label_box, colour=GREY, align="center")
        draw_text(surface, value, value_box, colour=WHITE, bold=True, align="center")


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


def _until_break_box(surface: pygame.Surface) -> pygame.Rect:
    return pygame.Rect(_until_break_box_at(surface.get_size()))


# Asked every second by the tick: cut the bands once per screen size.
@lru_cache(maxsize=4)
def _until_break_box_at(size: tuple[int, int]) -> tuple[int, int, int, int]:
    box = _split(layout_bands.clock_bands(size).rect("next"), 0.71, 1.0)
    return box.x, box.y, box.width, box.height


def render_clock_tick(surface: pygame.Surface, view: ClockView, before: object = None
                      ) -> list[pygame.Rect]:
    """Redraw only what a second changes on a drawn clock screen; returns the dirty rects.

    Within a level only the time left, the time to the break and the
    last-minute frame move, so the loop calls this once a second and passes
    the rects to ``pygame.display.update``; anything else calls for a full
    :func:`render_clock`. Given the view ``before`` drawn last, only the
    digits that changed are drawn (usually one).
    """
    rects = _changed_digits(surface, clock_digits_box(surface), view, before)
    if rects is None:
        band = _band(surface, *layout_bands.CLOCK_DIGITS_BAND)
        erase(surface, band)
        _digits(surface, clock_digits_box(surface), view.digits, paused=view.paused,
                last_minute=view.last_minute)
        rects = [band]
    until = _until_break_box(surface)
    # Set from cached glyphs, so a second redraws the one or two that changed.
    changed = (redraw_changed_glyphs(surface, before.until_break_line, view.until_break_line,
                                     until, align="right")
               if isinstance(before, ClockView) else None)
    if changed is None:
        erase(surface, until)
        draw_glyph_line(surface, view.until_break_line, until, align="right")
        changed = [until]
    return [*rects, *changed]


def render_break_tick(surface: pygame.Surface, view: BreakView, before: object = None
                      ) -> list[pygame.Rect]:
    """Redraw only the countdown on a drawn break screen; returns the dirty rects."""
    rects = _changed_digits(surface, break_digits_box(surface), view, before)
    if rects is not None:
        return rects
    band = _band(surface, *layout_bands.BREAK_DIGITS_BAND)
    erase(surface, band)
    _digits(surface, break_digits_box(surface), view.digits, paused=view.paused,
            last_minute=view.last_minute)
    return [band]


def render_clock(surface: pygame.Surface, view: ClockView) -> None:
    """The main clock: level, blinds, the time left, what is next, and the field."""
    bands = layout_bands.clock_bands(surface)
    frame = bands.frame
    surface.fill(BLACK)
    _header(surface, frame, bands.rect("header"), view.name, badges=view.badges)
    draw_text(surface, view.level_text, bands.rect("level"), colour=WHITE, bold=True,
              align="center")
    draw_text(surface, view.blinds_line, bands.rect("blinds"), colour=YELLOW, bold=True,
              align="center")
    render_clock_tick(surface, view)
    if view.paused:
        _banner(surface, paused_banner_box(surface), view.paused_text)
    next_band = bands.rect("next")
    if view.until_break_line:
        # The time to the break is drawn by render_clock_tick, with the digits.
        draw_text(surface, view.next_line, _split(next_band, 0.0, 0.69), colour=WHITE)
    else:
        draw_text(surface, view.next_line, next_band, colour=WHITE, align="center")
    _field(surface, bands, [(view.players_label, view.players_text),
                            (view.average_label, view.average_text),
                            (view.chips_label, view.chips_text)])
    # The phones' QR code (kiosk.viewer), in the corner the bands keep: a second's
    # tick never reaches it, so it is drawn with the rest of the screen.
    draw_on_clock(surface)


def render_break(surface: pygame.Surface, view: BreakView) -> None:
    """The break: countdown, the level after it, and any colour-up in a box."""
    bands = layout_bands.break_bands(surface)
    frame = bands.frame
    surface.fill(BLACK)
    _header(surface, frame, bands.rect("header"), view.name)
    draw_text(surface, view.title, bands.rect("title"), colour=YELLOW, bold=True,
              align="center")
    render_break_tick(surface, view)
    if view.paused:
        _banner(surface, paused_banner_box(surface, on_break=True), view.paused_text)
    draw_text(surface, view.after_line, bands.rect("after"), colour=WHITE, bold=True,
              align="center")
    if view.colour_up:
        box = _split(bands.rect("colour_up"), 0.05, 0.95)
        pygame.draw.rect(surface, YELLOW, box, max(3, frame.height // 120),
                         border_radius=box.height // 6)
        draw_text(surface, view.colour_up_text, box.inflate(-box.height, -box.height // 4),
                  colour=YELLOW, bold=True, align="center")
    draw_text(surface, view.players_line, bands.rect("players"), colour=GREY, align="center")


def _grid(count: int) -> tuple[int, int]:
    """Columns and rows for ``count`` tables: at most three across."""
    columns = min(max(count, 1), 3)
    return columns, -(-max(count, 1) // columns)


#: Names on the seating page at least this share of the screen height (their em).
NAME_HEIGHT: Final = 0.048


def _disc(line_height: int) -> int:
    """The dealer button's diameter, drawn after the name on its row alone."""
    return int(line_height * 0.9)


def _seating_names(cells: list[pygame.Rect], tables: tuple[TableView, ...],
                   line_height: int, screen_height: int) -> tuple[int, list[str]]:
    """The page's name size and every seat's name as drawn (in seat order, empty seats too).

    One size for the page: the largest that shows every name whole, from a
    ladder step above :data:`NAME_HEIGHT` (or the line's own) down to it; at
    that floor a name that still does not fit is cut, and cut apart from the
    page's other names.
    """
    names = [line.name for table in tables for line in table.seats]
    floor = ladder_size_at_least(NAME_HEIGHT * screen_height)
    # At most a step above the floor, so a short last page's names are not bigger
    # than the full pages' by more than a step.
    size = max(floor, min(fit_size("", 0, line_height),
                          ladder_size_at_least(floor * 1.06 - 0.5)))
    while True:
        widths = [w for cell, table in zip(cells, tables, strict=True)
                  for w in _table_geometry(cell, table, size, line_height)[2]]
        face = font(size)
        if size <= floor or all(face.size(name)[0] <= width
                                for name, width in zip(names, widths, strict=True)):
            return size, cut_apart(names, widths, lambda value, f=face: f.size(value)[0])
        size = max(floor, ladder_size_below(size))


def _table_geometry(cell: pygame.Rect, table: TableView, size: int, line_height: int
                    ) -> tuple[int, int, list[int]]:
    """The seat numbers' width, where names start, and each row's room for its name."""
    seat_w = max((font(size).size(line.seat_text)[0] for line in table.seats), default=0)
    name_x = cell.x + seat_w + line_height // 3
    disc = _disc(line_height) + line_height // 4
    widths = [cell.right - name_x - (disc if line.button else 0) - _move_width(line, cell, size)
              for line in table.seats]
    return seat_w, name_x, widths


def _move_width(line: SeatLine, cell: pygame.Rect, size: int) -> int:
    """The room a pending move's words take at the row's end: at most 60 % of the row
    (they shrink to fit), the name the rest."""
    if not line.moving_to:
        return 0
    return min(font(size).size(f" {line.moving_to}")[0], cell.width * 3 // 5)


def _table(surface: pygame.Surface, cell: pygame.Rect, table: TableView, mark: str,
           line_height: int, size: int, names: list[str]) -> None:
    head = pygame.Rect(cell.x, cell.y, cell.width, int(line_height * 1.15))
    pygame.draw.rect(surface, WHITE, head, border_radius=line_height // 5)
    draw_text(surface, table.title, head.inflate(-line_height // 2, -line_height // 6),
              colour=BLACK, bold=True, align="center")
    seat_w, name_x, widths = _table_geometry(cell, table, size, line_height)
    disc = _disc(line_height)
    y = head.bottom + line_height // 6
    for line, name, width in zip(table.seats, names, widths, strict=True):
        row = pygame.Rect(cell.x, y, cell.width, line_height)
        draw_text(surface, line.seat_text, pygame.Rect(row.x, row.y, seat_w, row.height),
                  colour=GREY if line.name else DIM, align="right", size=size)
        drawn = draw_text(surface, name, pygame.Rect(name_x, row.y, width, row.height),
                          colour=WHITE, size=size, shrink=False)
        if line.button:
            # The button's disc follows the name: only its own row gives up the room.
            left = max(drawn.right, name_x) + line_height // 4
            box = pygame.Rect(left, row.centery - disc // 2, disc, disc)
            pygame.draw.circle(surface, WHITE, box.center, disc // 2)
            draw_text(surface, mark, box.inflate(-disc // 5, -disc // 5), colour=BLACK,
                      bold=True, align="center")
        if line.moving_to:
            # A pending move's "→ bord 14, sete 2" at the row's right end, in yellow.
            move_w = _move_width(line, cell, size)
            draw_text(surface, line.moving_to, pygame.Rect(row.right - move_w, row.y, move_w,
                                                           row.height),
                      colour=YELLOW, size=size, align="right")
        y += line_height


def _title(surface: pygame.Surface, bands: Bands, title: str, page_text: str,
           colour: tuple[int, int, int] = WHITE, waiting: str = "") -> None:
    band = bands.rect("title")
    if waiting:
        # The waiting list (F2) beside the title: the names end in "…" if long.
        draw_text(surface, title, _split(band, 0.0, 0.36), colour=colour, bold=True)
        draw_text(surface, waiting, _split(band, 0.38, 0.74).inflate(0, -band.height // 4),
                  colour=YELLOW, bold=True)
    else:
        draw_text(surface, title, _split(band, 0.0, 0.74), colour=colour, bold=True)
    draw_text(surface, page_text, _split(band, 0.76, 1.0).inflate(0, -band.height // 4),
              colour=GREY, align="right")


def render_seating(surface: pygame.Surface, view: SeatingView) -> None:
    """One page of tables, each with every seat; a lettered disc marks the button.

    The rows are as tall as a full page's, whatever this page holds, so every
    page's names are one size; a short last page spreads its tables across the
    width. Names are whole where they fit at :data:`NAME_HEIGHT`, else cut apart.
    """
    bands = _seating_bands(surface)
    surface.fill(BLACK)
    _title(surface, bands, view.title, view.page_text, waiting=view.waiting_text)
    area = bands.rect("main")
    full_columns, rows = _grid(view.tables_per_page)
    columns = min(full_columns, max(len(view.tables), 1))
    gap = bands.frame.margin
    cell_w = (area.width - gap * (columns - 1)) // columns
    cell_h = (area.height - gap * (rows - 1)) // rows
    seats = max((len(t.seats) for t in view.tables), default=10)
    # A header of 1.15 lines plus a small gap above the seats.
    line_height = min(int(cell_h / (seats + 1.35)), bands.frame.y(0.075))
    cells = [pygame.Rect(area.x + (i % columns) * (cell_w + gap),
                         area.y + (i // columns) * (cell_h + gap), cell_w, cell_h)
             for i in range(len(view.tables))]
    size, names = _seating_names(cells, view.tables, line_height, surface.get_height())
    start = 0
    for cell, table in zip(cells, view.tables, strict=True):
        count = len(table.seats)
        _table(surface, cell, table, view.button_mark, line_height, size,
               names[start:start + count])
        start += count


def render_seat_finder(surface: pygame.Surface, view: SeatFinderView) -> None:
    """Names in two columns, each "Name → table  seat" under the headings, all at one size."""
    bands = _seating_bands(surface)
    frame = bands.frame
    surface.fill(BLACK)
    _title(surface, bands, view.title, view.page_text, colour=YELLOW, waiting=view.waiting_text)
    area = bands.rect("main")
    columns = 2
    per_column = max(-(-len(view.rows) // columns), 12)
    # A heading line at 0.8 of a row, then the rows.
    line_height = int(area.height / (per_column + 0.8))
    head_h = area.height - line_height * per_column
    column_w = (area.width - frame.margin * (columns - 1)) // columns
    size = fit_size("Ag", column_w, line_height)
    number_w = font(size, True).size("000")[0]
    head_size = fit_size("Ag", column_w, head_h)
    label_w = max(number_w, *(font(head_size).size(label)[0]
                              for label in (view.table_label, view.seat_label)))
    arrow_w = font(size).size("→ ")[0]
    name_w = column_w - 2 * label_w - arrow_w - line_height // 2
    for column in range(columns):
        x = area.x + column * (column_w + frame.margin)
        if not view.rows[column * per_column:(column + 1) * per_column]:
            continue
        seat_x = x + column_w - label_w
        table_x = seat_x - label_w - line_height // 4
        for label, left in ((view.table_label, table_x), (view.seat_label, seat_x)):
            draw_text(surface, label, pygame.Rect(left, area.y, label_w, head_h), colour=GREY,
                      align="right", size=head_size)
    for index, row in enumerate(view.rows):
        column, line = divmod(index, per_column)
        x = area.x + column * (column_w + frame.margin)
        y = area.y + head_h + line * line_height
        seat_x = x + column_w - label_w
        table_x = seat_x - label_w - line_height // 4
        name_box = pygame.Rect(x, y, name_w, line_height)
        numbers = YELLOW
        if row.move_text:
            # A pending move: "Flytt" before the arrow, and the target's numbers
            # black on yellow, so a player sees across the room that they go there.
            tag_w = font(size, True).size(row.move_text)[0]
            name_box.width -= tag_w + line_height // 4
            draw_text(surface, row.move_text, pygame.Rect(name_box.right + line_height // 4, y,
                                                          tag_w, line_height),
                      colour=YELLOW, bold=True, size=size)
            pygame.draw.rect(surface, YELLOW, pygame.Rect(
                table_x - line_height // 8, y + 1, seat_x + label_w - table_x + line_height // 4,
                line_height - 2), border_radius=line_height // 5)
            numbers = BLACK
        draw_text(surface, row.name, name_box, colour=WHITE, bold=True, size=size, shrink=False)
        draw_text(surface, "→", pygame.Rect(table_x - arrow_w, y, arrow_w, line_height),
                  colour=YELLOW if row.move_text else GREY, size=size)
        draw_text(surface, row.table_text, pygame.Rect(table_x, y, label_w, line_height),
                  colour=numbers, bold=True, align="right", size=size)
        draw_text(surface, row.seat_text, pygame.Rect(seat_x, y, label_w, line_height),
                  colour=numbers, bold=True, align="right", size=size)


#: The most of the screen's height one move's line takes (a single move is read
#: from the bar, not a poster).
MOVE_LINE_MAX: Final = 0.14


def render_moves(surface: pygame.Surface, view: MovesView) -> None:
    """Pending moves, one per line, as large as the longest line and their number
    allow, and under them whether the clock stands or runs (and how long is left)."""
    bands = layout_bands.page_bands(surface)
    frame = bands.frame
    surface.fill(BLACK)
    _title(surface, bands, view.title, view.page_text)
    area = bands.rect("main")
    if view.clock_text:
        _moves_clock(surface, view)
        area.height = _moves_clock_box(surface).top - frame.y(0.015) - area.top
    if not view.lines:
        draw_text(surface, view.empty_text, _middle(area, frame), colour=GREY,
                  align="center")
        return
    line_height = min(area.height // max(len(view.lines), 1), frame.y(MOVE_LINE_MAX))
    size = min(fit_size(line, area.width, int(line_height * 0.9)) for line in view.lines)
    for index, line in enumerate(view.lines):
        row = pygame.Rect(area.x, area.y + index * line_height, area.width, line_height)
        draw_text(surface, line, row, colour=WHITE, size=size, shrink=False)


def _moves_clock_box(surface: pygame.Surface) -> pygame.Rect:
    """The clock's line on the moves screen: the foot of the main band."""
    bands = layout_bands.page_bands(surface)
    area = bands.rect("main")
    height = bands.frame.y(0.09)
    return pygame.Rect(area.x, area.bottom - height, area.width, height)


def _moves_clock(surface: pygame.Surface, view: MovesView) -> pygame.Rect:
    """The clock line: a warning while it stands, grey while it runs (it changes
    every second then, so it is not kept in the text cache)."""
    box = _moves_clock_box(surface)
    draw_text(surface, view.clock_text, box.inflate(0, -box.height // 8),
              colour=YELLOW if view.clock_paused else GREY, bold=view.clock_paused,
              align="center", cache=view.clock_paused)
    return box


def render_moves_tick(surface: pygame.Surface, view: MovesView) -> list[pygame.Rect]:
    """Redraw only the clock's line of a drawn moves screen (its time left moved)."""
    erase(surface, _moves_clock_box(surface))
    return [_moves_clock(surface, view)]


def _middle(area: pygame.Rect, frame: Frame) -> pygame.Rect:
    """A line's box in the middle of ``area`` (an empty list's "nothing yet")."""
    box = pygame.Rect(area.x, 0, area.width, frame.y(0.10))
    box.centery = area.centery
    return box


def _columns(surface: pygame.Surface, area: pygame.Rect, lines: tuple[str, ...],
             columns: int, rows: int, colour: tuple[int, int, int] = WHITE, *,
             fit_all: bool = False) -> None:
    """Lines in columns, all at one size; ``fit_all`` shrinks the size until the
    longest fits (instructions, which must not lose their end), else names are cut."""
    width = area.width // columns
    height = area.height // rows
    size = int(height * 0.7)
    if fit_all and lines:
        size = min(size, *(fit_size(line, width - height // 2, height) for line in lines))
    for index, line in enumerate(lines):
        column, row = divmod(index, rows)
        if column >= columns:
            break
        box = pygame.Rect(area.x + column * width, area.y + row * height, width - height // 2,
                          height)
        draw_text(surface, line, box, colour=colour, size=size, shrink=False)


def render_check_in(surface: pygame.Surface, view: CheckInView) -> None:
    """Check-in: who is in (three columns of names), the count against the seats."""
    bands = layout_bands.check_in_bands(surface)
    surface.fill(BLACK)
    title = bands.rect("title")
    # Which night this is, for a room with two (a Sit & Go beside the main event);
    # a long name is cut, not shrunk below the band's size.
    left = _split(title, 0.0, 0.66)
    size = fit_size(view.title, left.width // 2, left.height, True)
    head = draw_text(surface, view.title, left, colour=YELLOW, bold=True, size=size)
    name_x = head.right + title.height // 2
    draw_text(surface, view.name, pygame.Rect(name_x, left.y, left.right - name_x, left.height),
              colour=WHITE, size=size, shrink=False)
    draw_text(surface, view.count_text, _split(title, 0.68, 1.0), colour=WHITE, bold=True,
              align="right")
    area = bands.rect("main")
    if not view.names:
        draw_text(surface, view.empty_text, _middle(area, bands.frame), colour=GREY,
                  align="center")
    else:
        # The waiting list (F2) takes the last row of names when anyone waits.
        rows = 10 if not view.waiting_text else 9
        _columns(surface, pygame.Rect(area.x, area.y, area.width, area.height * rows // 10),
                 view.names, 3, rows)
    if view.waiting_text:
        row = area.height // 10
        draw_text(surface, view.waiting_text,
                  pygame.Rect(area.x, area.bottom - row, area.width, row), colour=YELLOW,
                  bold=True)
    hint = bands.rect("hint")
    draw_text(surface, view.hint, _split(hint, 0.0, 0.8), colour=GREY)
    draw_text(surface, view.page_text, _split(hint, 0.82, 1.0), colour=GREY, align="right")
    draw_on_clock(surface)


def side_panel_box(surface: pygame.Surface, view: object = None) -> pygame.Rect:
    """The side panel's box: the right of the rows above the digits (the level and
    blinds on the clock, the title on the break), clear of the digits."""
    if isinstance(view, BreakView):
        return layout_bands.break_bands(surface).rect("side")
    return layout_bands.clock_bands(surface).rect("side")


def render_side_panel(surface: pygame.Surface, lines: tuple[str, ...] | list[str],
                      view: object = None) -> pygame.Rect:
    """A boxed list beside the main event (the Sit & Go waiting list, its clock).

    Given the screen's ``view``, the rows it sits beside are drawn again to
    the left of it, so the blinds are never half under the box.
    """
    frame = Frame(surface)
    box = side_panel_box(surface, view)
    if isinstance(view, ClockView | BreakView):
        bands = bands_of(surface, view)
        beside = [("level", view.level_text, WHITE), ("blinds", view.blinds_line, YELLOW)] \
            if isinstance(view, ClockView) else [("title", view.title, YELLOW)]
        for name, value, colour in beside:
            row = bands.rect(name)
            erase(surface, row)
            draw_text(surface, value, pygame.Rect(row.x, row.y, box.left - frame.margin - row.x,
                                                  row.height),
                      colour=colour, bold=True, align="center")
    erase(surface, box)
    pygame.draw.rect(surface, GREY, box, max(2, frame.height // 300),
                     border_radius=box.height // 12)
    inner = box.inflate(-box.height // 6, -box.height // 10)
    rows = max(len(lines), 4)
    height = inner.height // rows
    # One size for all, set by the row: a long waiting list ends in "…" rather
    # than shrinking past reading.
    size = fit_size("Ag", inner.width, height, True)
    for index, line in enumerate(lines[:rows]):
        draw_text(surface, line, pygame.Rect(inner.x, inner.y + index * height, inner.width,
                                             height),
                  colour=YELLOW if index == 0 else WHITE, bold=index == 0, cache=False,
                  size=size, shrink=False)
    return box


def render_help(surface: pygame.Surface, view: HelpView) -> None:
    """What each button does, one line per button."""
    bands = layout_bands.page_bands(surface)
    surface.fill(BLACK)
    _title(surface, bands, view.title, "", colour=YELLOW)
    main = bands.rect("main")
    if len(view.lines) <= 8:
        _columns(surface, main, view.lines, 1, max(len(view.lines), 6), fit_all=True)
        return
    # More buttons than a column holds at a readable size go in two, and the
    # keyboard's line (the last, the longest) across both below them.
    body = view.lines[:-1]
    rows = -(-len(body) // 2) + 1
    row_h = main.height // rows
    _columns(surface, pygame.Rect(main.x, main.y, main.width, row_h * (rows - 1)), body, 2,
             rows - 1, fit_all=True)
    _columns(surface, pygame.Rect(main.x, main.y + row_h * (rows - 1), main.width, row_h),
             view.lines[-1:], 1, 1, fit_all=True)


def render_results(surface: pygame.Surface, view: ResultsView) -> None:
    """The winner in a box, then one page of places, names and points."""
    bands = layout_bands.page_bands(surface)
    frame = bands.frame
    surface.fill(BLACK)
    _title(surface, bands, view.title, view.page_text)
    main = bands.rect("main")
    top = main.top
    if view.winner_name:
        box = pygame.Rect(main.x, main.y, main.width, frame.y(0.13))
        pygame.draw.rect(surface, YELLOW, box, max(3, frame.height // 120),
                         border_radius=box.height // 8)
        inner = box.inflate(-box.height // 2, -box.height // 5)
        label_w = int(inner.width * 0.3)
        draw_text(surface, view.winner_label, pygame.Rect(inner.x, inner.y, label_w, inner.height),
                  colour=YELLOW, bold=True)
        draw_text(surface, view.winner_name,
                  pygame.Rect(inner.x + label_w, inner.y, inner.width - label_w, inner.height),
                  colour=YELLOW, bold=True, align="center")
        top = box.bottom + frame.y(0.01)
    if not view.rows:
        draw_text(surface, view.empty_text, _middle(pygame.Rect(main.x, top, main.width,
                                                                main.bottom - top), frame),
                  colour=GREY, align="center")
        return
    label_h = frame.y(0.045)
    if view.points_label:
        draw_text(surface, view.points_label,
                  _split(pygame.Rect(main.x, top, main.width, label_h), 0.86, 1.0),
                  colour=GREY, align="right")
    area = pygame.Rect(main.x, top + label_h, main.width, main.bottom - top - label_h)
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


def popup_box(surface: pygame.Surface, view: object = None) -> pygame.Rect:
    """Where :func:`render_popup` draws its box over the screen of ``view``.

    On the clock and break screens it takes the rows under the paused banner
    and never the digits or the blinds; on the others the middle of the main
    band.
    """
    band = bands_of(surface, view)["popup"].rect
    frame = Frame(surface)
    height = min(band.height, frame.y(0.36))
    box = pygame.Rect(band.x, 0, band.width, height)
    box.centery = band.centery
    return box


def render_popup(surface: pygame.Surface, title: str, line: str, *, view: object = None
                 ) -> pygame.Rect:
    """A boxed message in huge type, e.g. a check-in: "Kari Nordmann" / "→ Bord 3, sete 7".

    What lies under it in its band is cleared (and comes back when it goes),
    so no line is left half covered.
    """
    frame = Frame(surface)
    erase(surface, bands_of(surface, view)["popup"].rect)
    box = popup_box(surface, view)
    if box.height < frame.y(0.15):
        # A band's height (the seating's ticker band): title and line on one line
        # where that reads, else one above the other.
        pygame.draw.rect(surface, YELLOW, box, max(2, frame.height // 240),
                         border_radius=box.height // 5)
        inner = box.inflate(-box.height // 2, -box.height // 8)
        one = f"{title}  {line}".strip()
        smallest = bands_of(surface, view)["popup"].min_text * frame.height
        if not line or fit_size(one, inner.width, inner.height, True) >= smallest:
            draw_text(surface, one, inner, colour=YELLOW, bold=True, align="center",
                      cache=False)
            return box
        inner = box.inflate(-box.height // 2, -box.height // 20)
        half = inner.height // 2
        draw_text(surface, title, pygame.Rect(inner.x, inner.y, inner.width, half),
                  colour=WHITE, bold=True, align="center", cache=False)
        draw_text(surface, line, pygame.Rect(inner.x, inner.y + half, inner.width, half),
                  colour=YELLOW, bold=True, align="center", cache=False)
        return box
    pygame.draw.rect(surface, YELLOW, box, max(4, frame.height // 90),
                     border_radius=box.height // 12)
    inner = box.inflate(-box.height // 5, -box.height // 6)
    half = inner.height // 2
    draw_text(surface, title, pygame.Rect(inner.x, inner.y, inner.width, half), colour=WHITE,
              bold=True, align="center", cache=False)
    draw_text(surface, line, pygame.Rect(inner.x, inner.y + half, inner.width, half),
              colour=YELLOW, bold=True, align="center", cache=False)
    return box


#: How :meth:`.overlays.Overlays.ticker_text` joins the bust lines.
_TICKER_JOIN: Final = " · "


def ticker_box(surface: pygame.Surface, view: object = None) -> pygame.Rect:
    """The ticker's band on the screen of ``view`` (short of the QR corner on the clock)."""
    return bands_of(surface, view).rect("ticker")


def render_ticker(surface: pygame.Surface, message: str, *, view: object = None
                  ) -> pygame.Rect:
    """A boxed line along the bottom (busts: "Ola Nordmann — 37. plass")."""
    frame = Frame(surface)
    band = bands_of(surface, view)["ticker"]
    box = pygame.Rect(band.rect)
    erase(surface, box)
    pygame.draw.rect(surface, WHITE, box, max(2, frame.height // 240),
                     border_radius=box.height // 5)
    inner = box.inflate(-box.height, -box.height // 5)
    # Three long names at once would shrink past reading: the newest busts
    # (first) stay, the rest were on the ticker before or are on the results.
    lines = message.split(_TICKER_JOIN)
    smallest = band.min_text * frame.height
    while len(lines) > 1 and fit_size(_TICKER_JOIN.join(lines), inner.width, inner.height,
                                      True) < smallest:
        lines.pop()
    draw_text(surface, _TICKER_JOIN.join(lines), inner, colour=WHITE, bold=True,
              align="center", cache=False)
    return box


def status_box(surface: pygame.Surface) -> pygame.Rect:
    return layout_bands.page_bands(surface).rect("status")


#: The status line starts with the time of day ("21:47 · Rolle: wall · ...").
_TIME_OF_DAY: Final = re.compile(r"\d{1,2}[:.]\d{2}")


def render_status(surface: pygame.Surface, message: str, *, warning: bool = False) -> pygame.Rect:
    """The status band along the bottom: the time of day large on the left (read
    from the room), then role, peers and any warning, right-aligned."""
    box = status_box(surface)
    erase(surface, box)
    first, _, rest = message.partition(" · ")
    if _TIME_OF_DAY.fullmatch(first):
        time_box = pygame.Rect(box.x, box.y, box.width // 5, box.height)
        draw_text(surface, first, time_box, colour=WHITE, bold=True, cache=False)
        rest_box = pygame.Rect(time_box.right, box.y, box.right - time_box.right, box.height)
    else:
        rest, rest_box = message, box
    draw_text(surface, rest, rest_box, colour=YELLOW if warning else GREY, align="right",
              size=int(box.height * 0.6), cache=False)
    return box


def render_paused_band(surface: pygame.Surface, view: ClockView | BreakView) -> pygame.Rect:
    """Draw (or clear) only the paused banner of a drawn clock or break screen.

    With :func:`render_clock_tick` this is all a pause or resume changes, so
    the loop answers the TD's button without redrawing the whole screen.
    """
    band = paused_banner_box(surface, on_break=isinstance(view, BreakView))
    erase(surface, band)
    if view.paused:
        _banner(surface, band, view.paused_text)
    return band
