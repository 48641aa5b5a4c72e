"""Issue 41: whole nights, each a short script of what the TD does, on real processes.

Each step is one ``pubpoker`` command beside a headless ``pubpoker kiosk``; after
every step :meth:`tests.nights.rig.Night.check` holds the wall, the phone and
``tournament show --json`` to the store and to each other (see ``rig.py``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rules import clock as clocks
from tests.nights.rig import Night, keep

pytestmark = [pytest.mark.night, pytest.mark.realproc]

TUESDAY = ("Ada", "Bo", "Cy", "Dag", "Eva", "Finn", "Gro", "Hans", "Ida")


@pytest.fixture
def night(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Night]:
    made = Night(tmp_path, speed=30.0)
    began = time.monotonic()
    made.start()
    try:
        yield made
    finally:
        made.stop()
        made.say(f"night took {time.monotonic() - began:.1f}s, {made.steps} steps, "
                 f"{made.checks} checks")
        keep(made, request.node.name)


def test_a_nine_player_tuesday_at_one_table_to_the_winner_and_the_close(night: Night) -> None:
    night.step("tournament", "new", "--name", "Tirsdag", "--tables", "1", "--seats", "9")
    for name in TUESDAY:
        night.step("checkin", "--new", name)
    night.step("seat", "draw")
    night.step("clock", "start")
    rng = random.Random(41)
    left = len(TUESDAY)
    while left > 1:
        if left == 5:
            night.step("clock", "next")
        player = rng.choice(night.seated())
        answer = night.step("bust", player)
        assert answer.out.startswith(f"{player}: {left}"), answer.out
        left -= 1
    state = night.truth()[0]
    assert state.finished and state.winner is not None
    night.step("tournament", "close")
    night.record_close()
    # After the close nothing the TD types changes the night's results.
    night.step("undo", code=None)
    night.step("clock", "next", code=None)
    night.step("bust", state.winner.name, code=None)


FRIDAY12 = ("Ada", "Bo", "Cy", "Dag", "Eva", "Finn", "Gro", "Hans", "Ida", "Jon", "Kari",
            "Liv")


@pytest.fixture
def fast_night(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Night]:
    """At 120×: a 20-minute level passes in ten seconds."""
    made = Night(tmp_path, speed=120.0)
    began = time.monotonic()
    made.start()
    try:
        yield made
    finally:
        made.stop()
        made.say(f"night took {time.monotonic() - began:.1f}s, {made.steps} steps, "
                 f"{made.checks} checks")
        keep(made, request.node.name)


def test_a_power_cut_at_level_6_loses_nothing_acknowledged(fast_night: Night) -> None:
    night = fast_night
    night.step("tournament", "new", "--name", "Straumbrot", "--tables", "2", "--seats", "6")
    for name in FRIDAY12:
        night.step("checkin", "--new", name)
    night.step("seat", "draw")
    night.step("clock", "start")
    rng = random.Random(6)
    busted: list[str] = []
    # The TD skips to level 5; level 6 comes by the clock itself.
    while night.level() < 5:
        night.step("clock", "next")
    wait_for_level(night, 6)
    night.check()
    for _ in range(3):
        player = rng.choice(night.seated())
        night.step("bust", player)
        busted.append(player)
    night.step("clock", "pause")
    night.step("clock", "resume")
    before = night.truth()
    status = night.status()
    assert status is not None and status["clock"]["level"] == 6
    left_at_cut = status["clock"]["remaining"]
    night.kill()
    night.start()
    after = night.truth()
    # Every acknowledged record is still there, in the same order.
    assert after[1] >= before[1]
    for player in busted:
        entry = next(e for e in after[0].players.values() if e.name == player)
        assert entry.place is not None, player
    status = night.status()
    assert status is not None
    clock = status["clock"]
    assert clock["level"] == 6, clock
    # Restored paused: no later than the last acknowledged step (the TD's resume), no
    # earlier than the cut itself (the clock never skips ahead over a power cut).
    state = before[0]
    assert state.config is not None
    acked = clocks.read(state.config.structure, state.clock, state.last_at).remaining
    assert acked is not None
    assert left_at_cut - 1.0 <= clock["remaining"] <= acked + 1.0, (
        left_at_cut, clock, acked)
    assert "clock-restored" in status["notices"], status["notices"]
    night.check()
    if not clock["running"]:
        night.step("clock", "resume")
    while len(night.seated()) > 1:
        night.step("bust", rng.choice(night.seated()))
    night.step("tournament", "close")
    night.record_close()
    night.step("undo", code=None)


def wait_for_level(night: Night, level: int, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while night.level() < level:
        assert time.monotonic() < end, f"level {level} never came: {night.status()}"
        time.sleep(0.2)
