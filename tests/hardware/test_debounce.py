"""The pure debouncer: edges and times in, messages out."""

from __future__ import annotations

import doctest
import importlib
import itertools

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hardware.debounce import Debouncer, Timing
from hardware.inputs import (
    Action,
    ButtonHint,
    ButtonPressed,
    ButtonsHeld,
    Input,
    minutes_for,
)


def never() -> float:
    raise AssertionError("the debouncer read the clock although every time was given")


@pytest.mark.parametrize("name", ["hardware.debounce", "hardware.inputs", "hardware.buttons"])
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0


@settings(max_examples=200, deadline=None)
@given(
    presses=st.lists(
        st.tuples(
            st.lists(st.floats(0.0001, 0.0004), min_size=0, max_size=49),  # bounce gaps
            st.floats(0.05, 3.0),  # how long the contact then stays closed
            st.floats(0.05, 1.0),  # and open afterwards
        ),
        min_size=1,
        max_size=6,
    )
)
def test_each_bouncy_press_is_exactly_one_message(
    presses: list[tuple[list[float], float, float]],
) -> None:
    d = Debouncer([Action.pause], clock=never)
    out: list[Input] = []
    held: list[float] = []  # from the first edge of the storm to the release
    t = 0.0
    for bounces, closed, opened in presses:
        start = t
        # A storm that starts closing and ends closed, then a clean hold.
        state = False
        for gap in [0.0, *bounces]:
            t += gap
            state = not state
            out += d.pressed(Action.pause, t) if state else d.released(Action.pause, t)
        if not state:
            out += d.pressed(Action.pause, t)
        t += closed
        held.append(t - start)
        assume(abs(t - start - 1.5) > 1e-6)
        out += d.tick(t)
        out += d.released(Action.pause, t)
        t += opened
        out += d.tick(t)
    assert len(out) == len(presses)
    assert [m.long for m in out if isinstance(m, ButtonPressed)] == [h >= 1.5 for h in held]
    assert all(a.at <= b.at for a, b in itertools.pairwise(out))


def test_a_chord_member_released_early_means_no_help() -> None:
    d = Debouncer([Action.bust, Action.ok], clock=never)
    assert d.pressed(Action.bust, 0.0) == []
    assert d.pressed(Action.ok, 0.5) == []
    assert d.released(Action.ok, 1.0) == []
    assert d.tick(10.0) == []  # and no long press for bust either: it was in a chord
    assert d.released(Action.bust, 10.0) == []
    assert d.tick(11.0) == []
    # After the chord, the buttons work alone again.
    d.pressed(Action.ok, 12.0)
    d.released(Action.ok, 12.1)
    assert d.tick(12.2) == [ButtonPressed(Action.ok, long=False, at=12.1 + 0.03)]


def test_three_buttons_held_report_all_three_once() -> None:
    d = Debouncer([Action.bust, Action.ok, Action.clock], clock=never)
    d.pressed(Action.bust, 0.0)
    d.pressed(Action.ok, 0.1)
    d.pressed(Action.clock, 0.2)
    assert d.tick(3.1) == []
    assert d.tick(3.2) == [ButtonsHeld(frozenset({Action.bust, Action.ok, Action.clock}), 3.2)]
    assert d.tick(9.0) == []


def test_a_press_after_a_long_press_alone_is_not_a_chord_of_the_past() -> None:
    d = Debouncer([Action.next_level, Action.pause], clock=never)
    d.pressed(Action.next_level, 0.0)
    assert d.tick(1.6) == [ButtonPressed(Action.next_level, long=True, at=1.5)]
    d.released(Action.next_level, 1.7)
    d.pressed(Action.pause, 1.71)  # the release is not certain yet: not a chord
    d.released(Action.pause, 1.9)
    assert d.tick(2.0) == [ButtonPressed(Action.pause, long=False, at=1.9 + 0.03)]


def test_auto_repeat_schedule_and_minutes() -> None:
    d = Debouncer([Action.remove_minute], clock=never, repeat=[Action.remove_minute])
    out = d.pressed(Action.remove_minute, 10.0)
    assert out == [ButtonPressed(Action.remove_minute, long=False, at=10.0)]
    out += d.tick(13.0)
    assert [m.at - 10.0 for m in out] == pytest.approx([0, 0.5, 0.75, 1.0, 1.25, 1.5, 2.5])
    assert sum(minutes_for(m) for m in out if isinstance(m, ButtonPressed)) == -5 - 5 - 5
    # No gesture changes the time by more than 5 minutes without a long press.
    short = [m for m in out if isinstance(m, ButtonPressed) and not m.long]
    assert sum(abs(minutes_for(m)) for m in short) <= 5
    assert all(m.at - 10.0 >= 1.5 for m in out if isinstance(m, ButtonPressed) and m.long)
    d.released(Action.remove_minute, 13.0)
    assert d.tick(14.0) == []


def test_hint_only_for_destructive_actions() -> None:
    d = Debouncer(list(Action), clock=never)
    got: dict[Action, type] = {}
    t = 0.0
    for action in Action:
        d.pressed(action, t)
        d.released(action, t + 0.1)
        (message,) = d.tick(t + 0.2)
        got[action] = type(message)
        t += 1.0
    assert {a for a, kind in got.items() if kind is ButtonHint} == {
        Action.prev_level, Action.undo, Action.new
    }


def test_clock_is_read_when_no_time_is_given() -> None:
    now = [5.0]
    d = Debouncer([Action.ok], clock=lambda: now[0])
    d.pressed(Action.ok)
    assert d.next_deadline() == 6.5
    now[0] = 7.0
    assert d.tick() == [ButtonPressed(Action.ok, long=True, at=6.5)]
    now[0] = 6.0  # a clock that steps back is held at the latest time seen
    d.released(Action.ok)
    assert d.tick(7.1) == []


def test_bad_timing_is_refused() -> None:
    with pytest.raises(ValueError):
        Timing(debounce=-1)
    with pytest.raises(ValueError):
        Timing(repeat_interval=0)
    with pytest.raises(ValueError):
        Debouncer([Action.ok], repeat=[Action.add_minute])
