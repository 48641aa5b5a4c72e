"""N3 through the real ``pubpoker`` command (issue 42): a running night is not
replaced by one slip. ``tournament new`` asks twice (``--yes``) and says what it
leaves behind, ``undo`` on the new, empty night brings the running one back,
``tournament switch`` makes any open one tonight's again, and ``tournament
list`` marks tonight's: the one the log picks, as every device does."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from kiosk.store.errors import UnknownTournament
from kiosk.tonight_switch import (
    WORDS,
    NightCheckingIn,
    NightRunning,
    NotTonightsToChoose,
    UnknownTournamentNear,
)
from kiosk.undone import UNDONE_LINE
from rules.i18n import LANGUAGES, Counted
from tests.kiosk.cli_run import pubpoker

# Dozens of real `pubpoker` processes in four languages: most of a minute together
# (the quick tier leaves them to the full run).
pytestmark = pytest.mark.realproc


@pytest.fixture(scope="module")
def running_night(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Fredagspoker at level 2, four players in, Per Nilsen among them."""
    data = tmp_path_factory.mktemp("running")
    pubpoker(data, "tournament", "new", "--name", "Fredagspoker")
    for name in ("Ada", "Bo Berg", "Cy", "Per Nilsen"):
        pubpoker(data, "checkin", "--new", name)
    pubpoker(data, "seat", "draw")
    pubpoker(data, "clock", "start")
    pubpoker(data, "clock", "next")
    return data


@pytest.fixture()
def night(running_night: Path, tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(running_night, data)
    return data


def _listed(data: Path) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = json.loads(
        pubpoker(data, "tournament", "list", "--json").stdout)["tournaments"]
    return rows


def _tonight(data: Path) -> str:
    (name,) = [r["name"] for r in _listed(data) if r["tonight"]]
    return str(name)


def _log_size(data: Path) -> int:
    with sqlite3.connect(data / "pubpoker.db") as conn:
        (n,) = conn.execute("SELECT count(*) FROM events").fetchone()
    return int(n)


def _running_words(lang: str, players: int = 4) -> str:
    return NightRunning(name="Fredagspoker", level=2,
                        players=Counted(players, "player")).translate(lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_N3_new_while_a_night_runs_asks_for_yes_and_says_what_it_leaves(
        night: Path, lang: str) -> None:
    events = _log_size(night)
    done = pubpoker(night, "tournament", "new", "--name", "Torsdag", lang=lang, code=2)
    assert done.stderr == _running_words(lang) + "\n"
    assert done.stdout == ""
    assert _log_size(night) == events
    assert [r["name"] for r in _listed(night)] == ["Fredagspoker"]
    assert _tonight(night) == "Fredagspoker"

    done = pubpoker(night, "tournament", "new", "--name", "Torsdag", "--yes", lang=lang)
    created, left = done.stdout.splitlines()
    assert "Torsdag" in created
    (fredag,) = [r["id"] for r in _listed(night) if r["name"] == "Fredagspoker"]
    # What it left behind, in the words of the refusal, and how to bring it back.
    summary = _running_words(lang).split(". ")[0]
    assert left == WORDS[lang]["left"].format(what=summary, id=fredag)
    assert _tonight(night) == "Torsdag"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_N3_new_while_checking_in_asks_too_and_an_empty_or_closed_night_does_not(
        tmp_path: Path, lang: str) -> None:
    pubpoker(tmp_path, "tournament", "new", "--name", "Fredagspoker", lang=lang)
    pubpoker(tmp_path, "tournament", "new", "--name", "Fredagspoker", lang=lang)  # nobody in
    pubpoker(tmp_path, "checkin", "--new", "Ada", lang=lang)
    done = pubpoker(tmp_path, "tournament", "new", lang=lang, code=2)
    assert done.stderr == NightCheckingIn(
        name="Fredagspoker", players=Counted(1, "player")).translate(lang) + "\n"
    pubpoker(tmp_path, "tournament", "close", "--force", lang=lang)
    pubpoker(tmp_path, "tournament", "new", "--name", "Torsdag", lang=lang)  # closed: no ask
    assert _tonight(tmp_path) == "Torsdag"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_N3_undo_on_the_new_empty_night_brings_the_running_one_back(
        night: Path, lang: str) -> None:
    pubpoker(night, "tournament", "new", "--name", "Torsdag", "--yes", lang=lang)
    done = pubpoker(night, "undo", lang=lang)
    summary = _running_words(lang).split(". ")[0]
    assert done.stdout == WORDS[lang]["undone"].format(new="Torsdag", what=summary) + "\n"
    assert _tonight(night) == "Fredagspoker"
    # The night is there again, every command on it: the bust, then its undo.
    pubpoker(night, "bust", "Per Nilsen", lang=lang)
    done = pubpoker(night, "undo", lang=lang)
    assert done.stdout.startswith(UNDONE_LINE[lang].split("{what}")[0])
    assert "Per Nilsen" in done.stdout
    # Torsdag stays in the store, untouched; nothing more to undo on it.
    assert sorted(str(r["name"]) for r in _listed(night)) == ["Fredagspoker", "Torsdag"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_N3_switch_makes_another_open_tournament_tonights_and_list_marks_it(
        night: Path, lang: str) -> None:
    pubpoker(night, "tournament", "new", "--name", "Torsdag", "--yes", lang=lang)
    listed = pubpoker(night, "tournament", "list", lang=lang).stdout.splitlines()
    assert [line[0] for line in listed] == [" ", "*"]  # Fredagspoker, Torsdag
    done = pubpoker(night, "tournament", "switch", "fredag", lang=lang)
    assert done.stdout == WORDS[lang]["switched"].format(
        what=_running_words(lang).split(". ")[0]) + "\n"
    assert _tonight(night) == "Fredagspoker"
    listed = pubpoker(night, "tournament", "list", lang=lang).stdout.splitlines()
    assert [line[0] for line in listed] == ["*", " "]
    pubpoker(night, "bust", "Per Nilsen", lang=lang)
    # And back to the new one by its id; its undo takes back nothing of the switch.
    (torsdag,) = [r["id"] for r in _listed(night) if r["name"] == "Torsdag"]
    pubpoker(night, "tournament", "switch", str(torsdag), lang=lang)
    assert _tonight(night) == "Torsdag"
    pubpoker(night, "undo", lang=lang, code=2)
    assert _tonight(night) == "Torsdag"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_N3_switch_refuses_an_unknown_or_closed_tournament_naming_it(
        night: Path, lang: str) -> None:
    done = pubpoker(night, "tournament", "switch", "Fredagspokr", lang=lang, code=2)
    assert done.stderr == UnknownTournamentNear(
        name="Fredagspokr", names="Fredagspoker").translate(lang) + "\n"
    done = pubpoker(night, "tournament", "switch", "Onsdag", lang=lang, code=2)
    assert done.stderr == UnknownTournament(name="Onsdag").translate(lang) + "\n"
    pubpoker(night, "tournament", "close", "--force", lang=lang)
    pubpoker(night, "tournament", "new", "--name", "Torsdag", lang=lang)
    events = _log_size(night)
    done = pubpoker(night, "tournament", "switch", "Fredagspoker", lang=lang, code=2)
    assert done.stderr == NotTonightsToChoose(
        name="Fredagspoker", why="closed").translate(lang) + "\n"
    assert _log_size(night) == events
    assert _tonight(night) == "Torsdag"
