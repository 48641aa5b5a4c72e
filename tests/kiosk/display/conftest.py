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

#: The sizes the wall screens must serve: 720p, 1080p and 4K.
SIZES = ((1280, 720), (1920, 1080), (3840, 2160))


@pytest.fixture(scope="session", autouse=True)
def pygame_fonts() -> Iterator[None]:
    pygame.font.init()
    yield
