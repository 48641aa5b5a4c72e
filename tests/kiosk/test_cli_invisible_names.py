"""Issue 47, break 4: no name can hide. Through the real ``pubpoker``: a name of
only characters that draw nothing is refused in every language, and a zero-width
character inside a name does not make a second player who looks like the first,
by ``players add``, ``checkin --new``, ``players rename`` and ``players import``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rules.i18n import LANGUAGES
from rules.names import NameNotVisible
from tests.kiosk.cli_run import pubpoker

pytestmark = [pytest.mark.realproc, pytest.mark.slow]

INVISIBLE = ("\u200b\u200b", "\ufeff", "\u2060", "\u3164", "\u2800", " \u200b \u2060 ")


@pytest.fixture(scope="module")
def known(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("known")
    pubpoker(data, "tournament", "new")
    pubpoker(data, "players", "add", "Kari")
    pubpoker(data, "players", "add", "Ola")
    return data


@pytest.fixture()
def night(known: Path, tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(known, data)
    return data


def players(data: Path) -> list[str]:
    listed = json.loads(pubpoker(data, "players", "list", "--json").stdout)
    return sorted(p["name"] for p in listed["players"])


def entrants(data: Path) -> int:
    return int(json.loads(pubpoker(data, "tournament", "show", "--json").stdout)["entrants"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_name_of_nothing_visible_is_refused_in_every_language(night: Path, lang: str) -> None:
    said = NameNotVisible().translate(lang) + "\n"
    for name in INVISIBLE:
        for argv in (("players", "add", name), ("checkin", "--new", name),
                     ("players", "rename", "Ola", name)):
            done = pubpoker(night, *argv, lang=lang, code=2)
            assert (argv, done.stdout, done.stderr) == (argv, "", said)
    assert players(night) == ["Kari", "Ola"]
    assert entrants(night) == 0


def test_a_zero_width_character_does_not_make_a_second_kari(night: Path) -> None:
    pubpoker(night, "players", "add", "Ka\u200bri", code=2)  # Kari is known
    done = pubpoker(night, "checkin", "--new", "\ufeffKa\u2060ri\u200b")
    assert "Kari" in done.stdout and "\u200b" not in done.stdout
    pubpoker(night, "players", "add", "Per\u200d Hansen\u3164")
    pubpoker(night, "players", "rename", "Ola", "Ola\u00ad Nordmann")
    assert players(night) == ["Kari", "Ola Nordmann", "Per Hansen"]
    assert entrants(night) == 1
    # Å typed as A and a combining ring is the Åse already known, not a second.
    pubpoker(night, "players", "add", "\u00c5se")
    pubpoker(night, "players", "add", "A\u030ase", code=2)
    assert players(night) == ["Kari", "Ola Nordmann", "Per Hansen", "\u00c5se"]


def test_an_import_refuses_an_invisible_name_and_strips_a_hidden_one(night: Path) -> None:
    csv = night / "players.csv"
    csv.write_text("name,card\n\u200b\u200b,\nKa\u200bri,0A1B2C3D4E\n\u2800,\n"
                   "Eli\u2060 Dahl,\n", encoding="utf-8")
    done = pubpoker(night, "players", "import", str(csv), code=2)
    said = NameNotVisible().translate("en")
    assert done.stderr.splitlines() == [f"Line 2: {said}", f"Line 4: {said}"]
    assert done.stdout == "Imported: 1 new, 1 given a card, 0 unchanged, 2 errors\n"
    listed = pubpoker(night, "players", "list", "--format", "csv")
    assert listed.stdout.splitlines()[1:] == ["Eli Dahl,", "Kari,0A1B2C3D4E", "Ola,"]
