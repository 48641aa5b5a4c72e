"""An event the TD writes from the terminal reaches the peers at once, not at anti-entropy.

``pubpoker clock pause`` or ``pubpoker bust`` over SSH is a second process
writing the device's SQLite store. The kiosk's loop notices the commit
(:mod:`kiosk.store.watch`) and tells its sync service, which pushes this
device's new events itself, whichever process wrote them. Measured on real
``pubpoker kiosk`` processes in network namespaces: from the moment the
event is committed in device A's store (seen by a reader polling A's file)
to the moment it is committed in peer B's.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.config import TournamentConfig
from kiosk.station import Station
from kiosk.store import open_store
from kiosk.sync.auth import new_key
from kiosk.timebase import SharedClock
from kiosk.tonight import tonight
from rules.commands import CheckIn, DrawSeats, StartClock
from tests.night.rig import ROOT, Kiosk, card, wait_for
from tests.sync.netns import Lan, fresh_lan

pytestmark = pytest.mark.slow

PLAYERS = 12
#: Seconds between two polls of a store's file by the measuring reader.
POLL = 0.001


@pytest.fixture
def lan() -> Iterator[Lan]:
    with fresh_lan() as made:
        yield made


def started_night(kiosk: Kiosk) -> tuple[str, str]:
    """Tonight's tournament in the device's store, seated, the clock running."""
    store = open_store(data_dir=kiosk.data)
    station = Station(store, SharedClock(), random.Random(7), role="display")
    try:
        assert station.create(tonight(TournamentConfig(tables=2), dt.date(2026, 11, 27))).ok
        for n in range(1, PLAYERS + 1):
            player = store.players.add(f"Player {n:02d}", card=card(n))
            assert station.submit(CheckIn(player.id, player.name, player.cards)).ok
        assert station.submit(DrawSeats()).ok
        assert station.submit(StartClock()).ok
        assert station.tournament_id is not None
        return station.tournament_id, store.device_id
    finally:
        station.close()


def reader(kiosk: Kiosk) -> sqlite3.Connection:
    path = kiosk.data / "pubpoker.db"
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)


def top(conn: sqlite3.Connection, device: str) -> int:
    return int(conn.execute("SELECT MAX(seq) FROM events WHERE device_id = ?",
                            (device,)).fetchone()[0] or 0)


def cli(kiosk: Kiosk, *args: str) -> subprocess.Popen[str]:
    """``pubpoker`` against the device's data dir, as the TD over SSH (not waited for)."""
    return subprocess.Popen([sys.executable, "-m", "kiosk.cli", "--lang", "en", *args,
                             "--data-dir", str(kiosk.data)], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})


def measure(a: sqlite3.Connection, b: sqlite3.Connection, device: str,
            proc: subprocess.Popen[str], before: int, timeout: float = 10.0) -> float:
    """Seconds from the CLI's commit in A's store to the same event's commit in B's."""
    in_a: float | None = None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        now = time.monotonic()
        if in_a is None and top(a, device) > before:
            in_a = now
        if in_a is not None and top(b, device) >= top(a, device):
            _out, err = proc.communicate(timeout=30)
            assert proc.returncode == 0, err[-2000:]
            return now - in_a
        if in_a is None and proc.poll() is not None and top(a, device) <= before:
            raise AssertionError(f"the CLI wrote nothing: {proc.stderr and proc.stderr.read()}")
        time.sleep(POLL)
    proc.kill()
    raise AssertionError(f"not in B after {timeout}s (seen in A: {in_a is not None})")


def test_a_cli_write_on_one_device_is_durable_on_its_peer_at_once(
        lan: Lan, tmp_path: Path) -> None:
    key = new_key().hex()
    a = Kiosk("a", lan.add(), "display", tmp_path, key)
    b = Kiosk("b", lan.add(), "console", tmp_path, key)
    tid, device = started_night(a)
    try:
        a.start().wait_ready(60)
        b.start().wait_ready(60)

        def joined() -> bool:
            status = b.status()
            return bool(status and status["tournament"] == tid
                        and status["entrants"] == PLAYERS and status["peers"] == 1)

        wait_for(joined, 60, "b to join a's tournament")
        ra, rb = reader(a), reader(b)
        wait_for(lambda: top(rb, device) == top(ra, device), 10, "b to hold all of a's")
        # No kiosk ran on A's store before (kiosk/last_stop.py): its clock runs on.
        commands = [("clock", "pause"), ("clock", "resume")] * 8
        commands += [("bust", f"Player {n:02d}") for n in range(PLAYERS, PLAYERS - 4, -1)]
        took = []
        for command in commands:
            time.sleep(random.uniform(0.05, 0.3))  # not in step with any timer
            before = top(ra, device)
            took.append(measure(ra, rb, device, cli(a, *command), before))
        ra.close()
        rb.close()
        took.sort()
        p50 = statistics.median(took)
        p99 = took[min(len(took) - 1, round(0.99 * (len(took) - 1)))]
        print(f"CLI write on A -> durable on B over {len(took)} events: "
              f"p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, max {took[-1] * 1000:.0f} ms")
        # Generous for a shared test machine; the goal (p50 30 ms, p99 100 ms) is the bench's.
        assert p50 < 0.3, took
        assert took[-1] < 1.5, took
    finally:
        b.close()
        a.close()
