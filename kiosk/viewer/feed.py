"""The main loop's side of the phones: build the night's JSON when it changes.

Runs on the loop's thread (it alone reads the state, STYLE 9) as an
``on_tick`` hook. A new document is built only when the night changed: a
record folded (this device's, a peer's, or the CLI's through the store's
change signal), another tournament, or the clock reaching a new period (the
phones count down themselves and need the next level's words). A clock
ticking on its own builds nothing, so a kiosk with no phones pays for one
tuple compare a turn.
"""

from __future__ import annotations

import json
import logging
import math
from typing import Any

from kiosk.station import Station
from kiosk.viewer.night import night_json

__all__ = ["ViewerFeed"]

log = logging.getLogger(__name__)


class ViewerFeed:
    def __init__(self, station: Station, server: Any, *, lang: str) -> None:
        self.station, self.server, self.lang = station, server, lang
        self._key: tuple[Any, ...] | None = None
        #: Shared time of the next period boundary (the document changes there).
        self._boundary = math.inf
        self._standings: tuple[str, list[tuple[int, str, int]]] = ("", [])
        self._standings_for: tuple[Any, ...] | None = None
        #: Documents built (a test and the benchmark count them).
        self.built = 0

    def tick(self) -> None:
        station = self.station
        # The loop folds what other processes wrote in station.tick(), after the
        # hooks; folding here first puts a bust from the CLI on the phones in
        # this turn, not the next (up to a second later). A second call that
        # turn finds nothing due.
        station.tick()
        now = station.now()
        key = self._changes()
        if key == self._key and now < self._boundary:
            return
        self._key = key
        try:
            self.server.publish(self.build(now))
        except Exception:  # the phones must never take the wall down
            log.exception("viewer document not built")
            self._boundary = math.inf

    def first(self) -> bytes:
        """The document for the server's start; the next :meth:`tick` builds only on a change."""
        self._key = self._changes()
        return self.build(self.station.now())

    def _changes(self) -> tuple[Any, ...]:
        """What the document depends on besides the clock ticking: the night, and the
        shared time's footing (a clean restart takes up its saved time after the first
        document; a peer's estimate moves it), to a tenth of a second."""
        station = self.station
        clock = station.clock
        return (station.tournament_id, station.folded_rowid, id(station.state),
                clock.speed, round(clock.offset, 1))

    def build(self, now: float) -> bytes:
        state = self.station.state
        doc = night_json(state, now, lang=self.lang, speed=self.station.clock.speed,
                         standings=self._season())
        clock = doc.get("clock") or {}
        remaining = clock.get("remaining")
        self._boundary = (now + remaining + 0.05 if remaining is not None and remaining > 0
                          and clock["running"]
                          else math.inf)
        self.built += 1
        return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()

    def _season(self) -> tuple[str, list[tuple[int, str, int]]]:
        """The league table, read from the store once per tournament and once it ends."""
        tid, state = self.station.tournament_id, self.station.state
        wanted = (tid, state.finished)
        if wanted != self._standings_for and tid is not None:
            self._standings_for = wanted
            try:
                store = self.station.store
                season = store.tournament(tid).season
                self._standings = (season, [(r.rank, r.name, r.points)
                                            for r in store.standings(season)])
            except Exception as err:  # a store error must not take the wall down
                log.warning("standings unavailable for the phones: %s", err)
        return self._standings
