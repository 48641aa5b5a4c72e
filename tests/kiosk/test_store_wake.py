"""The kiosk's loop and the store's change signal: woken by others' commits, not its own.

A kiosk bootstrapped as the appliance is (not ``fake``) has the store's
watcher among its loop's wake-up sources. The TD's command from another
process wakes the loop and is folded on that turn; the kiosk's own commits
(a clock checkpoint every five seconds) let it sleep on, and its station
does not ask the store for new rows on turns when nothing changed.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.app import App
from kiosk.bootstrap import Options, bootstrap
from kiosk.store import open_store
from rules.commands import CheckIn, CreateTournament, DrawSeats, StartClock
from rules.events import PlayerRegistered
from rules.structure import preset

#: Longer than the watcher's settling after a write (1 s horizon) would need to show.
NAP = 1.5


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    app = bootstrap(Options(data_dir=str(tmp_path), size=(800, 480), headless=True,
                            sound=False))
    try:
        assert app.station.create(CreateTournament("Fredagspoker", preset("pubpoker"))).ok
        for n in range(1, 5):
            assert app.station.submit(CheckIn(f"p{n}", f"Spelar {n}")).ok
        assert app.station.submit(DrawSeats()).ok
        assert app.station.submit(StartClock()).ok
        app.loop.step(block=False)
        yield app
    finally:
        app.close()


def _nap(app: App, seconds: float) -> float:
    """Sleep as the loop does, on its own wake-up sources; how long it slept."""
    began = time.monotonic()
    app.loop.sleep(seconds)
    return time.monotonic() - began


def _another_process_checks_in(app: App, data_dir: Path) -> None:
    """The TD's ``pubpoker checkin`` over SSH: a second connection commits player p9."""
    other = open_store(data_dir=data_dir)
    try:
        tid = app.station.tournament_id
        assert tid is not None
        other.append_new(tid, [PlayerRegistered(at=app.station.now(), player_id="p9",
                                                name="Ola")])
    finally:
        other.close()


def _rows_asked(app: App) -> list[str]:
    asked: list[str] = []
    app.store.conn.set_trace_callback(asked.append)
    return asked


def test_the_kiosk_own_commit_lets_the_loop_sleep_on(app: App) -> None:
    _nap(app, 0.2)  # whatever the set-up wrote is seen
    tid = app.station.tournament_id
    assert tid is not None
    app.store.save_checkpoint(tid, 12.0)
    assert _nap(app, NAP) >= NAP - 0.05


def test_another_process_commit_wakes_the_loop_and_is_folded_that_turn(
        app: App, tmp_path: Path) -> None:
    _nap(app, 0.2)
    _another_process_checks_in(app, tmp_path)
    assert _nap(app, 5.0) < 1.0
    app.loop.step(block=False)
    assert "p9" in app.station.state.players


def test_a_turn_with_nothing_changed_asks_the_store_nothing(app: App) -> None:
    _nap(app, 0.2)
    app.loop.step(block=False)  # the look the set-up's own writes were due
    asked = _rows_asked(app)
    try:
        app.station.checkpoint_every = 1e9  # no checkpoint in this turn either
        for _ in range(3):
            app.loop.step(block=False)
    finally:
        app.store.conn.set_trace_callback(None)
    assert not asked, asked


def test_tonight_is_looked_for_after_a_change_of_the_log_not_every_two_seconds(
        app: App, tmp_path: Path) -> None:
    """A kiosk with peer sync follows tonight's tournament; while nothing is
    written, the turns of a running clock list no tournaments (it did every 2 s)."""
    from kiosk.tonight import follow_tonight

    follow_tonight(app)
    now = [app.loop.monotonic()]
    app.loop.monotonic = lambda: now[0]  # type: ignore[method-assign]
    _nap(app, 0.2)
    app.loop.step(block=False)
    app.station.checkpoint_every = 1e9
    asked = _rows_asked(app)
    try:
        for _ in range(10):  # 25 s of turns: past the old 2 s, short of the 30 s look anyway
            now[0] += 2.5
            app.loop.step(block=False)
        assert not [sql for sql in asked if "tournaments" in sql], asked
        _another_process_checks_in(app, tmp_path)
        assert _nap(app, 5.0) < 1.0
        now[0] += 1.0
        app.loop.step(block=False)
    finally:
        app.store.conn.set_trace_callback(None)
    assert [sql for sql in asked if "FROM tournaments" in sql], asked


def test_a_reader_of_the_store_changes_nothing_for_the_loop(app: App, tmp_path: Path) -> None:
    """A backup or the bench's read-only look commits nothing: no wake-up."""
    _nap(app, 0.2)
    reader = sqlite3.connect(app.store.path)
    try:
        reader.execute("select count(*) from events").fetchone()
    finally:
        reader.close()
    assert _nap(app, NAP) >= NAP - 0.05
