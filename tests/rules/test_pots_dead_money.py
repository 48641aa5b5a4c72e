"""Dead money in the pots: antes and folded blinds (RULES.md B7, P1; TDA RP-11).

A big-blind ante is not part of the big blind's bet: it is in the main pot,
every seat still in the hand can win all of it, and none of it is returned.
Per-player antes are dead money too, matched ante for ante. Blinds and bets
of seats that fold stay in the pot, and nothing is returned to a folded seat.

The property tests check ``side_pots`` and ``BettingHand.pots`` against a
model written here from scratch: the best hand takes, from every seat, what
it covers of that seat's chips, then the next best takes what is left up to
its own cover, and so on; chips nobody live covers go to the best live seat
among those who put in the most.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rules.betting import ActionKind, BettingHand, Blinds
from rules.house import AnteOrder, HouseRules
from rules.pots import Pot, award_pots, side_pots
from rules.structure import AnteKind

PotRow = tuple[int, set[int], bool]


def rows(pots: Sequence[Pot]) -> list[PotRow]:
    return [(p.amount, set(p.eligible), p.uncalled) for p in pots]


def bb_ante(small: int, big: int, ante: int) -> Blinds:
    return Blinds(small, big, ante, AnteKind.BIG_BLIND)


# The examples ----------------------------------------------------------------


def example_hand(order: AnteOrder = AnteOrder.BLIND_FIRST) -> BettingHand:
    # 25/50, big-blind ante 50. Button 3, small blind 1, big blind 2.
    hand = BettingHand.start({1: 59, 2: 4792, 3: 308}, 3, bb_ante(25, 50, 50),
                             house=HouseRules(ante_order=order))
    assert (hand.small_blind_seat, hand.big_blind_seat, hand.actor) == (1, 2, 3)
    return hand


def test_B7_big_blind_ante_is_dead_money_a_short_all_in_wins_all_of_it() -> None:
    # The button folds, the small blind goes all-in for 59, the big blind folds.
    hand = example_hand().fold().go_all_in().fold()
    assert hand.is_hand_over and hand.live == (1,)
    assert hand.bets == {1: 59, 2: 50, 3: 0} and hand.antes == {1: 0, 2: 50, 3: 0}
    # One pot of 159 to seat 1: the big blind's 50, all of its ante, and seat 1's
    # own 59 (the 9 nobody called is seat 1's either way). Nothing goes back to seat 2.
    assert rows(hand.pots) == [(159, {1}, False)]
    awards = award_pots(hand.pots, {}, button=3)
    assert awards.total == {1: 159}


def test_P1_nothing_returned_as_uncalled_to_a_big_blind_who_folded() -> None:
    hand = example_hand().fold().go_all_in().fold()
    assert all(2 not in pot.eligible for pot in hand.pots)
    assert sum(p.amount for p in hand.pots) == hand.pot == 159


def test_B7_big_blind_ante_whole_in_the_main_pot_when_the_all_in_is_called() -> None:
    # The big blind calls the 59: the short all-in can win the whole ante.
    hand = example_hand().fold().go_all_in().call()
    assert rows(hand.pots) == [(168, {1, 2}, False)]
    assert award_pots(hand.pots, {1: 9, 2: 1}, button=3).total == {1: 168}


def test_B7_short_big_blind_pays_blind_first_and_the_rest_is_dead_ante() -> None:
    # 25/50 a50, the big blind (2) has 70: blind 50, ante 20 (TDA 2024 RP-11).
    hand = BettingHand.start({1: 1000, 2: 70, 3: 1000}, 3, bb_ante(25, 50, 50))
    assert hand.bets[2] == 50 and hand.antes[2] == 20 and 2 in hand.all_in
    hand = hand.call().fold()  # the button calls 50, the small blind folds
    assert hand.is_round_complete
    # The small blind's 25 is dead money; the 20 of ante is the main pot's.
    assert rows(hand.pots) == [(145, {2, 3}, False)]
    assert award_pots(hand.pots, {2: 1, 3: 9}, button=3).total == {3: 145}


def test_B7_short_big_blind_pays_ante_first_under_the_house_option() -> None:
    # 004's order: ante 50 first, the 20 left is the blind; others still call 50 (X10).
    house = HouseRules(ante_order=AnteOrder.ANTE_FIRST)
    hand = BettingHand.start({1: 1000, 2: 70, 3: 1000}, 3, bb_ante(25, 50, 50), house=house)
    assert hand.bets[2] == 20 and hand.antes[2] == 50 and hand.to_call == 50
    hand = hand.call().fold()
    # The big blind wins 20 from each bet and all of its ante; the button's
    # last 30 of the call and the 5 of the small blind over 20 are the button's.
    assert rows(hand.pots) == [(110, {2, 3}, False), (35, {3}, False)]
    assert award_pots(hand.pots, {2: 9, 3: 1}, button=3).total == {2: 110, 3: 35}


def test_B7_both_orders_with_the_example_stacks() -> None:
    # Seat 1 is the short small blind, so the order does not apply; both orders
    # give one result.
    for order in AnteOrder:
        hand = example_hand(order).fold().go_all_in().fold()
        assert rows(hand.pots) == [(159, {1}, False)], order


def test_B7_per_player_antes_are_dead_money_not_part_of_the_bet() -> None:
    # 25/50 a50 per player. The small blind (1) has 59: blind first, 25 and an
    # ante of 34. Seat 1 can win 34 of each ante and 25 of the big blind.
    hand = BettingHand.start({1: 59, 2: 4792, 3: 308}, 3, Blinds(25, 50, 50))
    assert hand.antes == {1: 34, 2: 50, 3: 50} and hand.bets == {1: 25, 2: 50, 3: 0}
    hand = hand.fold()  # the button folds; seat 1 is all-in, the big blind has no one to raise
    assert hand.is_round_complete
    assert rows(hand.pots) == [(152, {1, 2}, False), (57, {2}, False)]


def test_B7_per_player_antes_ante_first_cover_every_ante() -> None:
    house = HouseRules(ante_order=AnteOrder.ANTE_FIRST)
    hand = BettingHand.start({1: 59, 2: 4792, 3: 308}, 3, Blinds(25, 50, 50), house=house)
    assert hand.antes == {1: 50, 2: 50, 3: 50} and hand.bets == {1: 9, 2: 50, 3: 0}
    hand = hand.fold()
    assert rows(hand.pots) == [(168, {1, 2}, False), (41, {2}, True)]


def test_P1_folded_blinds_and_antes_are_dead_money_for_a_short_big_blind() -> None:
    # 50/100 a25: the big blind (3) has only 20, all of it its blind. Both
    # others fold: every chip in is the big blind's, none goes back.
    hand = BettingHand.start({1: 5000, 2: 5000, 3: 20}, 1, Blinds(50, 100, 25))
    hand = hand.fold().fold()
    assert hand.is_hand_over
    assert rows(hand.pots) == [(120, {3}, False)]


def test_P1_side_pots_take_antes_and_dead_money_keywords() -> None:
    assert rows(side_pots({1: 59, 2: 50}, {2}, dead={2: 50})) == [(159, {1}, False)]
    # A seat all-in for 10 of a 25 ante wins 10 of each ante (its own main pot).
    assert rows(side_pots({2: 100, 3: 100}, antes={1: 10, 2: 25, 3: 25})) == [
        (30, {1, 2, 3}, False),
        (230, {2, 3}, False),
    ]
    assert side_pots({}, dead={2: 0}) == ()
    # A big blind all-in for its ante alone is still in the hand: it can win the ante.
    assert rows(side_pots({1: 25, 2: 0}, {1}, dead={2: 1})) == [(26, {2}, False)]


# The model -------------------------------------------------------------------


def _take(amounts: Mapping[int, int], ranked: Sequence[int], won: dict[int, int],
          fallback: int) -> None:
    """Best first, each live seat takes what it covers of every seat's chips."""
    taken = dict.fromkeys(amounts, 0)
    for winner in ranked:
        cover = amounts.get(winner, 0)
        for seat, chips in amounts.items():
            more = max(0, min(chips, cover) - taken[seat])
            won[winner] += more
            taken[seat] += more
    leftover = sum(chips - taken[seat] for seat, chips in amounts.items())
    if leftover:
        # Only folded seats' chips are left: dead money for the best of the
        # live seats who put in the most, or for the best hand if none put any in.
        most = max(amounts.get(seat, 0) for seat in ranked)
        heirs = [seat for seat in ranked if amounts.get(seat, 0) == most] if most else [fallback]
        won[heirs[0]] += leftover


def model_awards(bets: Mapping[int, int], antes: Mapping[int, int], dead: Mapping[int, int],
                 ranked: Sequence[int]) -> dict[int, int]:
    """What each seat ends up with when ``ranked`` (live seats, best first) is the showdown."""
    won = dict.fromkeys({*bets, *antes, *dead, *ranked}, 0)
    _take(bets, ranked, won, ranked[0])
    _take(antes, ranked, won, ranked[0])
    won[ranked[0]] += sum(dead.values())
    return {seat: chips for seat, chips in won.items() if chips}


def check_against_model(pots: Sequence[Pot], bets: Mapping[int, int],
                        antes: Mapping[int, int], dead: Mapping[int, int],
                        folded: frozenset[int],
                        order: Sequence[int]) -> None:
    live = [seat for seat in order if seat not in folded
            and max(bets.get(seat, 0), antes.get(seat, 0), dead.get(seat, 0)) > 0]
    # Chips are conserved.
    assert sum(p.amount for p in pots) == sum(bets.values()) + sum(antes.values()) + sum(
        dead.values())
    for pot in pots:
        # Nothing is ever returned to, or won by, a seat that folded.
        assert pot.amount > 0 and pot.eligible and pot.eligible <= set(live)
    assert sum(1 for pot in pots if pot.uncalled) <= 1
    # Every live seat, holding the best hand, wins exactly the pots it is
    # eligible for, and that is what the model gives it.
    for seat in live:
        ranked = [seat, *(other for other in live if other != seat)]
        model = model_awards(bets, antes, dead, ranked)
        assert sum(p.amount for p in pots if seat in p.eligible) == model[seat]
    # Any showdown order: each seat gets what the model gives it.
    ranked = [seat for seat in order if seat in live]
    highs = {seat: len(ranked) - i for i, seat in enumerate(ranked)}
    awards = award_pots(pots, highs, button=min(order))
    assert awards.total == model_awards(bets, antes, dead, ranked)


# Raw pots --------------------------------------------------------------------

SEATS = st.integers(1, 9)
CHIPS = st.one_of(st.integers(0, 60), st.integers(0, 3000))


@st.composite
def raw_cases(draw: st.DrawFn) -> tuple[dict[int, int], dict[int, int], dict[int, int],
                                        frozenset[int], list[int]]:
    seats = sorted(draw(st.sets(SEATS, min_size=1, max_size=9)))
    bets = {seat: draw(CHIPS) for seat in seats}
    antes = draw(st.one_of(st.just({}), st.fixed_dictionaries({s: st.integers(0, 60)
                                                              for s in seats})))
    dead = {draw(st.sampled_from(seats)): draw(st.sampled_from([0, 1, 25, 100]))}
    # Anyone may fold but one seat that put chips in (or the hand is over).
    paying = [s for s in seats if bets[s] or antes.get(s, 0) or dead.get(s)]
    assume(paying)
    survivor = draw(st.sampled_from(paying))
    folded = frozenset(draw(st.lists(st.sampled_from(seats), unique=True))) - {survivor}
    order = draw(st.permutations(seats))
    return bets, antes, dead, folded, order


@settings(max_examples=300, deadline=None)
@given(raw_cases())
def test_P1_side_pots_with_dead_money_match_the_model(
    case: tuple[dict[int, int], dict[int, int], dict[int, int], frozenset[int], list[int]],
) -> None:
    bets, antes, dead, folded, order = case
    pots = side_pots(bets, folded, antes=antes, dead=dead)
    check_against_model(pots, bets, antes, dead, folded, order)


# Played hands ----------------------------------------------------------------


@st.composite
def played_hands(draw: st.DrawFn) -> tuple[BettingHand, dict[int, int]]:
    count = draw(st.integers(2, 7))
    seats = sorted(draw(st.sets(st.integers(1, 9), min_size=count, max_size=count)))
    big = draw(st.sampled_from([50, 100]))
    small = draw(st.sampled_from([big // 2, big // 2, 0]))
    kind = draw(st.sampled_from(list(AnteKind)))
    ante = draw(st.sampled_from([0, big // 4, big // 2, big]))
    # Short stacks often: blinds and antes that cannot be paid in full.
    stacks = {seat: draw(st.one_of(st.integers(1, 3 * big), st.integers(1, 60 * big)))
              for seat in seats}
    hand = BettingHand.start(
        stacks, draw(st.sampled_from(seats)), Blinds(small, big, ante, kind),
        house=HouseRules(ante_order=draw(st.sampled_from(list(AnteOrder)))),
        absent=draw(st.sets(st.sampled_from(seats), max_size=1)),
    )
    for _ in range(draw(st.integers(0, 30))):
        if hand.is_hand_over:
            break
        if hand.actor is None:
            hand = hand.advance()
            continue
        move = draw(st.sampled_from(sorted(hand.legal_actions())))
        if move in (ActionKind.BET, ActionKind.RAISE):
            low, high = hand.min_raise_to, hand.max_raise_to
            assert low is not None and high is not None
            to = draw(st.sampled_from([low, high, (low + high) // 2]))
            hand = hand.bet(to) if move is ActionKind.BET else hand.raise_to(to)
        else:
            hand = hand.apply(str(move))
    return hand, stacks


def expected_posts(hand: BettingHand, stacks: Mapping[int, int]
                   ) -> tuple[dict[int, int], dict[int, int]]:
    """B7 from the rule text: each seat's forced blind and ante, in the house order."""
    blinds = hand.blinds
    blind_of = {hand.big_blind_seat: blinds.big_blind}
    if hand.small_blind_seat is not None:
        blind_of[hand.small_blind_seat] = blinds.small_blind
    posted_blind: dict[int, int] = {}
    posted_ante: dict[int, int] = {}
    for seat, stack in stacks.items():
        blind = blind_of.get(seat, 0)
        ante = (blinds.ante if blinds.ante_kind is AnteKind.PER_PLAYER
                or seat == hand.big_blind_seat else 0)
        if hand.house.ante_order is AnteOrder.BLIND_FIRST:
            posted_blind[seat] = min(blind, stack)
            posted_ante[seat] = min(ante, stack - posted_blind[seat])
        else:
            posted_ante[seat] = min(ante, stack)
            posted_blind[seat] = min(blind, stack - posted_ante[seat])
    return posted_blind, posted_ante


@settings(max_examples=150, deadline=None)
@given(played_hands(), st.randoms(use_true_random=False))
def test_B7_P1_played_hands_pots_match_the_model(
    case: tuple[BettingHand, dict[int, int]], rng: random.Random,
) -> None:
    hand, stacks = case
    posted_blind, posted_ante = expected_posts(hand, stacks)
    # Each seat's bets are its blind and what its own actions added.
    bets = {seat: posted_blind[seat] + sum(a.added for a in hand.history if a.seat == seat)
            for seat in stacks}
    assert hand.antes == posted_ante and hand.bets == bets
    assert all(bets[s] + posted_ante[s] == hand.contributions[s] for s in stacks)
    if hand.blinds.ante_kind is AnteKind.BIG_BLIND:
        antes: dict[int, int] = {}
        dead = posted_ante
    else:
        antes, dead = posted_ante, {}
    assert sum(p.amount for p in hand.pots) == hand.pot
    order = list(stacks)
    rng.shuffle(order)
    check_against_model(hand.pots, bets, antes, dead, hand.folded, order)


def test_model_agrees_with_plain_side_pots_examples() -> None:
    # The model itself, on P1's textbook case: 5000 / 1400 / 8000.
    for ranked in itertools.permutations([1, 2, 3]):
        pots = side_pots({1: 5000, 2: 1400, 3: 8000})
        highs = {seat: 3 - i for i, seat in enumerate(ranked)}
        model = model_awards({1: 5000, 2: 1400, 3: 8000}, {}, {}, list(ranked))
        assert award_pots(pots, highs, button=1).total == model
