"""A key as a name prompt reads it: Enter, Escape, Backspace, or what it types.

The display turns each key press into one :class:`KeyTyped`
(:func:`kiosk.display.input.typed`), so the controls read keys without
knowing pygame's key codes. A key that is none of the named ones is
:attr:`Key.char` with the text it types, which is empty for an arrow, a
function key or Shift: an open prompt still takes those, so a TD typing a
name never moves the clock by brushing one.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum, unique

__all__ = ["Key", "KeyTyped"]


@unique
class Key(StrEnum):
    enter = "enter"
    escape = "escape"
    backspace = "backspace"
    #: Any other key: what it types (maybe nothing) is in :attr:`KeyTyped.char`.
    char = "char"


@dataclass(frozen=True)
class KeyTyped:
    """One key pressed at the keyboard (keypad Enter is :attr:`Key.enter` too)."""

    key: Key
    #: The text the key typed, Shift and the layout already applied; "" for none.
    char: str = ""
