"""A kiosk's state as a small JSON file, for scenario tests that watch real processes.

With ``PUBPOKER_STATUS_FILE=/path/status.json`` in its environment, the kiosk
rewrites that file (atomically) at most every ``every`` seconds from its loop:
the monotonic and shared times it was written at, the tournament, the state
digest and record count, the clock as the screens read it, the players left,
the hands dealt per table, the pending moves (player: table), the peer count,
the notices, the status line and pop-ups on screen, the last 30 pop-ups, every
announcement shown since start (the winner: the results screen's banner), the
clock's speed, peer sync's counters (frames and events dropped, by reason;
traffic) and time estimate, the ports it listens on (peer sync, the phones'
page), the page's counters (its drops by reason among them) and each card
reader's (cards read, repeats dropped, corrupt frames dropped, connections
lost). Nothing reads it in production.
"""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path
from typing import Any

from kiosk.app import App

__all__ = ["ENV", "StatusFile", "from_env", "snapshot"]

log = logging.getLogger(__name__)

ENV = "PUBPOKER_STATUS_FILE"


def snapshot(app: App) -> dict[str, Any]:
    """What the file holds, taken now."""
    from rules import clock as clocks
    from rules.fold import state_digest

    station, loop = app.station, app.loop
    state = station.state
    shared = station.now()
    clock: dict[str, Any] | None = None
    if state.config is not None:
        reading = clocks.read(state.config.structure, state.clock, shared)
        clock = {"period": reading.period_index, "level": reading.level_number,
                 "remaining": reading.remaining, "running": reading.running,
                 "started": reading.started}
    winner = state.winner
    return {
        "pid": os.getpid(),
        "mono": time.monotonic(),
        "shared": shared,
        "tournament": station.tournament_id,
        "digest": state_digest(state) if state.config is not None else None,
        "records": app.store.log.count(station.tournament_id) if station.tournament_id else 0,
        "clock": clock,
        "entrants": state.entrants,
        "remaining": state.remaining,
        "hands": {str(n): table.hands for n, table in sorted(state.tables.items())},
        "moves": {p: move.target.table for p, move in sorted(state.moves.items())},
        "winner": None if winner is None else winner.name,
        "peers": loop.peers(),
        "screen": str(loop.screen),
        "notices": [n.key for n in station.notices],
        "status_line": loop.status_line()[0],
        "popups": [[p.title, p.line, p.kind] for p in loop.overlays.popups],
        # The side panel as last drawn (the waiting list, the Sit & Go's).
        "side": [] if loop.painter.last is None else list(loop.painter.last.side),
        # The waiting list (F2) as the screen drawn says it (check-in, seating).
        "waiting_text": getattr(getattr(loop.painter.last, "view", None), "waiting_text", ""),
        "speed": app.clock.speed,
        "table_screen": _table_screen(app),
        **_sync(app.sync),
        "ports": {"sync": None if app.sync is None else app.sync.port,
                  "viewer": None if app.viewer is None else app.viewer.port},
        "viewer": _viewer(app.viewer),
        "readers": {w.name: {"connected": w.connected, "reads": w.reads, "repeats": w.repeats,
                             "rejected": w.rejected, "failures": w.failures}
                    for w in app.readers},
    }


def _viewer(server: Any) -> dict[str, Any] | None:
    """The phones' page's counters (ints its own thread writes; a read needs no lock)."""
    if server is None:
        return None
    return {"phones": server.phones, "open": server.open, "sent": server.sent,
            "accept-paused": server.accept_pauses,
            # Connections refused (the page full, an address's share full) and let go
            # (too much unsent to them), by reason.
            "drops": dict(server.drops)}


def _table_screen(app: App) -> dict[str, Any] | None:
    """A table device's screen as last drawn (its view model), or None on the wall's."""
    import dataclasses

    from kiosk.table_screen import TableScreenView

    drawn = app.loop.painter.last
    view = None if drawn is None else drawn.view
    return dataclasses.asdict(view) if isinstance(view, TableScreenView) else None


def _sync(service: Any) -> dict[str, Any]:
    """Peer sync's counters, read without waiting for its loop (they have a lock)."""
    if service is None:
        return {"drops": {}, "moved": {}, "time": None}
    estimate = service.estimate  # replaced whole by the sync thread, never mutated
    return {"drops": service.stats.drops(), "moved": service.stats.moved(),
            "time": {"offset": estimate.offset, "delay": estimate.delay,
                     "uncertain": estimate.uncertain, "reference": estimate.reference}}


class StatusFile:
    def __init__(self, app: App, path: str | os.PathLike[str], every: float = 0.2) -> None:
        self.app = app
        self.path = Path(path)
        self.every = every
        self.announced: list[list[str]] = []
        #: The last pop-ups shown (what the controller said), oldest first.
        self.said: list[list[str]] = []
        #: How many pop-ups with each title were shown since start.
        self.counts: dict[str, int] = {}
        self._seen: set[tuple[str, str, str, float]] = set()
        self._next = 0.0
        self._held = False

    def due(self) -> float | None:
        """When the loop must wake to write a look it held back (None: none held).

        A commit often wakes the loop twice (the store's files move before the
        commit shows), and the second wake, the one that changed the night,
        falls within ``every`` of the first: without this the file would say it
        only a whole idle loop (a second) later.
        """
        return self._next if self._held else None

    def tick(self) -> None:
        # What another process wrote (the TD's terminal) folded first, as the loop
        # does right after its hooks: the file says what this turn draws, not the last.
        try:
            self.app.station.tick()
        except Exception as err:  # a test aid must never stop the kiosk (the loop's own
            log.error("status file: %s", err)  # call meets it next, as it would have)
        now = self.app.loop.monotonic()
        if now < self._next:
            self._held = True
            return
        self._held = False
        self._next = now + self.every
        try:
            data = snapshot(self.app)
        except Exception as err:  # a test aid must never stop the kiosk
            log.error("status file: %s", err)
            return
        for popup in self.app.loop.overlays.popups:
            title, line, kind = popup.title, popup.line, popup.kind
            if kind == "announcement" and [title, line] not in self.announced:
                self.announced.append([title, line])
            key = (title, line, kind, popup.until)
            if key not in self._seen:
                self._seen.add(key)
                self.counts[title] = self.counts.get(title, 0) + 1
                self.said = [*self.said[-29:], [title, line, kind]]
        # The winner is told by the results screen's banner, not a pop-up (issue 19).
        view = self.app.loop.view()
        banner = [getattr(view, "winner_label", ""), getattr(view, "winner_name", "")]
        if all(banner) and banner not in self.announced:
            self.announced.append(banner)
        if len(self._seen) > 1000:
            self._seen.clear()
        data["counts"] = self.counts
        data["announced"] = self.announced
        data["said"] = self.said
        temp = self.path.with_name(self.path.name + ".tmp")
        try:
            temp.write_text(json.dumps(data))
            os.replace(temp, self.path)
        except OSError as err:  # out of descriptors, a full disk: the next tick tries again
            log.warning("status file: %s", err)


def from_env(app: App) -> StatusFile | None:
    """Attach a status file to ``app`` if the environment names one."""
    path = os.environ.get(ENV)
    if not path:
        return None
    status = StatusFile(app, path)
    app.hooks.on_tick.append(status.tick)
    app.hooks.deadlines.append(status.due)
    return status
