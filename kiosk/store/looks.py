"""When a consumer of the store looks for rows another process wrote (pure).

Kept apart from :mod:`kiosk.store.watch` (its thread, inotify and ctypes),
so that importing the schedule costs a command nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LookSchedule"]


@dataclass
class LookSchedule:
    """When a consumer of the store looks for what another process wrote (pure).

    Without a change signal it looks every ``every`` seconds (0: at every
    turn of its loop). Once a :class:`StoreWatcher` tells it of changes
    (``signalled``, and :meth:`changed` at each one) it looks only after a
    change, and every ``anyway`` seconds besides, should the signal ever stop:
    a clock that ticks once a second does not ask SQLite once a second.

    >>> looks = LookSchedule(every=2.0, signalled=True)
    >>> looks.due(100.0)            # the first turn always looks
    True
    >>> looks.due(101.0), looks.due(125.0)
    (False, False)
    >>> looks.changed()
    >>> looks.due(125.5), looks.due(126.0)
    (True, False)
    >>> looks.due(156.0)            # no change for 30 s: look anyway
    True
    """

    #: Seconds between looks without a change signal.
    every: float = 0.0
    #: Seconds between looks with one, in case it stops.
    anyway: float = 30.0
    signalled: bool = False
    _changed: bool = True
    _next: float = float("-inf")

    def changed(self) -> None:
        """The store changed: the next :meth:`due` says look."""
        self._changed = True

    def due(self, now: float) -> bool:
        """Whether to look now; a True starts the next wait."""
        if not ((self.signalled and self._changed) or now >= self._next):
            return False
        self._changed = False
        self._next = now + (self.anyway if self.signalled else self.every)
        return True
