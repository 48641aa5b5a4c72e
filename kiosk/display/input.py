"""Input messages for the kiosk loop, and the keyboard's translation into them.

Everything that wants the loop to act puts an :data:`Input` on the loop's
``queue.Queue``: hardware adapters (buttons, card readers), peer sync, and
here the keyboard. The loop is the only consumer, so it alone turns inputs
into commands and touches state. Keyboard events arrive through pygame's own
event queue and are translated by :class:`Keyboard`.

A keyboard-wedge card reader types the card number as digits followed by
Enter, faster than any person: digits then Enter within
:data:`WEDGE_WINDOW` seconds of the first digit are one :class:`CardRead`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum, unique
from typing import Final

import pygame

from rules.events import Record

__all__ = [
    "KEYS",
    "WEDGE_WINDOW",
    "Button",
    "CardRead",
    "Input",
    "Keyboard",
    "PeerRecords",
    "Press",
    "Wake",
]

#: A wedge reader types a whole UID well inside this (seconds from the first digit).
WEDGE_WINDOW: Final = 0.5
#: Fewer digits than this followed by Enter is a person, not a card.
_MIN_UID_DIGITS: Final = 4


@unique
class Button(StrEnum):
    """What a TD's button (or key) asks for."""

    PAUSE = "pause"
    NEXT_LEVEL = "next-level"
    PREVIOUS_LEVEL = "previous-level"
    ADD_MINUTE = "add-minute"
    REMOVE_MINUTE = "remove-minute"
    NEXT_SCREEN = "next-screen"
    UNDO = "undo"
    HAND_FOR_HAND = "hand-for-hand"
    LANGUAGE = "language"
    QUIT = "quit"
    CONFIRM = "confirm"


@dataclass(frozen=True)
class Press:
    button: Button
    source: str = "keyboard"


@dataclass(frozen=True)
class CardRead:
    """A card UID as the reader sent it; the store normalises and looks it up."""

    uid: str
    source: str = "keyboard"


@dataclass(frozen=True)
class PeerRecords:
    """Records a peer sent: the loop makes them durable and folds them."""

    records: tuple[Record, ...]


@dataclass(frozen=True)
class Wake:
    """Nothing to do but look again (a producer nudging the waiting loop)."""


Input = Press | CardRead | PeerRecords | Wake

#: Keys by pygame key code. ``+``/``-`` come in several spellings (keypad,
#: the ``=`` key that carries ``+`` on US layouts).
KEYS: Final[dict[int, Button]] = {
    pygame.K_SPACE: Button.PAUSE,
    pygame.K_RIGHT: Button.NEXT_LEVEL,
    pygame.K_LEFT: Button.PREVIOUS_LEVEL,
    pygame.K_PLUS: Button.ADD_MINUTE,
    pygame.K_EQUALS: Button.ADD_MINUTE,
    pygame.K_KP_PLUS: Button.ADD_MINUTE,
    pygame.K_MINUS: Button.REMOVE_MINUTE,
    pygame.K_KP_MINUS: Button.REMOVE_MINUTE,
    pygame.K_TAB: Button.NEXT_SCREEN,
    pygame.K_u: Button.UNDO,
    pygame.K_h: Button.HAND_FOR_HAND,
    pygame.K_l: Button.LANGUAGE,
    pygame.K_q: Button.QUIT,
    pygame.K_ESCAPE: Button.QUIT,
    pygame.K_y: Button.CONFIRM,
}

_KEYPAD_DIGITS: Final = {getattr(pygame, f"K_KP{n}"): str(n) for n in range(10)}
_ENTER: Final = (pygame.K_RETURN, pygame.K_KP_ENTER)


@dataclass
class Keyboard:
    """Turns pygame KEYDOWN events into inputs; holds the wedge reader's digits."""

    window: float = WEDGE_WINDOW
    _digits: list[str] = field(default_factory=list)
    _first_at: float = 0.0

    def translate(self, event: pygame.event.Event, now: float) -> Sequence[Input]:
        """The inputs one KEYDOWN makes at monotonic time ``now`` (often none)."""
        if event.type != pygame.KEYDOWN:
            return ()
        key = event.key
        digit = _KEYPAD_DIGITS.get(key)
        if digit is None and pygame.K_0 <= key <= pygame.K_9:
            digit = chr(key)
        if digit is not None:
            if not self._digits or now - self._first_at > self.window:
                self._digits, self._first_at = [], now
            self._digits.append(digit)
            return ()
        if key in _ENTER:
            digits, self._digits = "".join(self._digits), []
            if len(digits) >= _MIN_UID_DIGITS and now - self._first_at <= self.window:
                return (CardRead(digits),)
            return ()
        self._digits = []
        button = KEYS.get(key)
        if button is None and getattr(event, "unicode", "") == "+":
            button = Button.ADD_MINUTE
        return () if button is None else (Press(button),)
