"""N2: a name typed at check-in is a known player, near some, or nobody (rules/name_match.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.name_match import NEAR_EDITS, NameMatch, edits, fold, match_name

KNOWN = [("p1", "Per Hansen"), ("p2", "Kari Nordmann"), ("p3", "Anna Berg"),
         ("p4", "Ola Nordmann"), ("p5", "José Ås"), ("p6", "Åse Ødegård")]


@pytest.mark.parametrize(("typed", "player"), [
    ("Per Hansen", "p1"), ("per hansen", "p1"), ("  PER   Hansen ", "p1"),
    ("Jose As", "p5"), ("JOSÉ ÅS", "p5"), ("Ase Ødegard", "p6"),
])
def test_N2_the_same_name_in_any_case_spacing_or_accents_is_that_player(
        typed: str, player: str) -> None:
    assert match_name(typed, KNOWN) == NameMatch(player)


@pytest.mark.parametrize(("typed", "near"), [
    ("Per Hanssen", "Per Hansen"),        # a letter too many
    ("kari nordmannn", "Kari Nordmann"),  # case and a letter too many
    ("Ana Berg", "Anna Berg"),            # a letter missing
    ("Per Hnasen", "Per Hansen"),         # two letters swapped
    ("Pär Hansem", "Per Hansen"),         # two letters wrong
    ("Ase Odegard", "Åse Ødegård"),       # ø is a letter of its own: one away from o
])
def test_N2_a_name_one_or_two_letters_from_a_known_one_is_only_near_it(
        typed: str, near: str) -> None:
    found = match_name(typed, KNOWN)
    assert found.exact is None
    assert [name for _, name in found.near] == [near]


def test_N2_a_whole_name_that_starts_a_known_one_is_not_that_player() -> None:
    # The walk-in "Ola" on a night with "Ola Nordmann": asked about, never taken as him.
    found = match_name("Ola", KNOWN)
    assert found == NameMatch(None, (("p4", "Ola Nordmann"),))
    assert match_name("Ola", [*KNOWN, ("p7", "Ola")]) == NameMatch("p7")


def test_N2_a_name_far_from_every_known_one_is_nobody() -> None:
    assert match_name("Eli Dahl", KNOWN) == NameMatch(None, ())
    assert match_name("   ", KNOWN) == NameMatch(None, ())
    assert match_name("Per Hansen", []) == NameMatch(None, ())


def test_N2_two_letters_of_a_two_letter_name_are_another_name() -> None:
    assert match_name("Bo", [("a", "Al")]).near == ()
    assert match_name("Bo", [("j", "Jo")]).near == (("j", "Jo"),)


def test_N2_near_names_come_closest_first_and_a_start_after_every_typo() -> None:
    known = [("a", "Kari Nordmann"), ("b", "Karin Nordmann"), ("c", "Kari Nord")]
    assert [k for k, _ in match_name("Kari Nordman", known).near] == ["a", "b"]
    assert [k for k, _ in match_name("Kari Nor", known).near] == ["c", "a"]


def test_N2_names_that_differ_only_in_accents_are_both_asked_about() -> None:
    known = [("a", "Åse Berg"), ("b", "Ase Berg")]
    assert match_name("ase berg", known) == NameMatch("b")  # as stored wins
    assert match_name("Asé Berg", known).exact is None
    assert {k for k, _ in match_name("Asé Berg", known).near} == {"a", "b"}


def test_fold_keeps_letters_that_are_not_accented_ones() -> None:
    assert fold("Ødegård  Æsir") == "ødegard æsir"


_text = st.text(alphabet="abcdeåø ", max_size=12)


@given(_text, _text)
def test_N2_edits_is_symmetric_and_capped(a: str, b: str) -> None:
    assert edits(a, b) == edits(b, a) <= NEAR_EDITS + 1
    assert (edits(a, b) == 0) == (a == b)


@given(_text, st.integers(min_value=0, max_value=12), st.sampled_from("xyz"))
def test_N2_one_letter_added_is_one_edit_away(a: str, at: int, letter: str) -> None:
    assert edits(a, a[:at] + letter + a[at:]) == 1
