"""The TD's START is decided in the rules: draw, play on after a break, or start the clock."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.clock import ClockAlreadyStarted
from rules.commands import (
    CheckIn,
    CreateTournament,
    DrawSeats,
    PauseClock,
    ResumeClock,
    Start,
    StartClock,
    decide,
    execute,
    start_means,
)
from rules.errors import RulesError
from rules.events import ClockPaused, ClockResumed, ClockStarted, SeatsDrawn
from rules.refusals import NotEnoughPlayers, NoTournament
from rules.state import Phase, Tournament
from rules.structure import Break, preset

S = preset("pf-pokerklub")
FIRST_BREAK = next(i for i, p in enumerate(S.periods) if isinstance(p, Break))
BREAK_END = sum(p.seconds for p in S.periods[:FIRST_BREAK + 1])


def checked_in(players: int = 6, *, resume: bool = True) -> Tournament:
    state = Tournament()
    rng = Random(1)
    execute(state, CreateTournament("Fredag", S, resume_after_break=resume), now=0.0, rng=rng)
    for n in range(players):
        execute(state, CheckIn(f"p{n}", f"Player {n}"), now=1.0, rng=rng)
    return state


def kinds(events: tuple[object, ...]) -> list[str]:
    return [e.kind.value for e in events]  # type: ignore[attr-defined]


def test_start_in_check_in_is_the_seat_draw_the_same_draw_for_the_same_rng() -> None:
    state = checked_in()
    assert start_means(state, 5.0) == DrawSeats()
    started = decide(state, Start(), now=5.0, rng=Random(9))
    drawn = decide(state, DrawSeats(), now=5.0, rng=Random(9))
    assert started == drawn and isinstance(started[0], SeatsDrawn)
    assert started[0].seats == drawn[0].seats and len(started[0].seats) == 6


def test_start_in_check_in_with_too_few_players_is_refused_as_the_draw_is() -> None:
    state = checked_in(players=1)
    with pytest.raises(NotEnoughPlayers) as start_err:
        decide(state, Start(), now=5.0, rng=Random(1))
    with pytest.raises(NotEnoughPlayers) as draw_err:
        decide(state, DrawSeats(), now=5.0, rng=Random(1))
    assert start_err.value.translate("nn") == draw_err.value.translate("nn")


def test_start_after_the_draw_starts_the_clock() -> None:
    state = checked_in()
    execute(state, DrawSeats(), now=2.0, rng=Random(1))
    assert state.phase is Phase.SEATED
    assert decide(state, Start(), now=100.0, rng=Random(1)) == (ClockStarted(at=100.0),)


def test_start_with_the_clock_running_is_refused_as_start_clock_is() -> None:
    state = checked_in()
    execute(state, DrawSeats(), now=2.0, rng=Random(1))
    execute(state, Start(), now=100.0, rng=Random(1))
    with pytest.raises(ClockAlreadyStarted):
        decide(state, Start(), now=200.0, rng=Random(1))
    execute(state, PauseClock(), now=300.0, rng=Random(1))
    # Paused mid-level is not a break's end: START is still StartClock, still refused.
    assert start_means(state, 400.0) == StartClock()
    with pytest.raises(ClockAlreadyStarted):
        decide(state, Start(), now=400.0, rng=Random(1))


def test_C3_start_at_the_end_of_a_break_the_clock_waits_at_plays_on() -> None:
    state = checked_in(resume=False)
    execute(state, DrawSeats(), now=2.0, rng=Random(1))
    execute(state, Start(), now=100.0, rng=Random(1))
    before = 100.0 + BREAK_END - 1
    assert start_means(state, before) == StartClock()
    later = 100.0 + BREAK_END + 600
    assert state.clock.waiting_at(later)
    assert start_means(state, later) == ResumeClock()
    events = decide(state, Start(), now=later, rng=Random(1))
    assert events == decide(state, ResumeClock(), now=later, rng=Random(1))
    assert events == (ClockPaused(at=later), ClockResumed(at=later))
    execute(state, Start(), now=later, rng=Random(1))
    assert state.clock.running and not state.clock.waiting_at(later + 1)
    assert state.clock.position == BREAK_END


def test_start_without_a_tournament_is_refused() -> None:
    with pytest.raises(NoTournament):
        decide(Tournament(), Start(), now=0.0, rng=Random(1))


@settings(max_examples=60, deadline=None)
@given(players=st.integers(0, 12), draw=st.booleans(), start_at=st.floats(3.0, 500.0),
       now_after=st.floats(0.0, 3 * BREAK_END), resume=st.booleans(), pause=st.booleans())
def test_start_decides_exactly_what_the_shells_old_choice_did(
        players: int, draw: bool, start_at: float, now_after: float, resume: bool,
        pause: bool) -> None:
    """kiosk/controls.py chose DrawSeats, ResumeClock or StartClock; Start is that choice."""
    state = checked_in(players, resume=resume)
    if draw and players >= 2:
        execute(state, DrawSeats(), now=2.0, rng=Random(1))
        execute(state, StartClock(), now=start_at, rng=Random(1))
        if pause:
            execute(state, PauseClock(), now=start_at + 1, rng=Random(1))
    now = start_at + 1 + now_after
    if state.phase is Phase.CHECK_IN:
        old = DrawSeats()
    elif state.clock.started and state.clock.waiting_at(now):
        old = ResumeClock()
    else:
        old = StartClock()
    assert start_means(state, now) == old
    outcomes = []
    for command in (Start(), old):
        try:
            outcomes.append(decide(state, command, now=now, rng=Random(5)))
        except RulesError as err:
            outcomes.append(type(err))
    assert outcomes[0] == outcomes[1]
