"""``pubpoker points``: the Q1 table on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kiosk.cli import main


def test_Q1_points_command_prints_the_54_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["points", "--entrants", "54"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Poeng for 54 påmelde (pf-pokerklub)"
    assert lines[1].split() == ["Plass", "Poeng"]
    rows = [line.split() for line in lines[2:]]
    assert rows == [
        ["1", "21"], ["2", "18"], ["3", "16"], ["4", "14"], ["5", "13"],
        ["6", "12"], ["7", "11"], ["8", "10"], ["9", "9"], ["10", "8"],
        ["11–20", "5"], ["21–30", "4"], ["31–40", "3"], ["41–50", "2"], ["51–54", "1"],
    ]


@pytest.mark.parametrize(("lang", "title", "heading"), [
    ("nb", "Poeng for 10 påmeldte (pf-pokerklub)", ["Plass", "Poeng"]),
    ("da", "Point for 10 tilmeldte (pf-pokerklub)", ["Plads", "Point"]),
    ("en", "Points for 10 entrants (pf-pokerklub)", ["Place", "Points"]),
])
def test_points_command_headings_follow_lang(
    capsys: pytest.CaptureFixture[str], lang: str, title: str, heading: list[str]
) -> None:
    assert main(["--lang", lang, "points", "--entrants", "10", "--scheme", "pf-pokerklub"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == title
    assert lines[1].split() == heading
    assert len(lines) == 12


@pytest.mark.parametrize("entrants", ["0", "-3"])
def test_points_command_refuses_bad_entrants(
    capsys: pytest.CaptureFixture[str], entrants: str
) -> None:
    assert main(["points", "--entrants", entrants]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.strip() == f"Talet på påmelde må vere minst 1, ikkje {entrants}"


def test_points_command_error_in_english(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "en", "points", "--entrants", "0"]) == 2
    assert capsys.readouterr().err.strip() == "The number of entrants must be at least 1, not 0"


def test_points_command_with_a_table_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    table = tmp_path / "league.json"
    table.write_text(json.dumps({"per_place": [10, 7, 5], "default": 1}), encoding="utf-8")
    assert main(["--lang", "en", "points", "--entrants", "5", "--scheme", "table",
                 "--table", str(table)]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[2:]]
    assert rows == [["1", "10"], ["2", "7"], ["3", "5"], ["4–5", "1"]]


def test_points_command_refuses_bad_tables(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["points", "--entrants", "5", "--scheme", "table"]) == 2
    assert "poengtabell" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text('{"per_place": [10, -7]}', encoding="utf-8")
    assert main(["--lang", "en", "points", "--entrants", "5", "--scheme", "table",
                 "--table", str(bad)]) == 2
    assert "negative" in capsys.readouterr().err
    bad.write_text("not json", encoding="utf-8")
    assert main(["points", "--entrants", "5", "--scheme", "table", "--table", str(bad)]) == 2
    assert "Kan ikkje lese poengtabellen" in capsys.readouterr().err


def test_points_command_is_documented_in_the_readme() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Structures and points", 1)[1].split("\n### ", 1)[0]
    assert "pubpoker points --entrants 54" in section
