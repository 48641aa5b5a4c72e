"""``--json``: each read command's document fits its schema and means what it says.

The documents come from real ``pubpoker`` processes; the schemas are
:data:`kiosk.cli.json_schema.SCHEMAS`, documented in ``docs/cli-json.md``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.cli import main
from kiosk.cli.json_schema import SCHEMAS, problems

ROOT = Path(__file__).resolve().parents[2]


def document(data: Path, *argv: str, lang: str = "nn") -> Any:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "kiosk.cli", "--lang", lang, *argv, "--json",
                           "--data-dir", str(data)],
                          env=env, text=True, capture_output=True, timeout=60, cwd=data)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def checked(data: Path, schema: str, *argv: str, lang: str = "nn") -> dict[str, Any]:
    doc = document(data, *argv, lang=lang)
    assert problems(doc, SCHEMAS[schema]) == []
    assert doc["schema_version"] == 1
    return doc  # type: ignore[no-any-return]


def setup(data: Path, *argv: str) -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["--lang", "en", *argv, "--data-dir", str(data)]) == 0


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Seven in, one table, level 1 running, two busts, hand-for-hand on."""
    data = tmp_path_factory.mktemp("night")
    setup(data, "tournament", "new", "--name", "Fredag")
    setup(data, "players", "add", "Ada", "--card", "0A1B2C3D4E")
    for name in ("Ada", "Bo", "Cy", "Di", "Eli", "Fay", "Gu"):
        setup(data, "checkin", "--new", name)
    for argv in (("seat", "draw"), ("clock", "start"), ("bust", "Ada"), ("bust", "Bo"),
                 ("hand-for-hand", "on")):
        setup(data, *argv)
    yield data


def test_show_counts_the_players_left_after_the_busts(night: Path) -> None:
    doc = checked(night, "tournament show", "tournament", "show")
    assert (doc["entrants"], doc["players_left"], doc["status"]) == (7, 5, "running")
    assert doc["name"] == "Fredag" and doc["hand_for_hand"] is True
    seated = [s["name"] for t in doc["tables"] for s in t["seats"]]
    assert sorted(seated) == ["Cy", "Di", "Eli", "Fay", "Gu"]
    assert [(r["place"], r["name"]) for r in doc["results"]] == [(6, "Bo"), (7, "Ada")]
    clock = doc["clock"]
    assert clock["started"] and clock["running"] and not clock["on_break"]
    assert clock["level"] == 1 and clock["blinds"]["big_blind"] == 200
    assert clock["next_level"] == {"level": 2, "small_blind": 200, "big_blind": 400,
                                   "ante": 0, "ante_kind": "per-player"}
    assert 1100 < clock["seconds_left"] <= 1200
    # Four levels of 20 minutes come before the first break.
    assert clock["seconds_to_break"] == pytest.approx(clock["seconds_left"] + 3 * 1200, abs=1)


def test_the_json_is_the_same_in_every_language(night: Path) -> None:
    docs = [document(night, "tournament", "list", lang=lang) for lang in ("nn", "da", "en")]
    assert docs[0] == docs[1] == docs[2]


def test_list_marks_the_current_tournament_and_its_status(night: Path) -> None:
    doc = checked(night, "tournament list", "tournament", "list")
    (row,) = doc["tournaments"]
    assert row["current"] is True and row["status"] == "running" and row["name"] == "Fredag"
    assert row["season"] == row["date"][:4]


def test_players_list_has_their_cards_and_the_bare_list_still_works(night: Path) -> None:
    doc = checked(night, "players list", "players", "list")
    cards = {p["name"]: p["cards"] for p in doc["players"]}
    assert cards["Ada"] == ["0A1B2C3D4E"] and cards["Gu"] == [] and len(cards) == 7
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    bare = subprocess.run([sys.executable, "-m", "kiosk.cli", "players", "list", "--format",
                           "json", "--data-dir", str(night)], env=env, text=True,
                          capture_output=True, timeout=60, check=True)
    assert json.loads(bare.stdout) == doc["players"]


def test_results_and_standings_agree_on_the_points(night: Path) -> None:
    results = checked(night, "results show", "results", "show")
    assert results["entrants"] == 7 and results["tournament"]["status"] == "running"
    placed = {r["name"]: r["place"] for r in results["results"]}
    assert (placed["Ada"], placed["Bo"], placed["Cy"]) == (7, 6, None)
    standings = checked(night, "standings", "standings")
    assert standings["season"] == results["tournament"]["season"]
    points = {r["name"]: r["points"] for r in results["results"] if r["points"]}
    assert {s["name"]: s["points"] for s in standings["standings"] if s["points"]} == points
    assert points["Bo"] > points["Ada"] > 0
    by_name = {s["name"]: s for s in standings["standings"]}
    assert by_name["Ada"]["placings"] == [7] and by_name["Ada"]["tournaments"] == 1


def test_the_schema_check_finds_a_field_that_lies() -> None:
    schema = SCHEMAS["tournament show"]
    good: dict[str, Any] = {
        "schema_version": 1, "id": None, "name": "x", "date": None, "status": "check-in",
        "entrants": 0, "players_left": 0, "hand_for_hand": False, "tables": [], "moves": [],
        "results": [], "capacity": None, "waiting": [],
        "clock": {"started": False, "running": False, "waiting": False,
                  "on_break": False, "level": None, "blinds": None,
                  "seconds_left": None, "next_level": None, "seconds_to_break": None}}
    assert problems(good, schema) == []
    assert problems({**good, "status": "created"}, schema) != []
    assert problems({**good, "schema_version": 2}, schema) != []
    assert problems({**good, "players_left": -1}, schema) != []
    assert problems({k: v for k, v in good.items() if k != "moves"}, schema) != []


def _fields(schema: dict[str, Any]) -> set[str]:
    found = set(schema.get("properties", {}))
    items = [schema["items"]] if "items" in schema else []
    for sub in (*schema.get("properties", {}).values(), *items, *schema.get("oneOf", ())):
        found |= _fields(sub)
    return found


def test_every_field_is_documented_and_the_readme_links_the_page() -> None:
    page = (ROOT / "docs" / "cli-json.md").read_text(encoding="utf-8")
    for name, schema in SCHEMAS.items():
        assert f"pubpoker {name}" in page, name
        missing = [f for f in _fields(schema) if f"`{f}`" not in page]
        assert not missing, (name, missing)
    assert "docs/cli-json.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_a_global_json_before_the_command_is_not_undone_by_the_commands_own() -> None:
    import argparse

    from kiosk.cli.report import add_json_option

    top = argparse.ArgumentParser()
    top.add_argument("--json", action="store_true", default=False)
    show = top.add_subparsers(dest="command").add_parser("show")
    add_json_option(show)
    assert top.parse_args(["--json", "show"]).json is True
    assert top.parse_args(["show", "--json"]).json is True
    assert top.parse_args(["show"]).json is False
