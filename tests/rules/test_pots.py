"""Pots and awards: P1, P2, P5, P7, and chip conservation (Hypothesis)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from rules.betting import BettingHand
from rules.betting_actions import ActionKind
from rules.i18n import LANGUAGES
from rules.pots import (
    BadChipUnit,
    NegativeContribution,
    NoLiveHand,
    NoShownHand,
    Pot,
    UnknownSeat,
    award_pots,
    clockwise_from,
    side_pots,
    split_evenly,
)

PotRow = tuple[int, set[int], bool]


def pots_of(contributions: dict[int, int], folded: set[int] | None = None) -> list[PotRow]:
    pots = side_pots(contributions, folded or set())
    return [(p.amount, set(p.eligible), p.uncalled) for p in pots]


# P1: side pots -------------------------------------------------------------


def test_P1_side_pots_main_first() -> None:
    # Seat 2 all-in for 1 400; seats 1 and 3 play on; 3's last 3 000 is unmatched.
    assert pots_of({1: 5000, 2: 1400, 3: 8000}) == [
        (4200, {1, 2, 3}, False),
        (7200, {1, 3}, False),
        (3000, {3}, True),
    ]


def test_P1_several_all_ins_make_one_side_pot_each() -> None:
    assert pots_of({1: 300, 2: 700, 3: 1000, 4: 1000}) == [
        (1200, {1, 2, 3, 4}, False),
        (1200, {2, 3, 4}, False),
        (600, {3, 4}, False),
    ]


def test_P1_folded_chips_stay_in_the_pots_they_reach() -> None:
    # Seat 4 bet 600 and folded to a raise: its chips count in both pots.
    assert pots_of({1: 300, 2: 1000, 3: 1000, 4: 600}, {4}) == [
        (1200, {1, 2, 3}, False),
        (1700, {2, 3}, False),
    ]


def test_P1_adjacent_pots_with_the_same_seats_merge() -> None:
    # The folded small blind's 100 makes a level, but not a separate pot.
    assert pots_of({1: 100, 2: 200, 3: 200}, {1}) == [(500, {2, 3}, False)]


def test_P1_chips_no_live_seat_matched_are_dead_money_in_the_last_live_pot() -> None:
    # Seat 1 is all-in for 400; seats 2 and 3 matched 900 and both folded later.
    # Nothing goes back to a seat that folded: their chips are dead money.
    assert pots_of({1: 400, 2: 900, 3: 900}, {2, 3}) == [(2200, {1}, False)]


def test_P1_uncalled_bet_is_returned_to_the_bettor() -> None:
    # Two call 600, the third shoves for 2000: 1400 of it was never called.
    assert pots_of({1: 600, 2: 600, 3: 2000}) == [(1800, {1, 2, 3}, False),
                                                  (1400, {3}, True)]


def test_P1_a_bet_everyone_folds_to_is_one_pot_for_the_bettor() -> None:
    # Everyone folds to a raise to 600: the 400 nobody matched and the pot go
    # to the same seat, so they are one pot, not a pot and a return.
    assert pots_of({1: 600, 2: 100, 3: 200}, {2, 3}) == [(900, {1}, False)]
    awards = award_pots(side_pots({1: 600, 2: 100, 3: 200}, {2, 3}), {}, button=3)
    assert awards.total == {1: 900}


def test_P1_big_blind_all_in_for_less_than_the_small_blind() -> None:
    # The BB had only 30: while the SB is in, its 50 is matched for 30 only...
    assert pots_of({1: 50, 2: 30}) == [(60, {1, 2}, False), (20, {1}, True)]
    # ...but a folded small blind is dead money: none of it comes back.
    assert pots_of({1: 50, 2: 30}, {1}) == [(80, {2}, False)]


def test_P1_lone_bet_is_all_uncalled() -> None:
    assert side_pots({4: 500}) == (Pot(500, frozenset({4}), uncalled=True),)
    assert side_pots({}) == ()
    assert side_pots({1: 0, 2: 0}) == ()


def test_P1_each_pot_decided_separately() -> None:
    pots = side_pots({1: 5000, 2: 1400, 3: 8000})
    # Seat 2 has the best hand but wins only the main pot; seat 1 beats seat 3 for the side pot.
    awards = award_pots(pots, {1: 5, 2: 9, 3: 1}, button=1)
    assert [a.shares for a in awards.pots] == [{2: 4200}, {1: 7200}, {3: 3000}]
    assert awards.total == {2: 4200, 1: 7200, 3: 3000}


def test_P1_negative_contribution_refused_in_every_language() -> None:
    with pytest.raises(NegativeContribution) as info:
        side_pots({1: 100, 2: -5})
    assert isinstance(info.value, ValueError)
    assert info.value.translate("nn") == "Sete 2 kan ikkje ha lagt -5 i potten"
    assert NegativeContribution.missing_languages() == ()


def test_P1_everyone_folded_is_refused() -> None:
    with pytest.raises(NoLiveHand):
        side_pots({1: 100, 2: 200}, {1, 2})


# P2: split pots and the odd chip ---------------------------------------------


def test_P2_identical_hands_split_equally() -> None:
    pots = side_pots({1: 1000, 2: 1000, 3: 1000})
    assert award_pots(pots, {1: 8, 2: 8, 3: 8}, button=1).total == {2: 1000, 3: 1000, 1: 1000}


def test_P2_odd_chip_to_first_winner_left_of_the_button() -> None:
    pots = [Pot(301, frozenset({1, 4, 7}))]
    main = award_pots(pots, {1: 5, 4: 9, 7: 9}, button=5)
    # Clockwise from the button at 5: 7 comes before 4.
    assert main.pots[0].shares == {7: 151, 4: 150}
    assert main.pots[0].high_winners == (7, 4)
    # With the button at 1, seat 4 is first left of it.
    assert award_pots(pots, {1: 5, 4: 9, 7: 9}, button=1).pots[0].shares == {4: 151, 7: 150}


def test_P2_odd_chip_with_the_button_on_a_winner() -> None:
    # Seat 5 posted a 1-chip ante and folded: the pot of 101 is odd.
    pots = side_pots({2: 50, 3: 50, 5: 1}, {5})
    shares = award_pots(pots, {2: 1, 3: 1}, button=3).pots[0].shares
    # The button itself is the last seat clockwise from the button.
    assert shares == {2: 51, 3: 50}


def test_P2_odd_chip_with_a_dead_button() -> None:
    # The button sits on the empty seat 6 (B3): seat 8 is first left of it.
    pots = side_pots({2: 151, 8: 150})
    shares = award_pots(pots[:1], {2: 4, 8: 4}, button=6, seat_order=range(1, 11)).pots[0].shares
    assert shares == {8: 150, 2: 150}
    shares = award_pots(
        [Pot(226, frozenset({2, 8, 9}))],
        {2: 4, 8: 4, 9: 4},
        button=6,
        seat_order=range(1, 11),
    ).pots[0].shares
    assert shares == {8: 76, 9: 75, 2: 75}


def test_P2_several_odd_chips_go_clockwise_one_each() -> None:
    assert split_evenly(302, [9, 1, 3]) == {9: 101, 1: 101, 3: 100}


def test_P2_odd_chip_in_the_smallest_denomination() -> None:
    # With 100 the smallest chip, a 500 pot for two is 300 and 200, not 250 each.
    pots = side_pots({1: 250, 2: 250})
    assert award_pots(pots, {1: 3, 2: 3}, button=2, unit=100).total == {1: 300, 2: 200}
    with pytest.raises(BadChipUnit):
        award_pots(pots, {1: 3, 2: 3}, button=2, unit=0)


def test_P2_suits_never_rank() -> None:
    # The award sees only the values: hands equal in rank are equal, whatever
    # their suits. (The card-level check lives in test_showdown.)
    pots = side_pots({1: 500, 2: 500})
    assert award_pots(pots, {1: (8, 14, 13), 2: (8, 14, 13)}, button=1).total == {2: 500, 1: 500}


def test_P2_unknown_seat_refused() -> None:
    with pytest.raises(UnknownSeat):
        clockwise_from(11, [1, 2], seat_order=range(1, 11))


# P5: both hole cards must be shown -------------------------------------------


def test_P5_seat_that_did_not_show_cannot_win() -> None:
    pots = side_pots({1: 1000, 2: 1000})
    # Seat 1 would win but showed one card only: its value is None.
    assert award_pots(pots, {1: None, 2: 2}, button=2).total == {2: 2000}


def test_P5_nobody_shown_in_a_contested_pot_goes_to_the_floor() -> None:
    pots = side_pots({1: 1000, 2: 400, 3: 1000})
    with pytest.raises(NoShownHand) as info:
        award_pots(pots, {1: None, 2: 5, 3: None}, button=3)
    assert info.value.translate("nn") == (
        "Ingen som kan vinne potten på 1 200, har vist begge holkorta: turneringsleiaren avgjer"
    )


def test_P5_lone_eligible_seat_wins_unshown() -> None:
    # Once seat 3 mucks (folds), seat 1 takes the side pot without showing.
    pots = side_pots({1: 1000, 2: 400, 3: 1000}, {3})
    assert award_pots(pots, {1: None, 2: 5}, button=3).total == {2: 1200, 1: 1200}


# P7: Hi/Lo -----------------------------------------------------------------


def test_P7_hilo_halves_odd_chip_to_high() -> None:
    pots = [Pot(301, frozenset({1, 2, 3}))]
    awards = award_pots(pots, {1: 9, 2: 5, 3: 1}, lows={1: None, 2: None, 3: 7}, button=1)
    assert awards.total == {1: 151, 3: 150}
    assert awards.pots[0].high_winners == (1,)
    assert awards.pots[0].low_winners == (3,)


def test_P7_no_qualifying_low_high_takes_all() -> None:
    pots = side_pots({1: 300, 2: 300})
    awards = award_pots(pots, {1: 9, 2: 5}, lows={1: None, 2: None}, button=1)
    assert awards.total == {1: 600}
    assert awards.pots[0].low_winners == ()


def test_P7_quartering() -> None:
    # A wins high and ties B for low: A gets 75 %, B 25 % (seed 004's example).
    pots = side_pots({1: 400, 2: 400})
    awards = award_pots(pots, {1: 9, 2: 5}, lows={1: 6, 2: 6}, button=1)
    assert awards.total == {1: 600, 2: 200}


def test_P7_quartering_odd_chips_left_of_the_button() -> None:
    # 302: high half 151, low half 151 split 76/75, odd to the first low winner left of the button.
    pots = side_pots({1: 151, 2: 151})
    assert award_pots(pots, {1: 9, 2: 5}, lows={1: 6, 2: 6}, button=1).total == {1: 151 + 75, 2: 76}
    assert award_pots(pots, {1: 9, 2: 5}, lows={1: 6, 2: 6}, button=2).total == {1: 151 + 76, 2: 75}


def test_P7_scoop_with_high_and_low() -> None:
    pots = side_pots({1: 300, 2: 300, 3: 300})
    awards = award_pots(pots, {1: 9, 2: 5, 3: 1}, lows={1: 8, 2: 6, 3: None}, button=1)
    assert awards.total == {1: 900}


def test_P7_unshown_hand_cannot_win_the_low() -> None:
    pots = side_pots({1: 300, 2: 300})
    assert award_pots(pots, {1: None, 2: 5}, lows={1: 9, 2: None}, button=1).total == {2: 600}


def test_P7_each_side_pot_halved_separately() -> None:
    pots = side_pots({1: 100, 2: 500, 3: 500})
    awards = award_pots(pots, {1: 1, 2: 9, 3: 5}, lows={1: 8, 2: None, 3: 3}, button=3)
    assert [a.shares for a in awards.pots] == [{1: 150, 2: 150}, {2: 400, 3: 400}]


# Properties ----------------------------------------------------------------

SEATS = st.integers(min_value=1, max_value=10)
Values = dict[int, int | None]
Case = tuple[dict[int, int], set[int], Values, Values | None, int]


@st.composite
def showdowns(draw: st.DrawFn) -> Case:
    contributions = draw(st.dictionaries(SEATS, st.integers(0, 20_000), min_size=1, max_size=10))
    paying = [seat for seat, amount in contributions.items() if amount > 0]
    assume(paying)
    folded = set(draw(st.lists(st.sampled_from(sorted(contributions)), unique=True)))
    # Somebody live must have matched the biggest called amount, or the pot is dead.
    called = sorted(contributions.values())[-2] if len(contributions) > 1 else 0
    assume(any(seat not in folded and contributions[seat] >= called for seat in paying))
    value = st.none() | st.integers(0, 4)
    highs = {seat: draw(value) for seat in contributions if seat not in folded}
    lows = draw(st.none() | st.fixed_dictionaries({seat: value for seat in highs}))
    button = draw(SEATS)
    return contributions, folded, highs, lows, button


@given(showdowns(), st.sampled_from([1, 1, 25, 100]))
def test_P1_chips_are_conserved(case: Case, unit: int) -> None:
    contributions, folded, highs, lows, button = case
    pots = side_pots(contributions, folded)
    assert sum(p.amount for p in pots) == sum(contributions.values())
    try:
        awards = award_pots(pots, highs, lows=lows, button=button, unit=unit)
    except NoShownHand:
        return
    assert sum(awards.total.values()) == sum(contributions.values())
    for award in awards.pots:
        assert sum(award.shares.values()) == award.pot.amount
        for seat, chips in award.shares.items():
            # Nobody wins more than the pot, nor from a pot they cannot win.
            assert 0 < chips <= award.pot.amount
            assert seat in award.pot.eligible
        assert set(award.high_winners) <= award.pot.eligible
        assert set(award.low_winners) <= award.pot.eligible


@given(showdowns())
def test_P1_nobody_wins_more_than_they_covered(case: Case) -> None:
    contributions, folded, highs, _, button = case
    pots = side_pots(contributions, folded)
    try:
        total = award_pots(pots, highs, button=button).total
    except NoShownHand:
        return
    most_live = max(amount for seat, amount in contributions.items() if seat not in folded)
    # Chips that only folded seats put in, above every live seat's, are dead money.
    dead = sum(max(0, amount - most_live) for seat, amount in contributions.items()
               if seat in folded)
    for seat, won in total.items():
        # P1: from each seat a winner collects at most what it put in itself.
        cap = sum(min(amount, contributions[seat]) for amount in contributions.values())
        assert won <= cap + dead


@given(showdowns())
def test_P1_pots_shrink_in_eligibility(case: Case) -> None:
    contributions, folded, _, _, _ = case
    pots = [p for p in side_pots(contributions, folded) if not p.uncalled]
    for inner, outer in itertools.pairwise(pots):
        assert outer.eligible < inner.eligible
    assert all(p.amount > 0 and p.eligible for p in pots)
    assert all(not (p.eligible & folded) for p in pots)


def test_error_messages_in_every_language() -> None:
    for error in (NegativeContribution, NoLiveHand, NoShownHand, UnknownSeat, BadChipUnit):
        assert error.missing_languages() == (), error
        assert set(error.messages) == set(LANGUAGES)


# The betting engine's hands always cut into live pots -------------------------

MOVES = st.sampled_from(["fold", "check", "call", "min", "max", "all-in"])


@given(
    st.dictionaries(st.integers(1, 9), st.integers(0, 6000), min_size=2, max_size=9),
    st.integers(1, 9),
    st.lists(MOVES, max_size=40),
)
def test_P1_played_hands_conserve_chips(stacks: dict[int, int], button: int,
                                        moves: list[str]) -> None:
    # Played by the rules, every chip is in a pot.
    assume(sum(1 for stack in stacks.values() if stack > 0) >= 2)
    assume(all(stack > 0 for stack in stacks.values()))
    hand = BettingHand.start(stacks, button, "50/100")
    for move in moves:
        while hand.actor is None and hand.can_advance():
            hand = hand.advance()
        if hand.actor is None:
            break
        legal = hand.legal_actions()
        if move in ("min", "max") and hand.min_raise_to is not None:
            to = hand.min_raise_to if move == "min" else hand.max_raise_to
            assert to is not None
            hand = hand.raise_to(to) if hand.bet_level else hand.bet(to)
        elif move == "all-in" and ActionKind.ALL_IN in legal:
            hand = hand.go_all_in()
        elif move == "fold" and ActionKind.FOLD in legal:
            hand = hand.fold()
        elif ActionKind.CHECK in legal:
            hand = hand.check()
        else:
            hand = hand.call()
    pots = hand.pots
    assert sum(p.amount for p in pots) == hand.pot == sum(stacks.values()) - sum(
        hand.stacks.values()
    )
    live = set(hand.live)
    for pot in pots:
        # Nothing, not even an unmatched blind, goes back to a seat that folded.
        assert pot.eligible <= live
    # Everyone shows the same hand: each live seat gets back at least what it risked
    # against the others who stayed in, and the award adds up.
    awards = award_pots(pots, dict.fromkeys(live, 1), button=button)
    assert sum(awards.total.values()) == hand.pot
