"""The event store: the durable log, players, results and crash recovery.

>>> import tempfile, pathlib
>>> from kiosk.store import open_store
>>> from rules.events import TournamentCreated
>>> from rules.structure import preset
>>> with tempfile.TemporaryDirectory() as d, open_store(data_dir=d) as store:
...     [r.seq for r in store.append_new("t1", [
...         TournamentCreated(at=0.0, name="Fredag", structure=preset("pubpoker"))])]
...     store.version_vector() == {store.device_id: 1}
...     store.fold("t1").state.config.name
[1]
True
'Fredag'
"""

import importlib
from typing import TYPE_CHECKING, Any

# Eager, and first: the function ``backup`` is also the name of its submodule, which
# would stand in the package's namespace instead once any module imported it. It is light.
from kiosk.store.backup import BackupReport, backup

if TYPE_CHECKING:
    from kiosk.store.cards import contains_pan, normalise_uid
    from kiosk.store.checkpoint import (
        CHECKPOINT_INTERVAL,
        Checkpoint,
        ColdStart,
        cold_start_restore,
        load_checkpoint,
        save_checkpoint,
    )
    from kiosk.store.errors import (
        BackupFailed,
        BadCard,
        CardInUse,
        DiskFull,
        DuplicatePlayer,
        EmptyName,
        EventConflict,
        Notice,
        PaymentCardRefused,
        StoreError,
        StoreLocked,
        StoreTooNew,
        StoreWriteFailed,
        UnknownPlayer,
        UnknownSeason,
        UnknownTournament,
    )
    from kiosk.store.log import AppendResult, EventLog, StoredEvent
    from kiosk.store.migrations import SCHEMA_VERSION, migrate
    from kiosk.store.players import (
        CardMatch,
        CardResult,
        ImportReport,
        Player,
        Players,
        RefusedCard,
        UnknownCard,
    )
    from kiosk.store.results import ResultRow, StandingRow
    from kiosk.store.snapshot import Folded
    from kiosk.store.store import Store, open_store
    from kiosk.store.tournaments import TournamentRow

# Each name is imported only when used: the CLI's commands and the kiosk's start-up
# pay for the parts they use (the backup pulled in sync and asyncio).
_WHERE: dict[str, str] = {
    "contains_pan": "kiosk.store.cards",
    "normalise_uid": "kiosk.store.cards",
    "CHECKPOINT_INTERVAL": "kiosk.store.checkpoint",
    "Checkpoint": "kiosk.store.checkpoint",
    "ColdStart": "kiosk.store.checkpoint",
    "cold_start_restore": "kiosk.store.checkpoint",
    "load_checkpoint": "kiosk.store.checkpoint",
    "save_checkpoint": "kiosk.store.checkpoint",
    "BackupFailed": "kiosk.store.errors",
    "BadCard": "kiosk.store.errors",
    "CardInUse": "kiosk.store.errors",
    "DiskFull": "kiosk.store.errors",
    "DuplicatePlayer": "kiosk.store.errors",
    "EmptyName": "kiosk.store.errors",
    "EventConflict": "kiosk.store.errors",
    "Notice": "kiosk.store.errors",
    "PaymentCardRefused": "kiosk.store.errors",
    "StoreError": "kiosk.store.errors",
    "StoreLocked": "kiosk.store.errors",
    "StoreTooNew": "kiosk.store.errors",
    "StoreWriteFailed": "kiosk.store.errors",
    "UnknownPlayer": "kiosk.store.errors",
    "UnknownSeason": "kiosk.store.errors",
    "UnknownTournament": "kiosk.store.errors",
    "AppendResult": "kiosk.store.log",
    "EventLog": "kiosk.store.log",
    "StoredEvent": "kiosk.store.log",
    "SCHEMA_VERSION": "kiosk.store.migrations",
    "migrate": "kiosk.store.migrations",
    "CardMatch": "kiosk.store.players",
    "CardResult": "kiosk.store.players",
    "ImportReport": "kiosk.store.players",
    "Player": "kiosk.store.players",
    "Players": "kiosk.store.players",
    "RefusedCard": "kiosk.store.players",
    "UnknownCard": "kiosk.store.players",
    "ResultRow": "kiosk.store.results",
    "StandingRow": "kiosk.store.results",
    "Folded": "kiosk.store.snapshot",
    "Store": "kiosk.store.store",
    "open_store": "kiosk.store.store",
    "TournamentRow": "kiosk.store.tournaments",
}

__all__ = [
    "CHECKPOINT_INTERVAL",
    "SCHEMA_VERSION",
    "AppendResult",
    "BackupFailed",
    "BackupReport",
    "BadCard",
    "CardInUse",
    "CardMatch",
    "CardResult",
    "Checkpoint",
    "ColdStart",
    "DiskFull",
    "DuplicatePlayer",
    "EmptyName",
    "EventConflict",
    "EventLog",
    "Folded",
    "ImportReport",
    "Notice",
    "PaymentCardRefused",
    "Player",
    "Players",
    "RefusedCard",
    "ResultRow",
    "StandingRow",
    "Store",
    "StoreError",
    "StoreLocked",
    "StoreTooNew",
    "StoreWriteFailed",
    "StoredEvent",
    "TournamentRow",
    "UnknownCard",
    "UnknownPlayer",
    "UnknownSeason",
    "UnknownTournament",
    "backup",
    "cold_start_restore",
    "contains_pan",
    "load_checkpoint",
    "migrate",
    "normalise_uid",
    "open_store",
    "save_checkpoint",
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
