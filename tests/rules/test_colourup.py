"""K1 colour-up (pubpoker round-up and the TDA chip race), K2 chips, F5 stacks."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.chips import (
    PF_POKERKLUB_CHIPS,
    PF_POKERKLUB_STACK,
    SIT_AND_GO_STACK,
    STARTING_STACK,
    BadChipSet,
    BadComposition,
    BadDenomination,
    Chip,
    ChipColour,
    ChipSet,
    StackComposition,
    can_compose,
    colour_name,
    make_change,
    verify_composition,
)
from rules.colourup import (
    BadColourUp,
    ColourUpNotice,
    RaceTooLarge,
    announcement,
    chip_race,
    colour_up,
    colour_up_notices,
    colour_up_table,
)
from rules.house import ColourUpMethod, profile
from rules.i18n import LANGUAGES
from rules.structure import Break, Level, preset

# --- K2: chips ---------------------------------------------------------------


def test_K2_pf_pokerklub_chip_colours() -> None:
    colours = {c.value: c.colour for c in PF_POKERKLUB_CHIPS.chips}
    assert colours == {
        100: ChipColour.GREEN, 200: ChipColour.RED, 500: ChipColour.BLUE,
        1000: ChipColour.BLACK, 5000: ChipColour.WHITE,
    }


def test_K2_white_is_only_for_late_play() -> None:
    assert PF_POKERKLUB_CHIPS.chip(5000).late
    assert 5000 not in PF_POKERKLUB_CHIPS.early_denominations
    assert PF_POKERKLUB_CHIPS.early_denominations == (100, 200, 500, 1000)


def test_K2_colour_names_in_every_language() -> None:
    for colour in ChipColour:
        for lang in LANGUAGES:
            assert colour_name(colour, lang)
    assert [colour_name(c, "da") for c in ChipColour] == ["grøn", "rød", "blå", "sort", "hvid"]
    assert colour_name(ChipColour.GREEN, "xx") == "green"


def test_K2_chip_set_round_trips_and_is_validated() -> None:
    assert ChipSet.from_dict(PF_POKERKLUB_CHIPS.to_dict()) == PF_POKERKLUB_CHIPS
    with pytest.raises(BadChipSet):
        ChipSet("x", (Chip(100, ChipColour.GREEN), Chip(100, ChipColour.RED)))
    with pytest.raises(BadDenomination):
        Chip(0, ChipColour.GREEN)
    with pytest.raises(BadChipSet):
        ChipSet.from_dict({"name": "x", "chips": [{"value": 100, "colour": "pink"}]})
    with pytest.raises(BadDenomination):
        PF_POKERKLUB_CHIPS.colour(25)


# --- F5: starting stacks ----------------------------------------------------


def test_F5_pf_pokerklub_composition_sums_to_10000() -> None:
    assert STARTING_STACK == 10_000
    assert PF_POKERKLUB_STACK.counts == ((100, 8), (200, 6), (500, 8), (1000, 4))
    assert PF_POKERKLUB_STACK.total == 10_000
    verify_composition(PF_POKERKLUB_STACK, 10_000, PF_POKERKLUB_CHIPS)


def test_F5_sit_and_go_composition_sums_to_10000() -> None:
    assert SIT_AND_GO_STACK.count(1000) == 7
    assert SIT_AND_GO_STACK.count(500) == 4
    assert SIT_AND_GO_STACK.count(100) == 10
    assert SIT_AND_GO_STACK.total == 10_000
    assert can_compose(SIT_AND_GO_STACK)


def test_F5_a_composition_that_does_not_add_up_is_refused() -> None:
    short = StackComposition(((100, 8), (200, 6), (500, 8), (1000, 3)))
    assert not can_compose(short)
    with pytest.raises(BadComposition) as err:
        verify_composition(short)
    assert err.value.translate("nn") == "Sjetongane i startstacken er til saman 9 000, ikkje 10 000"
    # A chip the house does not own is refused too.
    assert not can_compose(StackComposition(((2500, 4),)), 10_000, PF_POKERKLUB_CHIPS)


# --- K1: the pubpoker round-up ----------------------------------------------


def test_K1_colour_up_1200_becomes_1500() -> None:
    result = colour_up(1200, 100, (500, 1000, 5000))
    assert result.amount_out == 1500
    assert result.gained == 300
    assert sum(v * n for v, n in result.chips) == 1500
    assert result.chips == ((1000, 1), (500, 1))


def test_K1_exact_multiples_are_unchanged() -> None:
    for amount in (0, 500, 1000, 2500, 10_000):
        assert colour_up(amount, 100, (500, 1000)).amount_out == amount


def test_K1_nobody_busts_through_a_colour_up() -> None:
    # A player whose whole stack is one 100 chip still has a 500 afterwards.
    assert colour_up(100, 100, (500, 1000)).amount_out == 500
    assert colour_up(100, 100, (500, 1000)).chips == ((500, 1),)


def test_K1_several_denominations_at_one_break() -> None:
    # pf-pokerklub removes the 100s and the 200s at the same break.
    assert colour_up(700, (100, 200), (500, 1000, 5000)).amount_out == 1000
    assert colour_up(1300, (100, 200), (500, 1000, 5000)).amount_out == 1500


def test_K1_bad_colour_ups_are_refused() -> None:
    with pytest.raises(BadColourUp):
        colour_up(150, 100, (500,))  # 150 cannot be held in 100 chips
    with pytest.raises(BadColourUp):
        colour_up(100, 100, ())
    with pytest.raises(BadColourUp):
        colour_up(100, 100, (100, 500))
    with pytest.raises(BadDenomination):
        colour_up(100, 100, (0, 500))


def test_K1_table_uses_the_house_method() -> None:
    house = profile("pubpoker")
    assert house.colour_up is ColourUpMethod.ROUND_UP
    table = colour_up_table({"ann": 1200, "bo": 300, "cy": 0}, 100, (500, 1000),
                            method=house.colour_up)
    assert {p: r.amount_out for p, r in table.items()} == {"ann": 1500, "bo": 500, "cy": 0}


@given(
    units=st.integers(min_value=1, max_value=500),
    removed=st.sampled_from([25, 100, 200]),
    smallest=st.sampled_from([500, 1000, 5000]),
)
def test_K1_property_round_up_never_busts_and_lands_on_the_smallest_chip(
    units: int, removed: int, smallest: int
) -> None:
    amount = units * removed
    remaining = tuple(v for v in (500, 1000, 5000) if v >= smallest)
    result = colour_up(amount, removed, remaining)
    assert result.amount_out > 0
    assert result.amount_out % smallest == 0
    assert 0 <= result.amount_out - amount < smallest
    assert sum(v * n for v, n in result.chips) == result.amount_out


# --- K1: the TDA chip race --------------------------------------------------


def _race(seed: int) -> dict[str, int]:
    race = chip_race(
        {"s1": 300, "s2": 400, "s3": 100, "s4": 1200, "s5": 0},
        100, (500, 1000), random.Random(seed),
        kept={"s1": 4000, "s2": 0, "s3": 0, "s4": 9000, "s5": 5000},
    )
    return {p: r.amount_out for p, r in race.results}


def test_K1_chip_race_is_deterministic_per_seed() -> None:
    assert _race(42) == _race(42)
    assert len({tuple(sorted(_race(s).items())) for s in range(40)}) > 1


def test_K1_chip_race_whole_amounts_and_one_chip_per_player() -> None:
    for seed in range(50):
        race = chip_race(
            {"s1": 300, "s2": 400, "s3": 100, "s4": 1200, "s5": 0},
            100, (500, 1000), random.Random(seed),
            kept={"s1": 4000, "s2": 0, "s3": 0, "s4": 9000, "s5": 5000},
        )
        out = race.as_dict()
        # Odd chips: 3 + 4 + 1 + 2 = 10 chips = 1000, exactly two 500s raced.
        assert race.chips_raced == 2
        assert len(race.cards) == 10
        assert len(set(race.winners)) == len(race.winners) == 2
        # s4 exchanges 1000 at face value, and can win at most one more chip.
        assert out["s4"].amount_out in (1000, 1500)
        assert out["s5"].amount_out == 0
        for player in ("s1", "s2", "s3"):
            assert out[player].amount_out in (0, 500)
        # Nobody is raced out: s2 and s3 have nothing else, so they end with a chip.
        assert out["s2"].amount_out == 500
        assert out["s3"].amount_out == 500
        if "s3" not in race.winners:
            assert "s3" in race.protected


def test_K1_chip_race_deals_cards_seat_by_seat_and_highest_wins() -> None:
    race = chip_race({"a": 200, "b": 300}, 100, (500,), random.Random(3))
    owners = [p for p, _ in race.cards]
    assert owners == ["a", "a", "b", "b", "b"]
    ranks = "23456789TJQKA"
    suits = "cdhs"
    best = max(race.cards, key=lambda pc: (ranks.index(pc[1][0]), suits.index(pc[1][1])))
    assert race.winners == (best[0],)


def test_K1_chip_race_half_or_more_rounds_up() -> None:
    # 100 + 100 = 200 < 250: no chip raced; protection keeps both in.
    small = chip_race({"a": 100, "b": 100}, 100, (500,), random.Random(1),
                      kept={"a": 1000, "b": 1000})
    assert small.chips_raced == 0
    assert all(r.amount_out == 0 for _, r in small.results)
    # 300 in odd chips is more than half a 500: one chip raced.
    half = chip_race({"a": 100, "b": 200}, 100, (500,), random.Random(1),
                     kept={"a": 1000, "b": 1000})
    assert half.chips_raced == 1


def test_K1_chip_race_through_the_house_setting() -> None:
    table = colour_up_table({"a": 300, "b": 300}, 100, (500,), method=ColourUpMethod.CHIP_RACE,
                            rng=random.Random(9), kept={"a": 0, "b": 0})
    assert sorted(r.amount_out for r in table.values()) == [500, 500]
    with pytest.raises(TypeError):
        colour_up_table({"a": 300}, 100, (500,), method=ColourUpMethod.CHIP_RACE)


def test_K1_chip_race_needing_more_than_a_deck_is_refused() -> None:
    values = {f"p{i}": 900 for i in range(10)}  # 9 odd 100s each, 90 cards
    with pytest.raises(RaceTooLarge):
        chip_race(values, 100, (1000,), random.Random(0))


# --- K1: the notice on the screen -------------------------------------------


def test_K1_announcement_in_every_language() -> None:
    texts = {lang: announcement(100, (500, 1000), lang) for lang in LANGUAGES}
    assert texts["nn"] == ("Fargebyte i pausen: 100-sjetongane blir fjerna. "
                           "Minste sjetong etter pausen: 500.")
    assert texts["nb"].startswith("Fargebytte i pausen: 100-sjetongene blir fjernet")
    assert texts["da"].startswith("Farveskift i pausen: 100-jetonerne bliver fjernet")
    assert texts["en"].startswith("Colour-up at the break: the 100 chips are removed")
    assert announcement(1000, (5000,), "nn").startswith("Fargebyte i pausen: 1 000-sjetongane")


def test_K1_notices_follow_the_structure_breaks() -> None:
    structure = preset("pf-pokerklub")
    notices = colour_up_notices(structure.periods, PF_POKERKLUB_CHIPS.denominations)
    assert len(notices) == 1
    (notice,) = notices
    colour_break = structure.periods[notice.break_index]
    assert getattr(colour_break, "colour_up", ()) == (100, 200)
    assert notice.removed == (100, 200)
    assert notice.remaining == (500, 1000, 5000)
    # Announced from the break before (the meal break), not only at the break itself.
    assert notice.announce_from < notice.break_index
    assert getattr(structure.periods[notice.announce_from], "colour_up", None) == ()
    assert notice.is_due(notice.announce_from) and notice.is_due(notice.break_index)
    assert not notice.is_due(notice.break_index + 1)
    assert "100- og 200-sjetongane (grøn, raud)" in notice.text("nn", PF_POKERKLUB_CHIPS)


def test_K1_notice_with_no_earlier_break_shows_from_the_start() -> None:
    periods = [Level(100, 200), Level(200, 400), Break(900, colour_up=(100,)), Level(300, 600)]
    (notice,) = colour_up_notices(periods, (100, 500, 1000))
    assert notice == ColourUpNotice(break_index=2, removed=(100,), remaining=(500, 1000),
                                    announce_from=0)
    assert notice.is_due(0)


def test_make_change_handles_odd_sets() -> None:
    assert make_change(600, (200, 500)) == ((200, 3),)
    assert make_change(1500, (500, 1000)) == ((1000, 1), (500, 1))
    with pytest.raises(BadDenomination):
        make_change(300, (200, 500))
