"""A first kiosk window: the running clock of a demo tournament.

This is the smallest honest kiosk: real rules commands from the keyboard,
the clock computed from state and shared time, and a loop that sleeps in
``pygame.event.wait`` and redraws once a second, not 60 times.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field

from kiosk.timebase import SharedClock
from rules import clock as clocks
from rules.commands import (
    AdjustTime,
    CheckIn,
    Command,
    CreateTournament,
    DrawSeats,
    NextLevel,
    PreviousLevel,
    StartClock,
    TogglePause,
    execute,
)
from rules.errors import RulesError
from rules.i18n import format_int, format_time
from rules.state import Tournament
from rules.structure import Break, preset

__all__ = ["DemoClock", "run"]

WORDS = {
    "nn": {"level": "Nivå", "break": "Pause", "paused": "Klokka er stoppa",
           "next": "Neste nivå", "left": "Spelarar att"},
    "nb": {"level": "Nivå", "break": "Pause", "paused": "Klokken er stoppet",
           "next": "Neste nivå", "left": "Spillere igjen"},
    "da": {"level": "Niveau", "break": "Pause", "paused": "Uret er stoppet",
           "next": "Næste niveau", "left": "Spillere tilbage"},
    "en": {"level": "Level", "break": "Break", "paused": "Clock paused",
           "next": "Next level", "left": "Players left"},
}


@dataclass
class DemoClock:
    """A demo tournament: 54 players checked in, seated, clock running."""

    clock: SharedClock
    lang: str = "nn"
    state: Tournament = field(default_factory=Tournament)
    rng: random.Random = field(default_factory=lambda: random.Random(2026))
    message: str = ""

    def __post_init__(self) -> None:
        now = self.clock.now()
        self.do(CreateTournament("Fredagspoker", preset("pubpoker")), now)
        for n in range(1, 55):
            self.do(CheckIn(f"p{n}", f"Spelar {n}"), now)
        self.do(DrawSeats(), now)
        self.do(StartClock(), now)

    def do(self, command: Command, now: float) -> None:
        try:
            execute(self.state, command, now=now, rng=self.rng)
            self.message = ""
        except RulesError as err:
            self.message = err.translate(self.lang)

    def lines(self, now: float) -> tuple[str, str, str, str]:
        assert self.state.config is not None
        w = WORDS[self.lang]
        reading = clocks.read(self.state.config.structure, self.state.clock, now)
        period = reading.period
        if isinstance(period, Break):
            title = w["break"]
        else:
            title = (f"{w['level']} {reading.level_number}   "
                     f"{format_int(period.small_blind, self.lang)}/"
                     f"{format_int(period.big_blind, self.lang)}")
            if period.ante:
                title += f"  ante {format_int(period.ante, self.lang)}"
        digits = "--:--" if reading.remaining is None else format_time(reading.remaining)
        status = w["paused"] if not reading.running else ""
        left = f"{w['left']}: {self.state.remaining}/{self.state.entrants}"
        return title, digits, status or self.message, left


KEYS = {
    "space": TogglePause(),
    "right": NextLevel(),
    "left": PreviousLevel(),
    "+": AdjustTime(60), "=": AdjustTime(60), "[+]": AdjustTime(60),
    "-": AdjustTime(-60), "[-]": AdjustTime(-60),
}


def run(*, lang: str = "nn", size: tuple[int, int] = (1280, 720), fullscreen: bool = False,
        headless: bool = False, frames: int | None = None, screenshot: str | None = None,
        speed: float = 1.0) -> int:
    if headless:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    pygame.display.init()
    pygame.font.init()
    flags = pygame.FULLSCREEN if fullscreen else 0
    screen = pygame.display.set_mode((0, 0) if fullscreen else size, flags)
    pygame.display.set_caption("pubpoker-kiosk")
    width, height = screen.get_size()
    big = pygame.font.Font(None, int(height * 0.42))
    mid = pygame.font.Font(None, int(height * 0.10))
    demo = DemoClock(SharedClock(speed=speed), lang=lang)
    # Wake once a second (or sooner in fast-forward) to move the digits.
    pygame.time.set_timer(pygame.USEREVENT, max(50, int(1000 / max(speed, 1.0))))
    drawn = 0
    try:
        while True:
            now = demo.clock.now()
            title, digits, status, left = demo.lines(now)
            screen.fill((0, 0, 0))
            for text, font, y, colour in (
                (title, mid, 0.06, (255, 255, 255)),
                (digits, big, 0.22, (255, 255, 255) if not status else (255, 210, 0)),
                (status, mid, 0.68, (255, 210, 0)),
                (left, mid, 0.84, (200, 200, 200)),
            ):
                if text:
                    surface = font.render(text, True, colour)
                    screen.blit(surface, ((width - surface.get_width()) // 2, int(height * y)))
            pygame.display.flip()
            drawn += 1
            if frames is not None and drawn >= frames:
                break
            event = pygame.event.wait()
            if event.type == pygame.QUIT:
                break
            if event.type == pygame.KEYDOWN:
                name = pygame.key.name(event.key)
                if name in ("q", "escape"):
                    break
                command = KEYS.get(name)
                if command is not None:
                    demo.do(command, demo.clock.now())
        if screenshot:
            pygame.image.save(screen, screenshot)
    finally:
        pygame.quit()
    return 0
