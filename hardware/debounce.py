"""Debounce, long press, auto-repeat and chords, as pure logic over edges.

Nothing here touches gpiozero or reads a pin: the caller feeds raw edges
(``pressed(action, at)`` / ``released(action, at)``) and calls ``tick(now)``
now and then; each call returns the input messages that became due, in time
order. Time comes in through the arguments or the injected clock, so tests
drive a bounce storm with exact timestamps.

How a button is read:

* **Press: leading edge.** The first falling edge of a released button is a
  press at once, so a button feels instant, and the bounces that follow
  within the debounce window cannot add a second press (a bounce storm is one
  press).
* **Release: trailing edge.** A release counts only once the contact has
  stayed open for the debounce window, so a jittery contact during a long hold
  does not split it into two short presses.
* **Short or long.** A press held past ``long_press`` is reported as a long
  press the moment the threshold passes (not on release); a shorter press is
  reported when the release is certain. A short press of a destructive action
  gives a :class:`~hardware.inputs.ButtonHint` instead.
* **Auto-repeat** (minute buttons, optional): one-minute steps at once and
  then every ``repeat_interval`` after ``repeat_delay``, at most five before
  the long-press threshold; from the threshold on, every step is a long one.
* **Chords.** A button pressed while another is held makes both (or all) a
  chord: none of them reports a press of its own until it is released, and
  when they have all been held together for ``chord`` seconds the chord is
  reported once as :class:`~hardware.inputs.ButtonsHeld`.

>>> now = [0.0]
>>> d = Debouncer([Action.next_level], clock=lambda: now[0])
>>> d.pressed(Action.next_level, at=0.0)
[]
>>> d.released(Action.next_level, at=0.2)
[]
>>> d.tick(0.25)
[ButtonPressed(action=<Action.next_level: 'next_level'>, long=False, at=0.23)]
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from hardware.inputs import (
    MAX_SHORT_MINUTE_STEPS,
    Action,
    ButtonHint,
    ButtonPressed,
    ButtonsHeld,
    Input,
    needs_long_press,
)

__all__ = ["Debouncer", "Timing"]


@dataclass(frozen=True)
class Timing:
    """Every duration the debouncer uses, in seconds."""

    debounce: float = 0.03
    long_press: float = 1.5
    repeat_delay: float = 0.5
    repeat_interval: float = 0.25
    long_repeat_interval: float = 1.0
    chord: float = 3.0

    def __post_init__(self) -> None:
        for name in ("debounce", "long_press", "repeat_delay", "repeat_interval",
                     "long_repeat_interval", "chord"):
            value = getattr(self, name)
            if not (isinstance(value, int | float) and math.isfinite(value) and value >= 0):
                raise ValueError(f"{name} must be a finite number >= 0, not {value!r}")
        if self.repeat_interval <= 0 or self.long_repeat_interval <= 0:
            raise ValueError("repeat intervals must be > 0")

    def short_steps(self) -> int:
        """How many one-minute steps a held repeating button makes before going long."""
        steps = 1
        while (steps < MAX_SHORT_MINUTE_STEPS
               and self.repeat_delay + (steps - 1) * self.repeat_interval < self.long_press):
            steps += 1
        return steps


class _Button:
    """One button's raw and debounced state."""

    def __init__(self, action: Action, timing: Timing, repeat: bool) -> None:
        self.action = action
        self.timing = timing
        self.repeat = repeat
        self.raw = False  # the contact is closed right now
        self.raw_since = -math.inf  # when ``raw`` last changed
        self.held = False  # debounced state
        self.down_at = 0.0  # when the debounced press began
        self.long_sent = False
        self.step = 0  # next auto-repeat step
        self.in_chord = False

    def held_at(self, t: float) -> bool:
        """Whether the button was held at ``t`` (no later than the last edge)."""
        return self.held and (self.raw or self.raw_since > t)

    def hold_end(self) -> float:
        """When the contact opened, if a release is pending; else infinity."""
        return self.raw_since if self.held and not self.raw else math.inf

    def release_due(self) -> float | None:
        if self.held and not self.raw:
            return self.raw_since + self.timing.debounce
        return None

    def step_at(self, k: int) -> tuple[float, bool]:
        """When auto-repeat step ``k`` falls due, and whether it is a long one."""
        t = self.timing
        short = t.short_steps()
        if k == 0:
            return self.down_at, False
        if k < short:
            return self.down_at + t.repeat_delay + (k - 1) * t.repeat_interval, False
        return self.down_at + t.long_press + (k - short) * t.long_repeat_interval, True

    def next_due(self) -> float | None:
        """When this button next has something to say, if it is held."""
        if not self.held:
            return None
        candidates = []
        release = self.release_due()
        if release is not None:
            candidates.append(release)
        if not self.in_chord:
            if self.repeat:
                candidates.append(self.step_at(self.step)[0])
            elif not self.long_sent:
                candidates.append(self.down_at + self.timing.long_press)
        return min(candidates) if candidates else None

    def due(self, now: float) -> list[Input]:
        """Presses that fell due while held, up to ``now``, but not after the contact opened."""
        out: list[Input] = []
        if not self.held or self.in_chord:
            return out
        end = self.hold_end()
        if self.repeat:
            while True:
                at, long = self.step_at(self.step)
                if at > now or at >= end:
                    break
                out.append(ButtonPressed(self.action, long=long, at=at))
                self.step += 1
        elif not self.long_sent:
            at = self.down_at + self.timing.long_press
            if at <= now and at < end:
                out.append(ButtonPressed(self.action, long=True, at=at))
                self.long_sent = True
        return out

    def press(self, at: float) -> bool:
        """A closing edge; True when it starts a new debounced press."""
        if self.raw:
            return False
        self.raw, self.raw_since = True, at
        if self.held:
            return False  # a bounce while held, or a contact that reopened and closed
        self.held, self.down_at = True, at
        self.long_sent, self.step, self.in_chord = False, 0, False
        return True

    def release(self, at: float) -> None:
        """An opening edge; it counts once the contact stays open (``settle``)."""
        if self.raw:
            self.raw, self.raw_since = False, at

    def settle(self, now: float) -> list[Input]:
        """End the press if the contact has stayed open for the debounce window."""
        due = self.release_due()
        if due is None or due > now:
            return []
        out = self.due(due)
        self.held = False
        if not (self.in_chord or self.long_sent or self.repeat):
            if needs_long_press(self.action):
                out.append(ButtonHint(self.action, at=due))
            else:
                out.append(ButtonPressed(self.action, long=False, at=due))
        return out


class Debouncer:
    """Turns raw edges of a set of buttons into input messages.

    ``repeat`` lists the actions that auto-repeat when held (the minute buttons
    on a panel that wants it). Methods return the messages that fell due.
    """

    def __init__(
        self,
        actions: Iterable[Action],
        *,
        clock: Callable[[], float] = time.monotonic,
        timing: Timing | None = None,
        repeat: Iterable[Action] = (),
    ) -> None:
        self.timing = timing or Timing()
        self._clock = clock
        repeating = frozenset(repeat)
        self._buttons = {a: _Button(a, self.timing, a in repeating) for a in actions}
        unknown = repeating - self._buttons.keys()
        if unknown:
            raise ValueError(f"repeat names buttons that are not there: {sorted(unknown)}")
        self._now = -math.inf
        self._chord: set[Action] = set()
        self._chord_due: float | None = None

    @property
    def actions(self) -> frozenset[Action]:
        return frozenset(self._buttons)

    def is_held(self, action: Action) -> bool:
        """The debounced state of one button."""
        return self._buttons[action].held

    def next_deadline(self) -> float | None:
        """The earliest time a ``tick`` could emit something (None: nothing pending)."""
        times = [t for b in self._buttons.values() if (t := b.next_due()) is not None]
        if self._chord_due is not None:
            times.append(self._chord_due)
        return min(times) if times else None

    def pressed(self, action: Action, at: float | None = None) -> list[Input]:
        """The contact of ``action`` closed (a falling edge with pull-ups)."""
        now = self._time(at)
        out = self._advance(now)
        button = self._buttons[action]
        if button.press(now):
            others = {a for a, b in self._buttons.items() if a is not action and b.held_at(now)}
            if others:
                self._chord |= others | {action}
                for member in self._chord:
                    self._buttons[member].in_chord = True
                self._chord_due = now + self.timing.chord
            out += button.due(now)
        return out

    def released(self, action: Action, at: float | None = None) -> list[Input]:
        """The contact of ``action`` opened (a rising edge with pull-ups)."""
        now = self._time(at)
        out = self._advance(now)
        self._buttons[action].release(now)
        return out

    def tick(self, now: float | None = None) -> list[Input]:
        """Emit what fell due by ``now``: long presses, repeats, releases, chords."""
        return self._advance(self._time(now))

    def _time(self, at: float | None) -> float:
        t = self._clock() if at is None else at
        # Edges from another thread may carry a clock reading a hair older
        # than one already seen; time never runs backwards in here.
        self._now = max(self._now, t)
        return self._now

    def _advance(self, now: float) -> list[Input]:
        out: list[Input] = []
        if self._chord_due is not None and self._chord_due <= now:
            held = frozenset(a for a in self._chord if self._buttons[a].held_at(self._chord_due))
            if len(held) >= 2:
                out.append(ButtonsHeld(held, at=self._chord_due))
            self._chord_due = None
        for action, button in self._buttons.items():
            out += button.due(now)
            was_held = button.held
            out += button.settle(now)
            if was_held and not button.held:
                self._chord.discard(action)
        if not self._chord:
            self._chord_due = None
        out.sort(key=lambda message: message.at)
        return out
