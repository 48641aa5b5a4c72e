"""What the display's status screen shows about peers and sync health."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from kiosk.sync.timesync import TimeEstimate
from rules.records import RecordMethods, record

__all__ = ["PeerStatus", "SyncStatus", "lag"]


def lag(ours: Mapping[str, int], theirs: Mapping[str, int]) -> tuple[int, int]:
    """Events they lack that we have, and events we lack that they have.

    >>> lag({"a": 5, "b": 2}, {"a": 3, "c": 1})
    (4, 1)
    """
    behind = sum(max(0, n - theirs.get(d, 0)) for d, n in ours.items())
    ahead = sum(max(0, n - ours.get(d, 0)) for d, n in theirs.items())
    return behind, ahead


@record
class PeerStatus(RecordMethods):
    device_id: str
    name: str
    role: str
    table: int | None
    connected: bool
    #: Seconds since the last genuine frame; None if never heard from.
    last_seen_ago: float | None
    #: Events the peer lacks that we have / that we lack, at its last ``have``.
    behind: int
    ahead: int
    tournament: str | None


@record
class SyncStatus(RecordMethods):
    device_id: str
    peers: tuple[PeerStatus, ...]
    drops: Mapping[str, int]
    moved: Mapping[str, int]
    time: TimeEstimate

    def to_json(self) -> dict[str, Any]:
        return asdict(self)
