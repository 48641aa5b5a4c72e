"""The input messages the hardware adapters put on the kiosk's queue.

Everything physical (a button, a key on a USB keyboard, a card on a reader, a
reader unplugged) becomes one of these frozen records: the GPIO panel, the
keyboard and the readers speak this one vocabulary. The kiosk loop, the one thread that owns state,
takes them off the queue and decides what they mean; nothing in ``hardware/``
changes tournament state.

Which presses are *destructive* is decided here, because the debouncer must
know whether a short press may act or may only show a hint:

* ``prev_level``, ``undo`` and ``new`` act only on a long press (held past the
  threshold, 1.5 s by default). A short press emits :class:`ButtonHint` so the
  screen can say "hold to ...".
* Time changes: a short press of ``add_minute``/``remove_minute`` means one
  minute and a long press means five (:func:`minutes_for`). With auto-repeat
  on, a held minute button steps by one minute at most
  :data:`MAX_SHORT_MINUTE_STEPS` times before the long-press threshold; every
  step after that is a long press. So no gesture changes the time by more than
  five minutes without a long press.

>>> needs_long_press(Action.undo), needs_long_press(Action.next_level)
(True, False)
>>> minutes_for(ButtonPressed(Action.remove_minute, long=True, at=0.0))
-5
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum, unique
from typing import Final

__all__ = [
    "DESTRUCTIVE",
    "KEYBOARD_ONLY",
    "LONG_MINUTE_STEP",
    "MAX_SHORT_MINUTE_STEPS",
    "MINUTE_ACTIONS",
    "Action",
    "ButtonHint",
    "ButtonPressed",
    "ButtonsHeld",
    "CardRead",
    "Input",
    "ReaderStatus",
    "minutes_for",
    "needs_long_press",
]


@unique
class Action(StrEnum):
    """What a physical button is for; the value is what goes in the log."""

    # Clock display (the TV)
    pause = "pause"  # toggles pause / resume
    next_level = "next_level"
    prev_level = "prev_level"
    add_minute = "add_minute"
    remove_minute = "remove_minute"
    next_screen = "next_screen"
    find_seat = "find_seat"  # the seat finder's names now, on the wall or a table's screen
    undo = "undo"
    start = "start"
    new = "new"
    hand_for_hand = "hand_for_hand"  # toggles hand-for-hand play (C7), held
    # Table device
    bust = "bust"
    new_hand = "new_hand"
    clock = "clock"
    hand_done = "hand_done"
    seat_prev = "seat_prev"
    seat_next = "seat_next"
    ok = "ok"  # also confirms quitting from the keyboard
    # A USB keyboard at the TD's desk (or a developer's window)
    language = "language"
    quit = "quit"
    walk_in = "walk_in"  # a player without a card: type the name
    sit_and_go = "sit_and_go"  # start the next Sit & Go beside the main event


#: Actions only a keyboard gives: quitting the kiosk, and a name to type.
KEYBOARD_ONLY: Final = frozenset({Action.quit, Action.walk_in})

#: Actions that only act on a long press; a short press shows a hint.
DESTRUCTIVE: Final = frozenset({Action.prev_level, Action.undo, Action.new})

#: The buttons that change the clock's time, and may auto-repeat when held.
MINUTE_ACTIONS: Final = frozenset({Action.add_minute, Action.remove_minute})

#: Minutes changed by a long press of a minute button (a short press is one).
LONG_MINUTE_STEP: Final = 5

#: One-minute steps a single held minute button may make before the long-press
#: threshold; more than this needs a long press (a time change over 5 minutes).
MAX_SHORT_MINUTE_STEPS: Final = 5


def needs_long_press(action: Action) -> bool:
    """True for the actions a short press must not trigger."""
    return action in DESTRUCTIVE


@dataclass(frozen=True)
class ButtonPressed:
    """A button was pressed: ``long`` when it was held past the threshold."""

    action: Action
    long: bool
    at: float


@dataclass(frozen=True)
class ButtonHint:
    """A destructive action was pressed short: show "hold to ..." for it."""

    action: Action
    at: float


@dataclass(frozen=True)
class ButtonsHeld:
    """Two or more buttons held together for 3 s: show the on-screen help."""

    actions: frozenset[Action]
    at: float


@dataclass(frozen=True)
class CardRead:
    """A card UID (upper-case hex or decimal digits) was read by ``reader``.

    Only the tag's UID is passed on; bank card numbers are refused by the store.
    """

    uid: str
    reader: str
    at: float


@dataclass(frozen=True)
class ReaderStatus:
    """A card reader was (re)connected or lost; ``detail`` says why."""

    reader: str
    connected: bool
    detail: str
    at: float


#: Everything the hardware adapters put on the queue.
Input = ButtonPressed | ButtonHint | ButtonsHeld | CardRead | ReaderStatus


def minutes_for(press: ButtonPressed) -> int:
    """Minutes a minute-button press changes the clock by (0 for other buttons).

    >>> minutes_for(ButtonPressed(Action.add_minute, long=False, at=0.0))
    1
    >>> minutes_for(ButtonPressed(Action.pause, long=True, at=0.0))
    0
    """
    if press.action not in MINUTE_ACTIONS:
        return 0
    step = LONG_MINUTE_STEP if press.long else 1
    return step if press.action is Action.add_minute else -step
