"""Fold the log into state, the same way on every device.

Records are folded in their one total order, ``(lamport, device_id, seq)``.
An undo is resolved before folding: walking the log backwards, each live
:class:`~rules.events.ActionUndone` cancels its target, and an undone undo
cancels nothing (that is a redo). An event the reducer refuses stays in the
log and is listed in ``state.rejected``, identically on every peer.

N1: an undo that lands while the night is closed, or that names a close,
cancels nothing and is rejected like any other refused event, so a peer that
missed the close cannot take a result back after it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from typing import Any

from rules.codec import CodecError, canonical_json, from_jsonable, to_jsonable
from rules.errors import RulesError
from rules.events import ActionUndone, Record, TournamentClosed, TournamentReopened
from rules.reducer import apply
from rules.refusals import CloseNotUndoable, TournamentClosedError
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
    cancelled, bad_undos, refused = _resolve_undos(ordered)
    for record in ordered:
        if record.ident in cancelled:
            continue
        if isinstance(record.event, ActionUndone):
            if record.ident in refused:
                err = refused[record.ident]
                _reject(state, record, err.code, str(err))
            elif record.ident in bad_undos:
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
    cancelled, _, _ = _resolve_undos(sorted(records, key=lambda r: r.key))
    return frozenset(cancelled)


_Ident = tuple[str, int]


def _resolve_undos(ordered: list[Record]
                   ) -> tuple[set[_Ident], set[_Ident], dict[_Ident, RulesError]]:
    """What the undos cancel, which name nothing, and which N1 refuses (and why).

    An undo refused for landing on a closed night cancels nothing, which can
    change what is closed further on; so the earliest such undo is refused
    and the walk done again, until none is left (rare, and the same on
    every peer: it depends on the order alone).
    """
    position = {r.ident: i for i, r in enumerate(ordered)}
    refused: dict[_Ident, RulesError] = {}
    while True:
        cancelled, bad = _walk_undos(ordered, position, refused)
        late = _first_closed_undo(ordered, position, cancelled, bad | refused.keys())
        if late is None:
            return cancelled, bad, refused
        refused[late[0]] = late[1]


def _first_closed_undo(ordered: list[Record], position: dict[_Ident, int],
                       cancelled: set[_Ident], inert: set[_Ident]
                       ) -> tuple[_Ident, RulesError] | None:
    marks = [r for r in ordered if isinstance(r.event, TournamentClosed | TournamentReopened)]
    if not marks:
        return None
    for index, record in enumerate(ordered):
        event = record.event
        if (not isinstance(event, ActionUndone) or record.ident in cancelled
                or record.ident in inert):
            continue
        target = (event.device_id, event.seq)
        aimed = ordered[position[target]].event
        if isinstance(aimed, TournamentClosed):
            return record.ident, CloseNotUndoable()
        # Judged as the night stood when it was given: its own cancelling
        # (and, for a redo, the undo it takes back) not yet in force.
        before = cancelled - {target}
        if isinstance(aimed, ActionUndone):
            before.add((aimed.device_id, aimed.seq))
        if _closed_at(marks, before, position, index):
            return record.ident, TournamentClosedError()
    return None


def _closed_at(marks: list[Record], cancelled: set[_Ident], position: dict[_Ident, int],
               index: int) -> bool:
    # Closed means the newest close or reopen in force is a close, as the
    # reducer folds them (a second close or reopen changes nothing).
    shut = False
    for mark in marks:
        if position[mark.ident] > index:
            break
        if mark.ident not in cancelled:
            shut = isinstance(mark.event, TournamentClosed)
    return shut


def _walk_undos(ordered: list[Record], position: dict[_Ident, int],
                refused: dict[_Ident, RulesError]) -> tuple[set[_Ident], set[_Ident]]:
    cancelled: set[_Ident] = set()
    bad: set[_Ident] = set()
    for index in range(len(ordered) - 1, -1, -1):
        record = ordered[index]
        event = record.event
        if (record.ident in cancelled or record.ident in refused
                or not isinstance(event, ActionUndone)):
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
