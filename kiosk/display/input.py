"""The keyboard as one more input device: keys become :mod:`hardware.inputs` messages.

A key press is the same :class:`~hardware.inputs.ButtonPressed` as the GPIO
panel's button for it, so both go one way through the controls. A key is
not brushed by accident, so one that a button must be held for (NEW, UNDO,
PREVIOUS, START, HAND FOR HAND) counts as held; ``+``/``−`` are one minute.

A keyboard-wedge card reader types the card number as digits followed by
Enter, faster than any person: digits then Enter within
:data:`WEDGE_WINDOW` seconds of the first digit are one
:class:`~hardware.inputs.CardRead` from the reader ``keyboard``.

A name prompt reads the same key first, as a
:class:`~kiosk.controls.typed.KeyTyped` (:func:`typed`): the one place a
pygame key becomes what the controls' prompts read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

import pygame

from hardware.inputs import Action, ButtonPressed, CardRead, Input, needs_long_press
from kiosk.controls.typed import Key, KeyTyped

__all__ = ["HELD_KEYS", "KEYS", "WEDGE_WINDOW", "Keyboard", "typed"]

#: A wedge reader types a whole UID well inside this (seconds from the first digit).
WEDGE_WINDOW: Final = 0.5
#: Fewer digits than this followed by Enter is a person, not a card.
_MIN_UID_DIGITS: Final = 4

#: Keys by pygame key code. ``+``/``-`` come in several spellings (keypad,
#: the ``=`` key that carries ``+`` on US layouts).
KEYS: Final[dict[int, Action]] = {
    pygame.K_SPACE: Action.pause,
    pygame.K_RIGHT: Action.next_level,
    pygame.K_LEFT: Action.prev_level,
    pygame.K_PLUS: Action.add_minute,
    pygame.K_EQUALS: Action.add_minute,
    pygame.K_KP_PLUS: Action.add_minute,
    pygame.K_MINUS: Action.remove_minute,
    pygame.K_KP_MINUS: Action.remove_minute,
    pygame.K_TAB: Action.next_screen,
    pygame.K_f: Action.find_seat,
    pygame.K_s: Action.start,
    pygame.K_u: Action.undo,
    pygame.K_h: Action.hand_for_hand,
    pygame.K_l: Action.language,
    pygame.K_q: Action.quit,
    pygame.K_ESCAPE: Action.quit,
    pygame.K_y: Action.ok,
    pygame.K_n: Action.walk_in,
    pygame.K_g: Action.sit_and_go,
}

#: Actions a key gives as a long press: the ones a button must be held for.
HELD_KEYS: Final = frozenset(a for a in Action if needs_long_press(a)) | {
    Action.start, Action.hand_for_hand}

_KEYPAD_DIGITS: Final = {getattr(pygame, f"K_KP{n}"): str(n) for n in range(10)}
_ENTER: Final = (pygame.K_RETURN, pygame.K_KP_ENTER)
_NAMED: Final = {pygame.K_RETURN: Key.enter, pygame.K_KP_ENTER: Key.enter,
                 pygame.K_ESCAPE: Key.escape, pygame.K_BACKSPACE: Key.backspace}


def typed(event: pygame.event.Event) -> KeyTyped:
    """A KEYDOWN as a prompt reads it."""
    named = _NAMED.get(event.key)
    if named is not None:
        return KeyTyped(named)
    # A posted event (a test, a wedge reader's driver) may carry no unicode at all.
    return KeyTyped(Key.char, getattr(event, "unicode", "") or "")


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
                return (CardRead(digits, reader="keyboard", at=now),)
            return ()
        self._digits = []
        action = KEYS.get(key)
        if action is None and getattr(event, "unicode", "") == "+":
            action = Action.add_minute
        if action is None:
            return ()
        return (ButtonPressed(action, long=action in HELD_KEYS, at=now),)
