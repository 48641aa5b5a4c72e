"""A snapshot restores to exactly the state a full fold of the log gives.

``pubpoker clock prev`` back to level 1 left the clock's position as the
int ``0`` (``sum([])``); the snapshot decoded it as ``0.0``, whose canonical
JSON differs, so every start-up after it said the snapshot did not match its
digest and folded the whole log. The property drives random nights through
the store's public API on a real SQLite file, restarting from the snapshot
along the way, and requires the restored state, its digest and the log to
agree with no warning printed or logged.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import logging
import random
from collections.abc import Iterator
from itertools import count
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from kiosk.store import Folded, Store, open_store
from kiosk.store import snapshot as snapshots
from rules.codec import canonical_json
from rules.commands import (
    AdjustTime,
    BustPlayers,
    CallClock,
    CheckIn,
    Command,
    ConfirmMove,
    CreateTournament,
    DrawSeats,
    JumpToLevel,
    MarkAbsent,
    MarkReturned,
    NextLevel,
    PauseClock,
    PreviousLevel,
    ResumeClock,
    StartClock,
    StartHand,
    TogglePause,
    Undo,
    decide,
)
from rules.errors import RulesError
from rules.fold import state_digest
from rules.house import profile
from rules.state import Tournament
from rules.structure import preset

TID = "t1"

#: Times as the kiosk gives them (floats) and as a script or a test may (ints).
seconds = st.integers(0, 2400) | st.floats(0.0, 2400.0, allow_nan=False)
adjustments = st.integers(-900, 900) | st.floats(-900.0, 900.0, allow_nan=False)

#: One step of a night: a command (its argument used where it has one, or to
#: pick a player or a record from the state when it runs), or a restart of the
#: device from its snapshot.
KINDS = ("checkin", "draw", "start", "pause", "resume", "toggle", "next", "prev", "jump",
         "adjust", "bust", "absent", "returned", "confirm", "hand", "call", "undo", "restart")
steps = st.tuples(st.sampled_from(KINDS), st.integers(0, 99), adjustments)


class _Recorder(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextlib.contextmanager
def quiet_or_caught() -> Iterator[tuple[_Recorder, io.StringIO]]:
    """Every warning logged anywhere, and everything written to stderr."""
    recorder = _Recorder()
    root = logging.getLogger()
    root.addHandler(recorder)
    stderr = io.StringIO()
    try:
        with contextlib.redirect_stderr(stderr):
            yield recorder, stderr
    finally:
        root.removeHandler(recorder)


class Device:
    """One device's store and folded state, restarted as the kiosk or the CLI would be."""

    def __init__(self, path: Path, snapshot_every: int) -> None:
        self.path = path
        self.snapshot_every = snapshot_every
        self.rng = random.Random(3)
        self.now: float = 0  # an int: ints where floats are declared must round-trip too
        self.store: Store = open_store(path)
        self.folded: Folded = self.store.fold(TID, snapshot_every=snapshot_every)

    def do(self, command: Command) -> None:
        try:
            events = decide(self.folded.state, command, now=self.now, rng=self.rng)
        except RulesError:
            return  # refused: the kiosk shows why and nothing is written
        self.store.append_new(TID, events)
        self.folded.catch_up()

    def restart(self) -> Folded:
        self.folded.close()
        self.store.close()
        self.store = open_store(self.path)
        self.folded = self.store.fold(TID, snapshot_every=self.snapshot_every)
        return self.folded

    def close(self) -> None:
        self.store.close()


def _pick(items: list[str], index: int) -> str | None:
    return sorted(items)[index % len(items)] if items else None


def _command(device: Device, kind: str, arg: int, seconds: float) -> Command | None:
    state = device.folded.state
    active = [e.player_id for e in state.active()]
    simple: dict[str, Command] = {
        "draw": DrawSeats(), "start": StartClock(), "pause": PauseClock(),
        "resume": ResumeClock(), "toggle": TogglePause(), "next": NextLevel(),
        "prev": PreviousLevel()}
    if kind in simple:
        return simple[kind]
    if kind == "checkin":
        return CheckIn(f"p{arg % 15}", f"Player {arg % 15}")
    if kind == "jump":
        return JumpToLevel(arg % 12)
    if kind == "adjust":
        return AdjustTime(seconds)
    if kind in ("hand", "call"):
        if not state.tables:
            return None
        table = min(state.tables)
        return StartHand(table) if kind == "hand" else CallClock(table)
    if kind == "bust":
        out = _pick(active, arg)
        by = _pick([p for p in active if p != out], arg)
        return None if out is None else BustPlayers((out,), by=by)
    if kind in ("absent", "returned"):
        who = _pick(active, arg)
        return None if who is None else (MarkAbsent(who) if kind == "absent"
                                         else MarkReturned(who))
    if kind == "confirm":
        who = _pick(list(state.moves), arg)
        return None if who is None else ConfirmMove(who)
    if kind == "undo":
        records = device.store.records(TID)
        target = records[arg % len(records)]
        return Undo(target.device_id, target.seq)
    raise AssertionError(kind)


def _assert_restores_as_folded(device: Device) -> None:
    live = device.folded.state
    restored = device.restart()
    assert restored.from_snapshot, "the snapshot was not used"
    full = device.store.fold(TID, use_snapshot=False, snapshot_every=0).state
    assert canonical_json(restored.state) == canonical_json(full)
    assert state_digest(restored.state) == state_digest(full) == state_digest(live)
    assert restored.state == full


_examples = count()


@settings(max_examples=50, deadline=None,
          # Explaining a failure refolds thousands of nights: minutes, for little.
          phases=[p for p in Phase if p is not Phase.explain],
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
# The report: a running clock taken to the next level and back, then a restart.
@example(night=[(5.5, ("next", 0, 0.0)), (3.25, ("prev", 0, 0.0)), (1.5, ("restart", 0, 0.0))],
         players=2, seated=True, started=True, resume_after_break=True, snapshot_every=500)
@given(night=st.lists(st.tuples(seconds, steps), max_size=30),
       players=st.integers(2, 9), seated=st.booleans(), started=st.booleans(),
       resume_after_break=st.booleans(), snapshot_every=st.sampled_from([0, 1, 3, 500]))
def test_a_store_opened_from_its_snapshot_equals_a_full_fold(
        tmp_path: Path, night: list[tuple[float, tuple[str, int, float]]], players: int,
        seated: bool, started: bool, resume_after_break: bool, snapshot_every: int) -> None:
    path = tmp_path / f"night-{next(_examples)}" / "pubpoker.db"
    with quiet_or_caught() as (warnings, stderr):
        device = Device(path, snapshot_every)
        try:
            # Tables of four, so busts make moves to confirm.
            house = dataclasses.replace(profile("pubpoker"), seats_per_table=4)
            device.do(CreateTournament("Fredag", preset("pf-pokerklub"), house,
                                       resume_after_break=resume_after_break))
            for n in range(players):
                device.do(CheckIn(f"p{n}", f"Player {n}"))
            if seated:
                device.do(DrawSeats())
                if started:
                    device.do(StartClock())
            for dt, (kind, arg, secs) in night:
                device.now += dt
                if kind == "restart":
                    _assert_restores_as_folded(device)
                    continue
                command = _command(device, kind, arg, secs)
                if command is not None:
                    device.do(command)
            _assert_restores_as_folded(device)
        finally:
            device.close()
    assert warnings.messages == []
    assert stderr.getvalue() == ""


def test_a_snapshot_that_would_not_restore_is_not_saved_and_names_the_field(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A state field the codec cannot carry is named once, when saving, instead of
    every later start-up warning that the digest does not match."""
    real = snapshots.restore_snapshot

    def lossy(data: object) -> Tournament:
        return dataclasses.replace(real(data), last_at=-1.0)

    device = Device(tmp_path / "pubpoker.db", snapshot_every=500)
    try:
        device.do(CreateTournament("Fredag", preset("pf-pokerklub")))
        device.now = 12.5
        device.do(CheckIn("p1", "Kari"))
        monkeypatch.setattr(snapshots, "restore_snapshot", lossy)
        with caplog.at_level(logging.WARNING):
            device.folded.save()
        assert [r.levelno for r in caplog.records] == [logging.ERROR]
        assert "/last_at: 12.5 comes back as -1.0" in caplog.text
        assert snapshots.snapshot_info(device.store.conn, TID) is None
    finally:
        device.close()
