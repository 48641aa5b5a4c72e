"""Slow pixel shift: the whole picture wanders a few pixels against burn-in.

A wall TV shows the same digits and frames for hours; on OLED and plasma
panels that burns in. Moving everything by one pixel every few minutes is
invisible from the bar and spreads the wear. The offset is a pure function
of (monotonic) time, so it needs no state and every redraw agrees on it.

The walk is a boustrophedon over the square ``[-a, a]²``: each step moves
one pixel, so no jump is ever visible, and every position gets equal time.
"""

from __future__ import annotations

from functools import cache
from typing import Final

__all__ = ["SHIFT_PERIOD", "amplitude_for", "next_shift_at", "pixel_shift"]

#: Seconds between one-pixel steps.
SHIFT_PERIOD: Final = 180.0


def amplitude_for(height: int) -> int:
    """How far the picture may wander: 4 px at 1080p, 8 px at 4K, 2 px at 720p.

    >>> amplitude_for(720), amplitude_for(1080), amplitude_for(2160)
    (2, 4, 8)
    """
    return max(1, height // 270)


@cache
def _walk(amplitude: int) -> tuple[tuple[int, int], ...]:
    steps: list[tuple[int, int]] = []
    span = range(-amplitude, amplitude + 1)
    for row, y in enumerate(span):
        xs = list(span) if row % 2 == 0 else list(reversed(span))
        steps.extend((x, y) for x in xs)
    # Walk back up the same path so the last step is next to the first.
    return tuple(steps + steps[-2:0:-1])


def pixel_shift(t: float, amplitude: int, period: float = SHIFT_PERIOD) -> tuple[int, int]:
    """The (dx, dy) offset at time ``t`` (seconds); 0 amplitude means none.

    >>> pixel_shift(0.0, 2), pixel_shift(179.9, 2), pixel_shift(180.0, 2)
    ((-2, -2), (-2, -2), (-1, -2))
    >>> pixel_shift(1e6, 0)
    (0, 0)
    """
    if amplitude <= 0 or period <= 0:
        return (0, 0)
    walk = _walk(amplitude)
    return walk[int(t // period) % len(walk)]


def next_shift_at(t: float, period: float = SHIFT_PERIOD) -> float:
    """When the offset next changes.

    >>> next_shift_at(10.0)
    180.0
    """
    return (t // period + 1) * period
