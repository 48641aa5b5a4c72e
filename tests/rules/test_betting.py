"""The betting engine, rule by rule (RULES.md B1, B2, B6, B7, X1-X3, X7-X10, E4, E6, P4).

Seats are numbered clockwise. Where an example names players A, B, C, they
sit in seats 1, 2, 3 unless a test says otherwise.
"""

from __future__ import annotations

import inspect

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import betting_errors
from rules.betting import (
    Action,
    ActionKind,
    BettingHand,
    BettingStructure,
    Blinds,
    Street,
    parse_action,
    parse_actions,
    play,
)
from rules.betting_errors import (
    BetAlreadyMade,
    BettingNotReopened,
    BetTooLarge,
    BetTooSmall,
    CannotCheck,
    HandIsOver,
    NoActionPending,
    NoBetToRaise,
    NotEnoughChips,
    NothingToCall,
    NotYourTurn,
    RaiseCapReached,
    RaiseTooLarge,
    RaiseTooSmall,
    RoundNotComplete,
    SeatNotInHand,
    TooFewPlayers,
    UnknownAction,
)
from rules.errors import RulesError
from rules.house import AnteOrder, HouseRules
from rules.limits import fixed_limit_unit
from rules.structure import AnteKind

F, X, C, B, R, A = (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET,
                    ActionKind.RAISE, ActionKind.ALL_IN)


def deal(stacks: dict[int, int] | list[int], button: int, blinds: str | Blinds = "100/200",
         **options: object) -> BettingHand:
    if isinstance(stacks, list):
        stacks = {seat: chips for seat, chips in enumerate(stacks, start=1)}
    return BettingHand.start(stacks, button, blinds, **options)  # type: ignore[arg-type]


def to_flop(hand: BettingHand) -> BettingHand:
    """Everyone calls (the big blind checks) and the flop comes."""
    while hand.actor is not None:
        hand = hand.call() if hand.can_call() else hand.check()
    return hand.advance()


# -- B: button, blinds, antes -------------------------------------------------


def test_B1_blinds_left_of_button_and_preflop_action_left_of_big_blind() -> None:
    hand = deal([10000] * 5, button=3)
    assert (hand.small_blind_seat, hand.big_blind_seat) == (4, 5)
    assert hand.street_bets == {1: 0, 2: 0, 3: 0, 4: 100, 5: 200}
    assert hand.actor == 1  # first left of the big blind, wrapping round


def test_B1_postflop_action_starts_at_first_active_player_left_of_button() -> None:
    hand = deal([10000] * 5, button=3)
    hand = play(hand, "call, call, call, fold, check")  # the small blind (4) folds
    hand = hand.advance()
    assert hand.street is Street.FLOP
    assert hand.actor == 5  # 4 folded, so the big blind is first active left of the button


def test_B1_dead_button_and_no_small_blind_when_seats_are_given() -> None:
    # B3: the big blind busted last hand, so this hand has no small blind; the
    # button sits on an empty seat (4).
    hand = deal({1: 5000, 2: 5000, 5: 5000, 7: 5000}, button=4, blind_seats=(None, 5))
    assert hand.small_blind_seat is None
    assert hand.pot == 200
    assert hand.actor == 7
    hand = to_flop(hand)
    assert hand.actor == 5  # first left of the (dead) button


def test_B2_heads_up_button_posts_small_blind_acts_first_preflop_last_postflop() -> None:
    hand = deal({3: 5000, 8: 5000}, button=8)
    assert (hand.small_blind_seat, hand.big_blind_seat) == (8, 3)
    assert hand.actor == 8  # the button acts first before the flop
    hand = hand.call()
    assert hand.actor == 3  # the big blind's option
    hand = hand.check().advance()
    assert hand.actor == 3  # after the flop the big blind acts first...
    hand = hand.check()
    assert hand.actor == 8  # ...and the button last
    hand = hand.check()
    assert hand.is_round_complete


def test_B6_absent_player_posts_and_is_folded_when_action_reaches_them() -> None:
    hand = deal([5000] * 4, button=4, blinds=Blinds(100, 200, 25), absent={2, 4})
    # Seat 2 (big blind) and seat 4 (button) are away: both post their ante,
    # seat 2 its big blind too.
    assert hand.contributions == {1: 125, 2: 225, 3: 25, 4: 25}
    assert hand.actor == 3
    hand = hand.call()  # seat 4's turn comes: folded at once
    assert 4 in hand.folded and hand.actor == 1
    hand = hand.call()  # the big blind is folded when its option comes
    assert hand.folded == {2, 4}
    assert [a.seat for a in hand.history if a.auto] == [4, 2]
    assert hand.is_round_complete and hand.pot == 100 + 2 * 200 + 200


def test_B6_absent_player_keeps_the_pot_if_everyone_folds_before_their_turn() -> None:
    hand = deal([5000] * 3, button=3, absent={2})
    hand = play(hand, "fold, fold")
    assert hand.is_hand_over and hand.live == (2,)


def test_B7_per_player_ante_from_everyone() -> None:
    hand = deal([5000] * 4, button=4, blinds=Blinds(800, 1600, 100))
    assert hand.pot == 800 + 1600 + 4 * 100
    assert hand.street_bets[2] == 1600  # antes are dead money, not part of the bet
    assert hand.to_call == 1600


def test_B7_big_blind_ante_is_posted_by_the_big_blind_for_the_table() -> None:
    hand = deal([5000] * 4, button=4, blinds=Blinds(100, 200, 200, AnteKind.BIG_BLIND))
    assert hand.contributions == {1: 100, 2: 400, 3: 0, 4: 0}
    assert hand.street_bets[2] == 200


def test_B7_short_big_blind_pays_blind_first_by_default() -> None:
    # TDA 2024 RP-11: the blind first, the rest to the ante.
    blinds = Blinds(100, 200, 200, AnteKind.BIG_BLIND)
    hand = deal({1: 5000, 2: 300, 3: 5000}, button=3, blinds=blinds)
    assert hand.street_bets[2] == 200 and hand.contributions[2] == 300
    assert 2 in hand.all_in
    assert hand.to_call == 200


def test_B7_short_big_blind_pays_ante_first_under_house_option() -> None:
    blinds = Blinds(100, 200, 200, AnteKind.BIG_BLIND)
    house = HouseRules(ante_order=AnteOrder.ANTE_FIRST)
    hand = deal({1: 5000, 2: 300, 3: 5000}, button=3, blinds=blinds, house=house)
    assert hand.street_bets[2] == 100 and hand.contributions[2] == 300
    # X10: the others still face the full big blind.
    assert hand.to_call == 200 and hand.min_raise_to == 400


# -- X: betting ---------------------------------------------------------------


def test_X1_minimum_opening_bet_is_the_big_blind_in_every_round() -> None:
    hand = to_flop(deal([10000] * 3, button=3))
    for street in (Street.FLOP, Street.TURN, Street.RIVER):
        assert hand.street is street
        assert hand.min_raise_to == 200
        with pytest.raises(BetTooSmall) as err:
            hand.bet(199)
        assert err.value.params["minimum"] == 200
        assert hand.can_bet(200)
        hand = play(hand, "check, check, check")
        if street is not Street.RIVER:
            hand = hand.advance()


def test_X1_all_in_for_less_than_the_big_blind_is_a_bet_and_raises_start_a_blind_above() -> None:
    hand = to_flop(deal({1: 250, 2: 5000, 3: 5000}, button=3))
    assert hand.actor == 1 and hand.min_raise_to == 50  # only 50 left: all-in for less
    hand = hand.go_all_in()
    assert hand.bet_level == 50
    assert hand.min_raise_to == 250  # the minimum raise is still one big blind on top
    assert not hand.can_raise_to(249) and hand.can_raise_to(250)


def test_X7_all_in_for_less_than_a_bet_does_not_reopen_for_players_who_checked() -> None:
    # TDA 47: "less than a full bet or raise will not reopen betting for players
    # who have already acted" -- a check is acting.
    hand = to_flop(deal({1: 5000, 2: 5000, 3: 250}, button=3))
    hand = play(hand, "check, check, all-in")
    assert hand.actor == 1 and hand.legal_actions() == {F, C}


def test_E4_opening_bet_is_one_big_blind_not_two() -> None:
    # Seed 004 says an opening bet must be at least double the big blind: wrong.
    # A bet of one big blind opens (X1); 2xBB is the minimum total of a raise pre-flop.
    hand = deal([10000] * 3, button=3)
    assert hand.min_raise_to == 400
    assert not hand.can_raise_to(399)
    hand = to_flop(hand)
    assert hand.can_bet(200)
    assert hand.bet(200).bet_level == 200


def test_X2_min_raise_after_two_raises() -> None:
    # Seed 000 FAQ, blinds 100/200: "A høgnar frå 200 til totalt 500 (høgninga er
    # 300). B høgnar frå 500 til totalt 1 200 (høgninga er 700). Dersom C vil
    # høgne, må C ... høgne til minst 1 900 totalt." Then "Dersom C i staden
    # høgnar frå 1 200 til 2 000, er høgninga 800 ... til minst 2 800 totalt."
    hand = deal([10000] * 5, button=5)  # A, B, C are seats 3, 4, 5
    hand = hand.raise_to(500).raise_to(1200)
    assert hand.actor == 5
    assert hand.min_raise_to == 1900
    with pytest.raises(RaiseTooSmall) as err:
        hand.raise_to(1800)
    assert err.value.params["minimum"] == 1900
    hand = hand.raise_to(2000)
    assert hand.min_raise_to == 2800


def test_X2_tda_rule_43_raise_amounts() -> None:
    # TDA 2024 Rule 43 illustration: "NLHE, blinds 50-100. A raises to 250 (a raise
    # of 150). B must raise at least 150 more, to a total of at least 400."
    hand = deal([10000] * 4, button=4, blinds="50/100")
    hand = hand.raise_to(250)
    assert hand.min_raise_to == 400
    assert not hand.can_raise_to(399) and hand.can_raise_to(400)


def test_E6_min_reraise_after_open_to_100_and_reraise_to_300_is_500() -> None:
    # Seed 004: "big blind 50, open to 100, re-raise to 300 -> next raise at least
    # 550" is wrong: the last full raise was 200, so the minimum is 500.
    hand = deal([10000] * 4, button=4, blinds="25/50")
    hand = hand.raise_to(100).raise_to(300)
    assert hand.min_raise_to == 500
    assert hand.can_raise_to(500)


def test_X3_no_cap_on_raises_in_no_limit() -> None:
    hand = deal([10**7] * 3, button=3)
    for _ in range(20):
        hand = hand.raise_to(hand.min_raise_to or 0)
    assert R in hand.legal_actions()
    assert hand.max_raise_to == hand.street_bets[hand.actor or 0] + hand.stacks[hand.actor or 0]


def test_X7_short_all_in_does_not_reopen_for_the_bettor() -> None:
    # Seed 000 FAQ: "Spelar A satsar 1 000. Spelar B går all-in for 1 400.
    # Høgninga er berre 400 ... Ein spelar som allereie har handla, får normalt
    # ikkje rett til å høgne på nytt ... Ein spelar som enno ikkje har handla,
    # kan framleis høgne, men må gjere ei full lovleg høgning."
    hand = to_flop(deal({1: 10000, 2: 1600, 3: 10000}, button=3))
    hand = hand.bet(1000).go_all_in()
    assert hand.street_bets[2] == 1400
    assert hand.actor == 3  # C has not acted: every option, a raise must be full
    assert R in hand.legal_actions() and hand.min_raise_to == 2400
    hand = hand.call()
    assert hand.actor == 1
    assert hand.legal_actions() == {F, C}
    with pytest.raises(BettingNotReopened):
        hand.raise_to(2400)
    assert not hand.can_all_in()


def test_X7_tda_rule_47_short_all_in_and_a_call_do_not_reopen() -> None:
    # TDA 2024 Rule 47 illustration: "NLHE, blinds 50-100. Post-flop, A opens
    # betting for the 100 minimum. B goes all in for a total of 125. C calls the
    # 125. Action returns to A who is facing a raise of only 25 ... the betting is
    # not re-opened for A, who may only fold or call."
    hand = to_flop(deal({1: 5000, 2: 225, 3: 5000}, button=3, blinds="50/100"))
    hand = play(hand, "bet 100, all-in, call")
    assert hand.actor == 1 and hand.to_call == 25
    assert hand.legal_actions() == {F, C}
    assert hand.min_raise_to is None and hand.max_raise_to is None


def test_X7_tda_rule_47_multiple_short_all_ins_add_up_and_reopen() -> None:
    # TDA 2024 Rule 47 illustration: "NLHE, blinds 50-100. Post-flop, A opens
    # betting for the 100 minimum. B goes all in for a total of 125. C calls the
    # 125, D goes all in for 200 total and E calls 200. Action returns to A who is
    # facing a total raise of 100. Since 100 is a full raise, the betting is
    # re-opened for A who can fold, call, or raise." Neither 25 nor 75 is a full
    # raise by itself; the minimum raise stays the last full bet, 100.
    stacks = {1: 5000, 2: 225, 3: 5000, 4: 300, 5: 5000}
    hand = to_flop(deal(stacks, button=5, blinds="50/100"))
    hand = play(hand, "bet 100, all-in, call, all-in, call")
    assert hand.actor == 1
    assert hand.legal_actions() >= {F, C, R}
    assert hand.min_raise_to == 300
    # C acted at 125 and faces only 75 more: not a full raise, so call or fold.
    hand = hand.call()
    assert hand.actor == 3 and hand.legal_actions() == {F, C}


def test_X7_limper_facing_a_short_all_in_preflop_may_only_call_or_fold() -> None:
    # The big blind counts as the opening bet: the limper has acted on it.
    hand = deal({1: 10000, 2: 10000, 3: 10000, 4: 300}, button=4)
    hand = hand.call()  # seat 3 limps for 200
    hand = hand.go_all_in()  # seat 4 (button) all-in for 300: a raise of 100, not full
    hand = hand.fold()  # small blind
    assert hand.actor == 2  # the big blind has not acted: it may still raise
    assert R in hand.legal_actions() and hand.min_raise_to == 500
    hand = hand.call()
    assert hand.actor == 3 and hand.legal_actions() == {F, C}


def test_X7_full_raise_after_a_short_all_in_reopens() -> None:
    hand = to_flop(deal({1: 10000, 2: 1600, 3: 10000}, button=3))
    hand = hand.bet(1000).go_all_in().raise_to(2400)
    assert hand.actor == 1 and R in hand.legal_actions()
    assert hand.min_raise_to == 3400  # the last full raise was 1 000 (1 400 -> 2 400)


def test_X8_pot_limit_maximum_is_call_plus_pot_after_the_call() -> None:
    # Seed 004: "potten før din tur er 200 ... matche det igangværende bet ... 50 ...
    # potten op på 250 ... maksimalt rykke 300 kr. ind (50 kr. call + 250 kr. raise)."
    hand = to_flop(deal([5000] * 3, button=3, blinds="25/50",
                        structure=BettingStructure.POT_LIMIT))
    assert hand.pot == 150
    assert hand.max_raise_to == 150  # a pot-limit bet is at most the pot
    hand = hand.bet(50)
    assert (hand.pot, hand.to_call) == (200, 50)
    assert hand.max_raise_to == 300
    with pytest.raises(RaiseTooLarge) as err:
        hand.raise_to(301)
    assert err.value.params["maximum"] == 300
    assert hand.raise_to(300).pot == 500


def test_X8_pot_limit_preflop_first_in_may_raise_to_three_and_a_half_blinds() -> None:
    hand = deal([5000] * 4, button=4, blinds="50/100", structure=BettingStructure.POT_LIMIT)
    assert (hand.min_raise_to, hand.max_raise_to) == (200, 350)


def test_X9_fixed_limit_small_bet_preflop_and_flop_big_bet_turn_and_river() -> None:
    hand = deal([10000] * 3, button=3, structure=BettingStructure.FIXED_LIMIT)
    assert (hand.min_raise_to, hand.max_raise_to) == (400, 400)
    assert not hand.can_raise_to(500)
    hand = to_flop(hand)
    assert (hand.min_raise_to, hand.max_raise_to) == (200, 200)
    hand = play(hand, "bet 200, raise 400, call, call").advance()
    assert hand.street is Street.TURN
    assert (hand.min_raise_to, hand.max_raise_to) == (400, 400)
    with pytest.raises(BetTooLarge):
        hand.bet(800)
    hand = play(hand, "check, check, check").advance()
    assert hand.min_raise_to == 400


def test_X9_fixed_limit_cap_of_one_bet_and_three_raises_lifted_heads_up() -> None:
    hand = to_flop(deal([10000] * 3, button=3, structure=BettingStructure.FIXED_LIMIT))
    hand = play(hand, "bet 200, raise 400, raise 600, raise 800")
    assert hand.legal_actions() == {F, C}
    with pytest.raises(RaiseCapReached):
        hand.raise_to(1000)
    heads_up = to_flop(deal([10000] * 2, button=2, structure=BettingStructure.FIXED_LIMIT))
    heads_up = play(heads_up, "bet 200, raise 400, raise 600, raise 800")
    assert heads_up.can_raise_to(1000)


def test_X9_fixed_limit_short_all_in_of_half_a_bet_reopens() -> None:
    # TDA 47-B: in limit, at least 50 % of a full bet reopens for those who acted.
    stacks = {1: 10000, 2: 500, 3: 10000, 4: 400}
    hand = to_flop(deal(stacks, button=4, structure=BettingStructure.FIXED_LIMIT))
    hand = play(hand, "bet 200, all-in, call, all-in")  # 300 (half a bet more), 200 call
    assert hand.street_bets == {1: 200, 2: 300, 3: 300, 4: 200}
    assert hand.actor == 1 and R in hand.legal_actions()
    assert hand.min_raise_to == 600  # counts as a full raise to 400: the next is to 600


def test_X10_short_big_blind_all_in_others_still_call_the_full_blind() -> None:
    hand = deal({1: 5000, 2: 120, 3: 5000}, button=3)
    assert hand.street_bets[2] == 120 and 2 in hand.all_in
    assert hand.to_call == 200 and hand.min_raise_to == 400  # opening bet = full BB
    hand = hand.call().call()  # button and small blind call 200
    assert hand.is_round_complete  # nobody acts for the all-in big blind
    assert hand.contributions == {1: 200, 2: 120, 3: 200}


def test_X10_table_stakes_only_chips_in_front_play() -> None:
    hand = to_flop(deal({1: 1000, 2: 5000, 3: 5000}, button=3))
    with pytest.raises(NotEnoughChips) as err:
        hand.bet(900)
    assert err.value.params["stack"] == 800
    hand = hand.go_all_in()
    assert hand.contributions[1] == 1000 and hand.stacks[1] == 0


def test_P4_all_hands_face_up_when_all_in_and_no_more_betting() -> None:
    hand = deal({1: 5000, 2: 5000, 3: 1000}, button=3)
    hand = play(hand, "all-in, call, fold")
    assert hand.is_round_complete and not hand.is_hand_over
    assert hand.is_betting_over and hand.all_hands_face_up
    for street in (Street.FLOP, Street.TURN, Street.RIVER):
        hand = hand.advance()
        assert hand.street is street and hand.actor is None
    assert hand.is_hand_over


def test_P4_not_face_up_while_two_players_can_still_bet() -> None:
    hand = deal({1: 5000, 2: 5000, 3: 1000}, button=3)
    hand = play(hand, "all-in, call, call")
    assert not hand.all_hands_face_up
    hand = hand.advance()
    assert hand.actor == 1 and not hand.is_betting_over


# -- queries for the pots module and showdown order ---------------------------


def test_contributions_and_folded_feed_the_pots_module() -> None:
    from rules.pots import side_pots

    hand = deal({1: 5000, 2: 5000, 3: 1000, 4: 3000}, button=4)
    hand = play(hand, "all-in, all-in, call, fold")
    assert hand.folded == {2}
    pots = side_pots(hand.contributions, hand.folded)
    assert sum(p.amount for p in pots) == hand.pot


def test_last_aggressor_per_street() -> None:
    hand = to_flop(deal([5000] * 3, button=3))
    assert hand.last_aggressor is None
    hand = play(hand, "bet 200, raise 600, call, call")
    assert hand.last_aggressor == 2
    assert hand.last_aggressor_on(Street.FLOP) == 2
    assert hand.last_aggressor_on(Street.PREFLOP) is None
    assert hand.last_aggressor_on(Street.RIVER) is None


def test_P3_the_river_bettor_is_known_for_the_showdown_order() -> None:
    # Seed 000 §9: the last to bet or raise on the river shows first; if all
    # checked, nobody is the aggressor and the first active player left of the
    # button shows first (rules.showdown decides from this).
    hand = to_flop(deal([5000] * 3, button=3))
    hand = play(hand, "check, check, check, bet 200, call, call, check, bet 400, raise 1000")
    hand = play(hand, "fold, call")
    assert hand.street is Street.RIVER and hand.is_hand_over
    assert hand.last_aggressor_on(Street.RIVER) == 3
    quiet = play(to_flop(deal([5000] * 3, button=3)), ["check"] * 9)
    assert quiet.is_hand_over and quiet.last_aggressor_on(Street.RIVER) is None


def test_hand_over_when_everyone_else_folds() -> None:
    hand = play(deal([5000] * 3, button=3), "raise 600, fold, fold")
    assert hand.is_hand_over and hand.actor is None and hand.live == (3,)
    with pytest.raises(HandIsOver):
        hand.check()
    with pytest.raises(HandIsOver):
        hand.advance()


# -- refusals -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("setup", "attempt", "error"),
    [
        ("", "check", CannotCheck),
        ("", "bet 400", BetAlreadyMade),
        ("flop", "call", NothingToCall),
        ("flop", "raise 400", NoBetToRaise),
        ("flop", "bet 100", BetTooSmall),
        ("", "raise 300", RaiseTooSmall),
        ("", "raise 20000", NotEnoughChips),
    ],
)
def test_each_refusal_has_its_own_error(setup: str, attempt: str,
                                        error: type[RulesError]) -> None:
    hand = deal([5000] * 3, button=3)
    if setup == "flop":
        hand = to_flop(hand)
    with pytest.raises(error) as caught:
        hand.apply(attempt)
    assert type(caught.value) is error
    assert not hand.can_apply(attempt)


def test_round_not_complete_and_not_your_turn() -> None:
    hand = deal([5000] * 3, button=3)
    with pytest.raises(RoundNotComplete):
        hand.advance()
    with pytest.raises(NotYourTurn) as err:
        hand.apply("call", seat=1)
    assert err.value.params == {"seat": 1, "actor": 3}
    with pytest.raises(SeatNotInHand):
        hand.apply("call", seat=9)
    done = play(hand, "call, call, check")
    with pytest.raises(NoActionPending):
        done.call()


def test_setup_refusals() -> None:
    with pytest.raises(TooFewPlayers):
        deal({1: 5000}, button=1)
    with pytest.raises(SeatNotInHand):
        deal([5000] * 3, button=3, absent={7})
    with pytest.raises(betting_errors.BadBlinds):
        Blinds(300, 200)
    for chips in (-1, 0):
        with pytest.raises(betting_errors.BadStack):
            deal({1: 5000, 2: chips}, button=1)


def test_every_betting_error_speaks_all_four_languages() -> None:
    from rules import clock_call, declarations, misdeal, out_of_turn

    errors = [
        obj for module in (betting_errors, declarations, out_of_turn, misdeal, clock_call)
        for obj in vars(module).values()
        if inspect.isclass(obj) and issubclass(obj, RulesError) and obj is not RulesError
    ]
    assert len(errors) >= 25
    for error in errors:
        assert error.missing_languages() == (), error
        assert isinstance(error.__mro__[2], type) and error.__mro__[2] is not object, error


# -- text actions for the CLI -------------------------------------------------


def test_parse_actions_for_the_cli() -> None:
    assert parse_actions("raise 500, raise 1 200, call; fold, all in, check, bet 300") == (
        Action(R, 500), Action(R, 1200), Action(C), Action(F), Action(A), Action(X),
        Action(B, 300),
    )
    assert parse_action("RAISE TO 2,000") == Action(R, 2000)
    for bad in ("raise", "call 300", "jump 5", ""):
        with pytest.raises(UnknownAction):
            parse_action(bad)


def test_cli_min_raise_example() -> None:
    # `pubpoker rules min-raise --blinds 100/200 --actions "raise 500, raise 1200"`
    hand = BettingHand.start({s: 10000 for s in range(1, 10)}, 9, Blinds.parse("100/200"))
    assert play(hand, "raise 500, raise 1200").min_raise_to == 1900


def test_immutable_and_replayable() -> None:
    start = deal([5000] * 3, button=3)
    first = play(start, "raise 600, call, fold, bet 400, call")
    again = play(start, "raise 600, call, fold, bet 400, call")
    assert first == again
    assert start.pot == 300 and start.actor == 3  # untouched


# -- properties ---------------------------------------------------------------


@st.composite
def random_hands(draw: st.DrawFn) -> BettingHand:
    count = draw(st.integers(2, 9))
    seats = sorted(draw(st.sets(st.integers(1, 10), min_size=count, max_size=count)))
    big = draw(st.sampled_from([2, 50, 100, 200]))
    small = draw(st.integers(0, big))
    ante = draw(st.sampled_from([0, 0, big // 4, big]))
    blinds = Blinds(small, big, ante, draw(st.sampled_from(list(AnteKind))))
    stacks = {seat: draw(st.integers(1, 60 * big)) for seat in seats}
    return BettingHand.start(
        stacks, draw(st.integers(1, 10)), blinds,
        structure=draw(st.sampled_from(list(BettingStructure))),
        house=HouseRules(ante_order=draw(st.sampled_from(list(AnteOrder)))),
        absent=draw(st.sets(st.sampled_from(seats), max_size=2)),
    )


def _reopen_oracle(hand: BettingHand) -> bool:
    """X7 from the history alone: has the bet grown by a full raise since the actor acted?"""
    big = hand.blinds.big_blind
    level = big if hand.street is Street.PREFLOP else 0
    full = big
    faced: dict[int, int] = {}
    for act in hand.history:
        if act.street is not hand.street or act.kind is F:
            continue
        if act.to > level:
            full = max(full, act.to - level)
            level = act.to
        faced[act.seat] = level
    assert level == hand.bet_level
    actor = hand.actor
    if actor not in faced:
        return True
    if hand.structure is BettingStructure.FIXED_LIMIT:
        return 2 * (level - faced[actor]) >= fixed_limit_unit(big, hand.street)
    return level - faced[actor] >= full


def _check_invariants(hand: BettingHand, total: int) -> None:
    # Chips are conserved and nobody plays more than they brought (X10).
    assert sum(hand.stacks.values()) + hand.pot == total
    assert all(0 <= c <= s for c, s in zip(hand.committed, hand.starting_stacks, strict=True))
    if hand.actor is None:
        assert hand.legal_actions() == frozenset()
        return
    actor = hand.actor
    # The actor is never folded, all-in or away.
    assert actor not in hand.folded and actor not in hand.all_in and actor not in hand.absent
    assert hand.stacks[actor] > 0
    legal = hand.legal_actions()
    assert (F in legal) and ((C in legal) != (X in legal))
    assert (C in legal) == hand.can_call() and (A in legal) == hand.can_all_in()
    raising = legal & {B, R}
    all_in_to = hand.street_bets[actor] + hand.stacks[actor]
    # X13: could anybody else still in the hand put in more than the bet?
    answerable = any(hand.street_bets[s] + hand.stacks[s] > hand.bet_level
                     for s in hand.live if s != actor)
    if not answerable and A in legal and hand.to_call:
        assert hand.go_all_in() == hand.call()  # an all-in nobody can call is a call
    if raising:
        # Never offers a raise below the minimum, nor one the rules keep closed
        # (X7), nor one nobody could call (X13).
        assert _reopen_oracle(hand) and answerable
        low, high = hand.min_raise_to, hand.max_raise_to
        assert low is not None and high is not None and low <= high
        assert low == min(hand.full_raise_to, all_in_to) > hand.bet_level
        if hand.structure is BettingStructure.FIXED_LIMIT:
            # X9: exactly one bet more than the last full one (a short all-in under
            # half a bet does not move it), so a raise "completes" over it.
            assert high == low == min(hand.limit_level + hand.unit, all_in_to)
        elif hand.bet_level:
            assert low >= hand.bet_level + hand.last_full_raise or low == all_in_to
        else:
            assert low >= hand.blinds.big_blind or low == all_in_to  # X1
        below = low - 1
        if below > hand.bet_level and below != all_in_to:
            assert not hand.can_apply(Action(next(iter(raising)), below))
        assert not hand.can_apply(Action(next(iter(raising)), high + 1))
    else:
        assert hand.min_raise_to is None and hand.max_raise_to is None
        if hand.stacks[actor] > hand.to_call and not _reopen_oracle(hand) and answerable:
            assert A not in legal


def _assert_refused(hand: BettingHand, action: Action) -> None:
    with pytest.raises(RulesError) as caught:
        hand.apply(action)
    assert type(caught.value) is not RulesError  # always a specific reason
    for lang in ("nn", "nb", "da", "en"):
        assert caught.value.translate(lang)


@settings(max_examples=400, deadline=None)
@given(random_hands(), st.data())
def test_property_random_hands_keep_every_rule(hand: BettingHand, data: st.DataObject) -> None:
    total = sum(hand.starting_stacks)
    for _ in range(400):
        _check_invariants(hand, total)
        if hand.is_hand_over:
            break
        if hand.actor is None:
            hand = hand.advance()
            continue
        legal = hand.legal_actions()
        for kind in set(ActionKind) - legal:
            amount = hand.bet_level + hand.blinds.big_blind if kind in (B, R) else None
            _assert_refused(hand, Action(kind, amount))
        kind = data.draw(st.sampled_from(sorted(legal)))
        amount = None
        if kind in (B, R):
            low, high = hand.min_raise_to, hand.max_raise_to
            assert low is not None and high is not None
            amount = data.draw(st.one_of(st.just(low), st.just(high), st.integers(low, high)))
        hand = hand.apply(Action(kind, amount))
    else:
        pytest.fail("the hand never ended")
    assert hand.is_hand_over
    _check_invariants(hand, total)
