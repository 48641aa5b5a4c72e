"""After a power cut with no peers, the clock comes back paused at its checkpoint."""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path

import pytest

from kiosk.store import open_store
from rules.clock import read
from rules.commands import JumpToLevel, TogglePause
from rules.events import ClockRestored
from tests.kiosk.store.helpers import Night, players, spawn

INTERVAL = 0.2


@pytest.mark.realproc
def test_a_killed_clock_comes_back_paused_at_its_last_checkpoint(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    rng = random.Random(4)
    for attempt in range(3):
        path = db_path.with_name(f"run{attempt}.db")
        proc = spawn("tests.kiosk.store.clock_runner", str(path), "--interval", str(INTERVAL))
        assert proc.stdout is not None
        try:
            started = float(proc.stdout.readline().split()[1])
            last_cp = 0.0
            for _ in range(rng.randint(3, 6)):
                last_cp = float(proc.stdout.readline().split()[1])
            time.sleep(rng.random() * INTERVAL)
            os.kill(proc.pid, signal.SIGKILL)
            truth = time.monotonic() - started
        finally:
            proc.communicate(timeout=30)
        with open_store(path) as store:
            folded = store.fold("t1")
            assert folded.state.clock.running  # the log alone still says so
            restore = store.cold_start_restore("t1", folded.state, now=0.5,
                                               peers_present=False)
            assert restore is not None and restore.source == "checkpoint"
            assert last_cp <= restore.position <= truth
            assert truth - restore.position <= INTERVAL + 0.15, (truth, restore.position)
            assert restore.notice.translate("nn") == (
                "Straumbrot: trykk pause eller køyr «pubpoker clock resume»")
            store.append_new("t1", [restore.event])
            folded.catch_up()
            clock = folded.state.clock
            assert not clock.running and clock.position == restore.position
            structure = folded.state.config.structure  # type: ignore[union-attr]
            first = structure.periods[0].seconds
            assert read(structure, clock, now=1000.0).remaining == first - restore.position


def test_with_peers_present_the_clock_is_not_restored(db_path: Path) -> None:
    with open_store(db_path) as store:
        night = Night(store).started(players(10))
        store.save_checkpoint("t1", 30.0)
        assert store.cold_start_restore("t1", night.state, now=1.0, peers_present=True) is None


def test_a_paused_clock_needs_no_restore(db_path: Path) -> None:
    with open_store(db_path) as store:
        night = Night(store).started(players(10))
        night.do(TogglePause(), at=40.0)
        store.save_checkpoint("t1", 40.0, running=False)
        assert store.cold_start_restore("t1", night.state, now=1.0,
                                        peers_present=False) is None


def test_without_a_checkpoint_the_last_clock_event_is_the_truth(db_path: Path) -> None:
    with open_store(db_path) as store:
        night = Night(store).started(players(10))
        night.do(TogglePause(), at=100.0)
        night.do(TogglePause(), at=200.0)  # running again from position 100
        restore = store.cold_start_restore("t1", night.state, now=1.0, peers_present=False)
        assert restore is not None
        assert (restore.source, restore.position) == ("log", 100.0)


def test_a_checkpoint_older_than_a_level_jump_is_not_used(db_path: Path) -> None:
    with open_store(db_path) as store:
        night = Night(store).started(players(10))
        store.save_checkpoint("t1", 95.0)
        night.do(JumpToLevel(2), at=100.0)
        restore = store.cold_start_restore("t1", night.state, now=1.0, peers_present=False)
        assert restore is not None and restore.source == "log"
        assert restore.position == night.state.clock.position  # start of the jumped-to level
        store.save_checkpoint("t1", restore.position + 4.0)
        restore = store.cold_start_restore("t1", night.state, now=1.0, peers_present=False)
        assert restore is not None and restore.source == "checkpoint"


def test_the_banner_stays_until_the_td_presses_start(db_path: Path) -> None:
    with open_store(db_path) as store:
        night = Night(store).started(players(10))
        store.save_checkpoint("t1", 61.0)
        assert store.power_cut_notice("t1", night.state) is None
        restore = store.cold_start_restore("t1", night.state, now=5.0, peers_present=False)
        assert restore is not None and isinstance(restore.event, ClockRestored)
        store.append_new("t1", [restore.event])
        night.folded.catch_up()
    with open_store(db_path) as store:  # another reboot before anyone pressed start
        night = Night(store)
        assert store.cold_start_restore("t1", night.state, now=1.0,
                                        peers_present=False) is None
        notice = store.power_cut_notice("t1", night.state)
        assert notice is not None and notice.key == "clock-restored"
        night.do(TogglePause(), at=2.0)
        assert night.state.clock.running
        assert store.power_cut_notice("t1", night.state) is None
