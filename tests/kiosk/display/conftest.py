"""Headless pygame for the display tests: no window, no sound device."""

from __future__ import annotations

import os

# SDL reads these when pygame initialises, so they must be set before any import.
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from collections.abc import Iterator

import pygame
import pytest

from kiosk.demo.names import venue_names
from rules.commands import BustPlayers, CheckIn, DrawSeats, StartClock
from rules.state import Tournament
from tests.rules.tournament_kit import Night

#: The sizes the wall screens must serve: 720p, 1080p and 4K.
SIZES = ((1280, 720), (1920, 1080), (3840, 2160))


def venue_night(players: int, seed: int = 19) -> Night:
    """``players`` checked in under venue-like names (player ids ``p1``…), seated, started.

    The golden screenshots, and the README's images copied from them, are drawn
    from these: a Nynorsk screen with "Player 146" on it is not what a venue sees.
    """
    night = Night()
    for n, name in enumerate(venue_names(players, seed), 1):
        night.do(CheckIn(f"p{n}", name))
    night.do(DrawSeats())
    night.do(StartClock())
    return night


@pytest.fixture(scope="module")
def finished() -> Tournament:
    """Twelve players, eleven busted a minute apart: the winner known."""
    night = venue_night(12)
    for i in range(1, 12):
        night.do(BustPlayers((f"p{i}",)), at=60.0 * i)
    return night.state


@pytest.fixture(scope="session", autouse=True)
def pygame_fonts() -> Iterator[None]:
    pygame.font.init()
    yield
