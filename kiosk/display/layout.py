"""Placing text on a screen of any size: colours, proportional boxes, fitting.

Every size on the wall screens is a fraction of the surface height, so one
layout serves 720p to 4K. Text is shrunk to fit its box, never clipped, and
long names end in an ellipsis rather than running into the next column.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final, Literal

import pygame

from kiosk.display.fonts import Colour, advance, digit_ink_ratio, font, glyph, text_surface

__all__ = [
    "BLACK",
    "DIM",
    "GREY",
    "WHITE",
    "YELLOW",
    "Align",
    "Drawn",
    "Frame",
    "TextLog",
    "cut_apart",
    "draw_digits",
    "draw_glyph_line",
    "draw_text",
    "ellipsize",
    "erase",
    "fit_size",
    "ladder_size_at_least",
    "ladder_size_below",
    "recording",
    "redraw_changed_digits",
    "redraw_changed_glyphs",
]

# High contrast for 10 m: white and yellow on black. Colour never carries
# meaning alone; every state that changes colour also changes a shape or text.
BLACK: Final[Colour] = (0, 0, 0)
WHITE: Final[Colour] = (255, 255, 255)
YELLOW: Final[Colour] = (255, 214, 0)
GREY: Final[Colour] = (190, 190, 190)
DIM: Final[Colour] = (60, 60, 60)

Align = Literal["left", "center", "right"]

#: Font size per pixel of line height: DejaVu's line is about 1.16 em.
_EM_PER_LINE: Final = 0.86
_ELLIPSIS: Final = "…"


@dataclass(frozen=True)
class Drawn:
    """One line of text as it went on the surface."""

    value: str
    #: The line's rect: the font's full line height (ascent to descent), or the
    #: digits' ink, so text in two rects that do not meet cannot touch.
    rect: pygame.Rect
    #: The box it was asked to fit.
    box: pygame.Rect
    #: The font size in pixels (the em), what "text at least N % high" means.
    size: int


@dataclass
class TextLog:
    """Every line drawn while :func:`recording`, and every area erased after it.

    A renderer writes its text through :func:`draw_text` and friends, so the
    log is the screen's text as the room sees it: what a later fill covered
    whole is gone, what it covered in part is clipped.
    """

    texts: list[Drawn] = field(default_factory=list)
    #: (how many texts were drawn before it, the rect filled).
    erased: list[tuple[int, pygame.Rect]] = field(default_factory=list)

    def shown(self) -> list[tuple[int, Drawn]]:
        """The texts no later fill covered whole, with their place in :attr:`texts`."""
        return [(i, t) for i, t in enumerate(self.texts)
                if not any(i < n and area.contains(t.rect) for n, area in self.erased)]

    def visible(self) -> list[Drawn]:
        return [t for _, t in self.shown()]

    def clipped(self) -> list[tuple[Drawn, pygame.Rect]]:
        """Texts still shown that a later fill covered in part, with the fill."""
        return [(t, area) for i, t in self.shown() for n, area in self.erased
                if i < n and area.colliderect(t.rect) and not area.contains(t.rect)]


#: The log being kept, if any: one test for None per line drawn when nobody asks.
_log: TextLog | None = None


@contextmanager
def recording() -> Iterator[TextLog]:
    """Keep a :class:`TextLog` of everything drawn inside the ``with``."""
    global _log
    outer, _log = _log, TextLog()
    try:
        yield _log
    finally:
        _log = outer


def _note(value: str, rect: pygame.Rect, box: pygame.Rect, size: int) -> None:
    if _log is not None:
        _log.texts.append(Drawn(value, pygame.Rect(rect), pygame.Rect(box), size))


def erase(surface: pygame.Surface, area: pygame.Rect) -> pygame.Rect:
    """Fill ``area`` black (a band about to be drawn over), noted in the log."""
    if _log is not None:
        _log.erased.append((len(_log.texts), pygame.Rect(area)))
    return surface.fill(BLACK, area)


class Frame:
    """A surface's size, with boxes given as fractions of it.

    Horizontal fractions are of the width and vertical ones of the height;
    text sizes are fractions of the height, so they grow with the screen.
    """

    def __init__(self, surface: pygame.Surface | tuple[int, int]) -> None:
        self.width, self.height = (surface if isinstance(surface, tuple)
                                   else surface.get_size())
        #: A margin that keeps text off the bezel and out of overscan.
        self.margin = round(self.height * 0.03)

    def y(self, fraction: float) -> int:
        return round(self.height * fraction)

    def box(self, top: float, bottom: float, left: float = 0.0, right: float = 1.0) -> pygame.Rect:
        """The rect between the given fractions, inside the side margins."""
        inner = self.width - 2 * self.margin
        x0 = self.margin + round(inner * left)
        x1 = self.margin + round(inner * right)
        return pygame.Rect(x0, self.y(top), x1 - x0, self.y(bottom) - self.y(top))


#: Font sizes text may take: about 6 % apart. Every open size costs a font and
#: its glyph cache (a few hundred KB), so a night of changing names and lines
#: must share a few sizes rather than open one per pixel.
_LADDER: Final = tuple(sorted({round(12 * 1.06 ** k) for k in range(90)}))


def _snap(size: int) -> int:
    """The ladder size at or below ``size`` (sizes under 12 are kept).

    >>> _snap(100), _snap(101), _snap(11)
    (98, 98, 11)
    """
    index = bisect_right(_LADDER, size) - 1
    return _LADDER[index] if index >= 0 else size


def fit_size(value: str, width: int, height: int, bold: bool = False) -> int:
    """The largest ladder size whose line fits ``height`` and ``value`` fits ``width``."""
    size = _snap(max(1, int(height * _EM_PER_LINE)))
    # The em ratio is a round figure: step down until the line is no taller than
    # the box, so that two boxes that do not meet hold lines that do not touch.
    while size > 1 and font(size, bold).get_height() > height:
        size = _snap(size - 1)
    if not value:
        return size
    wide = font(size, bold).size(value)[0]
    if wide > width:
        # Width grows almost linearly with size; scale once, then step down
        # the ladder, so only a couple of sizes are ever opened.
        size = _snap(max(1, int(size * width / wide)))
        while size > 1 and font(size, bold).size(value)[0] > width:
            size = _snap(size - 1)
    return size


def ladder_size_at_least(size: float) -> int:
    """The smallest ladder size no smaller than ``size`` (a floor for text that must read).

    >>> ladder_size_at_least(34.56), ladder_size_at_least(36)
    (36, 36)
    """
    index = bisect_left(_LADDER, size)
    return _LADDER[index] if index < len(_LADDER) else _LADDER[-1]


def ladder_size_below(size: int) -> int:
    """The next ladder size under ``size``.

    >>> ladder_size_below(36), ladder_size_below(35)
    (34, 34)
    """
    return _snap(size - 1)


def ellipsize(value: str, width: int, size: int, bold: bool = False) -> str:
    """``value`` cut to ``width`` pixels with a trailing ellipsis when too long."""
    face = font(size, bold)
    return _cut_end(value, width, lambda text: face.size(text)[0])


def _cut_end(value: str, width: int, measure: Callable[[str], int]) -> str:
    if measure(value) <= width:
        return value
    low, high = 0, len(value)
    while low < high:
        mid = (low + high + 1) // 2
        if measure(value[:mid].rstrip() + _ELLIPSIS) <= width:
            low = mid
        else:
            high = mid - 1
    return value[:low].rstrip() + _ELLIPSIS


def _cut_start(value: str, width: int, measure: Callable[[str], int]) -> str:
    """``value``'s longest end that fits after an ellipsis: "…Stokkeland"."""
    low, high = 0, len(value)
    while low < high:
        mid = (low + high + 1) // 2
        if measure(_ELLIPSIS + value[len(value) - mid:].lstrip()) <= width:
            low = mid
        else:
            high = mid - 1
    return _ELLIPSIS + value[len(value) - low:].lstrip()


def _initials(value: str) -> str:
    """The middle names as initials: "Nils Kristian Haugen" is "Nils K. Haugen"."""
    words = value.split()
    if len(words) < 3:
        return value
    return " ".join([words[0], *(w[0] + "." for w in words[1:-1]), words[-1]])


def _cuts(value: str, width: int, measure: Callable[[str], int]) -> tuple[str, ...]:
    """The shortened forms of ``value`` to try in turn, each fitting ``width``."""
    short = _initials(value)
    return (_cut_end(value, width, measure), _cut_end(short, width, measure),
            _cut_start(value, width, measure))


def cut_apart(values: Sequence[str], widths: Sequence[int],
              measure: Callable[[str], int]) -> list[str]:
    """Each of ``values`` as drawn in its width: whole if it fits, else cut, and cut
    so that no cut could be read as another of the values.

    The plain cut keeps the start ("Nils Kristian S…"); where it could be another
    of the values too ("Nils Kristian…" beside "Nils Kristian Haugen"), the middle
    names turn to initials ("Nils K. Haugland"), and last the end is kept
    ("…Haugland"). ``measure`` gives a string's width.

    >>> cut_apart(["Nils Kristian Haugland", "Nils Kristian Stokkeland", "Ola Vik"],
    ...           [16, 16, 16], len)
    ['Nils Kristian H…', 'Nils Kristian S…', 'Ola Vik']
    >>> cut_apart(["Nils Kristian Haugland", "Nils Kristian Haugen"], [20, 14], len)
    ['Nils Kristian Haugl…', 'Nils K. Haugen']
    >>> cut_apart(["Nils Kristian Haugland", "Nils Kristian Haugen", "Kari Berg"],
    ...           [16, 16, 16], len)
    ['Nils K. Haugland', 'Nils K. Haugen', 'Kari Berg']
    >>> cut_apart(["Nils Kristian Haugland", "Nils Kristian Haugen"], [10, 10], len)
    ['…Haugland', '…an Haugen']
    >>> cut_apart(["Anne Berg", "Anne Berg"], [5, 5], len)  # the same name: the same cut
    ['Anne…', 'Anne…']
    """
    whole = [measure(value) <= width for value, width in zip(values, widths, strict=True)]
    stage = [0] * len(values)
    while True:
        shown = [value if fits else _cuts(value, width, measure)[step]
                 for value, width, fits, step in zip(values, widths, whole, stage, strict=True)]
        clashing = [i for i, text in enumerate(shown) if not whole[i] and stage[i] < 2
                    and _could_be(text, {v for v in values if v != values[i]})]
        if not clashing:
            return shown
        for i in clashing:
            stage[i] += 1


def _could_be(text: str, others: set[str]) -> bool:
    """Whether a cut ``text`` reads as any of ``others`` as well (it starts or ends
    like one, in full or with its middle names as initials).

    >>> _could_be("Nils Kristian…", {"Nils Kristian Haugen"})
    True
    >>> _could_be("Nils Kristian S…", {"Nils Kristian Haugen"})
    False
    """
    forms = others | {_initials(other) for other in others}
    if text.endswith(_ELLIPSIS):
        return any(form.startswith(text[:-1]) for form in forms)
    if text.startswith(_ELLIPSIS):
        return any(form.endswith(text[1:]) for form in forms)
    return text in forms


def draw_text(surface: pygame.Surface, value: str, box: pygame.Rect, *,
              colour: Colour = WHITE, bold: bool = False, align: Align = "left",
              size: int | None = None, shrink: bool = True, cache: bool = True) -> pygame.Rect:
    """Draw one line of text vertically centred in ``box``; returns where it went.

    With ``size`` the text keeps that size and is shortened with an ellipsis
    if needed (names in a grid look calmer all the same size); otherwise, or
    with ``shrink``, the size is chosen to fit the box. Text that changes
    every second or is shown once (a countdown, a pop-up) passes ``cache=False``
    so the rendered-text cache holds only what repeats.
    """
    if not value or box.width <= 0 or box.height <= 0:
        return pygame.Rect(box.x, box.y, 0, 0)
    if size is None:
        size = fit_size(value, box.width, box.height, bold)
    elif shrink:
        size = min(size, fit_size(value, box.width, box.height, bold))
    else:
        value = ellipsize(value, box.width, size, bold)
    rendered = (text_surface(value, size, colour, bold) if cache
                else font(size, bold).render(value, True, colour))
    rect = rendered.get_rect()
    rect.centery = box.centery
    if align == "center":
        rect.centerx = box.centerx
    elif align == "right":
        rect.right = box.right
    else:
        rect.left = box.left
    _note(value, rect, box, size)
    return surface.blit(rendered, rect)


def _glyph_line(value: str, box: pygame.Rect, bold: bool, align: Align
                ) -> tuple[int, tuple[int, ...], int, int]:
    """A line set glyph by glyph: its size, each character's width, the first's left, the top."""
    return _glyph_line_in(value, (box.x, box.y, box.width, box.height), bold, align)


# Each second compares the line drawn last with the new one: the old one's
# layout is the one worked out a second ago.
@lru_cache(maxsize=16)
def _glyph_line_in(value: str, box: tuple[int, int, int, int], bold: bool, align: Align
                   ) -> tuple[int, tuple[int, ...], int, int]:
    left, top, width, height = box
    size = fit_size(value, width, height, bold)
    widths = tuple(advance(c, size, bold) for c in value)
    while size > 1 and sum(widths) > width:  # no kerning: a hair wider than size()
        size = _snap(size - 1)
        widths = tuple(advance(c, size, bold) for c in value)
    total = sum(widths)
    x = (left + (width - total) // 2 if align == "center"
         else left + width - total if align == "right" else left)
    return size, widths, x, top + height // 2 - font(size, bold).get_height() // 2


def draw_glyph_line(surface: pygame.Surface, value: str, box: pygame.Rect, *,
                    colour: Colour = WHITE, bold: bool = False, align: Align = "left"
                    ) -> pygame.Rect:
    """Draw a line that changes every second (a countdown) from the glyph cache.

    Like :func:`draw_text`, fitted and centred in ``box``, but set one cached
    glyph at a time, so that the next second redraws only the characters
    that changed (:func:`redraw_changed_glyphs`) and renders nothing new.
    """
    if not value or box.width <= 0 or box.height <= 0:
        return pygame.Rect(box.x, box.y, 0, 0)
    size, widths, x, y = _glyph_line(value, box, bold, align)
    drawn = pygame.Rect(x, y, sum(widths), font(size, bold).get_height())
    _note(value, drawn, box, size)
    for char, width in zip(value, widths, strict=True):
        surface.blit(_tinted(glyph(char, size, WHITE, bold), colour), (x, y))
        x += width
    return drawn


def redraw_changed_glyphs(surface: pygame.Surface, before: str, after: str,
                          box: pygame.Rect, *, colour: Colour = WHITE, bold: bool = False,
                          align: Align = "left") -> list[pygame.Rect] | None:
    """Draw only the characters of ``after`` that differ from ``before``, drawn by
    :func:`draw_glyph_line` in the same box; None when the line moved (another
    length, size or widths) and the caller must draw it whole."""
    if len(before) != len(after) or not after or box.width <= 0 or box.height <= 0:
        return None
    layout = _glyph_line(after, box, bold, align)
    if layout != _glyph_line(before, box, bold, align):
        return None
    size, widths, x, y = layout
    dirty = []
    for old, new, width in zip(before, after, widths, strict=True):
        if old != new:
            dirty.append(surface.blit(_tinted(glyph(new, size, WHITE, bold), colour), (x, y)))
        x += width
    return dirty


def _tinted(white: pygame.Surface, colour: Colour) -> pygame.Surface:
    """A white shaded glyph in ``colour``: a copy with its palette ramp scaled."""
    if colour == WHITE:
        return white
    tinted = white.copy()
    r, g, b = colour
    tinted.set_palette([(c[0] * r // 255, c[1] * g // 255, c[2] * b // 255)
                        for c in white.get_palette()])
    return tinted


@lru_cache(maxsize=8)
def _ink(size: int) -> tuple[int, int]:
    """Top and height of the digits' ink at ``size`` (measured once per size)."""
    probe = font(size, True).render("0123456789:", True, WHITE)
    ink = probe.get_bounding_rect()
    return ink.top, ink.height


def _digit_layout(digits: str, box: pygame.Rect) -> tuple[int, tuple[int, ...], int, int]:
    """The size, each character's width, and the left and top of the first glyph."""
    return _digit_layout_in(digits, (box.x, box.y, box.width, box.height))


@lru_cache(maxsize=16)
def _digit_layout_in(digits: str, box: tuple[int, int, int, int]
                     ) -> tuple[int, tuple[int, ...], int, int]:
    left, top, width, height = box
    size = max(1, int(height / digit_ink_ratio(True)))
    advance = sum(glyph(c, size, WHITE).get_width() for c in digits)
    if advance > width:
        size = max(1, int(size * width / advance))
    widths = tuple(glyph(c, size, WHITE).get_width() for c in digits)
    ink_top, ink_height = _ink(size)
    return (size, widths, left + width // 2 - sum(widths) // 2,
            top + height // 2 - (ink_top + ink_height // 2))


def redraw_changed_digits(surface: pygame.Surface, before: str, after: str,
                          box: pygame.Rect, *, colour: Colour = WHITE
                          ) -> list[pygame.Rect] | None:
    """Draw only the characters of ``after`` that differ from ``before``, already drawn.

    A clock's second changes one digit, now and then two: the rest of the
    band need not be filled, drawn and copied again. The glyphs are opaque,
    so each one covers the old. None when the layout moved (another length,
    or glyphs of other widths), and the caller must draw the band whole.
    """
    if len(before) != len(after):
        return None
    layout = _digit_layout(after, box)
    if layout[:2] != _digit_layout(before, box)[:2]:
        return None
    size, widths, x, y = layout
    ink_top, ink_height = _ink(size)
    rows = pygame.Rect(0, max(0, ink_top - 2), 0, ink_height + 4)
    dirty = []
    for old, new, width in zip(before, after, widths, strict=True):
        if old != new:
            rows.width = width
            dirty.append(surface.blit(_tinted(glyph(new, size, WHITE), colour),
                                      (x, y + rows.top), rows))
        x += width
    return dirty


def draw_digits(surface: pygame.Surface, digits: str, box: pygame.Rect, *,
                colour: Colour = WHITE) -> pygame.Rect:
    """Draw clock digits whose ink is as tall as ``box`` (narrower if it must).

    The size is chosen from the measured ink height of the digits, not the
    font's nominal size, so "at least a quarter of the screen" means the
    visible figures. Each character comes from the glyph cache, in white
    only (the paused grey and last-minute yellow are palette swaps), and only
    the rows with ink are copied: the glyphs are opaque, and the lines above
    and the banner below must not be touched.
    """
    size = max(1, int(box.height / digit_ink_ratio(True)))
    advance = sum(glyph(c, size, WHITE).get_width() for c in digits)
    if advance > box.width:
        size = max(1, int(size * box.width / advance))
    glyphs = [_tinted(glyph(c, size, WHITE), colour) for c in digits]
    ink_top, ink_height = _ink(size)
    total = sum(g.get_width() for g in glyphs)
    x = box.centerx - total // 2
    y = box.centery - (ink_top + ink_height // 2)
    drawn = pygame.Rect(x, box.centery - ink_height // 2, 0, ink_height)
    # Antialiasing reaches a pixel or two past the ink.
    rows = pygame.Rect(0, max(0, ink_top - 2), 0, ink_height + 4)
    for g in glyphs:
        rows.width = g.get_width()
        surface.blit(g, (x, y + rows.top), rows)
        x += g.get_width()
    drawn.width = x - drawn.x
    _note(digits, drawn, box, size)
    return drawn
