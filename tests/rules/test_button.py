"""Button and blinds: B2-B5, B8, S5 (rules/button.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.button import (
    ButtonPosition,
    SeatOutOfRange,
    TooFewPlayers,
    between,
    first_position,
    free_seats_worst_first,
    initial_button,
    next_big_blind,
    next_position,
    sits_out,
    sitting_out,
)
from rules.i18n import LANGUAGES

TEN = 10


def test_B1_first_hand_blinds_follow_the_button() -> None:
    assert first_position(9, {2, 5, 9}, seats_per_table=TEN) == ButtonPosition(9, 2, 5)


def test_B1_button_moves_clockwise_one_player_each_hand() -> None:
    seats = {1, 3, 4, 8}
    pos = first_position(1, seats, seats_per_table=TEN)
    buttons = []
    for _ in range(5):
        buttons.append(pos.button)
        pos = next_position(pos, seats, seats_per_table=TEN)
    assert buttons == [1, 3, 4, 8, 1]


def test_B2_heads_up_button_posts_small_blind_and_alternates() -> None:
    pos = first_position(3, {3, 7}, seats_per_table=TEN)
    assert pos == ButtonPosition(3, 3, 7)
    pos = next_position(pos, {3, 7}, seats_per_table=TEN)
    assert pos == ButtonPosition(7, 7, 3)
    assert pos.heads_up


def test_B3_small_blind_busts_button_goes_to_the_empty_seat() -> None:
    prev = ButtonPosition(button=1, small_blind=2, big_blind=3)
    pos = next_position(prev, {1, 3, 4, 5}, seats_per_table=TEN)
    assert pos == ButtonPosition(button=2, small_blind=3, big_blind=4)
    # ... and the game goes on as normal from there.
    assert next_position(pos, {1, 3, 4, 5}, seats_per_table=TEN) == ButtonPosition(3, 4, 5)


def test_B3_big_blind_busts_player_to_the_left_pays_big_blind_with_no_small_blind() -> None:
    prev = ButtonPosition(button=1, small_blind=2, big_blind=3)
    pos = next_position(prev, {1, 2, 4, 5}, seats_per_table=TEN)
    assert (pos.button, pos.small_blind, pos.big_blind) == (2, None, 4)
    # The hand after, the button reaches the empty seat (seeds 002/003).
    after = next_position(pos, {1, 2, 4, 5}, seats_per_table=TEN)
    assert (after.button, after.small_blind, after.big_blind) == (3, 4, 5)


def test_B3_big_blind_busts_across_a_run_of_empty_seats() -> None:
    # Seats 4 and 5 were already empty; BB 3 busts.
    prev = ButtonPosition(button=1, small_blind=2, big_blind=3)
    pos = next_position(prev, {1, 2, 6, 8}, seats_per_table=TEN)
    assert (pos.button, pos.small_blind, pos.big_blind) == (2, None, 6)
    after = next_position(pos, {1, 2, 6, 8}, seats_per_table=TEN)
    assert (after.button, after.small_blind, after.big_blind) == (3, 6, 8)


def test_B3_both_blinds_bust_in_one_hand() -> None:
    prev = ButtonPosition(button=1, small_blind=2, big_blind=3)
    pos = next_position(prev, {1, 4, 5}, seats_per_table=TEN)
    assert (pos.button, pos.small_blind, pos.big_blind) == (2, None, 4)
    assert next_position(pos, {1, 4, 5}, seats_per_table=TEN) == ButtonPosition(3, 4, 5)


@st.composite
def _nights(draw: st.DrawFn) -> tuple[int, list[int], list[list[int]]]:
    size = draw(st.integers(3, 10))
    seats = sorted(draw(st.sets(st.integers(1, size), min_size=3, max_size=size)))
    hands = draw(st.integers(1, 40))
    busts = [
        draw(st.lists(st.integers(0, size - 1), max_size=2, unique=True)) for _ in range(hands)
    ]
    return size, seats, busts


@settings(max_examples=300, deadline=None)
@given(_nights(), st.integers(0, 9))
def test_B3_nobody_skips_a_big_blind_and_nobody_pays_it_twice_in_a_row(
    night: tuple[int, list[int], list[list[int]]], start: int
) -> None:
    size, seats, busts = night
    occupied = set(seats)
    pos = first_position(seats[start % len(seats)], occupied, seats_per_table=size)
    owed: dict[int, int] = {}  # seat -> big blinds paid
    for out in busts:
        for index in out:
            # Bust players between hands, keeping two at the table.
            ordered = sorted(occupied)
            if len(occupied) > 2:
                occupied.discard(ordered[index % len(ordered)])
        new = next_position(pos, occupied, seats_per_table=size)
        # Never the same big blind twice in a row.
        assert new.big_blind != pos.big_blind
        # The big blind moves to the next player: no seat with a player skipped.
        assert not any(between(seat, pos.big_blind, new.big_blind) for seat in occupied)
        assert new.big_blind in occupied
        if len(occupied) > 2:
            assert new.button != new.big_blind
            assert new.small_blind in (None, pos.big_blind)
            small = new.small_blind_position
            assert small is not None and between(small, new.button, new.big_blind)
        else:
            assert new.button == new.small_blind != new.big_blind
        owed[new.big_blind] = owed.get(new.big_blind, 0) + 1
        pos = new
    # Everyone still seated has paid their way round: within one BB of each other.
    if len(busts) >= 2 * size:
        paid = [owed.get(seat, 0) for seat in occupied]
        assert max(paid) - min(paid) <= 2


def test_B4_going_heads_up_the_player_due_the_big_blind_pays_it() -> None:
    prev = ButtonPosition(button=1, small_blind=4, big_blind=7)
    # The button busts: the BB moves on from 7 past 1's empty seat to 4;
    # 7 gets the button and the small blind.
    assert next_position(prev, {4, 7}, seats_per_table=TEN) == ButtonPosition(7, 7, 4)
    # The small blind busts: the BB moves from 7 to 1.
    assert next_position(prev, {1, 7}, seats_per_table=TEN) == ButtonPosition(7, 7, 1)
    # The big blind busts: next after 7 is 1, who pays it; 4 has button and SB.
    assert next_position(prev, {1, 4}, seats_per_table=TEN) == ButtonPosition(4, 4, 1)


def test_B4_nobody_pays_big_blind_twice_going_heads_up() -> None:
    prev = ButtonPosition(button=1, small_blind=4, big_blind=7)
    for seats in ({1, 4}, {1, 7}, {4, 7}):
        hand = next_position(prev, seats, seats_per_table=TEN)
        assert hand.big_blind != prev.big_blind
        assert hand.button == hand.small_blind != hand.big_blind


def test_B5_new_player_between_small_blind_and_button_sits_out_until_the_button_passes() -> None:
    occupied = {1, 3, 6, 8}
    prev = ButtonPosition(button=1, small_blind=3, big_blind=6)
    # A player from a broken table sits in seat 4, between next hand's button
    # (3) and small blind (6).
    assert sitting_out(prev, 4)
    assert sitting_out(prev, 4, occupied=occupied, seats_per_table=TEN)
    seats = occupied | {4}
    hand = next_position(prev, seats, new_players={4}, seats_per_table=TEN)
    assert hand == ButtonPosition(3, 6, 8)
    assert sits_out(hand, 4)
    # The button passes: dealt in from the next hand on.
    hand = next_position(hand, seats, seats_per_table=TEN)
    assert hand == ButtonPosition(6, 8, 1)
    assert not sits_out(hand, 4)


def test_B5_new_player_may_take_small_blind_big_blind_or_button() -> None:
    prev = ButtonPosition(button=1, small_blind=2, big_blind=3)
    # Seat 2's player was moved away and a newcomer takes the seat: the button.
    hand = next_position(prev, {1, 2, 3, 4, 6}, new_players={2}, seats_per_table=TEN)
    assert hand.button == 2 and not sits_out(hand, 2)
    # A newcomer right after the BB pays the BB at once.
    hand = next_position(prev, {1, 2, 3, 4, 6}, new_players={4}, seats_per_table=TEN)
    assert hand.big_blind == 4 and not sits_out(hand, 4)
    # Between the blinds or behind the button: dealt in.
    assert not sitting_out(prev, 5)
    assert not sits_out(ButtonPosition(2, 3, 6), 5)


def test_B5_dead_small_blind_counts_as_the_small_blind_position() -> None:
    hand = ButtonPosition(button=2, small_blind=None, big_blind=6, dead_small_blind=4)
    assert sits_out(hand, 3)
    assert not sits_out(hand, 5)


def test_B8_high_card_draw_is_seeded_and_the_highest_card_wins() -> None:
    order = {rank: i for i, rank in enumerate("23456789TJQKA")}
    suits = {suit: i for i, suit in enumerate("cdhs")}
    suit_ties = 0
    for seed in range(200):
        seats = {1, 2, 3, 5, 6, 7, 8, 9, 10}
        button, cards = initial_button(seats, random.Random(seed))
        assert (button, cards) == initial_button(seats, random.Random(seed))
        assert [seat for seat, _ in cards] == sorted(seats)
        assert len({card for _, card in cards}) == len(seats)
        best = max(cards, key=lambda c: (order[c[1][0]], suits[c[1][1]]))
        assert best[0] == button
        top_rank = [c for c in cards if c[1][0] == best[1][0]]
        suit_ties += len(top_rank) > 1
    assert suit_ties > 0  # some draws were settled by suit


def test_B8_suit_breaks_a_tie_spades_first() -> None:
    # Find a draw where two seats share the top rank and check the suit decides.
    for seed in range(1000):
        button, cards = initial_button(range(1, 11), random.Random(seed))
        ranks = "23456789TJQKA"
        top = max(ranks.index(card[0]) for _, card in cards)
        tied = [(seat, card) for seat, card in cards if ranks.index(card[0]) == top]
        if len(tied) > 1:
            winner = max(tied, key=lambda c: "cdhs".index(c[1][1]))
            assert button == winner[0]
            return
    pytest.fail("no tied draw found")


def test_S2_next_big_blind_and_worst_free_seats() -> None:
    pos = ButtonPosition(button=1, small_blind=2, big_blind=3)
    assert next_big_blind(pos, {1, 2, 3, 6, 9}) == 6
    # Free 4 comes first: a player there pays the BB next hand.
    assert free_seats_worst_first(pos, {1, 2, 3, 6, 9}, seats_per_table=TEN) == (4, 5, 7, 8, 10)


def test_S2_worst_free_seat_is_never_next_small_blind() -> None:
    # The BB (3) busted: whoever sat in 3 would be next hand's small blind.
    pos = ButtonPosition(button=1, small_blind=2, big_blind=3)
    ranked = free_seats_worst_first(pos, {1, 2, 6, 9}, seats_per_table=TEN)
    assert 3 not in ranked and ranked[0] == 4
    for seat in ranked:
        hand = next_position(pos, {1, 2, 6, 9, seat}, seats_per_table=TEN)
        assert hand.small_blind != seat


def test_S2_joining_a_lone_player_never_makes_the_mover_small_blind() -> None:
    pos = ButtonPosition(button=1, small_blind=2, big_blind=3)
    ranked = free_seats_worst_first(pos, {6}, seats_per_table=TEN)
    assert ranked == (4, 5)
    for seat in ranked:
        assert next_position(pos, {6, seat}, seats_per_table=TEN).big_blind == seat


def test_S5_moved_button_player_leaves_a_dead_button_for_one_hand() -> None:
    prev = ButtonPosition(button=1, small_blind=2, big_blind=3)
    # Seat 2 (due the button) is moved to another table.
    hand = next_position(prev, {1, 3, 4, 5}, seats_per_table=TEN, moved={2})
    assert hand == ButtonPosition(button=2, small_blind=3, big_blind=4)
    assert next_position(hand, {1, 3, 4, 5}, seats_per_table=TEN) == ButtonPosition(3, 4, 5)


def test_S5_house_rule_without_dead_button_on_move() -> None:
    prev = ButtonPosition(button=1, small_blind=2, big_blind=3)
    hand = next_position(
        prev, {1, 3, 4, 5}, seats_per_table=TEN, moved={2}, dead_button_on_move=False
    )
    # The blinds keep their order; the button stays with the player before them.
    assert hand == ButtonPosition(button=1, small_blind=3, big_blind=4)
    # A bust still leaves a dead button (B3).
    hand = next_position(prev, {1, 3, 4, 5}, seats_per_table=TEN, dead_button_on_move=False)
    assert hand.button == 2


def test_coming_out_of_heads_up_keeps_button_before_the_blinds() -> None:
    prev = ButtonPosition(button=1, small_blind=1, big_blind=5)
    hand = next_position(prev, {1, 3, 5}, new_players={3}, seats_per_table=TEN)
    assert hand.big_blind == 1 and hand.small_blind == 5
    assert between(5, hand.button, 1)


def test_errors_are_translated() -> None:
    with pytest.raises(TooFewPlayers):
        next_position(None, {4}, seats_per_table=TEN)
    with pytest.raises(SeatOutOfRange) as err:
        next_position(None, {4, 11}, seats_per_table=TEN)
    assert err.value.translate("nn") == "Sete 11 finst ikkje: bordet har 10 sete"
    with pytest.raises(TooFewPlayers):
        initial_button((), random.Random(1))
    for error in (TooFewPlayers, SeatOutOfRange):
        assert error.missing_languages() == ()
        assert set(error.messages) == set(LANGUAGES)
