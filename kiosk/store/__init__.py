"""The event store: the durable log, players, results and crash recovery.

>>> import tempfile, pathlib
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

from kiosk.store.backup import BackupReport, backup
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
