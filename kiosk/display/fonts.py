"""The bundled font, cached per size, and cached glyphs for the clock digits.

Fonts are opened from ``kiosk/fonts`` with ``pygame.font.Font(path, size)``,
never ``SysFont``: the Pi image has no guarantee of system fonts, and the
screens must look the same on every box. Opening a TTF and rendering glyphs
are the expensive parts of a redraw, so both are cached; the digits are drawn
glyph by glyph from the cache, so a clock tick renders nothing new.

Each size is opened from the font's bytes, read once, not from its path:
SDL_ttf keeps a file it opened open for as long as the font lives (one
descriptor a cached size), and a process that a flood of phones or peers
has taken to its descriptor limit could then open no new size at all, and
the wall would stop at its next new line of text. From memory it opens
faster too, and the bytes are shared by every size.
"""

from __future__ import annotations

import io
from collections import OrderedDict
from functools import cache, lru_cache

import pygame

from kiosk.fonts import BOLD, REGULAR

__all__ = ["Colour", "advance", "clear_caches", "digit_ink_ratio", "font", "glyph", "text_surface"]

Colour = tuple[int, int, int]

#: The size at which digit ink is measured once, to choose sizes by ink height.
_PROBE_SIZE = 200


def _ensure_init() -> None:
    if not pygame.font.get_init():
        pygame.font.init()


@cache
def _font_bytes(bold: bool) -> bytes:
    return (BOLD if bold else REGULAR).read_bytes()


@lru_cache(maxsize=16)
def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The bundled DejaVu Sans at ``size`` pixels, opened once per size."""
    _ensure_init()
    # A stream of its own per font (SDL_ttf reads it as it goes); BytesIO shares the bytes.
    return pygame.font.Font(io.BytesIO(_font_bytes(bold)), max(1, size))


@lru_cache(maxsize=512)
def glyph(char: str, size: int, colour: Colour, bold: bool = True) -> pygame.Surface:
    """One rendered character, opaque on black; the clock digits are assembled from these.

    Rendered shaded rather than blended: an 8-bit surface with a palette ramp
    from black to ``colour``, a quarter of the memory of a 32-bit one (a 4K
    digit is 0.6 MB, not 2.4 MB), blitted without blending, and recoloured by
    swapping its palette. The screens are black behind the digits.
    """
    return font(size, bold).render(char, True, colour, (0, 0, 0))


@lru_cache(maxsize=1024)
def advance(char: str, size: int, bold: bool = True) -> int:
    """The width of :func:`glyph`'s surface for ``char``, measured without rendering it."""
    return int(font(size, bold).size(char)[0])


class _TextCache:
    """Rendered lines, least recently used first out, bounded in bytes, not entries.

    A count limit is no limit for pixels: one 4K headline weighs as much as
    a thousand small labels, and a kiosk that runs all night on a Pi must not
    grow. The names and lines of a night come and go; the labels stay warm.
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._items: OrderedDict[tuple[str, int, Colour, bool], pygame.Surface] = OrderedDict()

    def __call__(self, value: str, size: int, colour: Colour, bold: bool = False
                 ) -> pygame.Surface:
        key = (value, size, colour, bold)
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
            return found
        rendered = font(size, bold).render(value, True, colour)
        self._items[key] = rendered
        self.bytes += _weight(rendered)
        while self.bytes > self.max_bytes and len(self._items) > 1:
            _, old = self._items.popitem(last=False)
            self.bytes -= _weight(old)
        return rendered

    def __len__(self) -> int:
        return len(self._items)

    def cache_clear(self) -> None:
        self._items.clear()
        self.bytes = 0


def _weight(surface: pygame.Surface) -> int:
    return surface.get_width() * surface.get_height() * surface.get_bytesize()


#: A rendered line of text; labels repeat every redraw, so they are cached too.
# 1 MB holds the clock screen's text many times over; the 15-table seating screen
# re-renders some names (3 ms, not 2) rather than let memory grow through the night.
text_surface = _TextCache(max_bytes=1024 * 1024)


@cache
def digit_ink_ratio(bold: bool = True) -> float:
    """Inked height of the digits as a fraction of the font size.

    Measured from a rendering rather than assumed, so a different font still
    gets digits of the height the layout asks for.
    """
    probe = font(_PROBE_SIZE, bold).render("0123456789", True, (255, 255, 255))
    return probe.get_bounding_rect().height / _PROBE_SIZE


def clear_caches() -> None:
    """Forget every font and glyph: call after ``pygame.font.quit()``."""
    for cached in (font, glyph, advance, text_surface, digit_ink_ratio):
        cached.cache_clear()
