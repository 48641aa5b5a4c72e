"""The room's news as effects: what :class:`Room` asks the wall to show, read without a wall.

The loop carries these out (``test_loop`` sees them on the screen); here the
room is handed a night's state as the commands fold it, and what it returns
is the whole of what it does (issue 50).
"""

from __future__ import annotations

from kiosk.controls import effects as fx
from kiosk.display.messages import Phrase, Place
from kiosk.display.overlays import POPUP_SECONDS
from kiosk.display.registry import Screen
from kiosk.display.room import NEWS_SECONDS, Room
from kiosk.display.sound import Chime
from rules.commands import BustPlayers, CheckIn, DrawSeats, Undo
from tests.rules.tournament_kit import Night


def _update(room: Room, night: Night, screen: Screen = Screen.CLOCK) -> list[fx.UiEffect]:
    # The night's records stand in for the store's rowids: one more per event folded.
    return room.update(night.state, len(night.records), night.now, screen)


def test_a_late_check_in_pops_up_the_name_and_the_seat_once() -> None:
    night = Night().started(12)
    room = Room(night.state)
    night.do(CheckIn("p13", "Lars Sen"), at=60.0)
    seat = night.state.players["p13"].seat
    assert seat is not None
    assert _update(room, night) == [
        fx.Popup("Lars Sen", Phrase("checked_in_seat", {"table": seat.table, "seat": seat.seat}),
                 kind="check-in", seconds=POPUP_SECONDS)]
    # Nothing new folded: the room has nothing to say again.
    assert _update(room, night) == []


def test_a_bust_goes_to_the_ticker_and_its_undo_takes_it_off() -> None:
    night = Night().started(12)
    room = Room(night.state)
    night.do(BustPlayers(("p2",)), at=60.0)
    busted = night.records[-1]
    assert fx.AddBusts((Phrase("bust_line", {"name": "Player 2", "place": Place(12)}),)) \
        in _update(room, night)
    night.do(Undo(busted.device_id, busted.seq), at=70.0)
    assert fx.DropBustsOf("Player 2") in _update(room, night)


def test_the_final_table_pops_up_and_shows_the_seating_for_longer() -> None:
    night = Night().started(12)
    room = Room(night.state)
    popup = fx.Popup(Phrase("final_table"), Phrase("final_table_drawn"), kind="announcement",
                     seconds=2 * POPUP_SECONDS)
    n = 0
    while not night.state.final_table:
        assert popup not in _update(room, night)
        n += 1
        night.do(BustPlayers((f"p{n}",)), at=60.0 * n)
    news = _update(room, night)
    seating = fx.ShowScreen(Screen.SEATING, for_seconds=2 * NEWS_SECONDS)
    assert popup in news and seating in news
    assert news.index(popup) + 1 == news.index(seating)


def test_the_draw_drops_the_check_in_pop_ups_before_the_seating_shows() -> None:
    night = Night().checked_in(12)
    room = Room(night.state)
    night.do(DrawSeats())
    assert _update(room, night) == [fx.Dismiss("check-in"),
                                    fx.ShowScreen(Screen.SEATING, for_seconds=NEWS_SECONDS)]


def test_the_results_screen_is_not_taken_away_by_the_news_screen() -> None:
    night = Night().checked_in(12)
    room = Room(night.state)
    night.do(DrawSeats())
    news = _update(room, night, Screen.RESULTS)
    assert news == [fx.Dismiss("check-in")]
    assert not any(isinstance(effect, fx.ShowScreen) for effect in news)


def test_the_winner_takes_the_announcement_down_and_shows_the_results() -> None:
    night = Night().started(4)
    room = Room(night.state)
    for n in range(1, 4):
        night.do(BustPlayers((f"p{n}",)), at=60.0 * n)
    assert night.state.finished
    news = _update(room, night)
    assert news[-2:] == [fx.Dismiss("announcement"), fx.ShowScreen(Screen.RESULTS)]


def test_the_level_change_is_a_chime_and_only_once() -> None:
    night = Night().started(12)
    room = Room(night.state)
    night.now = 1799.0  # pf-pokerklub's levels are 30 minutes
    assert not any(isinstance(effect, fx.Chime) for effect in _update(room, night))
    night.now = 1801.0
    assert _update(room, night) == [fx.Chime(Chime.LEVEL)]
    night.now = 1802.0
    assert _update(room, night) == []
