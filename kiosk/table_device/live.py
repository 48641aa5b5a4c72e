"""The table screen's view from a running kiosk: :meth:`TableDevice.view`, each frame.

Besides the state and the time it takes what only the device knows: where its
buttons are in BUST → seat → OK (the controls' mode), what they said last (the
pop-up, shown in the prompt's box rather than over the seats), its own last
action for the undo countdown, and whether a peer has answered with the time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiosk.table_screen import ACTIONS, PromptStep, TableScreenView, table_screen_view
from rules.events import EventKind, Record

if TYPE_CHECKING:
    from kiosk.app import App

__all__ = ["TableDevice"]

_SEAT_BUTTONS = frozenset({"seat_next", "seat_prev"})


class TableDevice:
    def __init__(self, app: App, table: int) -> None:
        self.app = app
        self.table = table
        #: Once a peer gave the time it stays given: a Wi-Fi blip later leaves the
        #: clock on its last offset, which is still the room's time.
        self.time_confirmed = False
        self._tournament: str | None = None
        self._seen = 0
        self._last: Record | None = None

    def confirmed(self) -> bool:
        """Whether a display or console has answered with the shared time yet."""
        if not self.time_confirmed:
            service: Any = self.app.sync
            estimate = getattr(service, "estimate", None)
            if (estimate is not None and not estimate.uncertain
                    and estimate.reference not in (None, self.app.store.device_id)):
                self.time_confirmed = True
        return self.time_confirmed

    def last_action(self) -> Record | None:
        """This device's newest action, or None once it was undone.

        Only the records the log gained since the last look are read: a table
        device folds every peer's events all night.
        """
        station = self.app.station
        tournament = station.tournament_id
        if tournament != self._tournament:
            self._tournament, self._seen, self._last = tournament, 0, None
        if tournament is None or station.folded_rowid <= self._seen:
            return self._last
        me = self.app.store.device_id
        fresh = [r for r in self.app.store.log.records(tournament, after_rowid=self._seen,
                                                       upto_rowid=station.folded_rowid)
                 if r.device_id == me]
        self._seen = station.folded_rowid
        if fresh:
            newest = max(fresh, key=lambda r: r.seq)
            if newest.event.kind.value in ACTIONS:
                self._last = newest
            elif newest.event.kind is EventKind.ACTION_UNDONE:
                self._last = None
        return self._last

    def step(self) -> PromptStep:
        from kiosk.controls.device import Mode

        controls = self.app.loop.controls
        if controls is None:
            return PromptStep()
        buttons = set(controls.buttons)
        return PromptStep(busting=controls.mode is Mode.BUST, seat=controls.selected_seat,
                          seat_buttons=not buttons or bool(buttons & _SEAT_BUTTONS))

    def said(self) -> str:
        popup = self.app.loop.overlays.current()
        if popup is None:
            return ""
        return f"{popup.title}: {popup.line}" if popup.line else popup.title

    def view(self) -> TableScreenView:
        loop = self.app.loop
        controls = loop.controls
        window = (controls.undo_window if controls is not None else 10.0) * self.app.clock.speed
        return table_screen_view(self.app.station.state, self.table, self.app.station.now(),
                                 loop.lang, last=self.last_action(), undo_window=window,
                                 step=self.step(), time_confirmed=self.confirmed(),
                                 said=self.said())
