"""What each role may emit; the same verdict on every peer."""

from __future__ import annotations

import pytest

from kiosk.sync.roles import allowed
from rules.events import (
    ButtonDrawn,
    ClockPaused,
    ClockRestored,
    ClockResumed,
    ClockStarted,
    Event,
    HandStarted,
    LevelJumped,
    MoveConfirmed,
    PlayerCheckedIn,
    PlayersBusted,
    TimeAdjusted,
)

CLOCK: list[Event] = [ClockStarted(at=1.0), ClockPaused(at=1.0), ClockResumed(at=1.0),
                      LevelJumped(at=1.0, period_index=2), TimeAdjusted(at=1.0, seconds=60.0),
                      ClockRestored(at=1.0, position=10.0)]
OWN_TABLE: list[Event] = [PlayersBusted(at=1.0, groups=(("p1",),), table=3),
                          HandStarted(at=1.0, table=3), ButtonDrawn(at=1.0, table=3, seat=2),
                          MoveConfirmed(at=1.0, player_id="p1")]


@pytest.mark.parametrize("event", CLOCK, ids=lambda e: e.kind.value)
def test_only_console_and_display_move_the_clock(event: Event) -> None:
    assert allowed("table", 3, event) is not None
    assert allowed("console", None, event) is None
    assert allowed("display", None, event) is None
    assert allowed("display+table", 3, event) is None


@pytest.mark.parametrize("event", OWN_TABLE, ids=lambda e: e.kind.value)
def test_a_table_reports_for_its_own_table(event: Event) -> None:
    assert allowed("table", 3, event) is None


@pytest.mark.parametrize("event", [PlayersBusted(at=1.0, groups=(("p1",),), table=4),
                                   PlayersBusted(at=1.0, groups=(("p1",),)),
                                   HandStarted(at=1.0, table=4),
                                   ButtonDrawn(at=1.0, table=4, seat=1),
                                   PlayerCheckedIn(at=1.0, player_id="p9")],
                         ids=lambda e: e.kind.value)
def test_a_table_cannot_speak_for_another_table_or_the_desk(event: Event) -> None:
    assert allowed("table", 3, event) is not None


def test_unknown_roles_and_tables_without_numbers_are_refused() -> None:
    assert allowed("bartender", None, HandStarted(at=1.0, table=1)) is not None
    assert allowed("table", None, HandStarted(at=1.0, table=1)) is not None
