"""F3 through the real ``pubpoker`` command: places with a late entry, and
``pubpoker results recompute`` for results stored by older versions."""

from __future__ import annotations

import csv
import io
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

# Each night is played through dozens of real `pubpoker` processes.
pytestmark = pytest.mark.realproc

PUBPOKER = [sys.executable, "-m", "kiosk.cli"]


def pubpoker(data: Path, *argv: str, lang: str = "nn", ok: bool = True
             ) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PUBPOKER_DATA_DIR": str(data)}
    done = subprocess.run([*PUBPOKER, "--lang", lang, *argv], env=env, text=True,
                          capture_output=True, timeout=60)
    if ok:
        assert done.returncode == 0, done.stderr
    return done


def _results_csv(text: str) -> dict[str, str]:
    return {row["name"]: row["place"] for row in csv.DictReader(io.StringIO(text))}


def _night(data: Path) -> None:
    pubpoker(data, "tournament", "new")
    for name in ("Ada", "Bo", "Cy", "Di", "Eli", "Fay", "Gu"):
        pubpoker(data, "checkin", "--new", name)
    pubpoker(data, "seat", "draw")
    pubpoker(data, "clock", "start")
    assert pubpoker(data, "bust", "Ada").stdout == "Ada: 7. plass\n"
    pubpoker(data, "checkin", "--new", "Late Larsen")
    assert pubpoker(data, "bust", "Bo").stdout == "Bo: 7. plass\n"


def test_F3_a_late_entry_moves_the_first_bust_to_8th_through_the_cli(tmp_path: Path) -> None:
    _night(tmp_path)
    show = pubpoker(tmp_path, "--lang", "en", "tournament", "show").stdout
    assert "7th  Bo" in show and "8th  Ada" in show
    tid = pubpoker(tmp_path, "tournament", "list").stdout.split()[1]
    places = _results_csv(pubpoker(tmp_path, "export", "results", tid,
                                               "--machine-headers").stdout)
    assert (places["Ada"], places["Bo"]) == ("8", "7")


def test_F3_results_recompute_corrects_places_stored_by_older_code(tmp_path: Path) -> None:
    _night(tmp_path)
    pubpoker(tmp_path, "tournament", "close", "--force")
    db = tmp_path / "pubpoker.db"
    with sqlite3.connect(db) as conn:
        (tid,) = conn.execute("SELECT id FROM tournaments").fetchone()
        # What the old reducer stored: Ada 7th like Bo, with 7th place's points.
        (bo_points,) = conn.execute(
            "SELECT points FROM results WHERE name = 'Bo'").fetchone()
        conn.execute("UPDATE results SET place = 7, points = ? WHERE name = 'Ada'",
                     (bo_points,))
        conn.execute("UPDATE standings SET points = ?, placings = '[7]' WHERE name = 'Ada'",
                     (bo_points,))
    export = tmp_path / "exports" / f"results-{tid}.csv"
    export.write_text("place,name\n7,Ada\n7,Bo\n", encoding="utf-8")

    done = pubpoker(tmp_path, "--lang", "en", "results", "recompute", tid)
    assert "places corrected: 1" in done.stdout
    assert "Ada: 7th → 8th" in done.stdout
    with sqlite3.connect(db) as conn:
        results = dict(conn.execute("SELECT name, place FROM results WHERE place IS NOT NULL"))
        standings = dict(conn.execute("SELECT name, placings FROM standings"))
        (status,) = conn.execute("SELECT status FROM tournaments").fetchone()
        ada_points, bo_points_now = (conn.execute(
            "SELECT points FROM results WHERE name = ?", (n,)).fetchone()[0]
            for n in ("Ada", "Bo"))
    assert results == {"Ada": 8, "Bo": 7}
    assert standings["Ada"] == "[8]" and ada_points < bo_points_now
    assert status == "closed"
    assert _results_csv(export.read_text(encoding="utf-8"))["Ada"] == "8"
    # A second run finds nothing left to correct.
    assert "no places changed" in pubpoker(
        tmp_path, "--lang", "en", "results", "recompute", "--all").stdout


def test_results_recompute_needs_a_tournament_or_all(tmp_path: Path) -> None:
    _night(tmp_path)
    done = pubpoker(tmp_path, "results", "recompute", ok=False)
    assert done.returncode == 2 and "--all" in done.stderr
    unknown = pubpoker(tmp_path, "--lang", "en", "results", "recompute", "nope", ok=False)
    assert unknown.returncode == 2 and "Unknown tournament 'nope'" in unknown.stderr
