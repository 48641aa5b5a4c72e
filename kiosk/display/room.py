"""Telling the room: the news :func:`~.announce.announce` finds, put on the wall.

Busts go to the ticker, check-ins (and who came in from the waiting list) to
a pop-up, the draw's seating and new moves to the screen for
:data:`NEWS_SECONDS`, the final table, hand for hand and the winner to big
pop-ups, and a level change or a minute's warning to a chime.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from kiosk.display.announce import announce, seen
from kiosk.display.messages import Phrase, Place
from kiosk.display.overlays import POPUP_SECONDS
from kiosk.display.registry import Screen
from kiosk.display.sound import chime_for
from rules import clock as clocks
from rules.state import Tournament

if TYPE_CHECKING:
    from kiosk.display.wall import Wall

__all__ = ["NEWS_SECONDS", "Room"]

#: How long new moves, or the seating after a draw, stay up before the clock returns.
NEWS_SECONDS: Final = 30.0


class Room:
    def __init__(self, state: Tournament) -> None:
        self.seen = seen(state)
        self._reading: clocks.ClockReading | None = None
        #: The state last told, as (object, rowid folded): the fold changes the
        #: state in place, and only a new row (or a new state) can bring news.
        self._told: tuple[int, int] | None = None

    def settle(self, state: Tournament) -> None:
        """The state as it stands is told: no news for what happened before."""
        self.seen = seen(state)
        self._told = None

    def update(self, loop: Wall) -> None:
        state = loop.station.state
        told = (id(state), loop.station.folded_rowid)
        if told != self._told:
            self._told = told
            self._tell(loop, state)
        self._chime(loop)

    def _tell(self, loop: Wall, state: Tournament) -> None:
        # Told as phrases, not text: a language switch says them again (issue 19).
        self.seen, news = announce(self.seen, state)
        if news.screen == "seating":
            # The draw's seating says every seat: a check-in's "sjekka inn" from
            # before it would only stand in the way of the room reading it.
            loop.drop_popups("check-in")
        for name in news.unbusted:
            loop.overlays.drop_busts_of(name)  # an undone bust leaves the ticker too
        if news.busted:
            loop.overlays.add_busts([Phrase("bust_line", {"name": name, "place": Place(place)})
                                     for place, name in news.busted])
        for player_id in news.checked_in:
            entry = state.players[player_id]
            line = (Phrase("checked_in_seat", {"table": entry.seat.table, "seat": entry.seat.seat})
                    if entry.seat is not None else Phrase("checked_in"))
            loop.popup(entry.name, line, kind="check-in")
        for player_id in news.admitted:
            entry = state.players[player_id]
            line = (Phrase("admitted_seat", {"table": entry.seat.table, "seat": entry.seat.seat})
                    if entry.seat is not None else Phrase("checked_in"))
            loop.popup(entry.name, line, kind="check-in")
        if news.screen is not None and loop.screen is not Screen.RESULTS:
            loop.show(Screen(news.screen), for_seconds=NEWS_SECONDS)
        for said in news.announcements:
            if said.kind == "final-table":
                loop.popup(Phrase("final_table"), Phrase("final_table_drawn"),
                           kind="announcement", seconds=2 * POPUP_SECONDS)
                loop.show(Screen.SEATING, for_seconds=2 * NEWS_SECONDS)
            elif said.kind == "hand-for-hand":
                loop.popup(Phrase("hand_for_hand"), Phrase("hand_for_hand_on"),
                           kind="announcement", seconds=2 * POPUP_SECONDS)
            else:
                # The results' own banner names the winner: a pop-up over it would
                # say it twice and hide the top places (issue 19).
                loop.drop_popups("announcement")
                loop.show(Screen.RESULTS)

    def _chime(self, loop: Wall) -> None:
        state = loop.station.state
        if state.config is None:
            self._reading = None
            return
        reading = clocks.read(state.config.structure, state.clock, loop.station.now())
        chime = chime_for(self._reading, reading)
        self._reading = reading
        if chime is not None and loop.chimes is not None:
            loop.chimes.play(chime)
