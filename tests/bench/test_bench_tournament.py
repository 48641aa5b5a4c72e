"""Benchmarks for the tournament core (issue 2); run with -m bench -s.

Figures are reported against a baseline measured in the same process: a
plain dict-update loop over the same number of events, so the ratio says what
the reducer costs on top of touching each event once.
"""

from __future__ import annotations

import random
import time

import pytest

from rules.commands import BustPlayers, ConfirmMove, DrawButton, StartHand
from rules.events import HandStarted, Record
from rules.fold import fold
from tests.rules.tournament_kit import Night

pytestmark = pytest.mark.bench


def _log_of(n_events: int) -> list[Record]:
    night = Night(seed=1).started(150)
    records = list(night.records)
    top = records[-1].seq
    tables = sorted(night.state.tables)
    for i in range(n_events - len(records)):
        seq = top + 1 + i
        records.append(Record("table", seq, seq, "t1",
                              HandStarted(at=float(i), table=tables[i % len(tables)])))
    return records


def test_fold_100k_events_per_second() -> None:
    records = _log_of(100_000)
    t0 = time.perf_counter()
    baseline: dict[str, int] = {}
    for r in records:
        baseline[r.device_id] = baseline.get(r.device_id, 0) + r.seq
    base_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    state = fold(records)
    fold_s = time.perf_counter() - t0
    rate = len(records) / fold_s
    print(f"\nfold: {len(records):,} events in {fold_s:.3f} s = {rate:,.0f} events/s; "
          f"baseline loop {base_s:.3f} s; ratio {fold_s / base_s:.1f}x baseline")
    assert not state.rejected
    assert rate >= 100_000


def test_night_of_300_players_on_30_tables_time_per_bust() -> None:
    night = Night(seed=2, preset_name="pubpoker").started(300)
    assert len(night.state.tables) == 30
    for table in list(night.state.tables):
        night.do(DrawButton(table))
    rng = random.Random(9)
    bust_times: list[float] = []
    baseline: list[float] = []
    while not night.state.finished:
        for table in list(night.state.tables):
            if len(night.state.tables[table].seats) > 1:
                night.do(StartHand(table))
        active = sorted(e.player_id for e in night.state.active())
        victim = rng.choice(active)
        t0 = time.perf_counter()
        sorted(active)  # baseline: one pass over the players
        baseline.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        night.do(BustPlayers((victim,)))
        bust_times.append(time.perf_counter() - t0)
        for move in list(night.state.moves.values()):
            night.do(ConfirmMove(move.player_id))
    bust_times.sort()
    mean_ms = 1000 * sum(bust_times) / len(bust_times)
    p99_ms = 1000 * bust_times[int(len(bust_times) * 0.99)]
    base_ms = 1000 * sum(baseline) / len(baseline)
    print(f"\n300-player night: {len(bust_times)} busts, mean {mean_ms:.3f} ms/bust, "
          f"p99 {p99_ms:.3f} ms (decide + balance + fold); baseline sort "
          f"{base_ms:.4f} ms; ratio {mean_ms / base_ms:.0f}x")
    assert night.state.winner is not None
    assert mean_ms <= 1.0
