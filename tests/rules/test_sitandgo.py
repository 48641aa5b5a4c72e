"""G1-G3: Sit & Go games for busted players."""

from __future__ import annotations

from datetime import time

import pytest

from rules.chips import SIT_AND_GO_STACK
from rules.i18n import LANGUAGES
from rules.sitandgo import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    STRUCTURE_PRESET,
    AlreadyListed,
    BadTime,
    NoFreeTable,
    NotBusted,
    NotListed,
    SitAndGo,
    TooFewPlayers,
    TooLate,
    WaitingList,
    can_start,
    next_button,
    next_game,
    start_deadline,
    verify_start,
)
from rules.structure import preset

BUSTED = frozenset(f"p{i:02d}" for i in range(1, 21))


def _listed(n: int) -> WaitingList:
    w = WaitingList()
    for i in range(1, n + 1):
        w = w.join(f"p{i:02d}", BUSTED)
    return w


EVENING = {"now": time(21, 0), "closing": time(1, 0), "free_tables": 1}

# --- G1: the waiting list --------------------------------------------------------


def test_G1_waiting_list_is_first_come_first_served() -> None:
    w = WaitingList().join("p03", BUSTED).join("p01", BUSTED).join("p02", BUSTED)
    assert w.players == ("p03", "p01", "p02")
    assert len(w) == 3
    assert w.leave("p01").players == ("p03", "p02")


def test_G1_no_duplicates_on_the_list() -> None:
    w = WaitingList().join("p01", BUSTED)
    assert not w.can_join("p01", BUSTED)
    with pytest.raises(AlreadyListed) as err:
        w.join("p01", BUSTED)
    assert err.value.translate("nn") == "p01 står allereie på ventelista"


def test_G1_only_players_busted_from_the_main_event() -> None:
    assert not WaitingList().can_join("still-playing", BUSTED)
    with pytest.raises(NotBusted):
        WaitingList().join("still-playing", BUSTED)
    with pytest.raises(NotListed):
        WaitingList().leave("p01")


def test_G1_starts_with_seven_listed_and_a_free_table() -> None:
    assert MIN_PLAYERS == 7 and MAX_PLAYERS == 9
    assert not can_start(_listed(6), **EVENING)
    assert can_start(_listed(7), **EVENING)
    with pytest.raises(TooFewPlayers) as err:
        verify_start(_listed(6), **EVENING)
    assert err.value.translate("en") == "6 on the waiting list, 7 needed"


def test_G1_main_event_has_priority_on_tables() -> None:
    w = _listed(9)
    assert not can_start(w, now=time(21, 0), closing=time(1, 0), free_tables=0)
    # One table is free, but the main event still needs it (e.g. late registration).
    with pytest.raises(NoFreeTable):
        verify_start(w, now=time(21, 0), closing=time(1, 0), free_tables=1, main_needs=1)
    assert can_start(w, now=time(21, 0), closing=time(1, 0), free_tables=2, main_needs=1)


def test_G1_next_game_takes_the_first_nine_in_list_order() -> None:
    w = WaitingList(tuple(f"p{i:02d}" for i in (5, 3, 11, 1, 2, 4, 6, 7, 8, 9, 10)))
    game, rest = next_game(w, **EVENING)
    assert game.players == ("p05", "p03", "p11", "p01", "p02", "p04", "p06", "p07", "p08")
    assert rest.players == ("p09", "p10")
    # Seven or eight listed: all of them play.
    game, rest = next_game(_listed(7), **EVENING)
    assert len(game.players) == 7 and rest.players == ()


def test_G1_next_game_refuses_like_verify_start() -> None:
    with pytest.raises(TooFewPlayers):
        next_game(_listed(3), **EVENING)


# --- G2: the deadline ------------------------------------------------------------


def test_G2_deadline_23_when_closing_after_midnight() -> None:
    assert start_deadline(time(1, 0)) == time(23, 0)
    assert start_deadline(time(0, 0)) == time(23, 0)
    assert start_deadline(time(0, 30)) == time(23, 0)
    assert start_deadline(3 * 60) == time(23, 0)


def test_G2_deadline_one_hour_before_an_early_closing() -> None:
    assert start_deadline(time(23, 30)) == time(22, 30)
    assert start_deadline(23 * 60 + 30) == time(22, 30)
    assert start_deadline(time(22, 0)) == time(21, 0)
    # Closing at 23:59 leaves 22:59; at exactly midnight the 23:00 cap applies.
    assert start_deadline(time(23, 59)) == time(22, 59)


def test_G2_no_new_game_after_23_even_if_open_late() -> None:
    w = _listed(8)
    assert can_start(w, now=time(23, 0), closing=time(1, 0), free_tables=1)
    assert not can_start(w, now=time(23, 1), closing=time(1, 0), free_tables=1)
    with pytest.raises(TooLate) as err:
        verify_start(w, now=time(23, 1), closing=time(1, 0), free_tables=1)
    assert err.value.translate("nn") == "Ingen ny Sit & Go etter kl. 23:00"


def test_G2_after_midnight_is_later_not_earlier() -> None:
    w = _listed(8)
    # 00:15 is after 23:00 on the same evening, though smaller as a time of day.
    assert not can_start(w, now=time(0, 15), closing=time(2, 0), free_tables=1)
    assert not can_start(w, now=15, closing=120, free_tables=1)


def test_G2_one_hour_before_closing() -> None:
    w = _listed(8)
    assert can_start(w, now=time(22, 30), closing=time(23, 30), free_tables=1)
    assert not can_start(w, now=time(22, 31), closing=time(23, 30), free_tables=1)
    with pytest.raises(TooLate) as err:
        verify_start(w, now=22 * 60 + 45, closing=23 * 60 + 30, free_tables=1)
    assert err.value.translate("en") == "No new Sit & Go after 22:30"


def test_G2_bad_times_are_refused() -> None:
    with pytest.raises(BadTime):
        start_deadline(-5)
    with pytest.raises(BadTime):
        start_deadline(5000)


# --- G3: the game -----------------------------------------------------------------


def test_G3_stack_structure_and_free_seating() -> None:
    game = SitAndGo(("p01", "p02"))
    assert game.starting_stack == 10_000
    assert game.composition == SIT_AND_GO_STACK
    assert game.composition.total == game.starting_stack
    assert game.free_seating
    assert game.structure == STRUCTURE_PRESET == "sit-and-go"
    assert preset(game.structure).starting_stack == game.starting_stack


def test_G3_button_moves_one_seat_clockwise_each_hand() -> None:
    seats = {1, 2, 3, 4, 5, 6, 7}
    button, order = 1, []
    for _ in range(8):
        button = next_button(button, seats)
        order.append(button)
    assert order == [2, 3, 4, 5, 6, 7, 1, 2]
    # An empty seat (a busted player) is skipped.
    assert next_button(3, {1, 2, 3, 5, 6}) == 5


def test_every_sit_and_go_message_is_translated() -> None:
    for error in (AlreadyListed, BadTime, NoFreeTable, NotBusted, NotListed, TooFewPlayers,
                  TooLate):
        assert error.missing_languages() == ()
    for lang in LANGUAGES:
        assert NoFreeTable().translate(lang)
