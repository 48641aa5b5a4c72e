"""Issue 44: ``pubpoker players list --similar`` shows the players that may be one
person entered twice, as check-in's "Did you mean …?" (N2) would have seen them,
through the real ``pubpoker`` command in every language."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.i18n import LANGUAGES
from tests.kiosk.cli_run import pubpoker

pytestmark = pytest.mark.realproc

#: "Maybe one player" and "no names alike" in each language.
MAYBE = {"nn": "Kanskje same spelar", "nb": "Kanskje samme spiller", "da": "Måske samme spiller",
         "en": "Maybe one player"}
NONE = {"nn": "Ingen namn er like nok til å vere same spelar to gonger",
        "nb": "Ingen navn er like nok til å være samme spiller to ganger",
        "da": "Ingen navne ligner nok til at være samme spiller to gange",
        "en": "No names are alike enough to be one player twice"}


@pytest.fixture(scope="module")
def venue(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("similar")
    for name in ("Per Hansen", "Per Hanssen", "Ola", "Ola Nordmann", "Åse Berg", "Ase Berg",
                 "Bo", "Kari Olsen", "Eli Dahl"):
        pubpoker(data, "players", "add", name)
    return data


@pytest.mark.parametrize("lang", LANGUAGES)
def test_N2_players_list_similar_shows_likely_duplicates_closest_first(
        venue: Path, lang: str) -> None:
    out = pubpoker(venue, "players", "list", "--similar", lang=lang).stdout.splitlines()
    # Accents only, then a letter apart, then a start; Bo, Kari Olsen, Eli Dahl in none.
    assert out == [f"{MAYBE[lang]}: Ase Berg – Åse Berg",
                   f"{MAYBE[lang]}: Per Hansen – Per Hanssen",
                   f"{MAYBE[lang]}: Ola – Ola Nordmann"]
    # The whole list is still the plain list.
    assert "Kari Olsen" in pubpoker(venue, "players", "list", lang=lang).stdout
    # Text only: --json is refused (exit 2), not ignored.
    assert "--similar" in pubpoker(venue, "players", "list", "--similar", "--json", lang=lang,
                                   code=2).stderr


@pytest.mark.parametrize("lang", LANGUAGES)
def test_N2_players_list_similar_says_when_there_are_none(tmp_path: Path, lang: str) -> None:
    pubpoker(tmp_path, "players", "add", "Kari Olsen", lang=lang)
    pubpoker(tmp_path, "players", "add", "Eli Dahl", lang=lang)
    assert pubpoker(tmp_path, "players", "list", "--similar", lang=lang).stdout == \
        NONE[lang] + "\n"
