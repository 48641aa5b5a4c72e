"""The one place in the kiosk that reads a clock.

Durations use the monotonic clock, because a Pi without a real-time clock
boots with a wrong date and jumps when NTP arrives. Shared tournament time
is the monotonic clock plus an offset (zero until peer sync measures one).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["SharedClock", "time_of_day"]


def time_of_day() -> str:
    """The local time as the wall shows it ("21:47"); display only, never in a rule."""
    return time.strftime("%H:%M")


@dataclass
class SharedClock:
    offset: float = 0.0
    #: Multiplies the passage of time: the demo runs a night in fast-forward.
    speed: float = 1.0
    #: The monotonic source; tests pass a clock they move by hand.
    source: Callable[[], float] = field(default=time.monotonic, repr=False)

    def __post_init__(self) -> None:
        self._origin = self.source()

    def now(self) -> float:
        elapsed = self.source() - self._origin
        return self._origin + elapsed * self.speed + self.offset

    @property
    def base(self) -> float:
        """Shared time is ``source() * speed + base``: what another process needs.

        The monotonic clock is the machine's, so a second process on the same
        device (the terminal's commands beside a kiosk) gets the same shared
        time from this and the speed; at speed 1 it is the offset.
        """
        return self._origin * (1.0 - self.speed) + self.offset

    def follow(self, base: float, speed: float) -> None:
        """Run as a clock with that base and speed runs (see :attr:`base`)."""
        self.speed = speed
        self.offset = base - self._origin * (1.0 - speed)
