"""The one place in the kiosk that reads a clock.

Durations use the monotonic clock, because a Pi without a real-time clock
boots with a wrong date and jumps when NTP arrives. Shared tournament time
is the monotonic clock plus an offset (zero until peer sync measures one).

The demo runs on :class:`SimulatedTime` instead: shared time moves in whole
steps, and only when told, so the same seed gives the same night whatever
the machine, the window size or the frame rate.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["SharedClock", "SimulatedClock", "SimulatedTime", "real_time_pacer", "time_of_day"]


def time_of_day() -> str:
    """The local time as the wall shows it ("21:47"); display only, never in a rule."""
    return time.strftime("%H:%M")


@dataclass
class SharedClock:
    """The one clock every device's tournament time is read from."""

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


@dataclass
class SimulatedTime:
    """Time that moves only when told, in whole steps of shared time: the demo's night.

    Shared time is ``start`` plus a whole number of ``step`` seconds, so it is
    exact, and the same however the steps are grouped into calls (a frame of
    ten steps or ten frames of one) and whatever ``speed`` is. Each step runs
    the ``on_step`` callbacks with shared time already moved on, so what they
    do is stamped with that step's time. The same time reads three ways:

    - :meth:`shared`, the tournament's time (:class:`SimulatedClock`);
    - calling it, a monotonic clock for the loop's timers: shared time
      slowed down by ``speed``, as real seconds pass in a fast-forward;
    - :meth:`wall`, the store's wall clock (``received_at``, the night's
      date): ``wall_start`` plus the shared seconds gone.

    >>> sim = SimulatedTime(speed=30.0)
    >>> seen = []
    >>> sim.on_step.append(lambda: seen.append(sim.shared()))
    >>> sim.advance_shared(2.5)
    >>> seen, sim.shared(), sim()
    ([1001.0, 1002.0], 1002.0, 1000.0666666666667)
    >>> sim.advance_shared(0.5)
    >>> seen[-1]
    1003.0
    """

    speed: float = 1.0
    #: Shared seconds per step.
    step: float = 1.0
    #: Shared (and monotonic) time before the first step.
    start: float = 1000.0
    #: Wall-clock time (Unix seconds) before the first step.
    wall_start: float = 0.0
    #: Steps taken.
    steps: int = 0
    on_step: list[Callable[[], None]] = field(default_factory=list, repr=False)
    #: Shared seconds asked for so far; the steps follow as whole steps fit in.
    _asked: float = field(default=0.0, init=False, repr=False)

    @property
    def elapsed(self) -> float:
        """Shared seconds since ``start``: a whole number of steps."""
        return self.steps * self.step

    def shared(self) -> float:
        return self.start + self.elapsed

    def wall(self) -> float:
        return self.wall_start + self.elapsed

    def __call__(self) -> float:
        return self.start + self.elapsed / self.speed

    def advance_shared(self, seconds: float) -> None:
        """Move on by ``seconds`` of shared time, one whole step at a time."""
        self.run_to(self._asked + seconds)

    def advance(self, seconds: float) -> None:
        """Move on by ``seconds`` of the monotonic clock (``seconds * speed`` shared)."""
        self.advance_shared(seconds * self.speed)

    def run_to(self, elapsed: float) -> None:
        """Take every whole step up to ``elapsed`` shared seconds since ``start``."""
        self._asked = max(self._asked, elapsed)
        # A millionth of a step of slack: thirty calls of a thirtieth of a step
        # add up to a hair under one step in floating point, and must take it.
        while (self.steps + 1 - 1e-6) * self.step <= self._asked:
            self.steps += 1
            for callback in self.on_step:
                callback()

    def clock(self) -> SimulatedClock:
        """The shared clock that reads this time."""
        return SimulatedClock(speed=self.speed, source=self)


@dataclass
class SimulatedClock(SharedClock):
    """A :class:`SharedClock` on a :class:`SimulatedTime`, read exactly.

    ``start + elapsed / speed`` times ``speed`` is not always ``start +
    elapsed`` in floating point; this reads the shared time itself, so an
    event's time does not depend on the speed. Build it with
    :meth:`SimulatedTime.clock`.
    """

    source: SimulatedTime = field(default_factory=SimulatedTime, repr=False)

    def now(self) -> float:
        return self.source.shared() + self.offset

    @property
    def base(self) -> float:
        return self.source.start * (1.0 - self.speed) + self.offset


def real_time_pacer(sim: SimulatedTime, *,
                    monotonic: Callable[[], float] = time.monotonic) -> Callable[[], None]:
    """A loop hook that keeps ``sim`` up with the real clock, ``sim.speed`` times as fast.

    The first call starts the count. A slow frame (a big window, a busy
    machine) takes several steps at once instead of one longer step, so
    the night's steps, and what they do, are the same at any frame rate.
    """
    origin: list[float] = []

    def pace() -> None:
        now = monotonic()
        if not origin:
            origin[:] = [now, sim.elapsed]
        sim.run_to(origin[1] + (now - origin[0]) * sim.speed)

    return pace
