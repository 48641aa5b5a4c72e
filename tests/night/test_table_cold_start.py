"""A table device that powers on alone leaves the clock alone (issue 10's table restart).

``pubpoker kiosk`` restores a running clock paused when it starts alone, but
only the display or console may emit clock events: a table's restore event is
refused by every peer, and the table's later events (its busts) would wait
behind it for ever.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk import last_stop
from kiosk.config import TournamentConfig
from kiosk.station import Station
from kiosk.store import open_store
from kiosk.timebase import SharedClock
from kiosk.tonight import tonight
from rules.commands import CheckIn, DrawSeats, StartClock
from tests.sync.netns import Lan, require_netns

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.night]


@pytest.mark.parametrize(("role", "emits"), [("table", False), ("console", True)])
def test_only_a_clock_owner_restores_the_clock_at_power_on(
        tmp_path: Path, role: str, emits: bool) -> None:
    require_netns()
    store = open_store(data_dir=tmp_path / "td")
    station = Station(store, SharedClock(), random.Random(1), role="console")
    assert station.create(tonight(TournamentConfig(tables=2), dt.date(2026, 11, 27))).ok
    for n in range(4):
        player = store.players.add(f"P{n}")
        assert station.submit(CheckIn(player.id, player.name)).ok
    assert station.submit(DrawSeats()).ok and station.submit(StartClock()).ok
    tid = station.tournament_id
    assert tid is not None
    records = store.records(tid)
    station.close()
    device = open_store(data_dir=tmp_path / "device")
    device.append(records)
    device.set_current_tournament(tid)
    # The device's kiosk was running when the power went (kiosk/last_stop.py).
    last_stop.mark_running(tmp_path / "device")
    me = device.device_id
    device.close()
    config = tmp_path / "pubpoker.toml"
    table = "table = 1\n" if role == "table" else ""
    config.write_text(f'[device]\nrole = "{role}"\n{table}data_dir = "{tmp_path / "device"}"\n'
                      f'[venue]\nkey = "{"ab" * 32}"\n[tournament]\ntables = 2\n'
                      '[display]\nsound = false\n[network]\ninterface = "eth0"\n')
    lan = Lan()
    try:
        host = lan.add()
        run = subprocess.run(host.argv(sys.executable, "-m", "kiosk.cli", "kiosk", "--config",
                                       str(config), "--headless", "--frames", "3"),
                             cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT),
                                            "SDL_VIDEODRIVER": "dummy"},
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr[-2000:]
    finally:
        lan.close()
    device = open_store(data_dir=tmp_path / "device")
    try:
        mine = [r for r in device.records(tid) if r.device_id == me]
    finally:
        device.close()
    kinds = [r.event.kind.value for r in mine]
    assert ("clock-restored" in kinds) is emits, kinds
