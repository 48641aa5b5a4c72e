"""Peer sync: discovery, authenticated links, replication, roles and shared time.

See the README's "Peer sync" and DESIGN.md "Sync". The main loop owns a
:class:`Replicator`; all network I/O runs in the :class:`SyncService` thread.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kiosk.sync.link import Identity
    from kiosk.sync.replicate import Replicator
    from kiosk.sync.service import Incoming, SyncConfig, SyncService, Want
    from kiosk.sync.stats import Drop, SyncStats
    from kiosk.sync.status import PeerStatus, SyncStatus

# Each name is imported only when used: importing kiosk.sync.auth (the venue key)
# must not start asyncio, websockets and zeroconf imports.
_WHERE: dict[str, str] = {
    "Identity": "kiosk.sync.link",
    "Replicator": "kiosk.sync.replicate",
    "Incoming": "kiosk.sync.service",
    "SyncConfig": "kiosk.sync.service",
    "SyncService": "kiosk.sync.service",
    "Want": "kiosk.sync.service",
    "Drop": "kiosk.sync.stats",
    "SyncStats": "kiosk.sync.stats",
    "PeerStatus": "kiosk.sync.status",
    "SyncStatus": "kiosk.sync.status",
}

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


def __getattr__(name: str) -> Any:
    """Import the submodule that defines ``name`` the first time it is asked for."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
