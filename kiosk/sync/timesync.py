"""Shared time: an NTP-style offset to the time reference over the peer link.

The reference is the display, or the console when no display is linked (the
lowest device id breaks ties). Each exchange gives four times: ``t0`` our
clock at sending, ``t1``/``t2`` the reference's shared time at receiving and
replying, ``t3`` our clock at the reply. The sample with the smallest round
trip of the last few is the one least disturbed by Wi-Fi queueing, so that
one is used. Without a fresh, tight sample the estimate says *uncertain*, and
the display shows that rather than a wrong time. Pure: times are passed in.

All four times are shared (or local base) seconds, which run ``speed`` times
faster than real ones when a night is fast-forwarded (``pubpoker kiosk
--speed``). The limits on round trip and age are about the network, so they
are in real seconds and scale with the speed. Every device of a night runs at
the same speed; the offset is then constant between samples.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

from kiosk.sync.roles import Role, parse_roles
from rules.records import RecordMethods, record

__all__ = ["OffsetEstimator", "Sample", "TimeEstimate", "choose_reference"]


@record
class Sample(RecordMethods):
    offset: float
    delay: float
    at: float

    @classmethod
    def of(cls, t0: float, t1: float, t2: float, t3: float) -> Sample:
        """One exchange.

        >>> s = Sample.of(10.0, 3610.05, 3610.06, 10.11)
        >>> round(s.offset, 3), round(s.delay, 3)
        (3600.0, 0.1)
        """
        offset = ((t1 - t0) + (t2 - t3)) / 2
        delay = max(0.0, (t3 - t0) - (t2 - t1))
        return cls(offset, delay, t3)


@record
class TimeEstimate(RecordMethods):
    offset: float
    delay: float | None
    uncertain: bool
    reference: str | None


@dataclass
class OffsetEstimator:
    keep: int = 8
    #: A sample older than this (real seconds) is stale.
    fresh_for: float = 15.0
    #: A best round trip above this (real seconds) is too loose to trust.
    max_delay: float = 0.25
    #: Shared seconds per real second (the clock's ``speed``): samples are in
    #: shared seconds, so a 60× night's round trips look 60 times longer.
    speed: float = 1.0
    samples: deque[Sample] = field(default_factory=deque)
    reference: str | None = None

    def reset(self, reference: str | None) -> None:
        if reference != self.reference:
            self.samples.clear()
            self.reference = reference

    def add(self, sample: Sample) -> None:
        self.samples.append(sample)
        while len(self.samples) > self.keep:
            self.samples.popleft()

    def best(self) -> Sample | None:
        return min(self.samples, key=lambda s: s.delay, default=None)

    def estimate(self, now: float, current_offset: float, *, is_reference: bool
                 ) -> TimeEstimate:
        """The offset to use at local time ``now``.

        >>> e = OffsetEstimator()
        >>> e.estimate(0.0, 0.0, is_reference=False).uncertain
        True
        >>> e.add(Sample.of(10.0, 3610.05, 3610.06, 10.11))
        >>> est = e.estimate(11.0, 0.0, is_reference=False)
        >>> est.uncertain, round(est.offset)
        (False, 3600)

        At 60×, a 6 ms round trip is 0.36 shared seconds, still tight:

        >>> fast = OffsetEstimator(speed=60.0)
        >>> fast.add(Sample.of(10.0, 3610.18, 3610.18, 10.36))
        >>> fast.estimate(11.0, 0.0, is_reference=False).uncertain
        False
        """
        if is_reference:
            return TimeEstimate(current_offset, 0.0, False, self.reference)
        best = self.best()
        if best is None:
            return TimeEstimate(current_offset, None, True, self.reference)
        newest = max(s.at for s in self.samples)
        stale = now - newest > self.fresh_for * self.speed
        loose = best.delay > self.max_delay * self.speed
        return TimeEstimate(best.offset, best.delay, stale or loose, self.reference)


def choose_reference(devices: Iterable[tuple[str, str]]) -> str | None:
    """The time reference among ``(device_id, role)`` pairs: a display, else a console.

    >>> choose_reference([("b", "console"), ("c", "table"), ("a", "console")])
    'a'
    >>> choose_reference([("b", "console"), ("z", "display+console")])
    'z'
    """
    displays: list[str] = []
    consoles: list[str] = []
    for device_id, role in devices:
        try:
            roles = parse_roles(role)
        except ValueError:
            continue
        if Role.DISPLAY in roles:
            displays.append(device_id)
        elif Role.CONSOLE in roles:
            consoles.append(device_id)
    pool = displays or consoles
    return min(pool) if pool else None
