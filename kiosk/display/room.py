"""Telling the room: the news :func:`~.announce.announce` finds, as effects for the wall.

Busts go to the ticker, check-ins (and who came in from the waiting list) to
a pop-up, the draw's seating and new moves to the screen for
:data:`NEWS_SECONDS`, the final table, hand for hand and the winner to big
pop-ups, and a level change or a minute's warning to a chime. The room only
says what to show (:mod:`kiosk.controls.effects`); the loop shows it, through
the same table as a button's effects (:mod:`.effects`).
"""

from __future__ import annotations

from typing import Final

from kiosk.controls import effects as fx
from kiosk.display.announce import announce, seen
from kiosk.display.messages import Phrase, Place
from kiosk.display.overlays import POPUP_SECONDS
from kiosk.display.registry import Screen
from kiosk.display.sound import chime_for
from rules import clock as clocks
from rules.state import Tournament

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

    def update(self, state: Tournament, folded_rowid: int, now: float,
               screen: Screen) -> list[fx.UiEffect]:
        """What to show for ``state`` (folded to ``folded_rowid``) at shared time ``now``,
        with ``screen`` on the wall: its news, then a chime, in the order to show them."""
        effects: list[fx.UiEffect] = []
        told = (id(state), folded_rowid)
        if told != self._told:
            self._told = told
            effects += self._tell(state, screen)
        effects += self._chime(state, now)
        return effects

    def _tell(self, state: Tournament, screen: Screen) -> list[fx.UiEffect]:
        # Told as phrases, not text: a language switch says them again (issue 19).
        self.seen, news = announce(self.seen, state)
        effects: list[fx.UiEffect] = []
        if news.screen == "seating":
            # The draw's seating says every seat: a check-in's "sjekka inn" from
            # before it would only stand in the way of the room reading it.
            effects.append(fx.Dismiss("check-in"))
        # An undone bust leaves the ticker too.
        effects += [fx.DropBustsOf(name) for name in news.unbusted]
        if news.busted:
            effects.append(fx.AddBusts(tuple(
                Phrase("bust_line", {"name": name, "place": Place(place)})
                for place, name in news.busted)))
        for player_id in news.checked_in:
            entry = state.players[player_id]
            line = (Phrase("checked_in_seat", {"table": entry.seat.table, "seat": entry.seat.seat})
                    if entry.seat is not None else Phrase("checked_in"))
            effects.append(fx.Popup(entry.name, line, kind="check-in", seconds=POPUP_SECONDS))
        for player_id in news.admitted:
            entry = state.players[player_id]
            line = (Phrase("admitted_seat", {"table": entry.seat.table, "seat": entry.seat.seat})
                    if entry.seat is not None else Phrase("checked_in"))
            effects.append(fx.Popup(entry.name, line, kind="check-in", seconds=POPUP_SECONDS))
        if news.screen is not None and screen is not Screen.RESULTS:
            effects.append(fx.ShowScreen(Screen(news.screen), for_seconds=NEWS_SECONDS))
        for said in news.announcements:
            if said.kind == "final-table":
                effects += [fx.Popup(Phrase("final_table"), Phrase("final_table_drawn"),
                                     kind="announcement", seconds=2 * POPUP_SECONDS),
                            fx.ShowScreen(Screen.SEATING, for_seconds=2 * NEWS_SECONDS)]
            elif said.kind == "hand-for-hand":
                effects.append(fx.Popup(Phrase("hand_for_hand"), Phrase("hand_for_hand_on"),
                                        kind="announcement", seconds=2 * POPUP_SECONDS))
            else:
                # The results' own banner names the winner: a pop-up over it would
                # say it twice and hide the top places (issue 19).
                effects += [fx.Dismiss("announcement"), fx.ShowScreen(Screen.RESULTS)]
        return effects

    def _chime(self, state: Tournament, now: float) -> list[fx.UiEffect]:
        if state.config is None:
            self._reading = None
            return []
        reading = clocks.read(state.config.structure, state.clock, now)
        chime = chime_for(self._reading, reading)
        self._reading = reading
        return [] if chime is None else [fx.Chime(chime)]
