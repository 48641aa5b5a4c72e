"""After a break: the clock runs on by itself, or waits for the TD (``resume_after_break``).

Waiting is computed from the log alone (no wall clock, no event per second),
so every device folding the same log shows the same wait.
"""

from __future__ import annotations

from random import Random

from rules import clock as clocks
from rules.commands import (
    CheckIn,
    CreateTournament,
    DrawSeats,
    ResumeClock,
    StartClock,
    TogglePause,
    execute,
)
from rules.reducer import apply
from rules.state import Tournament
from rules.structure import Break, preset

S = preset("pf-pokerklub")
FIRST_BREAK = next(i for i, p in enumerate(S.periods) if isinstance(p, Break))
BREAK_END = sum(p.seconds for p in S.periods[:FIRST_BREAK + 1])


def night(resume: bool) -> tuple[Tournament, list[object]]:
    state = Tournament()
    rng = Random(1)
    events: list[object] = []
    events += execute(state, CreateTournament("Fredag", S, resume_after_break=resume),
                      now=0.0, rng=rng)
    for n in range(4):
        events += execute(state, CheckIn(f"p{n}", f"Player {n}"), now=1.0, rng=rng)
    events += execute(state, DrawSeats(), now=2.0, rng=rng)
    events += execute(state, StartClock(), now=100.0, rng=rng)
    return state, events


def reading(state: Tournament, now: float) -> clocks.ClockReading:
    assert state.config is not None
    return clocks.read(state.config.structure, state.clock, now)


def test_by_default_the_next_level_starts_by_itself_after_a_break() -> None:
    state, _ = night(resume=True)
    r = reading(state, 100.0 + BREAK_END + 60)
    assert not r.on_break and not r.waiting and r.elapsed_in_period == 60.0


def test_waiting_holds_the_clock_at_the_end_of_the_break_until_the_td_resumes() -> None:
    state, events = night(resume=False)
    later = 100.0 + BREAK_END + 3600  # an hour after the break should have ended
    r = reading(state, later)
    assert r.on_break and r.waiting and r.remaining == 0.0 and r.running
    assert r.period_index == FIRST_BREAK
    # Mid-level and mid-break, the clock does not wait.
    assert not reading(state, 100.0 + BREAK_END - 1).waiting
    assert not reading(state, 200.0).waiting

    events += execute(state, TogglePause(), now=later, rng=Random(2))
    r = reading(state, later + 90)
    assert not r.on_break and not r.waiting and r.elapsed_in_period == 90.0
    assert r.period_index == FIRST_BREAK + 1
    # The same log folds to the same wait on any device.
    again = Tournament()
    for event in events:
        apply(again, event)  # type: ignore[arg-type]
    assert again.clock == state.clock


def test_resume_clock_also_ends_the_wait_and_the_next_break_waits_again() -> None:
    state, _ = night(resume=False)
    later = 100.0 + BREAK_END + 10
    execute(state, ResumeClock(), now=later, rng=Random(2))
    assert state.clock.running and state.clock.position == BREAK_END
    second = state.clock.holds[1]
    r = reading(state, later + (second - BREAK_END) + 5)
    assert r.on_break and r.waiting


def test_pausing_during_the_wait_is_not_needed_the_first_press_resumes() -> None:
    state, _ = night(resume=False)
    later = 100.0 + BREAK_END + 10
    events = execute(state, TogglePause(), now=later, rng=Random(2))
    assert [e.kind.value for e in events] == ["clock-paused", "clock-resumed"]
    assert state.clock.running
