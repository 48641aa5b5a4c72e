"""S2 through the real ``pubpoker``: late players before the clock move nobody (issue 45).

A player checked in after the draw but before the clock starts is drawn into a
seat at once (S3) and nobody is asked to move yet; ``clock start`` balances the
room once, for the count it starts with. Each late arrival balanced on its own
made moves the next arrival undid (24 for 20 late players on a Friday).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.kiosk.cli_run import pubpoker

pytestmark = pytest.mark.realproc


def _show(data: Path) -> Any:
    return json.loads(pubpoker(data, "tournament", "show", "--json").stdout)


def _counts(doc: Any) -> list[int]:
    return sorted(len(table["seats"]) for table in doc["tables"])


def test_S2_a_late_player_before_the_clock_sits_at_once_and_the_start_balances(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    pubpoker(data, "tournament", "new", "--name", "Sein", "--tables", "3", "--seats", "4")
    for n in range(1, 9):
        pubpoker(data, "checkin", "--new", f"P{n}")
    pubpoker(data, "seat", "draw")
    late = pubpoker(data, "checkin", "--new", "Late")
    assert "Late → table 3, seat" in late.stdout, late.stdout
    before = _show(data)
    assert before["moves"] == [] and _counts(before) == [1, 4, 4]
    pubpoker(data, "clock", "start")
    started = _show(data)
    # Nine at three tables within one of each other: two move to the late player's table.
    assert len(started["moves"]) == 2, started["moves"]
    assert {m["to"]["table"] for m in started["moves"]} == {3}
    assert "2 moves pending" in pubpoker(data, "tournament", "show").stdout
    # Undone, the start takes its moves with it; started again, it asks for them again.
    pubpoker(data, "undo")
    undone = _show(data)
    assert undone["moves"] == [] and not undone["clock"]["started"], undone["clock"]
    pubpoker(data, "clock", "start")
    for move in _show(data)["moves"]:
        pubpoker(data, "move", "confirm", move["name"])
    assert _counts(_show(data)) == [3, 3, 3]
