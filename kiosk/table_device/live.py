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
    from kiosk.app import Core
    from kiosk.display.overlays import Popup

__all__ = ["TableDevice"]

_SEAT_BUTTONS = frozenset({"seat_next", "seat_prev"})


class TableDevice:
    """Made by the bootstrap before the loop, with the role's controls; the loop
    calls :meth:`view` each frame (its :class:`~kiosk.display.parts.LoopParts`)."""

    def __init__(self, core: Core, table: int, controls: Any) -> None:
        self.core = core
        self.table = table
        #: The role's :class:`~kiosk.controls.Controller` (None: none), the loop's too.
        self.controls = controls
        #: Once a peer gave the time it stays given: a Wi-Fi blip later leaves the
        #: clock on its last offset, which is still the room's time.
        self.time_confirmed = False
        self._tournament: str | None = None
        self._seen = 0
        self._last: Record | None = None

    def confirmed(self) -> bool:
        """Whether a display or console has answered with the shared time yet."""
        if not self.time_confirmed:
            service: Any = self.core.sync()
            estimate = getattr(service, "estimate", None)
            if (estimate is not None and not estimate.uncertain
                    and estimate.reference not in (None, self.core.store.device_id)):
                self.time_confirmed = True
        return self.time_confirmed

    def last_action(self) -> Record | None:
        """This device's newest action, or None once it was undone.

        Only the records the log gained since the last look are read: a table
        device folds every peer's events all night.
        """
        station = self.core.station
        tournament = station.tournament_id
        if tournament != self._tournament:
            self._tournament, self._seen, self._last = tournament, 0, None
        if tournament is None or station.folded_rowid <= self._seen:
            return self._last
        me = self.core.store.device_id
        fresh = [r for r in self.core.store.log.records(tournament, after_rowid=self._seen,
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

        controls = self.controls
        if controls is None:
            return PromptStep()
        buttons = set(controls.buttons)
        return PromptStep(busting=controls.mode is Mode.BUST, seat=controls.selected_seat,
                          seat_buttons=not buttons or bool(buttons & _SEAT_BUTTONS))

    @staticmethod
    def said(popup: Popup | None) -> str:
        if popup is None:
            return ""
        return f"{popup.title}: {popup.line}" if popup.line else popup.title

    def view(self, lang: str, popup: Popup | None) -> TableScreenView:
        """The screen in ``lang``, saying ``popup`` (the loop's, up now) in its prompt box."""
        controls = self.controls
        window = (controls.undo_window if controls is not None else 10.0) * self.core.clock.speed
        return table_screen_view(self.core.station.state, self.table, self.core.station.now(),
                                 lang, last=self.last_action(), undo_window=window,
                                 step=self.step(), time_confirmed=self.confirmed(),
                                 said=self.said(popup))
