"""Peers whose clocks differ by an hour show the same remaining time."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.sync.harness import Peer, converged, wait_for
from tests.sync.netns import Lan
from tests.sync.test_convergence import start_tournament

# Real peer processes, and seconds of waiting for them to link and agree.
pytestmark = pytest.mark.realproc


def test_clocks_an_hour_apart_agree_on_remaining_time_within_50ms(
        lan: Lan, spawn: Callable[..., Peer]) -> None:
    display = spawn(lan.add(), "display", name="display")
    console = spawn(lan.add(), "console", name="console", skew=3600.0)
    table = spawn(lan.add(), "table", name="table1", table=1, skew=-3600.0)
    peers = [display, console, table]
    for peer in (console, table):
        wait_for(lambda p=peer: not p.ask("clock")["uncertain"], 15,  # type: ignore[misc]
                 what=f"{peer.name} to settle on shared time")
    start_tournament(console, players=4)
    assert console.submit("DrawSeats")["ok"]
    assert console.submit("StartClock")["ok"]
    wait_for(lambda: converged(peers), 15, what="the clock start everywhere")
    for _ in range(3):
        readings = [p.ask("clock") for p in peers]
        assert all(r["remaining"] is not None and not r["uncertain"] for r in readings)
        # The machine's monotonic clock is common to all namespaces: bring every
        # reading to the moment of the first one.
        base = readings[0]["mono"]
        aligned = [r["remaining"] + (r["mono"] - base) for r in readings]
        spread = max(aligned) - min(aligned)
        print(f"remaining {aligned[0]:.3f}s; spread {spread * 1000:.1f} ms; offsets "
              f"{[round(r['offset'], 3) for r in readings]}")
        assert spread <= 0.050
        # Shared time really did absorb the hour.
        assert abs(readings[1]["offset"] + 3600) < 0.05
        assert abs(readings[2]["offset"] - 3600) < 0.05
