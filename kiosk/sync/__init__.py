"""Peer sync: discovery, authenticated links, replication, roles and shared time.

See the README's "Peer sync" and DESIGN.md "Sync". The main loop owns a
:class:`Replicator`; all network I/O runs in the :class:`SyncService` thread.
"""

from __future__ import annotations

from kiosk.sync.link import Identity
from kiosk.sync.replicate import Replicator
from kiosk.sync.service import Incoming, SyncConfig, SyncService, Want
from kiosk.sync.stats import Drop, SyncStats
from kiosk.sync.status import PeerStatus, SyncStatus

__all__ = [
    "Drop",
    "Identity",
    "Incoming",
    "PeerStatus",
    "Replicator",
    "SyncConfig",
    "SyncService",
    "SyncStats",
    "SyncStatus",
    "Want",
]
