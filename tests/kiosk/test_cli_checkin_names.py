"""N2 through the real ``pubpoker checkin``, in every language: a typo of a known
name, or a name nobody has, is refused with "Did you mean …?" and makes no player;
``--new`` adds one; the walk-in "Ola" is not taken for "Ola Nordmann"."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from kiosk.cli.td_cmd import WORDS, DidYouMean, NotAKnownPlayer
from rules.i18n import LANGUAGES
from tests.kiosk.cli_run import pubpoker

pytestmark = pytest.mark.realproc

KNOWN = ("Anna Berg", "Kari Nordmann", "Ola Nordmann", "Per Hansen")


@pytest.fixture(scope="module")
def known(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The venue knows four players; Ola Nordmann is already checked in tonight."""
    data = tmp_path_factory.mktemp("known")
    pubpoker(data, "tournament", "new")
    for name in KNOWN:
        pubpoker(data, "players", "add", name)
    pubpoker(data, "checkin", "Ola Nordmann")
    return data


@pytest.fixture()
def night(known: Path, tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(known, data)
    return data


def players(data: Path) -> list[str]:
    listed = json.loads(pubpoker(data, "players", "list", "--json").stdout)
    return sorted(p["name"] for p in listed["players"])


def checked_in(data: Path) -> int:
    return int(json.loads(pubpoker(data, "tournament", "show", "--json").stdout)["entrants"])


def said(lang: str, key: str, name: str) -> str:
    return WORDS[lang][key].format(name=name)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_N2_a_typo_of_a_known_name_asks_did_you_mean_and_adds_no_one(
        night: Path, lang: str) -> None:
    for typed, meant in (("Per Hanssen", "Per Hansen"), ("kari nordmannn", "Kari Nordmann"),
                         ("Ana Berg", "Anna Berg")):
        done = pubpoker(night, "checkin", typed, lang=lang, code=2)
        assert (done.stdout, done.stderr) == (
            "", DidYouMean(name=typed, names=(meant,)).translate(lang) + "\n")
        assert f'checkin --new "{typed}"' in done.stderr
    assert players(night) == list(KNOWN)
    assert checked_in(night) == 1
    # Told it is someone new, the TD gets a new player.
    done = pubpoker(night, "checkin", "--new", "Per Hanssen", lang=lang)
    assert done.stdout == (said(lang, "new-player", "Per Hanssen") + "\n"
                           + said(lang, "in", "Per Hanssen") + "\n")
    assert players(night) == sorted([*KNOWN, "Per Hanssen"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_N2_the_walk_in_ola_is_not_ola_nordmann(night: Path, lang: str) -> None:
    # Before: "Ola Nordmann er allereie sjekka inn", a start taken as the player.
    done = pubpoker(night, "checkin", "Ola", lang=lang, code=2)
    assert done.stderr == DidYouMean(name="Ola", names=("Ola Nordmann",)).translate(lang) + "\n"
    done = pubpoker(night, "checkin", "--new", "Ola", lang=lang)
    assert done.stdout == said(lang, "new-player", "Ola") + "\n" + said(lang, "in", "Ola") + "\n"
    assert players(night) == sorted([*KNOWN, "Ola"])
    assert checked_in(night) == 2
    # Now Ola is a known name of his own: "ola" is him (already in), not Ola Nordmann.
    done = pubpoker(night, "checkin", "ola", lang=lang, code=2)
    assert "Ola" in done.stderr and "Nordmann" not in done.stderr


@pytest.mark.parametrize("lang", LANGUAGES)
def test_N2_a_known_name_checks_in_and_an_unknown_one_needs_new(night: Path, lang: str) -> None:
    done = pubpoker(night, "checkin", "per   HANSEN", lang=lang)
    assert done.stdout == said(lang, "in", "Per Hansen") + "\n"
    done = pubpoker(night, "checkin", "Eli", "Dahl", lang=lang, code=2)
    assert done.stderr == NotAKnownPlayer(name="Eli Dahl").translate(lang) + "\n"
    assert players(night) == list(KNOWN)
    # --new with a known name is that player: no second record of one person.
    done = pubpoker(night, "checkin", "--new", "kari nordmann", lang=lang)
    assert done.stdout == (said(lang, "known-player", "Kari Nordmann") + "\n"
                           + said(lang, "in", "Kari Nordmann") + "\n")
    assert players(night) == list(KNOWN)
    assert checked_in(night) == 3


def test_N2_a_card_number_typed_as_a_name_is_refused_without_being_quoted(
        night: Path) -> None:
    done = pubpoker(night, "checkin", "4111 1111 1111 1111", code=2)
    assert "4111" not in done.stderr and "1111" not in done.stderr
    assert players(night) == list(KNOWN)
