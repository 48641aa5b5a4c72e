"""Issue 44: the TD's everyday slips get good answers, through the real ``pubpoker``
command in every language: names typed without quotes, ``clock add`` past the
level's length, ``clock next`` on the last level, ``move confirm`` with a name only
one move fits, the last bust, a finished night's ``tournament show``, and ``--json``
where a command has none."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from rules.i18n import LANGUAGES
from tests.kiosk.cli_run import pubpoker

pytestmark = pytest.mark.realproc

PLAYERS = ("Ada", "Jonas Gahr", "Per Olsen", "Per Hansen")


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four players at two tables of three, the clock running in level 1."""
    data = tmp_path_factory.mktemp("slips")
    pubpoker(data, "tournament", "new", "--seats", "3", "--tables", "2")
    for name in PLAYERS:
        pubpoker(data, "checkin", "--new", name)
    pubpoker(data, "seat", "draw")
    pubpoker(data, "clock", "start")
    return data


@pytest.fixture()
def night(started: Path, tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(started, data)
    return data


# --- names typed without quotes ----------------------------------------------------------------

def _table_of(data: Path, name: str) -> int:
    doc = json.loads(pubpoker(data, "tournament", "show", "--json").stdout)
    return next(t["number"] for t in doc["tables"] if name in {s["name"] for s in t["seats"]})


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_unquoted_name_is_one_name(night: Path, lang: str) -> None:
    to = str(3 - _table_of(night, "Per Olsen"))
    out = pubpoker(night, "move", "Per", "Olsen", "--to", to, lang=lang).stdout
    assert out.startswith("Per Olsen: ")
    out = pubpoker(night, "move", "confirm", "Per", "Olsen", lang=lang).stdout
    assert out.startswith("Per Olsen ")
    out = pubpoker(night, "bust", "Jonas", "Gahr", lang=lang).stdout
    assert out.startswith("Jonas Gahr: 4")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_unquoted_walk_in_is_one_new_player(tmp_path: Path, lang: str) -> None:
    pubpoker(tmp_path, "tournament", "new", lang=lang)
    pubpoker(tmp_path, "checkin", "--new", "Ada", lang=lang)
    out = pubpoker(tmp_path, "checkin", "--new", "Kari", "Nordmann", lang=lang).stdout
    assert "Kari Nordmann" in out
    assert "Kari Nordmann" in pubpoker(tmp_path, "players", "list", lang=lang).stdout
    # Known words may be two players: refused, with the quoted form to type (N2: --new).
    refused = pubpoker(tmp_path, "checkin", "Ada", "Bo", lang=lang, code=2).stderr
    assert 'pubpoker checkin --new "Ada Bo"' in refused
    assert "Ada Bo" in pubpoker(tmp_path, "checkin", "--new", "Ada Bo", lang=lang).stdout


# --- clock add past the level's length -------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_clock_add_says_what_it_could_not_add(night: Path, lang: str) -> None:
    pubpoker(night, "clock", "pause", lang=lang)
    before = pubpoker(night, "clock", "next", lang=lang).stdout  # level 2, at its top
    refused = pubpoker(night, "clock", "add", "60", lang=lang, code=2).stderr
    assert "clock add" in refused and "20:00" in refused and "2" in refused
    assert pubpoker(night, "clock", "add", "-90", lang=lang).stdout != before
    said, line = pubpoker(night, "clock", "add", "600", lang=lang).stdout.splitlines()
    assert "01:30" in said and "10:00" in said and "20:00" in said
    assert line == before.strip()
    said, line = pubpoker(night, "clock", "add", "-1500", lang=lang).stdout.splitlines()
    assert "20:00" in said and "25:00" in said
    if lang == "en":
        assert said == "Took 20:00 of 25:00: that was the rest of level 2"
        assert refused.strip() == ("Level 2 is at its full length (20:00): "
                                   "'pubpoker clock add' only gives back time that has run; "
                                   "nothing was added")


# --- clock next on the last level --------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_clock_next_on_the_last_level_names_it_as_the_wall_does(tmp_path: Path,
                                                               lang: str) -> None:
    """pf-pokerklub: 9 levels and 4 breaks; the wall's last level is level 9, not 13."""
    pubpoker(tmp_path, "tournament", "new", "--preset", "pf-pokerklub")
    for name in ("Ada", "Bo"):
        pubpoker(tmp_path, "checkin", "--new", name)
    pubpoker(tmp_path, "seat", "draw")
    pubpoker(tmp_path, "clock", "start")
    for _ in range(12):
        last = pubpoker(tmp_path, "clock", "next", lang=lang).stdout
    assert " 9: " in last
    refused = pubpoker(tmp_path, "clock", "next", lang=lang, code=2).stderr
    assert " 9 " in refused and "13" not in refused and "10" not in refused
    if lang == "en":
        assert refused.strip() == "Level 9 is the last level in the structure; there are no more"


# --- move confirm with a name only one move fits ---------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_move_confirm_takes_the_one_moving_player_the_name_fits(night: Path, lang: str) -> None:
    to = str(3 - _table_of(night, "Per Olsen"))
    pubpoker(night, "move", "Per Olsen", "--to", to, lang=lang)
    out = pubpoker(night, "move", "confirm", "Per", lang=lang).stdout
    assert out.startswith("Per Olsen ") and f" {to}, " in out
    assert _table_of(night, "Per Olsen") == int(to)
    # No move waits now: "Per" is both Pers again, and the refusal lists them.
    refused = pubpoker(night, "move", "confirm", "Per", lang=lang, code=2).stderr
    assert "Per Hansen" in refused and "Per Olsen" in refused


# --- the last bust -------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_last_bust_names_the_winner(night: Path, lang: str) -> None:
    for name in ("Jonas Gahr", "Per Olsen"):
        assert len(pubpoker(night, "bust", name, lang=lang).stdout.splitlines()) == 1
    out = pubpoker(night, "bust", "Per Hansen", lang=lang).stdout.splitlines()
    assert len(out) == 2 and out[0].startswith("Per Hansen: 2")
    assert out[1].startswith("Ada ")
    if lang == "en":
        assert out == ["Per Hansen: 2nd", "Ada has won the tournament"]


# --- a finished night's tournament show ----------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_finished_night_shows_its_result_not_a_clock(night: Path, lang: str) -> None:
    running = pubpoker(night, "tournament", "show", lang=lang).stdout
    for name in ("Jonas Gahr", "Per Olsen", "Per Hansen"):
        pubpoker(night, "bust", name, lang=lang)
    shown = pubpoker(night, "tournament", "show", lang=lang).stdout
    clock_lines = [line for line in running.splitlines()[3:7] if ":" in line]
    assert clock_lines  # the running night's clock, next level and time to the break ...
    for line in clock_lines:
        label = line.strip().split(":")[0]
        assert label not in shown  # ... are gone
    assert shown.index("Ada") < shown.index("Per Hansen") < shown.index("Per Olsen")
    assert shown.index("Per Olsen") < shown.index("Jonas Gahr")
    if lang == "en":
        assert "  Winner: Ada" in shown.splitlines()


# --- --json where a command has none -------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_json_on_a_command_without_a_json_form_is_refused(night: Path, lang: str) -> None:
    for argv in (("clock", "pause", "--json"), ("--json", "bust", "Ada"),
                 ("move", "Ada", "--to", "1", "--json")):
        refused = pubpoker(night, *argv, lang=lang, code=2)
        assert refused.stdout == ""
        assert "--json" in refused.stderr and "pubpoker tournament show" in refused.stderr
        assert f"pubpoker {argv[1] if argv[0] == '--json' else argv[0]}" in refused.stderr
    # Nothing was done (the clock runs, Ada plays); the commands with a JSON form print it.
    doc = json.loads(pubpoker(night, "--json", "tournament", "show", lang=lang).stdout)
    assert doc["players_left"] == 4 and doc["clock"]["running"]
    for argv in (("players", "list"), ("standings",), ("tournament", "list")):
        assert json.loads(pubpoker(night, *argv, "--json", lang=lang).stdout)["schema_version"]
    if lang == "en":
        assert pubpoker(night, "clock", "pause", "--json", code=2).stderr.startswith(
            "'pubpoker clock pause' has no JSON form")


# --- several busts in one hand -------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_F3_bust_same_hand_places_by_starting_stack(night: Path, lang: str) -> None:
    out = pubpoker(night, "bust", "Ada", "Jonas Gahr", "Per Olsen", "--same-hand",
                   "--stacks", "500", "900", "500", lang=lang).stdout.splitlines()
    # F3: the bigger stack finishes higher; equal stacks share the best place of
    # their span (3rd and 4th: both 3rd); the last one left has won.
    tied = {"en": "(tied)"}.get(lang, "(delt)")
    third = "3rd" if lang == "en" else "3. "
    assert out[0].startswith("Jonas Gahr: 2")
    assert {line.split(":")[0] for line in out[1:3]} == {"Ada", "Per Olsen"}
    assert all(third in line and line.endswith(tied) for line in out[1:3])
    assert out[3].startswith("Per Hansen ")
    if lang == "en":
        assert out == ["Jonas Gahr: 2nd", "Ada: 3rd (tied)", "Per Olsen: 3rd (tied)",
                       "Per Hansen has won the tournament"]
    results = pubpoker(night, "tournament", "show", "--json").stdout
    places = {p["name"]: p["place"] for p in json.loads(results)["results"]}
    assert places == {"Per Hansen": 1, "Jonas Gahr": 2, "Ada": 3, "Per Olsen": 3}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_F3_bust_same_hand_without_stacks_keeps_the_order_given(night: Path, lang: str) -> None:
    out = pubpoker(night, "bust", "Per Olsen", "Ada", "--same-hand", lang=lang).stdout
    assert out.splitlines() == [f"Per Olsen: {_place(3, lang)}", f"Ada: {_place(4, lang)}"]
    # One hand, one undo: both are back.
    undone = pubpoker(night, "undo", lang=lang).stdout
    assert "Per Olsen" in undone and "Ada" in undone
    # Each word is a player here: a name typed without quotes is refused, with the quoted form.
    refused = pubpoker(night, "bust", "Jonas", "Gahr", "Ada", "--same-hand", lang=lang,
                       code=2).stderr
    assert "Gahr" in refused and '"Ola Nordmann"' in refused and "--same-hand" in refused
    # Stacks are one a player; without --same-hand they are refused; nothing is done.
    refused = pubpoker(night, "bust", "Ada", "Per Olsen", "--same-hand", "--stacks", "900",
                       lang=lang, code=2).stderr
    assert "2 " in refused and "1 " in refused
    pubpoker(night, "bust", "Ada", "--stacks", "900", lang=lang, code=2)
    assert pubpoker(night, "bust", "Jonas", "Gahr", lang=lang).stdout.startswith(
        f"Jonas Gahr: {_place(4, lang)}")


def _place(n: int, lang: str) -> str:
    from rules.i18n import format_place

    return format_place(n, lang)


# --- undo says what the night is now -------------------------------------------------------------

#: "Nivå 1" and "4 spelarar att" in each language's words (GLOSSARY.md).
LEVEL_1 = {"nn": "Nivå 1: 100/200, ", "nb": "Nivå 1: 100/200, ", "da": "Niveau 1: 100/200, ",
           "en": "Level 1: 100/200, "}
FOUR_LEFT = {"nn": "; 4 spelarar att", "nb": "; 4 spillere igjen", "da": "; 4 spillere tilbage",
             "en": "; 4 players left"}
PAUSED = {"nn": "Klokka er stoppa", "nb": "Klokken er stoppet", "da": "Uret er stoppet",
          "en": "Clock paused"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_undo_says_the_clock_and_players_now(night: Path, lang: str) -> None:
    pubpoker(night, "bust", "Ada", lang=lang)
    out = pubpoker(night, "undo", lang=lang).stdout.strip()
    # "Angra: Ada slått ut. Nivå 1: 100/200, 19:58 att; 4 spelarar att"
    said, now = out.split(". ", 1)
    assert "Ada" in said
    assert now.startswith(LEVEL_1[lang]) and now.endswith(FOUR_LEFT[lang])
    assert re.search(r", \d\d:\d\d ", now)
    # An undone pause says the clock runs again; undoing the start says it has not started.
    pubpoker(night, "clock", "pause", lang=lang)
    pubpoker(night, "bust", "Per Olsen", lang=lang)
    now = pubpoker(night, "undo", lang=lang).stdout.strip().split(". ", 1)[1]
    assert PAUSED[lang] in now and now.endswith(FOUR_LEFT[lang])
    now = pubpoker(night, "undo", lang=lang).stdout.strip().split(". ", 1)[1]
    assert PAUSED[lang] not in now and now.endswith(FOUR_LEFT[lang])
