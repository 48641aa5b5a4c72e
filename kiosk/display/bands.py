"""The bands every wall screen is cut into, so no two things can meet.

A screen is a stack of horizontal bands, each owned by one thing: the title,
the main content, the bust ticker and the status line (time of day first).
Every band is reserved whether or not it has anything to show, so a ticker
that comes and goes never covers a seat or a row of results. The clock and
break screens split their main band further (level, blinds, digits, paused
banner, next level, the field) and keep a corner for a QR code (:func:`qr_slot`):
every row under the banner, and the ticker, stops short of its column.

A pop-up never covers the digits or the blinds: on the clock and break
screens it takes the rows under the paused banner (what is next and the
field, back when it goes), on every other screen the main band.

Each band names the smallest text it may carry, as a share of the screen
height (the font's em), so the layout test can hold every screen to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import pygame

from kiosk.display.layout import Frame

__all__ = [
    "Band",
    "Bands",
    "break_bands",
    "check_in_bands",
    "clock_bands",
    "page_bands",
    "qr_slot",
    "qr_slot_of",
]

Span = tuple[float, float]

#: The bands every screen shares (fractions of the height).
TITLE: Final[Span] = (0.015, 0.10)
MAIN: Final[Span] = (0.105, 0.835)
TICKER: Final[Span] = (0.84, 0.935)
STATUS: Final[Span] = (0.94, 0.995)
#: The QR corner's side, as a share of the height (bottom right, above the status).
QR_SIDE: Final = 0.18

#: The clock screen's rows inside the main band.
CLOCK_HEADER: Final[Span] = (0.015, 0.085)
CLOCK_LEVEL: Final[Span] = (0.085, 0.155)
CLOCK_BLINDS: Final[Span] = (0.155, 0.255)
#: The digits' band holds the last-minute frame too (a twelfth of the digits' box
#: above and below the ink), so a tick redraws it alone.
CLOCK_DIGITS_BAND: Final[Span] = (0.255, 0.61)
CLOCK_DIGITS: Final[Span] = (0.28, 0.58)
CLOCK_BANNER: Final[Span] = (0.61, 0.68)
CLOCK_NEXT: Final[Span] = (0.68, 0.74)
CLOCK_FIELD_LABELS: Final[Span] = (0.745, 0.78)
CLOCK_FIELD_VALUES: Final[Span] = (0.78, 0.835)

BREAK_HEADER: Final[Span] = (0.015, 0.085)
BREAK_TITLE: Final[Span] = (0.085, 0.20)
BREAK_DIGITS_BAND: Final[Span] = (0.20, 0.55)
BREAK_DIGITS: Final[Span] = (0.225, 0.525)
BREAK_BANNER: Final[Span] = (0.55, 0.62)
BREAK_AFTER: Final[Span] = (0.62, 0.68)
BREAK_COLOUR_UP: Final[Span] = (0.685, 0.755)
BREAK_PLAYERS: Final[Span] = (0.76, 0.835)

CHECK_IN_NAMES: Final[Span] = (0.105, 0.77)
CHECK_IN_HINT: Final[Span] = (0.775, 0.835)


@dataclass(frozen=True)
class Band:
    """A horizontal strip of the screen owned by one thing."""

    name: str
    rect: pygame.Rect
    #: The smallest text allowed in it: the font's em as a share of the height.
    min_text: float


class Bands(dict[str, Band]):
    """A screen's bands by name, with the frame they were cut from."""

    def __init__(self, surface: pygame.Surface | tuple[int, int]) -> None:
        super().__init__()
        self.frame = Frame(surface)

    def add(self, name: str, span: Span, min_text: float, *, full: bool = False,
            right: int | None = None) -> Band:
        """A band between the fractions of ``span``; ``full`` ignores the side
        margins (the digits and the banner), ``right`` stops it at that x."""
        frame = self.frame
        rect = (pygame.Rect(0, frame.y(span[0]), frame.width, frame.y(span[1]) - frame.y(span[0]))
                if full else frame.box(*span))
        if right is not None:
            rect.width = min(rect.width, right - rect.x)
        band = Band(name, rect, min_text)
        self[name] = band
        return band

    def rect(self, name: str) -> pygame.Rect:
        return pygame.Rect(self[name].rect)


def qr_slot(surface: pygame.Surface) -> pygame.Rect:
    """The corner kept for a QR code on the clock and break screens (it may stay empty)."""
    return qr_slot_of(Frame(surface))


def _shared(bands: Bands, *, beside_qr: bool) -> Bands:
    qr = qr_slot_of(bands.frame) if beside_qr else None
    right = qr.left - bands.frame.margin // 2 if qr is not None else None
    bands.add("ticker", TICKER, 0.035, right=right)
    bands.add("status", STATUS, 0.012)
    if qr is not None:
        bands["qr"] = Band("qr", qr, 0.0)
    return bands


def qr_slot_of(frame: Frame) -> pygame.Rect:
    """:func:`qr_slot` of a frame already measured."""
    side = frame.y(QR_SIDE)
    bottom = frame.y(TICKER[1])
    return pygame.Rect(frame.width - frame.margin - side, bottom - side, side, side)


#: The side panel (a Sit & Go beside the main event) takes the right of these rows.
SIDE_LEFT: Final = 0.70


def _side(bands: Bands, top: int, bottom: int) -> None:
    """The side panel's place: the right of the rows above the digits, which then
    keep their text to the left of it (:func:`.screens.render_side_panel`)."""
    frame = bands.frame
    inner = frame.width - 2 * frame.margin
    left = frame.margin + round(inner * SIDE_LEFT)
    rect = pygame.Rect(left, top, frame.width - frame.margin - left, bottom - top)
    bands["side"] = Band("side", rect, 0.02)


def clock_bands(surface: pygame.Surface | tuple[int, int]) -> Bands:
    """The clock screen: header, level, blinds, digits, banner, next level, the field."""
    bands = Bands(surface)
    right = qr_slot_of(bands.frame).left - bands.frame.margin // 2
    bands.add("header", CLOCK_HEADER, 0.025)
    bands.add("level", CLOCK_LEVEL, 0.04)
    bands.add("blinds", CLOCK_BLINDS, 0.05)
    bands.add("digits", CLOCK_DIGITS_BAND, 0.0, full=True)
    bands.add("banner", CLOCK_BANNER, 0.03, full=True)
    bands.add("next", CLOCK_NEXT, 0.03, right=right)
    bands.add("field_labels", CLOCK_FIELD_LABELS, 0.02, right=right)
    bands.add("field_values", CLOCK_FIELD_VALUES, 0.03, right=right)
    _side(bands, bands["level"].rect.top, bands["blinds"].rect.bottom)
    return _with_popup(bands, "next", "field_values", right)


def _with_popup(bands: Bands, first: str, last: str, right: int) -> Bands:
    """A pop-up band over the rows ``first`` to ``last`` (under the banner, left of
    the QR corner), then the ticker and status bands every screen shares."""
    popup = pygame.Rect(bands[first].rect)
    popup.height = bands[last].rect.bottom - popup.top
    popup.width = right - popup.left
    bands["popup"] = Band("popup", popup, 0.035)
    return _shared(bands, beside_qr=True)


def break_bands(surface: pygame.Surface) -> Bands:
    """The break screen: header, title, countdown, banner, what follows, colour-up, field."""
    bands = Bands(surface)
    right = qr_slot_of(bands.frame).left - bands.frame.margin // 2
    bands.add("header", BREAK_HEADER, 0.025)
    bands.add("title", BREAK_TITLE, 0.05)
    bands.add("digits", BREAK_DIGITS_BAND, 0.0, full=True)
    bands.add("banner", BREAK_BANNER, 0.03, full=True)
    bands.add("after", BREAK_AFTER, 0.03, right=right)
    bands.add("colour_up", BREAK_COLOUR_UP, 0.025, right=right)
    bands.add("players", BREAK_PLAYERS, 0.025, right=right)
    _side(bands, bands["title"].rect.top, bands["title"].rect.bottom)
    return _with_popup(bands, "after", "players", right)


def page_bands(surface: pygame.Surface, *, main_min: float = 0.025) -> Bands:
    """A screen of pages (seating, seat finder, moves, results, help): title and main."""
    bands = Bands(surface)
    bands.add("title", TITLE, 0.03)
    main = bands.add("main", MAIN, main_min)
    bands["popup"] = Band("popup", pygame.Rect(main.rect), 0.035)
    return _shared(bands, beside_qr=False)


def check_in_bands(surface: pygame.Surface) -> Bands:
    """Check-in: the title and count, the names, and a hint with the page, all short
    of the phones' QR corner (players arriving are the ones to scan it)."""
    bands = Bands(surface)
    right = qr_slot_of(bands.frame).left - bands.frame.margin // 2
    bands.add("title", TITLE, 0.03)
    bands.add("main", CHECK_IN_NAMES, 0.03, right=right)
    bands.add("hint", CHECK_IN_HINT, 0.02, right=right)
    popup = pygame.Rect(bands["main"].rect)
    popup.height = bands["hint"].rect.bottom - popup.top
    bands["popup"] = Band("popup", popup, 0.035)
    return _shared(bands, beside_qr=True)
