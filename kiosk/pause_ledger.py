"""The listeners' pauses for want of descriptors, kept where ``pubpoker doctor`` reads them.

Peer sync and the phones' page count each pause of their listener
(:mod:`kiosk.accept_pauses`); the status file is a test aid and the journal
is in RAM, so an operator who asks later (over SSH, the next day) would
otherwise never learn that the box was at its limit. The counts since the
kiosk started are written to the store's meta table when they changed, at
most every :data:`EVERY` seconds: on a quiet night, never.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from typing import Any, Final

from kiosk.store.doctor import PAUSES_KEY

__all__ = ["EVERY", "PauseLedger", "attach"]

log = logging.getLogger(__name__)

#: Seconds between two looks at the counters (monotonic): a write at most this often
#: while a flood goes on (as costly as a bust), and none once it is over.
EVERY: Final = 5.0


def _now() -> str:
    return dt.datetime.now().astimezone().isoformat(timespec="seconds")


class PauseLedger:
    """Looks at the counters from the main loop's tick; writes them when they changed."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.since = _now()
        self.saved = {"peers": 0, "phones": 0}
        self._next = 0.0

    def counts(self) -> dict[str, int]:
        sync, viewer = self.app.sync, self.app.viewer
        return {"peers": 0 if sync is None else sync.stats.drops().get("accept-paused", 0),
                "phones": 0 if viewer is None else viewer.accept_pauses}

    def tick(self) -> None:
        now = self.app.loop.monotonic()
        if now < self._next:
            return
        self._next = now + EVERY
        counts = self.counts()
        if counts == self.saved:
            return
        value = json.dumps({**counts, "since": self.since, "last": _now()})
        try:
            self.app.store.note(PAUSES_KEY, value)
        except Exception as err:  # a full or read-only disk: the night matters more
            log.warning("listener pauses not saved: %s", err)
            return
        self.saved = counts


def attach(app: Any) -> PauseLedger:
    ledger = PauseLedger(app)
    app.hooks.on_tick.append(ledger.tick)
    return ledger
