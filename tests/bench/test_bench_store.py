"""Store benchmarks: the cost of durability, start-up from a long log, size on disk.

Run with ``./dev test tests/bench/test_bench_store.py -m bench -s``. Each
figure is printed next to its baseline from the same run:

- durable appends per second with ``synchronous=FULL``, against ``OFF``;
- start-up (open + fold) from a 100,000-event database via the snapshot,
  against a full fold of the same log; the goal is under 0.5 s;
- bytes on disk per 10,000 events;
- the crash soak: 500 SIGKILLs (also marked ``slow``).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.store import open_store
from rules.commands import CheckIn, DrawSeats, StartClock
from rules.events import ClockPaused, ClockResumed, Event, Record, TimeAdjusted
from rules.fold import state_digest
from tests.kiosk.store.crashing import crash_many
from tests.kiosk.store.helpers import Night

pytestmark = pytest.mark.bench

EVENTS = 100_000
TAIL = 250  # events after the last snapshot, as between two saves in the kiosk


def clock_events(start: float, n: int) -> Iterator[Event]:
    """A long evening of pauses, resumes and time adjustments: all valid in order."""
    at = start
    for i in range(n):
        at += 1.0
        step = i % 4
        if step == 0:
            yield ClockPaused(at=at)
        elif step == 1:
            yield TimeAdjusted(at=at, seconds=5.0)
        elif step == 2:
            yield ClockResumed(at=at)
        else:
            yield TimeAdjusted(at=at, seconds=-3.0)


def build_log(path: Path, events: int, *, tail: int = TAIL) -> str:
    """A tournament with ``events`` events and a snapshot ``tail`` events before its end.

    Returns the state digest of the full log.
    """
    with open_store(path, synchronous="OFF") as store:
        night = Night(store)
        for i in range(1, 61):
            night.do(CheckIn(f"p{i}", f"Player {i}"))
        night.do(DrawSeats())
        night.do(StartClock(), at=1.0)
        left = events - store.log.count()
        body = list(clock_events(1.0, left))
        cut = len(body) - tail
        batch = 1000
        for first in range(0, cut, batch):
            store.append_new("t1", body[first:min(first + batch, cut)])
        folded = store.fold("t1", use_snapshot=False, snapshot_every=0)
        folded.save()  # the last snapshot the kiosk wrote
        store.append_new("t1", body[cut:])
        assert store.log.count() == events
        digest = state_digest(store.fold("t1", use_snapshot=False, snapshot_every=0).state)
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return digest


@pytest.fixture(scope="module")
def big_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    path = tmp_path_factory.mktemp("bench") / "pubpoker.db"
    return path, build_log(path, EVENTS)


def appends_per_second(path: Path, synchronous: str, n: int) -> float:
    with open_store(path, synchronous=synchronous) as store:  # type: ignore[arg-type]
        events = list(clock_events(0.0, n))
        start = time.perf_counter()
        for event in events:
            store.append_new("t1", [event])  # one commit per event, as the kiosk does
        return n / (time.perf_counter() - start)


def test_durable_appends_per_second_full_against_off(tmp_path: Path) -> None:
    n = 2000
    full = statistics.median(
        appends_per_second(tmp_path / f"full{i}.db", "FULL", n) for i in range(3))
    off = statistics.median(
        appends_per_second(tmp_path / f"off{i}.db", "OFF", n) for i in range(3))
    print(f"\nappends/s, one event per commit: synchronous=FULL {full:,.0f}, "
          f"OFF {off:,.0f}; durability costs x{off / full:.2f}")
    # A TD produces a few events a minute; even an SD card's fsync keeps up.
    assert full > 50


def test_start_up_from_100k_events_uses_the_snapshot(big_log: tuple[Path, str]) -> None:
    path, digest = big_log
    opens, folds, totals = [], [], []
    for _ in range(5):
        t0 = time.perf_counter()
        store = open_store(path)
        t1 = time.perf_counter()
        folded = store.fold("t1", snapshot_every=0)
        t2 = time.perf_counter()
        assert folded.from_snapshot and state_digest(folded.state) == digest
        store.close()
        opens.append(t1 - t0)
        folds.append(t2 - t1)
        totals.append(t2 - t0)
    with open_store(path, check="none") as store:
        t0 = time.perf_counter()
        full = store.fold("t1", use_snapshot=False, snapshot_every=0)
        full_s = time.perf_counter() - t0
        assert state_digest(full.state) == digest
        t0 = time.perf_counter()
        store.conn.execute("PRAGMA quick_check").fetchall()
        check_s = time.perf_counter() - t0
    total = statistics.median(totals)
    print(f"\nstart-up from {EVENTS:,} events: {total * 1000:.0f} ms "
          f"(open {statistics.median(opens) * 1000:.0f} ms incl. quick_check "
          f"{check_s * 1000:.0f} ms; snapshot + {TAIL} events {statistics.median(folds) * 1000:.0f}"
          f" ms); a full fold instead takes {full_s * 1000:.0f} ms (x{full_s / total:.1f})")
    assert total < 0.5


def test_database_size_per_10000_events(tmp_path: Path, big_log: tuple[Path, str]) -> None:
    small = tmp_path / "pubpoker.db"
    build_log(small, 10_000)
    size_10k = small.stat().st_size
    path, _ = big_log
    size_100k = path.stat().st_size
    print(f"\nsize: {size_10k / 1024:,.0f} KiB per 10,000 events "
          f"({size_10k / 10_000:.0f} B/event); 100,000 events: {size_100k / 2**20:.1f} MiB "
          f"({size_100k / 10 / 1024:,.0f} KiB per 10,000)")
    assert size_10k / 10_000 < 1024


@pytest.mark.slow
def test_crash_soak_500_kills(tmp_path: Path) -> None:
    report = crash_many(tmp_path / "pubpoker.db", kills=500, seed=500)
    assert report.kills == report.integrity_ok == 500
    print(f"\ncrash soak: {report.kills} SIGKILLs, {len(report.acked):,} acknowledged events "
          f"all present, integrity ok every time; {report.events:,} events in the log; "
          f"{report.seconds:.0f} s")


def test_bench_helpers_build_a_valid_log(tmp_path: Path) -> None:
    """The generated evening folds with no refusals (else the figures mean little)."""
    path = tmp_path / "small.db"
    build_log(path, 500, tail=20)
    with open_store(path) as store:
        state = store.fold("t1").state
        assert not state.rejected and store.log.count() == 500
        assert [r.seq for r in store.records("t1")][:3] == [1, 2, 3]
        assert isinstance(store.records("t1")[-1], Record)
