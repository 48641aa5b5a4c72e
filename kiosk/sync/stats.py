"""Counters for what sync dropped and moved, read by the display's status screen."""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum, unique

__all__ = ["Drop", "SyncStats"]


@unique
class Drop(StrEnum):
    """Why a frame, an event or a connection was dropped: one counter each."""

    MALFORMED = "malformed"
    OVERSIZE = "oversize"
    BAD_MAC = "bad-mac"
    REPLAY = "replay"
    UNEXPECTED = "unexpected"
    WRONG_PROTOCOL = "wrong-protocol"
    EVENT_MAC = "event-mac"
    ROLE = "role"
    ROLE_CLAIM = "role-claim"
    #: This device emitted an event its own role may not (peers will refuse it).
    ROLE_LOCAL = "role-local"
    #: A connection closed as it was accepted: too many wait for their hello
    #: already, in all or from its address (:mod:`kiosk.sync.gate`).
    HELD_OFF = "held-off"
    #: A connection closed because it had not proven the key by its deadline.
    HELLO_TIMEOUT = "hello-timeout"
    #: The listener paused because the process ran out of file descriptors.
    ACCEPT_PAUSED = "accept-paused"


@dataclass
class SyncStats:
    """Thread-safe: the peer loop counts, the main loop reads."""

    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _drops: Counter[str] = field(default_factory=Counter)
    _moved: Counter[str] = field(default_factory=Counter)

    def drop(self, reason: Drop | str, n: int = 1) -> None:
        with self._lock:
            self._drops[str(reason)] += n

    def add(self, what: str, n: int = 1) -> None:
        """Traffic: ``frames_out``, ``bytes_out``, ``events_out``, ``bytes_in`` …"""
        with self._lock:
            self._moved[what] += n

    def drops(self) -> dict[str, int]:
        with self._lock:
            return dict(self._drops)

    def moved(self) -> dict[str, int]:
        with self._lock:
            return dict(self._moved)
