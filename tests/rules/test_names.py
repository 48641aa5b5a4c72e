"""Names fit the screens (rules/names.py): new commands are refused, old logs fold as before."""

from __future__ import annotations

import random

import pytest

from rules.commands import CheckIn, CreateTournament, RegisterPlayer, RenamePlayer, decide
from rules.events import PlayerRegistered, Record
from rules.fold import fold
from rules.names import (
    PLAYER_NAME_MAX,
    TOURNAMENT_NAME_MAX,
    NameHasControlCharacter,
    NameNotVisible,
    NameTooLong,
    clean_name,
    name_key,
    visible,
)
from rules.state import Tournament
from rules.structure import preset
from tests.rules.tournament_kit import Night


@pytest.mark.parametrize("command", [
    CheckIn("p9", "K" * (PLAYER_NAME_MAX + 1)),
    RegisterPlayer("p9", "K" * (PLAYER_NAME_MAX + 1)),
    RenamePlayer("p1", "K" * (PLAYER_NAME_MAX + 1)),
])
def test_a_player_name_longer_than_the_tv_shows_is_refused(command: object) -> None:
    night = Night().checked_in(2)
    before = list(night.records)
    with pytest.raises(NameTooLong) as refused:
        night.do(command)  # type: ignore[arg-type]
    assert night.records == before
    assert refused.value.translate("nb") == (
        f"Navnet «{'K' * 40}…» er for langt (41 tegn); det kan ha høyst 40")
    assert refused.value.translate("da") == (
        f"Navnet «{'K' * 40}…» er for langt (41 tegn); det må højst have 40")


def test_a_name_of_exactly_the_limit_is_taken() -> None:
    night = Night()
    night.do(CheckIn("p1", "K" * PLAYER_NAME_MAX))
    assert night.state.players["p1"].name == "K" * PLAYER_NAME_MAX


@pytest.mark.parametrize("name", ["Kari\nNordmann", "Kari\tN", "Kari\x00", "Kari\x1b[2J",
                                  "Kari\u202e", "Kari\x85", "Kari\udcff"])
def test_a_name_with_a_control_character_is_refused(name: str) -> None:
    night = Night()
    with pytest.raises(NameHasControlCharacter) as refused:
        night.do(CheckIn("p1", name))
    assert "p1" not in night.state.players
    # The message shows the character escaped: it never breaks its own line.
    assert "\n" not in refused.value.translate("en")
    assert refused.value.translate("en").isprintable()


def test_a_tournament_name_longer_than_its_line_is_refused() -> None:
    command = CreateTournament("F" * (TOURNAMENT_NAME_MAX + 1), preset("pubpoker"))
    with pytest.raises(NameTooLong):
        decide(Tournament(), command, now=0.0, rng=random.Random(1))
    fits = CreateTournament("F" * TOURNAMENT_NAME_MAX, preset("pubpoker"))
    assert decide(Tournament(), fits, now=0.0, rng=random.Random(1))


def test_a_log_written_before_the_limits_folds_as_it_did() -> None:
    night = Night()
    long_name = "Kari Nordmann-Haugland frå Sogn og Fjordane"  # 43 characters
    assert len(long_name) > PLAYER_NAME_MAX
    old = Record("td", 99, 99, "t1", PlayerRegistered(at=1.0, player_id="old",
                                                      name=long_name))
    state = fold([*night.records, old])
    assert state.players["old"].name == long_name


def test_a_player_registered_before_the_limits_still_checks_in() -> None:
    night = Night()
    long_name = "Kari Nordmann-Haugland frå Sogn og Fjordane"
    # Another device's event, right after the tournament was made (lamport 1, "td").
    night.replay.add(Record("tz", 1, 1, "t1", PlayerRegistered(at=1.0, player_id="old",
                                                                name=long_name)))
    assert night.state.players["old"].name == long_name
    night.do(CheckIn("old", long_name))
    assert night.state.players["old"].checked_in


@pytest.mark.parametrize(("raw", "shown"), [
    ("Ka\u200bri", "Kari"), ("\ufeffKari", "Kari"), ("Ka\u2060ri\u200d", "Kari"),
    ("Kari\u00ad Nord\u200cmann", "Kari Nordmann"), ("Kari \u3164 Nordmann", "Kari Nordmann"),
    ("Kari\u2800", "Kari"), ("Kari\ufe0f", "Kari"), ("Kari\U000e0041", "Kari"),
    ("A\u030ase  \u00d8deg\u00e5rd", "\u00c5se \u00d8deg\u00e5rd"),
    ("  Kari \u00a0 \u3000 Nordmann ", "Kari Nordmann"),
])
def test_a_name_is_stored_nfc_without_what_draws_nothing(raw: str, shown: str) -> None:
    assert visible(raw) == clean_name(raw) == shown
    assert name_key(raw) == name_key(shown)


@pytest.mark.parametrize("name", ["\u200b\u200b", "\ufeff", "\u2060", "\u3164", "\u2800",
                                  " \u200b \u115f\u1160 \uffa0 ", "\u034f\ufe0f"])
def test_a_name_of_nothing_visible_is_refused_by_the_rules_core_too(name: str) -> None:
    night = Night()
    with pytest.raises(NameNotVisible) as refused:
        night.do(CheckIn("p1", name))
    assert "p1" not in night.state.players
    assert set(NameNotVisible.messages) == {"nn", "nb", "da", "en"}
    assert refused.value.translate("nn") == (
        "Namnet har ingen teikn som syner; skriv namnet med bokstavar")
    assert clean_name("   ") == ""  # nothing typed is the caller's rule, not a refusal
