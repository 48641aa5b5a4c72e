"""The phones' QR code in a corner of the wall's clock screen.

:func:`install` is told the page's address once the viewer listens
(:mod:`kiosk.viewer`); the clock screen then calls :func:`draw_on_clock`
whenever it is drawn whole, which puts the code in :func:`qr_box`. The box
is the corner the clock screen's bands keep for it
(:func:`kiosk.display.bands.qr_slot`): bottom right, above the status
line, at most :data:`MAX_HEIGHT` of the screen, beside the next-level line,
the field's row and the ticker, which all stop short of it.
So it is never over the digits, the blinds or a pop-up, on any screen shape.

The code carries the address by IP (not every phone resolves ``.local``);
the line under it gives the mDNS name (``pubpoker-display.local``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

import pygame

from kiosk.display.bands import QR_SIDE, qr_slot
from kiosk.display.layout import BLACK, GREY, WHITE, draw_text

__all__ = ["MAX_HEIGHT", "WallQr", "draw_on_clock", "draw_viewer_qr", "install", "installed",
           "qr_box", "render_qr"]

#: The most of the screen's height the code and its caption take.
MAX_HEIGHT: Final = QR_SIDE
#: Quiet zone around the code, in modules (the standard asks 4; 2 reads fine
#: with the white square and the black screen around it).
_BORDER: Final = 2


@dataclass(frozen=True)
class WallQr:
    """What the code says and the caption under it."""

    url: str
    caption: tuple[str, ...]


#: The address, and its caption as words or as a function of nothing that says
#: them in the wall's language now (a language change must not keep the first).
_installed: list[tuple[str, Sequence[str] | Callable[[], Sequence[str]]]] = []


def install(url: str, caption: Sequence[str] | Callable[[], Sequence[str]]) -> None:
    """Show a code for ``url`` on the clock screen from the next full draw.

    ``caption`` may be a function: it is asked on every draw, so the line
    under the code follows the wall's language (``l``) as everything else does.
    """
    _installed[:] = [(url, caption)]


def installed() -> WallQr | None:
    """The code as it is drawn now: its address and its caption in today's words."""
    if not _installed:
        return None
    url, caption = _installed[0]
    return WallQr(url, tuple(caption() if callable(caption) else caption))


def uninstall() -> None:
    _installed.clear()


def qr_box(surface: pygame.Surface) -> pygame.Rect | None:
    """Where the code goes on the clock screen, or None where there is no room."""
    box = qr_slot(surface)
    return box if box.height >= 48 else None  # fewer pixels than a code needs


@lru_cache(maxsize=8)
def render_qr(qr: WallQr, size: tuple[int, int]) -> pygame.Surface:
    """The code, whole modules of whole pixels, with its caption under it."""
    import segno

    width, height = size
    image = pygame.Surface(size)
    image.fill(BLACK)
    line = max(10, height // 9)
    code = segno.make(qr.url, error="m")
    rows = list(code.matrix_iter(border=_BORDER))
    room = min(width, height - line * len(qr.caption))
    module = max(1, room // len(rows))
    side = module * len(rows)
    x0 = (width - side) // 2
    pygame.draw.rect(image, WHITE, pygame.Rect(x0, 0, side, side))
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                image.fill(BLACK, pygame.Rect(x0 + x * module, y * module, module, module))
    for index, text in enumerate(qr.caption):
        draw_text(image, text, pygame.Rect(0, side + index * line, width, line),
                  colour=WHITE if index == 0 else GREY, align="center", cache=False)
    return image


def draw_viewer_qr(surface: pygame.Surface, qr_image: pygame.Surface,
                   box: pygame.Rect) -> pygame.Rect:
    """Put the rendered code in ``box`` (its right edge); returns where it went."""
    where = qr_image.get_rect(bottomright=box.bottomright)
    surface.fill(BLACK, box)
    surface.blit(qr_image, where)
    return box


def draw_on_clock(surface: pygame.Surface) -> list[pygame.Rect]:
    """The clock screen's hook, as it draws the whole screen: the code in its corner.

    Returns the rects it drew (none when no code is installed or no room).
    """
    qr = installed()
    if qr is None:
        return []
    box = qr_box(surface)
    if box is None:
        return []
    return [draw_viewer_qr(surface, render_qr(qr, box.size), box)]
