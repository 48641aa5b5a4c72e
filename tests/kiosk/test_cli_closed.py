"""N1 through the real ``pubpoker`` command: a closed night is refused every
change (issue 42: ``undo`` after ``tournament close`` took the winner's last
bust back), only ``tournament reopen --yes`` opens it, and standings and the
export files agree with the log before and after."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from kiosk.cli.td_cmd import ReopenNeedsYes
from kiosk.undone import UNDONE, UNDONE_LINE
from rules.i18n import LANGUAGES
from rules.refusals import TournamentClosedError
from tests.kiosk.cli_run import pubpoker

# Dozens of real `pubpoker` processes a test, in four languages: most of a
# minute together (tests/rules/test_closed.py is the quick tier's N1).
pytestmark = pytest.mark.realproc

def _three_closed(data: Path, busted: tuple[str, ...], *close: str) -> Path:
    """Ada, Bo Berg and Cy in, ``busted`` out in that order, then ``tournament close``."""
    pubpoker(data, "tournament", "new")
    for name in ("Ada", "Bo Berg", "Cy"):
        pubpoker(data, "checkin", "--new", name)
    pubpoker(data, "seat", "draw")
    pubpoker(data, "clock", "start")
    for name in busted:
        pubpoker(data, "bust", name)
    pubpoker(data, "tournament", "close", *close)
    return data


@pytest.fixture(scope="module")
def closed_night(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Ada wins, Bo Berg 2nd, Cy 3rd; closed (issue 42's night)."""
    return _three_closed(tmp_path_factory.mktemp("closed"), ("Cy", "Bo Berg"))


@pytest.fixture()
def night(closed_night: Path, tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(closed_night, data)
    return data


def _tid(data: Path) -> str:
    return pubpoker(data, "tournament", "list").stdout.split()[1]


def _exported(data: Path) -> str:
    return (data / "exports" / f"results-{_tid(data)}.csv").read_text(encoding="utf-8")


def _log_size(data: Path) -> int:
    with sqlite3.connect(data / "pubpoker.db") as conn:
        (n,) = conn.execute("SELECT count(*) FROM events").fetchone()
    return int(n)


def _agree_with_the_log(data: Path) -> str:
    """The export file is what the log says (``export results`` refolds it); returns it."""
    exported = _exported(data)
    assert exported == pubpoker(data, "export", "results", _tid(data),
                                "--machine-headers").stdout
    return exported


REFUSED = [("undo",), ("clock", "next"), ("clock", "resume"), ("clock", "pause"),
           ("hand-for-hand", "on"), ("bust", "Ada"), ("checkin", "--new", "Dag"), ("seat", "draw")]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_N1_a_closed_night_refuses_every_change_through_the_cli(night: Path, lang: str) -> None:
    standings = pubpoker(night, "standings", lang=lang).stdout
    exported = _agree_with_the_log(night)
    events = _log_size(night)
    for argv in REFUSED:
        done = pubpoker(night, *argv, lang=lang, code=2)
        assert done.stderr == TournamentClosedError().translate(lang) + "\n", argv
        assert done.stdout == ""
    assert _log_size(night) == events
    assert pubpoker(night, "standings", lang=lang).stdout == standings
    assert "Ada" in standings.splitlines()[1]  # the winner stays first
    assert _agree_with_the_log(night) == exported
    show = pubpoker(night, "tournament", "show", "--json").stdout
    assert '"status": "closed"' in show and '"players_left": 1' in show


@pytest.mark.parametrize("lang", LANGUAGES)
def test_N1_reopen_asks_for_yes_and_is_undoable(night: Path, lang: str) -> None:
    standings = pubpoker(night, "standings", lang=lang).stdout
    exported = _agree_with_the_log(night)
    done = pubpoker(night, "tournament", "reopen", lang=lang, code=2)
    assert done.stderr == ReopenNeedsYes().translate(lang) + "\n"
    pubpoker(night, "undo", lang=lang, code=2)  # still closed

    assert pubpoker(night, "tournament", "reopen", "--yes", lang=lang).stdout
    assert not (night / "exports" / f"results-{_tid(night)}.csv").exists()
    assert '"status": "finished"' in pubpoker(night, "tournament", "show", "--json").stdout
    # The reopen is an action like any other: undo takes it back, closed again.
    done = pubpoker(night, "undo", lang=lang)
    reopen_words = UNDONE["tournament-reopened"][lang]
    assert done.stdout == UNDONE_LINE[lang].format(what=reopen_words) + "\n"
    assert _agree_with_the_log(night) == exported
    assert pubpoker(night, "standings", lang=lang).stdout == standings
    pubpoker(night, "bust", "Ada", lang=lang, code=2)
    assert "closed" in pubpoker(night, "tournament", "list", lang="en").stdout


@pytest.fixture(scope="module")
def forced_night(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Cy out, closed early with ``--force``: Ada and Bo Berg have no place yet."""
    return _three_closed(tmp_path_factory.mktemp("forced"), ("Cy",), "--force")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_N1_a_reopened_night_changes_and_closed_again_agrees_with_the_log(
        forced_night: Path, tmp_path: Path, lang: str) -> None:
    night = tmp_path / "data"
    shutil.copytree(forced_night, night)
    exported = _agree_with_the_log(night)
    assert ",Ada,0," in exported and ",Bo Berg,0," in exported
    pubpoker(night, "bust", "Bo Berg", lang=lang, code=2)
    pubpoker(night, "tournament", "reopen", "--yes", lang=lang)
    pubpoker(night, "clock", "next", lang=lang)
    pubpoker(night, "undo", lang=lang)  # the level, not the reopen
    pubpoker(night, "bust", "Bo Berg", lang=lang)
    pubpoker(night, "tournament", "close", lang=lang)
    closed_again = _agree_with_the_log(night)
    assert "1,Ada," in closed_again and "2,Bo Berg," in closed_again
    standings = pubpoker(night, "standings", lang="en").stdout.splitlines()
    assert "Ada" in standings[1] and "Bo Berg" in standings[2] and "Cy" in standings[3]
    pubpoker(night, "undo", lang=lang, code=2)
