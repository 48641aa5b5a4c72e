"""The tournament clock, computed from state and shared time.

The clock stores one number: how far play has advanced through the
structure (``position``, in seconds of structure time) at the moment it last
started running. Everything the screens show (current level, remaining time,
time to the next break, automatic level changes) is computed from that and
``now``, so every device shows the same thing without an event per second.
"""

from __future__ import annotations

from dataclasses import replace

from rules.errors import RulesError
from rules.records import RecordMethods, record
from rules.structure import Break, Level, Structure

__all__ = [
    "ClockAlreadyStarted",
    "ClockNotRunning",
    "ClockNotStarted",
    "ClockReading",
    "ClockRunning",
    "ClockState",
    "LastLevel",
    "NoSuchLevel",
    "adjust",
    "break_ends",
    "heads_up_begins",
    "jump",
    "level_for_hand",
    "pause",
    "period_start",
    "read",
    "restore",
    "resume",
    "start",
]


class ClockNotStarted(RulesError, ValueError):
    messages = {
        "nn": "Klokka er ikkje starta",
        "nb": "Klokken er ikke startet",
        "da": "Uret er ikke startet",
        "en": "The clock has not been started",
    }


class ClockAlreadyStarted(RulesError, ValueError):
    messages = {
        "nn": "Klokka er allereie starta",
        "nb": "Klokken er allerede startet",
        "da": "Uret er allerede startet",
        "en": "The clock is already started",
    }


class ClockNotRunning(RulesError, ValueError):
    messages = {
        "nn": "Klokka er allereie stoppa",
        "nb": "Klokken er allerede stoppet",
        "da": "Uret er allerede stoppet",
        "en": "The clock is already paused",
    }


class ClockRunning(RulesError, ValueError):
    messages = {
        "nn": "Klokka går allereie",
        "nb": "Klokken går allerede",
        "da": "Uret kører allerede",
        "en": "The clock is already running",
    }


class NoSuchLevel(RulesError, IndexError):
    messages = {
        "nn": "Det finst ikkje noko nivå {number} i strukturen",
        "nb": "Det finnes ikke noe nivå {number} i strukturen",
        "da": "Der er intet niveau {number} i strukturen",
        "en": "There is no level {number} in the structure",
    }


class LastLevel(NoSuchLevel):
    """Past the end: named by the last level's number as the wall shows it
    (levels only; breaks are not counted), not by the period's index."""

    messages = {
        "nn": "Nivå {number} er det siste nivået i strukturen; det kjem ikkje fleire",
        "nb": "Nivå {number} er det siste nivået i strukturen; det kommer ikke flere",
        "da": "Niveau {number} er det sidste niveau i strukturen; der kommer ikke flere",
        "en": "Level {number} is the last level in the structure; there are no more",
    }


@record
class ClockState(RecordMethods):
    """What the log says about the clock.

    ``since`` is the shared time the clock last started running, or None
    while paused. ``heads_up_from`` is the first period index that runs at
    the heads-up length (C4), set once play becomes heads-up.
    """

    started: bool = False
    running: bool = False
    position: float = 0.0
    since: float | None = None
    heads_up_from: int | None = None
    #: Structure positions where a running clock stops by itself and waits for
    #: the TD: the ends of the breaks, when the tournament does not resume after
    #: a break on its own (``resume_after_break`` false). Empty: never waits.
    holds: tuple[float, ...] = ()

    def _hold(self) -> float | None:
        return next((h for h in self.holds if h > self.position), None)

    def position_at(self, now: float) -> float:
        if self.running and self.since is not None:
            position = self.position + max(0.0, now - self.since)
            hold = self._hold()
            return position if hold is None else min(position, hold)
        return self.position

    def waiting_at(self, now: float) -> bool:
        """True when the clock runs but stands at a break's end, waiting for the TD.

        >>> c = ClockState(started=True, running=True, since=0.0, holds=(100.0,))
        >>> c.waiting_at(99.0), c.waiting_at(100.0), c.position_at(500.0)
        (False, True, 100.0)
        """
        if not (self.running and self.since is not None):
            return False
        hold = self._hold()
        return hold is not None and self.position + max(0.0, now - self.since) >= hold


@record
class ClockReading(RecordMethods):
    """What the screens show at one moment."""

    period_index: int
    period: Level | Break
    level_number: int | None
    #: Seconds left in the current period; None when the last level runs on.
    remaining: float | None
    elapsed_in_period: float
    next_level: Level | None
    #: Seconds until the next break starts; None when no break is ahead.
    until_break: float | None
    #: Effective playing time so far: breaks and pauses excluded (C3).
    playing_time: float
    running: bool
    started: bool
    #: A break is over and the clock waits for the TD to resume play.
    waiting: bool = False

    @property
    def on_break(self) -> bool:
        return isinstance(self.period, Break)


def _durations(structure: Structure, clock: ClockState) -> list[float]:
    out: list[float] = []
    for index, period in enumerate(structure.periods):
        seconds = float(period.seconds)
        if (isinstance(period, Level) and structure.heads_up_seconds is not None
                and clock.heads_up_from is not None and index >= clock.heads_up_from):
            seconds = float(structure.heads_up_seconds)
        out.append(seconds)
    return out


def _locate(durations: list[float], position: float) -> tuple[int, float]:
    """Period index and the start of that period, for a structure position.

    The last period runs on without end: nothing is after it to change to.
    """
    start = 0.0
    last = len(durations) - 1
    for index, seconds in enumerate(durations):
        if index == last or position < start + seconds:
            return index, start
        start += seconds
    raise AssertionError("unreachable: structures are never empty")


def read(structure: Structure, clock: ClockState, now: float) -> ClockReading:
    """Where the tournament stands at shared time ``now``.

    >>> from rules.structure import preset
    >>> s = preset("pf-pokerklub")
    >>> c = start(ClockState(), at=1000.0)
    >>> r = read(s, c, now=1000.0 + 1800 + 60)   # one minute into level 2
    >>> r.level_number, r.remaining, r.period.big_blind, r.until_break
    (2, 1740.0, 400, 1740.0)
    >>> read(s, pause(c, at=1000.0 + 1800 + 60), now=99999.0).remaining
    1740.0
    """
    durations = _durations(structure, clock)
    position = clock.position_at(now)
    waiting = clock.waiting_at(now)
    # Waiting at a break's end is still the break (at 0:00), not the next level.
    index, start_at = _locate(durations, position - 1e-6 if waiting else position)
    period = structure.periods[index]
    elapsed = position - start_at
    last = index == len(durations) - 1
    remaining = None if last else max(0.0, durations[index] - elapsed)
    next_level = next(
        (p for p in structure.periods[index + 1:] if isinstance(p, Level)), None)
    until_break: float | None = None
    if not isinstance(period, Break) and remaining is not None:
        ahead = remaining
        for later, p in enumerate(structure.periods[index + 1:], index + 1):
            if isinstance(p, Break):
                until_break = ahead
                break
            ahead += durations[later]
    breaks_done = sum(
        d for d, p in zip(durations[:index], structure.periods[:index], strict=True)
        if isinstance(p, Break))
    playing = position - breaks_done - (elapsed if isinstance(period, Break) else 0.0)
    return ClockReading(
        period_index=index, period=period, level_number=structure.level_number(index),
        remaining=remaining, elapsed_in_period=elapsed, next_level=next_level,
        until_break=until_break, playing_time=playing, running=clock.running,
        started=clock.started, waiting=waiting,
    )


def period_start(structure: Structure, clock: ClockState, index: int) -> float:
    """The structure position at which period ``index`` begins."""
    return sum(_durations(structure, clock)[:index])


def start(clock: ClockState, *, at: float) -> ClockState:
    if clock.started:
        raise ClockAlreadyStarted()
    return replace(clock, started=True, running=True, since=at)


def pause(clock: ClockState, *, at: float) -> ClockState:
    if not clock.started:
        raise ClockNotStarted()
    if not clock.running:
        raise ClockNotRunning()
    return replace(clock, running=False, position=clock.position_at(at), since=None)


def resume(clock: ClockState, *, at: float) -> ClockState:
    if not clock.started:
        raise ClockNotStarted()
    if clock.running:
        raise ClockRunning()
    return replace(clock, running=True, since=at)


def jump(structure: Structure, clock: ClockState, index: int, *, at: float) -> ClockState:
    """Move to the start of period ``index``, keeping running or paused.

    >>> from rules.structure import preset
    >>> s = preset("pf-pokerklub")
    >>> c = jump(s, start(ClockState(), at=0.0), 3, at=10.0)
    >>> read(s, c, now=10.0).level_number
    3
    >>> jump(s, c, 99, at=10.0)
    Traceback (most recent call last):
    ...
    rules.clock.LastLevel: Level 9 is the last level in the structure; there are no more
    """
    if index >= len(structure.periods):
        raise LastLevel(number=sum(1 for p in structure.periods if isinstance(p, Level)))
    if index < 0:
        raise NoSuchLevel(number=0)
    position = period_start(structure, clock, index)
    since = at if clock.running else None
    return replace(clock, position=position, since=since)


def adjust(structure: Structure, clock: ClockState, seconds: float, *, at: float) -> ClockState:
    """Give the current period ``seconds`` more (or, if negative, fewer) seconds.

    The change stays inside the current period: adding time can refill the
    level to its full length, and taking time can end it now, but neither
    skips into a neighbouring level by accident.

    >>> from rules.structure import preset
    >>> s = preset("pf-pokerklub")
    >>> c = start(ClockState(), at=0.0)
    >>> read(s, adjust(s, c, 60, at=120.0), now=120.0).remaining
    1740.0
    >>> read(s, adjust(s, c, 600, at=120.0), now=120.0).remaining
    1800.0
    """
    durations = _durations(structure, clock)
    position = clock.position_at(at)
    index, start_at = _locate(durations, position)
    end = start_at + durations[index]
    new_position = min(max(position - seconds, start_at), end)
    since = at if clock.running else None
    return replace(clock, position=new_position, since=since)


def restore(clock: ClockState, position: float) -> ClockState:
    """Paused at a saved position: how a lone device comes back after a power cut."""
    return replace(clock, running=False, position=position, since=None)


def heads_up_begins(structure: Structure, clock: ClockState, *, at: float) -> ClockState:
    """C4: from the level after this one, levels last ``heads_up_seconds``."""
    if clock.heads_up_from is not None:
        return clock
    index, _ = _locate(_durations(structure, clock), clock.position_at(at))
    changed = replace(clock, heads_up_from=index + 1)
    if clock.holds:
        changed = replace(changed, holds=break_ends(structure, changed))
    return changed


def break_ends(structure: Structure, clock: ClockState) -> tuple[float, ...]:
    """The structure positions at which the breaks end: where a clock that
    does not resume after a break by itself waits for the TD.

    >>> from rules.structure import preset
    >>> s = preset("pf-pokerklub")
    >>> c = replace(start(ClockState(), at=0.0), holds=break_ends(s, ClockState()))
    >>> end = c.holds[0]
    >>> r = read(s, c, now=end + 600)   # ten minutes after the break should have ended
    >>> r.on_break, r.remaining, r.waiting
    (True, 0.0, True)
    >>> r = read(s, resume(pause(c, at=end + 600), at=end + 600), now=end + 660)
    >>> r.on_break, r.waiting, r.elapsed_in_period
    (False, False, 60.0)
    """
    durations = _durations(structure, clock)
    ends: list[float] = []
    at = 0.0
    for seconds, period in zip(durations, structure.periods, strict=True):
        at += seconds
        if isinstance(period, Break):
            ends.append(at)
    return tuple(ends)


def level_for_hand(structure: Structure, clock: ClockState, hand_started_at: float) -> Level:
    """C1: the blinds of a hand are those of the level when it began.

    A level that the clock announces mid-hand applies from the next hand. A
    hand begun during a break plays the level after it.

    >>> from rules.structure import preset
    >>> s = preset("pf-pokerklub")
    >>> c = start(ClockState(), at=0.0)
    >>> level_for_hand(s, c, hand_started_at=1799.0).big_blind   # dealt at 29:59
    200
    >>> level_for_hand(s, c, hand_started_at=1801.0).big_blind
    400
    """
    reading = read(structure, clock, hand_started_at)
    if isinstance(reading.period, Level):
        return reading.period
    assert reading.next_level is not None, "a structure never ends on a break"
    return reading.next_level
