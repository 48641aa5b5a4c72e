"""Q1 league points, the generic points table, and Q3 private deals."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.house import PointsScheme, profile
from rules.i18n import LANGUAGES
from rules.points import (
    BadEntrants,
    BadPlace,
    BadPointsTable,
    Deal,
    NegativePoints,
    NoPointsTable,
    PointsTable,
    award,
    group_points,
    points,
    points_table,
)

# --- Q1: pf-pokerklub ---------------------------------------------------------


def test_Q1_full_54_entrant_table() -> None:
    table = dict(points_table(54))
    assert len(table) == 54
    # Top 10: base 15,12,10,8,7,6,5,4,3,2 plus PP10 = ceil(54/10) = 6.
    assert [table[p] for p in range(1, 11)] == [21, 18, 16, 14, 13, 12, 11, 10, 9, 8]
    for places, expected in (
        (range(11, 21), 5), (range(21, 31), 4), (range(31, 41), 3),
        (range(41, 51), 2), (range(51, 55), 1),
    ):
        assert {table[p] for p in places} == {expected}


def test_Q1_54_entrants_grouped_as_the_seed_lists_them() -> None:
    assert group_points(points_table(54))[10:] == (
        (11, 20, 5), (21, 30, 4), (31, 40, 3), (41, 50, 2), (51, 54, 1),
    )


def test_Q1_winner_with_54_gets_15_plus_6() -> None:
    assert points(1, 54) == 15 + 6 == 21


def test_Q1_one_entrant() -> None:
    assert points_table(1) == ((1, 16),)


def test_Q1_ten_entrants() -> None:
    assert [p for _, p in points_table(10)] == [16, 13, 11, 9, 8, 7, 6, 5, 4, 3]


def test_Q1_eleven_entrants() -> None:
    table = dict(points_table(11))
    assert table[1] == 17  # PP10 = 2
    assert table[10] == 4
    assert table[11] == 1  # PP10 - ceil(11/10) + 1 = 2 - 2 + 1


def test_Q1_one_hundred_entrants() -> None:
    table = dict(points_table(100))
    assert table[1] == 25
    assert table[10] == 12
    assert {table[p] for p in range(11, 21)} == {9}
    assert {table[p] for p in range(91, 101)} == {1}


def test_Q1_is_the_default_scheme_of_every_profile() -> None:
    for name in ("pubpoker", "pf-pokerklub", "dk-club"):
        assert profile(name).points is PointsScheme.PF_POKERKLUB


def test_Q1_bad_input_is_refused_with_a_translated_error() -> None:
    with pytest.raises(BadEntrants) as err:
        points_table(0)
    assert err.value.translate("nn") == "Talet på påmelde må vere minst 1, ikkje 0"
    with pytest.raises(BadEntrants):
        points(1, -5)
    with pytest.raises(BadPlace):
        points(55, 54)
    with pytest.raises(BadPlace):
        points(0, 54)
    for error in (BadEntrants, BadPlace, NegativePoints, BadPointsTable, NoPointsTable):
        assert error.missing_languages() == ()


@given(entrants=st.integers(min_value=1, max_value=500))
def test_Q1_property_points_never_increase_with_place_and_are_at_least_one(entrants: int) -> None:
    pts = [p for _, p in points_table(entrants)]
    assert all(p >= 1 for p in pts)
    assert all(a >= b for a, b in pairwise(pts))


@given(entrants=st.integers(min_value=1, max_value=2000), data=st.data())
def test_Q1_property_formula(entrants: int, data: st.DataObject) -> None:
    place = data.draw(st.integers(min_value=1, max_value=entrants))
    pp10 = (entrants + 9) // 10
    base = (15, 12, 10, 8, 7, 6, 5, 4, 3, 2)
    expected = base[place - 1] + pp10 if place <= 10 else pp10 - (place + 9) // 10 + 1
    assert points(place, entrants) == expected


# --- the generic table scheme --------------------------------------------------


def test_points_table_scheme_as_data() -> None:
    table = PointsTable(per_place=(10, 7, 5), default=1, bonus_per=10, bonus_places=3)
    assert points_table(25, PointsScheme.TABLE, table) == (
        (1, 13), (2, 10), (3, 8), *((p, 1) for p in range(4, 26)),
    )
    assert PointsTable.from_dict(table.to_dict()) == table
    assert table.to_dict() == {"per_place": [10, 7, 5], "default": 1, "bonus_per": 10,
                               "bonus_places": 3}


def test_points_table_refuses_negative_numbers_in_every_language() -> None:
    with pytest.raises(NegativePoints) as err:
        PointsTable.from_dict({"per_place": [10, -1]})
    assert "negative" in str(err.value)
    assert err.value.translate("nn") == "Poengtabellen kan ikkje ha negative tal (per_place: -1)"
    for lang in LANGUAGES:
        assert err.value.translate(lang)
    with pytest.raises(NegativePoints):
        PointsTable((5,), default=-1)
    with pytest.raises(NegativePoints):
        PointsTable((5,), bonus_per=-10)


def test_points_table_never_evaluates_text() -> None:
    # A formula sent as text is data of the wrong type, never code.
    for bad in ({"per_place": "__import__('os').system('true')"},
                {"per_place": [1], "default": "1 + 1"},
                {"per_place": [True]},
                {"default": 1}):
        with pytest.raises(BadPointsTable):
            PointsTable.from_dict(bad)


def test_table_scheme_without_a_table_is_refused() -> None:
    with pytest.raises(NoPointsTable):
        points(1, 10, PointsScheme.TABLE)


# --- Q3: private deals ---------------------------------------------------------


def test_Q3_private_deal_never_changes_points() -> None:
    places = {"ann": 1, "bo": 2, "cy": 3}
    plain = award(places, 54)
    # The last three agree to share the prize money equally: points stand.
    dealt = award(places, 54, deals=[Deal(("ann", "bo", "cy"), note="equal chop")])
    assert dealt == plain == {"ann": 21, "bo": 18, "cy": 16}


@given(entrants=st.integers(min_value=1, max_value=300), data=st.data())
def test_Q3_points_depend_only_on_place_and_entrants(entrants: int, data: st.DataObject) -> None:
    place = data.draw(st.integers(min_value=1, max_value=entrants))
    names = data.draw(st.lists(st.text(min_size=1, max_size=5), min_size=1, max_size=4,
                               unique=True))
    deals = [Deal(tuple(names), note=data.draw(st.text(max_size=10)))]
    for name in names:
        assert award({name: place}, entrants, deals=deals)[name] == points(place, entrants)
