"""Chimes: a new level, the end of a break, and one minute left.

Whether to chime is :func:`chime_for`, a pure function of the previous and
the current clock reading, so it is tested without a sound card. Playing
goes through ``pygame.mixer``; a Pi without audio (or a test with SDL's dummy
driver and no device) must not stop the clock, so a mixer that cannot start
is logged once and the kiosk carries on silent.
"""

from __future__ import annotations

import logging
from collections import deque
from enum import StrEnum, unique
from pathlib import Path
from typing import Final

import pygame

from rules.clock import ClockReading
from rules.structure import Break, Level

__all__ = ["WARNING_AT", "Chime", "Chimes", "chime_for"]

log = logging.getLogger(__name__)

#: Seconds before a level ends at which the warning sounds.
WARNING_AT: Final = 60.0


@unique
class Chime(StrEnum):
    LEVEL = "level"
    BREAK_END = "break_end"
    WARNING = "warning"


def chime_for(before: ClockReading | None, now: ClockReading) -> Chime | None:
    """The chime for the step from ``before`` to ``now``, if any.

    A change of period chimes (the end of a break with its own sound); the
    warning sounds once, when a running level crosses its last minute.
    """
    if before is None or not now.started:
        return None
    if now.period_index != before.period_index:
        if isinstance(before.period, Break) and isinstance(now.period, Level):
            return Chime.BREAK_END
        return Chime.LEVEL
    if (isinstance(now.period, Level) and now.running and before.remaining is not None
            and now.remaining is not None and before.remaining > WARNING_AT >= now.remaining):
        return Chime.WARNING
    return None


class Chimes:
    """Plays chimes through ``pygame.mixer``; silent when off or when it cannot."""

    def __init__(self, *, enabled: bool = True, directory: Path | None = None) -> None:
        from kiosk.sounds import DIRECTORY

        self.enabled = enabled
        self.directory = directory or DIRECTORY
        self._sounds: dict[Chime, pygame.mixer.Sound] | None = None
        self._failed = False
        #: What was asked for, played or not: the tests and the log read it.
        self.played: deque[Chime] = deque(maxlen=32)

    def _load(self) -> dict[Chime, pygame.mixer.Sound] | None:
        if self._sounds is not None or self._failed:
            return self._sounds
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init()
            self._sounds = {c: pygame.mixer.Sound(str(self.directory / f"{c.value}.wav"))
                            for c in Chime}
        except (pygame.error, OSError, FileNotFoundError) as err:
            # Once: a kiosk without a sound card is normal, not an emergency.
            log.warning("sound is off: %s", err)
            self._failed = True
            self._sounds = None
        return self._sounds

    @property
    def available(self) -> bool:
        return self.enabled and self._load() is not None

    def play(self, chime: Chime) -> bool:
        """Start playing ``chime``; True when it was handed to the mixer."""
        self.played.append(chime)
        if not self.enabled:
            return False
        sounds = self._load()
        if sounds is None:
            return False
        sounds[chime].play()
        return True

    def close(self) -> None:
        if self._sounds is not None and pygame.mixer.get_init():
            pygame.mixer.quit()
        self._sounds = None
