"""The season's standings for the wall, read from the store outside the draw.

The draw loop reads no store: :meth:`Standings.refresh` runs in the loop's
update step, before the night and after it (the only times the table is
shown), at most every :data:`REFRESH_SECONDS`, or at once when the
tournament shown changes or finishes (its results then count).
"""

from __future__ import annotations

import logging
from typing import Final

from kiosk.station import Station
from rules.state import Phase

__all__ = ["REFRESH_SECONDS", "Standings"]

log = logging.getLogger(__name__)

#: Seconds between looks at the store's standings while nothing else changed.
REFRESH_SECONDS: Final = 30.0


class Standings:
    def __init__(self, station: Station) -> None:
        self.station = station
        #: (season, [(rank, name, points), …]) as last read.
        self.rows: tuple[str, list[tuple[int, str, int]]] = ("", [])
        self._next = 0.0
        self._for: tuple[str | None, bool] = (None, False)

    def invalidate(self) -> None:
        """Read the store again at the next refresh (results were just recorded)."""
        self._next = 0.0

    def refresh(self, mono: float) -> None:
        tid = self.station.tournament_id
        state = self.station.state
        shown = (tid, state.finished)
        if mono < self._next and shown == self._for:
            return
        if not (state.finished or state.phase is Phase.CHECK_IN):
            # The league table is shown before the night and after it, never
            # while it is played: no store read every 30 s for nothing.
            self._for = shown
            return
        self._next, self._for = mono + REFRESH_SECONDS, shown
        season = ""
        rows: list[tuple[int, str, int]] = []
        try:
            if tid is not None:
                season = self.station.store.tournament(tid).season
                rows = [(r.rank, r.name, r.points) for r in self.station.store.standings(season)]
        except Exception as err:  # a store error must not take the wall down
            log.warning("standings unavailable: %s", err)
        self.rows = (season, rows)
