"""Showdown order, face-up all-ins and ranking: P2-P8 at card level."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.cards import BadCard, Card, DuplicateCard, full_deck
from rules.hands import HandCategory, UnknownGame
from rules.house import ShowdownOrder, profile
from rules.i18n import LANGUAGES
from rules.pots import NoShownHand, Pot, side_pots
from rules.showdown import (
    NoActiveSeat,
    TooManyHoleCards,
    all_hands_face_up,
    first_to_show,
    rank_showdown,
    settle,
    showing_order,
)

LEFT_OF_CALLER = ShowdownOrder.LEFT_OF_LAST_CALLER

# P3: who shows first ---------------------------------------------------------


def test_P3_last_river_aggressor_shows_first() -> None:
    assert first_to_show({1, 4, 7}, button=1, last_aggressor=7, last_caller=1) == 7
    assert showing_order({1, 4, 7}, button=1, last_aggressor=7) == (7, 1, 4)


def test_P3_all_checked_first_active_left_of_the_button() -> None:
    assert first_to_show({1, 4, 7}, button=1) == 4
    assert first_to_show({1, 4, 7}, button=7) == 1
    # The button's left neighbour folded: the next active seat shows first.
    assert first_to_show({1, 4, 7}, button=2) == 4
    # A dead button on an empty seat (seat order given, seat 9 empty).
    assert first_to_show({1, 4, 7}, button=9, seat_order=range(1, 11)) == 1


def test_P3_pf_pokerklub_left_of_last_caller_shows_first() -> None:
    house = profile("pf-pokerklub")
    assert house.showdown_order is LEFT_OF_CALLER
    # Seat 4 bets, 7 raises, 1 calls, 4 calls last: seat 7, left of 4, shows first.
    first = first_to_show(
        {1, 4, 7}, button=1, last_aggressor=7, last_caller=4, order=house.showdown_order
    )
    assert first == 7
    # Seat 4 bets, 7 calls, 1 calls last: left of 1 is 4.
    assert first_to_show({1, 4, 7}, button=9, last_aggressor=4, last_caller=1,
                         order=LEFT_OF_CALLER) == 4
    assert showing_order({1, 4, 7}, button=9, last_aggressor=4, last_caller=7,
                         order=LEFT_OF_CALLER) == (1, 4, 7)


def test_P3_pf_pokerklub_all_checked_falls_back_to_left_of_the_button() -> None:
    assert first_to_show({1, 4, 7}, button=4, order=LEFT_OF_CALLER) == 7


def test_P3_the_two_orders_differ_past_an_all_in_seat() -> None:
    # Seat 5 went all-in on the turn. River: 8 bets, 3 calls. Pubpoker: the
    # bettor 8 shows first; pf-pokerklub: the first active seat left of the
    # caller 3, which is the all-in seat 5.
    active = {3, 5, 8}
    assert first_to_show(active, button=1, last_aggressor=8, last_caller=3) == 8
    assert first_to_show(active, button=1, last_aggressor=8, last_caller=3,
                         order=LEFT_OF_CALLER) == 5


def test_P3_no_active_seat_refused() -> None:
    with pytest.raises(NoActiveSeat):
        first_to_show(set(), button=1)


# P4: all hands face up -------------------------------------------------------


def test_P4_all_in_with_no_further_betting_all_face_up() -> None:
    assert all_hands_face_up({1: 0, 2: 0})
    assert all_hands_face_up({1: 0, 2: 4000})
    assert all_hands_face_up({1: 0, 2: 0, 3: 4000})
    assert all_hands_face_up({1: 0, 2: 4000, 3: 2000}, folded={3})


def test_P4_betting_still_possible_keeps_hands_down() -> None:
    assert not all_hands_face_up({1: 0, 2: 4000, 3: 2000})  # 2 and 3 can bet on
    assert not all_hands_face_up({1: 1000, 2: 4000})  # nobody all-in
    assert not all_hands_face_up({1: 0, 2: 4000}, action_complete=False)  # 2 to call or fold
    assert not all_hands_face_up({1: 0, 2: 4000}, folded={2})  # no showdown at all


# P5: both hole cards ---------------------------------------------------------


def test_P5_one_card_shown_cannot_win() -> None:
    # Seat 1's ace alone would make aces full; it showed one card only.
    ranking = rank_showdown("Ah Kh 7c 2d 2s", {1: "As", 2: "Kc Kd"}, button=1)
    assert ranking.high_winners == (2,)
    assert [h.seat for h in ranking.hands] == [2, 1]
    assert not ranking.hands[1].complete and ranking.hands[1].high is None
    awards = settle(side_pots({1: 1000, 2: 1000}), ranking, button=1)
    assert awards.total == {2: 2000}


def test_P5_playing_the_board_still_needs_both_cards() -> None:
    board = "Ah Kh Qh Jh Th"  # a royal flush on the board: everyone plays it
    ranking = rank_showdown(board, {1: "2c", 2: "3d 4s", 3: "5c 6c"}, button=1)
    assert ranking.high_winners == (2, 3)
    awards = settle(side_pots({1: 500, 2: 500, 3: 500}), ranking, button=1)
    assert awards.total == {2: 750, 3: 750}
    # If nobody shows both cards, nobody can claim it: the floor rules.
    ranking = rank_showdown(board, {1: "2c", 2: "3d"}, button=1)
    assert ranking.high_winners == ()
    with pytest.raises(NoShownHand):
        settle(side_pots({1: 500, 2: 500}), ranking, button=1)


def test_P5_mucked_hand_cannot_win() -> None:
    ranking = rank_showdown("Ah Kh 7c 2d 2s", {1: "", 2: "3c 4c"}, button=2)
    assert ranking.high_winners == (2,)


def test_P5_omaha_needs_all_four_cards() -> None:
    ranking = rank_showdown("Qc 7h 7s 7c 2d", {1: "Qh Qd 5c", 2: "Ah Kh Ks Js"}, game="omaha")
    assert ranking.high_winners == (2,)


# P2 at card level ------------------------------------------------------------


def test_P2_suits_never_rank() -> None:
    # Same flush ranks in different suits can't happen on one board; same straights can.
    ranking = rank_showdown("9c Th Jd 2s 3h", {1: "Qs Kd", 2: "Qh Kc"}, button=2)
    assert ranking.high_winners == (1, 2)
    assert ranking.hands[0].high == ranking.hands[1].high
    awards = settle([Pot(301, frozenset({1, 2}))], ranking, button=2)
    assert awards.total == {1: 151, 2: 150}


def test_P2_sixth_and_seventh_cards_never_count() -> None:
    # Both play A-A-K-K-Q; seat 1's jack and seat 2's ten do not play.
    ranking = rank_showdown("Ad Ac Kd Ks Qh", {1: "Jc 2h", 2: "Tc 3h"}, button=2)
    assert ranking.high_winners == (1, 2)


def test_P2_odd_chip_left_of_the_button_at_card_level() -> None:
    ranking = rank_showdown("Ah Kh Qh Jh Th", {3: "2c 3c", 6: "4d 5s", 8: "6d 7s"}, button=6)
    assert ranking.high_winners == (8, 3, 6)
    assert settle([Pot(302, frozenset({3, 6, 8}))], ranking, button=6).total == {
        8: 101, 3: 101, 6: 100
    }


# P6, P7, P8 at card level ----------------------------------------------------


def test_P6_omaha_two_plus_three() -> None:
    # E2: not quads but queens full.
    ranking = rank_showdown("Qc 7h 7s 7c 2d", {1: "Qh Qd 5c 4c", 2: "Ah Kh Ks Js"}, game="omaha")
    assert [h.high.category for h in ranking.hands if h.high] == [
        HandCategory.FULL_HOUSE, HandCategory.FULL_HOUSE
    ]
    assert ranking.high_winners == (1,)


def test_P7_hilo_split_with_quartering() -> None:
    # Seed 004's examples, told right (E3: seat 1's low is 7-5-4-2-A).
    board = "8s 7c 5h 4d Jc"
    hands = {1: "Ah 2c 6d Kh", 2: "Qs Qh Qd Tc", 3: "Ac 2d 9s 9h"}
    ranking = rank_showdown(board, hands, game="omaha", hilo=True, button=3)
    assert ranking.high_winners == (2,)
    assert ranking.low_winners == (1, 3)
    low = ranking.hands[[h.seat for h in ranking.hands].index(1)].low
    assert low is not None and low.label() == "7-5-4-2-A"
    awards = settle([Pot(1200, frozenset({1, 2, 3}))], ranking, button=3)
    assert awards.total == {1: 300, 2: 600, 3: 300}


def test_P7_hilo_no_qualifying_low_high_takes_all() -> None:
    ranking = rank_showdown("Qc Jd Th Ts 9c", {1: "Ah 2c 3d 4s", 2: "Kh Kd 8c 7c"},
                            game="omaha", hilo=True, button=1)
    assert ranking.low_winners == ()
    assert settle(side_pots({1: 400, 2: 400}), ranking, button=1).total == {2: 800}


def test_P7_hilo_scoop() -> None:
    # Seed 004: A-2 with K-K on 5-4-3-Q-Q is the wheel for high and the nut low.
    ranking = rank_showdown("5c 4h 3s Qc Qh", {1: "As 2d Ks Kd", 2: "Qs Jd 9h 9c"},
                            game="omaha", hilo=True, button=2)
    assert ranking.high_winners == (1,)  # the wheel beats trip queens (2 + 3 cards)
    assert ranking.low_winners == (1,)
    assert settle(side_pots({1: 300, 2: 300}), ranking, button=2).total == {1: 600}


def test_P8_categories_translated() -> None:
    ranking = rank_showdown("Ah Kh 7c 2d 2s", {1: "As Ad", 2: "Kc Qd"}, button=1)
    assert [h.label("nn") for h in ranking.hands] == ["Fullt hus", "To par"]
    assert [h.label("da") for h in ranking.hands] == ["Fuldt hus", "To par"]
    assert [h.label("en") for h in ranking.hands] == ["Full house", "Two pair"]


# Bad input -------------------------------------------------------------------


def test_bad_cards_refused() -> None:
    with pytest.raises(BadCard):
        rank_showdown("Ah Kh 7c 2d 2x", {1: "As Ad"})
    with pytest.raises(DuplicateCard):
        rank_showdown("Ah Kh 7c 2d 2s", {1: "As Ad", 2: "Ah Qd"})
    with pytest.raises(TooManyHoleCards) as info:
        rank_showdown("Ah Kh 7c 2d 2s", {1: "As Ad Qd"})
    assert info.value.translate("nn") == "Sete 1 har 3 holkort; i Holdem har ein 2"
    with pytest.raises(UnknownGame):
        rank_showdown("Ah Kh 7c 2d 2s", {1: "As Ad"}, game="stud")


def test_error_messages_in_every_language() -> None:
    for error in (NoActiveSeat, TooManyHoleCards):
        assert set(error.messages) == set(LANGUAGES)


# Properties ------------------------------------------------------------------


@given(st.permutations(full_deck()), st.integers(2, 9), st.integers(1, 9))
def test_P2_winners_hold_the_best_hand_and_split_conserves(
    deck: list[Card], players: int, button: int
) -> None:
    board = deck[:5]
    hands = {seat: deck[5 + 2 * seat: 7 + 2 * seat] for seat in range(1, players + 1)}
    ranking = rank_showdown(board, hands, button=button)
    best = ranking.hands[0].high
    assert best is not None
    assert set(ranking.high_winners) == {h.seat for h in ranking.hands if h.high == best}
    pot = Pot(1001, frozenset(hands))
    awards = settle([pot], ranking, button=button)
    assert sum(awards.total.values()) == 1001
    assert set(awards.total) == set(ranking.high_winners)
