"""Issue 41: the traps a night used to fall into, one test each, named after the trap.

A trap that is fixed on main has a plain test that catches it coming back; a trap
still there is a strict expected failure (it turns the run red the day it is fixed,
so the mark comes off). The TD's command is the real ``pubpoker``; a trap only the
wall or the phone shows runs a real kiosk (``tests/nights/rig.py``).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.kiosk.cli_run import pubpoker
from tests.nights.rig import Night, keep, wait_for

pytestmark = pytest.mark.realproc


def _night(data: Path, players: int, *, tables: int, seats: int, start: bool = True) -> None:
    pubpoker(data, "tournament", "new", "--name", "Felle", "--tables", str(tables),
             "--seats", str(seats))
    for n in range(1, players + 1):
        pubpoker(data, "checkin", "--new", f"P{n:02d}")
    pubpoker(data, "seat", "draw")
    if start:
        pubpoker(data, "clock", "start")


def _show(data: Path) -> Any:
    return json.loads(pubpoker(data, "tournament", "show", "--json").stdout)


def _tables(data: Path) -> dict[int, list[str]]:
    doc = _show(data)
    return {t["number"]: [s["name"] for s in t["seats"]] for t in doc["tables"]}


# --- fixed on main: regression tests ----------------------------------------------------------

def test_undo_or_the_clock_accepted_after_the_close(tmp_path: Path) -> None:
    _night(tmp_path, 3, tables=1, seats=3)
    for player in ("P01", "P02"):
        pubpoker(tmp_path, "bust", player)
    pubpoker(tmp_path, "tournament", "close")
    before = pubpoker(tmp_path, "results", "show", "--json").stdout
    for argv in (("undo",), ("clock", "next"), ("clock", "pause"), ("clock", "prev"),
                 ("bust", "P03")):
        refused = pubpoker(tmp_path, *argv, code=2)
        assert "closed" in refused.stderr, (argv, refused.stderr)
    assert pubpoker(tmp_path, "results", "show", "--json").stdout == before


def test_tournament_new_replacing_a_running_night(tmp_path: Path) -> None:
    _night(tmp_path, 4, tables=1, seats=4)
    refused = pubpoker(tmp_path, "tournament", "new", "--name", "Andre", code=2)
    # The reason is true: the running night's name, level and players.
    assert "Felle" in refused.stderr and "4 players" in refused.stderr, refused.stderr
    assert "--yes" in refused.stderr
    assert _show(tmp_path)["name"] == "Felle"


def test_a_typo_at_check_in_making_a_new_player(tmp_path: Path) -> None:
    _night(tmp_path, 4, tables=1, seats=6)
    refused = pubpoker(tmp_path, "checkin", "P0l", code=2)
    assert "P01" in refused.stderr, refused.stderr  # "Did you mean P01?"
    names = pubpoker(tmp_path, "players", "list", "--json").stdout
    assert "P0l" not in names
    assert _show(tmp_path)["entrants"] == 4


def test_late_registration_refused_while_seats_are_free(tmp_path: Path) -> None:
    _night(tmp_path, 5, tables=2, seats=4)
    pubpoker(tmp_path, "clock", "next")
    late = pubpoker(tmp_path, "checkin", "--new", "Sein")
    assert "Sein" in late.stdout
    assert any("Sein" in seated for seated in _tables(tmp_path).values())
    assert _show(tmp_path)["entrants"] == 6


def test_a_one_table_redraw_at_the_first_bust(tmp_path: Path) -> None:
    _night(tmp_path, 9, tables=1, seats=9)
    (before,) = _show(tmp_path)["tables"]
    out = before["seats"][0]["name"]
    pubpoker(tmp_path, "bust", out)
    (after,) = _show(tmp_path)["tables"]
    # Everyone else keeps their seat: one table is already the final table.
    assert [s for s in after["seats"]] == [s for s in before["seats"] if s["name"] != out]


def test_moves_proposed_out_of_a_table_that_others_move_into(tmp_path: Path) -> None:
    _night(tmp_path, 12, tables=3, seats=4)
    for player in _tables(tmp_path)[1][:2]:
        pubpoker(tmp_path, "bust", player)
    (balance,) = _show(tmp_path)["moves"]
    other = ({2, 3} - {balance["from"]["table"]}).pop()
    for player in _tables(tmp_path)[other][:2]:
        pubpoker(tmp_path, "bust", player)
    moves = _show(tmp_path)["moves"]
    sources = {m["from"]["table"] for m in moves}
    targets = {m["to"]["table"] for m in moves}
    assert not sources & targets, moves


def test_no_waiting_list_when_seats_run_out(tmp_path: Path) -> None:
    _night(tmp_path, 4, tables=1, seats=4)
    said = pubpoker(tmp_path, "checkin", "--new", "Venter", lang="nn")
    assert "Venteliste: du er nr. 1" in said.stdout, said.stdout
    assert [w["name"] for w in _show(tmp_path)["waiting"]] == ["Venter"]


def test_a_clean_stop_shows_no_restart_banner(tmp_path: Path,
                                              request: pytest.FixtureRequest) -> None:
    night = Night(tmp_path, speed=10.0)
    night.start()
    try:
        night.step("tournament", "new", "--name", "Rein", "--tables", "1", "--seats", "4")
        for name in ("Ada", "Bo", "Cy"):
            night.step("checkin", "--new", name)
        night.step("seat", "draw")
        night.step("clock", "start")
        night.stop()
        night.start()
        status = night.status()
        assert status is not None
        assert "clock-restored" not in status["notices"], status["notices"]
        assert status["clock"]["running"], status["clock"]
        truth = night.truth()[0]
        assert status["digest"] is not None and status["remaining"] == truth.remaining
    finally:
        night.stop()
        keep(night, request.node.name)


def test_the_phones_time_after_a_quiet_spell(tmp_path: Path,
                                             request: pytest.FixtureRequest) -> None:
    night = Night(tmp_path, speed=30.0)
    night.start()
    try:
        night.step("tournament", "new", "--name", "Stille", "--tables", "1", "--seats", "4")
        for name in ("Ada", "Bo", "Cy"):
            night.step("checkin", "--new", name)
        night.step("seat", "draw")
        night.step("clock", "start")
        # Four quiet real seconds: two shared minutes with nothing new to send.
        time.sleep(4.0)
        night.check()  # the phone's count, from "served", within 1 s of the wall's
        assert night.clock_errors and max(night.clock_errors) <= 1.0
    finally:
        night.stop()
        keep(night, request.node.name)


# --- fixed after the rig found them (issue 41) -------------------------------------------

def test_the_phones_time_after_a_clean_restart(tmp_path: Path,
                                               request: pytest.FixtureRequest) -> None:
    night = Night(tmp_path, speed=10.0)
    night.start()
    try:
        night.step("tournament", "new", "--name", "Rein", "--tables", "1", "--seats", "4")
        for name in ("Ada", "Bo", "Cy"):
            night.step("checkin", "--new", name)
        night.step("seat", "draw")
        night.step("clock", "start")
        night.stop()
        night.start()
        night.check(timeout=5.0)  # the phone's time within 1 s of the store's
    finally:
        night.stop()
        keep(night, request.node.name)


def test_clock_add_at_the_top_of_a_level_after_the_close_names_the_close(
        tmp_path: Path) -> None:
    _night(tmp_path, 3, tables=1, seats=3)
    # Paused at the top of level 1 (the time run given back), whatever the machine's pace.
    time.sleep(1.0)
    pubpoker(tmp_path, "clock", "pause")
    pubpoker(tmp_path, "clock", "add", "1200")
    pubpoker(tmp_path, "bust", "P01")
    pubpoker(tmp_path, "bust", "P02")
    pubpoker(tmp_path, "tournament", "close")
    refused = pubpoker(tmp_path, "clock", "add", "60", code=2)
    assert "closed" in refused.stderr, refused.stderr


def test_the_restart_banner_naming_a_refused_button(tmp_path: Path,
                                                    request: pytest.FixtureRequest) -> None:
    """After a power cut the status line names PAUSE and «pubpoker clock resume»; the
    wall has a PAUSE button, and pressing it (the fake pins) resumes the clock."""
    night = Night(tmp_path, speed=10.0, pins={"pause": 17})
    night.start()
    try:
        night.step("tournament", "new", "--name", "Straum", "--tables", "1", "--seats", "4")
        for name in ("Ada", "Bo", "Cy"):
            night.step("checkin", "--new", name)
        night.step("seat", "draw")
        night.step("clock", "start")
        night.kill()
        night.start()
        status = night.status()
        assert status is not None and "clock-restored" in status["notices"], status
        assert not status["clock"]["running"], status["clock"]
        line = status["status_line"].lower()
        assert "pause" in line and "pubpoker clock resume" in line, status["status_line"]
        night.check()
        night.press("pause")

        def resumed() -> bool:
            now = night.status()
            return bool(now and now["clock"]["running"]
                        and "clock-restored" not in now["notices"])

        wait_for(resumed, 10.0, "PAUSE to resume the clock")
        assert night.truth()[0].clock.running
        night.check()
    finally:
        night.stop()
        keep(night, request.node.name)


def test_everyone_left_out_in_one_hand_gives_a_true_reason(tmp_path: Path) -> None:
    from kiosk.store import open_store
    from rules.fold import fold
    from tests.nights import reasons

    _night(tmp_path, 3, tables=1, seats=3)
    argv = ("bust", "P01", "P02", "P03", "--same-hand")
    refused = pubpoker(tmp_path, *argv, code=2)
    reason = reasons.read(refused.stderr, "en")
    assert reason is not None, refused.stderr
    store = open_store(data_dir=tmp_path)
    try:
        state = fold(store.records(store.current_tournament() or ""))
        names = frozenset(p.name for p in store.players.list())
    finally:
        store.close()
    reasons.check(reason, reasons.Store(state, names, (state.last_at,)), argv, "en")
