"""The check-in screen says how to check in, which night it is, and shows the phones'
QR code, however many have checked in (issue 49, item 5).

It used to stop saying "Vis spelarkortet ditt for å sjekke inn" at the first
check-in, named no tournament, and had no QR code: the players arriving are
the ones who most need the three.
"""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from kiosk.display import qr
from kiosk.display.layout import recording
from kiosk.display.messages import text
from kiosk.display.registry import render
from kiosk.display.viewmodels import check_in_view
from rules.commands import CheckIn
from rules.state import Tournament
from tests.rules.tournament_kit import Night

SIZES = ((800, 480), (1280, 720), (1920, 1080), (3840, 2160))


def _checking_in(players: int) -> Tournament:
    night = Night()  # "Fredagspoker"
    for n in range(1, players + 1):
        night.do(CheckIn(f"p{n}", f"Spelar {n}"))
    return night.state


@pytest.fixture
def wall_qr() -> Iterator[None]:
    qr.install("http://192.168.1.20:8080/", ("pubpoker-display.local",))
    try:
        yield
    finally:
        qr.uninstall()


@pytest.mark.usefixtures("wall_qr")
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("players", (0, 1, 7, 45))
@pytest.mark.parametrize("lang", ("nn", "da"))
def test_how_to_check_in_the_nights_name_and_the_qr_code_always_show(
        size: tuple[int, int], players: int, lang: str) -> None:
    surface = pygame.Surface(size)
    view = check_in_view(_checking_in(players), 0.0, lang)
    with recording() as log:
        render(surface, view, lang)
    shown = list(log.visible())
    values = [t.value for t in shown]
    how = text("check_in_empty", lang)
    assert any(how in value for value in values), values
    assert "Fredagspoker" in values
    box = qr.qr_box(surface)
    assert box is not None
    lit = pygame.mask.from_threshold(surface.subsurface(box), (255, 255, 255, 255),
                                     (1, 1, 1, 255)).count()
    assert lit > box.width * box.height // 10, "no QR code in its corner"
    assert not [t.value for t in shown if t.rect.colliderect(box)]
