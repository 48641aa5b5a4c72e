"""Fold the log into state, the same way on every device.

Records are folded in their one total order, ``(lamport, device_id, seq)``.
An undo is resolved before folding: walking the log backwards, each live
:class:`~rules.events.ActionUndone` cancels its target, and an undone undo
cancels nothing (that is a redo). An event the reducer refuses stays in the
log and is listed in ``state.rejected``, identically on every peer.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from typing import Any

from rules.codec import CodecError, canonical_json, from_jsonable, to_jsonable
from rules.errors import RulesError
from rules.events import ActionUndone, Record
from rules.reducer import apply
from rules.state import Rejection, Tournament

__all__ = ["Replay", "fold", "restore_snapshot", "snapshot", "state_digest", "undone"]

_UNDO_NOTHING = "UndoTargetUnknown"


def fold(records: Iterable[Record]) -> Tournament:
    """The state a log describes; the order records arrive in does not matter.

    >>> from rules.events import TournamentCreated, PlayerRegistered
    >>> from rules.structure import preset
    >>> log = [Record("d1", 2, 2, "t", PlayerRegistered(at=1.0, player_id="p", name="Kari")),
    ...        Record("d1", 1, 1, "t", TournamentCreated(at=0.0, name="F",
    ...                                                  structure=preset("pubpoker")))]
    >>> [e.name for e in fold(log).players.values()]
    ['Kari']
    """
    ordered = sorted(records, key=lambda r: r.key)
    state = Tournament()
    cancelled, bad_undos = _resolve_undos(ordered)
    for record in ordered:
        if record.ident in cancelled:
            continue
        if isinstance(record.event, ActionUndone):
            if record.ident in bad_undos:
                _reject(state, record, _UNDO_NOTHING, "nothing to undo there")
            continue
        _fold_one(state, record)
    return state


def undone(records: Iterable[Record]) -> frozenset[tuple[str, int]]:
    """The events (``(device_id, seq)``) the log's live undos cancel, as the fold sees it.

    >>> from rules.events import ClockPaused
    >>> log = [Record("d", 1, 1, "t", ClockPaused(at=0.0)),
    ...        Record("d", 2, 2, "t", ActionUndone(at=1.0, device_id="d", seq=1)),
    ...        Record("d", 3, 3, "t", ActionUndone(at=2.0, device_id="d", seq=2))]
    >>> sorted(undone(log[:2])), sorted(undone(log))
    ([('d', 1)], [('d', 2)])
    """
    cancelled, _ = _resolve_undos(sorted(records, key=lambda r: r.key))
    return frozenset(cancelled)


def _resolve_undos(ordered: list[Record]) -> tuple[set[tuple[str, int]], set[tuple[str, int]]]:
    position = {r.ident: i for i, r in enumerate(ordered)}
    cancelled: set[tuple[str, int]] = set()
    bad: set[tuple[str, int]] = set()
    for index in range(len(ordered) - 1, -1, -1):
        record = ordered[index]
        event = record.event
        if record.ident in cancelled or not isinstance(event, ActionUndone):
            continue
        target = (event.device_id, event.seq)
        # Only an earlier event can be undone: anything else is refused alike everywhere.
        if position.get(target, index) < index:
            cancelled.add(target)
        else:
            bad.add(record.ident)
    return cancelled, bad


def _fold_one(state: Tournament, record: Record) -> None:
    try:
        apply(state, record.event)
    except RulesError as err:
        _reject(state, record, err.code, str(err))


def _reject(state: Tournament, record: Record, code: str, message: str) -> None:
    state.rejected.append(Rejection(
        device_id=record.device_id, seq=record.seq, kind=record.event.kind.value,
        code=code, message=message))


class Replay:
    """A fold kept up to date one record at a time.

    A record that lands after everything folded so far is applied on top; one
    that lands earlier in the order (a peer's late event) or any undo makes
    the replay fold the whole log again, which is rare and always correct.
    ``load_all`` supplies the whole log when the replay began from a snapshot.
    With ``retain=False`` (and a ``load_all``) no record is kept in memory: the
    log's owner already holds them, and a night's log would otherwise grow
    the kiosk by megabytes; the caller then feeds each record once.
    """

    def __init__(self, records: Iterable[Record] = (), *,
                 state: Tournament | None = None,
                 last_key: tuple[int, str, int] | None = None,
                 load_all: Callable[[], Iterable[Record]] | None = None,
                 retain: bool = True) -> None:
        if not retain and load_all is None:
            raise ValueError("a replay that keeps no records needs load_all")
        self._records: dict[tuple[str, int], Record] = {}
        self._load_all = load_all
        self._retain = retain
        self._complete = state is None and retain
        self.state = state if state is not None else Tournament()
        self.last_key = last_key
        for record in sorted(records, key=lambda r: r.key):
            self.add(record)

    def add(self, record: Record) -> bool:
        """Fold ``record`` in; False if it was already there."""
        if record.ident in self._records:
            return False
        if self._retain:
            self._records[record.ident] = record
        in_order = self.last_key is None or record.key > self.last_key
        if in_order and not isinstance(record.event, ActionUndone):
            _fold_one(self.state, record)
            self.last_key = record.key
            return True
        self.refold()
        return True

    def refold(self) -> None:
        if not self._retain:
            assert self._load_all is not None
            records = list(self._load_all())
            self.state = fold(records)
            self.last_key = max((r.key for r in records), default=None)
            return
        if not self._complete and self._load_all is not None:
            for record in self._load_all():
                self._records.setdefault(record.ident, record)
            self._complete = True
        self.state = fold(self._records.values())
        self.last_key = max((r.key for r in self._records.values()), default=None)

    def __len__(self) -> int:
        return len(self._records)


def state_digest(state: Tournament) -> str:
    """A short hash of the whole state; peers with the same log agree on it.

    >>> state_digest(Tournament()) == state_digest(fold([]))
    True
    """
    return hashlib.sha256(canonical_json(state).encode()).hexdigest()[:32]


def snapshot(state: Tournament) -> dict[str, Any]:
    """The state as plain JSON-able data, for a fast start-up."""
    data: dict[str, Any] = to_jsonable(state)
    return data


def restore_snapshot(data: Any) -> Tournament:
    """The state a snapshot holds; ``ValueError`` if it is not one."""
    try:
        return from_jsonable(Tournament, data)
    except (CodecError, TypeError) as err:
        raise ValueError(f"not a snapshot: {err}") from None
