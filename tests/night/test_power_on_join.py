"""A box that powers on with an empty store joins tonight's tournament; it never makes a second.

Real ``pubpoker kiosk`` processes in network namespaces (``tests/night/rig.py``)
find each other by mDNS. The console (the TD's box, which creates tonight's
tournament at power-on when there is none) waits
:data:`kiosk.night.JOIN_WAIT` seconds for its peers first:

- with the display already running tonight's, players checked in, the console
  shows the display's tournament and neither store gets another one;
- alone, it creates tonight's once the wait is over, and not before;
- two consoles that each created one while cut off from each other show the
  same one once they meet: the one players checked in to
  (:func:`kiosk.tonight.choose`).
"""

from __future__ import annotations

import datetime as dt
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.config import TournamentConfig
from kiosk.night import JOIN_WAIT
from kiosk.station import Station
from kiosk.store import open_store
from kiosk.sync.auth import new_key
from kiosk.timebase import SharedClock
from kiosk.tonight import tonight
from rules.commands import CheckIn
from tests.night.rig import ROOT, Kiosk, card, wait_for
from tests.sync.netns import Lan, fresh_lan

pytestmark = [pytest.mark.slow, pytest.mark.night]


@pytest.fixture
def lan() -> Iterator[Lan]:
    with fresh_lan() as made:
        yield made


@pytest.fixture
def key() -> str:
    return new_key().hex()


def tournaments(kiosk: Kiosk) -> list[str]:
    store = open_store(data_dir=kiosk.data)
    try:
        return [row.id for row in store.tournaments()]
    finally:
        store.close()


def cli(kiosk: Kiosk, *args: str) -> str:
    """``pubpoker`` against the device's data dir, as the TD over SSH."""
    run = subprocess.run([sys.executable, "-m", "kiosk.cli", "--lang", "en", *args,
                          "--data-dir", str(kiosk.data)], cwd=ROOT, capture_output=True,
                         text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout


def tonight_on(kiosk: Kiosk, players: int) -> str:
    """Tonight's tournament in the device's store, ``players`` checked in (as synced before)."""
    store = open_store(data_dir=kiosk.data)
    station = Station(store, SharedClock(), random.Random(7), role="console")
    try:
        assert station.create(tonight(TournamentConfig(tables=4), dt.date(2026, 11, 27))).ok
        for n in range(1, players + 1):
            player = store.players.add(f"Player {n:02d}", card=card(n))
            assert station.submit(CheckIn(player.id, player.name, player.cards)).ok
        tid = station.tournament_id
        assert tid is not None
        return tid
    finally:
        station.close()


def test_a_console_powering_on_empty_joins_the_displays_tournament(
        lan: Lan, tmp_path: Path, key: str) -> None:
    tv = Kiosk("tv", lan.add(), "display", tmp_path, key)
    console = Kiosk("console", lan.add(), "console", tmp_path, key)
    tid = tonight_on(tv, players=3)
    try:
        tv.start().wait_ready(60)
        began = time.monotonic()
        console.start().wait_ready(60)

        def joined() -> bool:
            status = console.status()
            return bool(status and status["tournament"] == tid and status["entrants"] == 3)

        wait_for(joined, 60, "the console to show the display's tournament")
        took = time.monotonic() - began
        # Past the wait, and a little more: a late auto-create would show now.
        time.sleep(max(0.0, began + JOIN_WAIT + 3.0 - time.monotonic()))
        assert joined(), console.status()
        tv_status = tv.status()
        assert tv_status is not None and tv_status["tournament"] == tid
        assert tournaments(console) == [tid]
        assert tournaments(tv) == [tid]
        shown = cli(console, "tournament", "show")
        assert shown.splitlines()[0] == "Pubpoker 27.11.2026", shown
        assert "Entrants: 3" in shown, shown
        print(f"console joined the display's tournament {took:.1f} s after its start")
    finally:
        console.close()
        tv.close()


def test_a_console_alone_creates_tonight_after_the_wait_and_not_before(
        lan: Lan, tmp_path: Path, key: str) -> None:
    console = Kiosk("console", lan.add(), "console", tmp_path, key)
    try:
        began = time.monotonic()
        console.start()
        first = console.wait_ready(60)
        assert first["tournament"] is None, first

        def created() -> dict[str, object] | None:
            status = console.status()
            return status if status and status["tournament"] is not None else None

        status = wait_for(created, JOIN_WAIT + 30, "the console to create tonight's")
        took = time.monotonic() - began
        # The process's start is before the wait began: a lower bound that holds.
        assert took >= JOIN_WAIT, took
        assert tournaments(console) == [status["tournament"]]
        print(f"alone, the console created tonight's {took:.1f} s after its start")
    finally:
        console.close()


def created_order(kiosk: Kiosk, tid: str) -> tuple[int, str, int]:
    store = open_store(data_dir=kiosk.data)
    try:
        first = store.records(tid)[0]
        return first.lamport, first.device_id, first.seq
    finally:
        store.close()


def test_two_consoles_that_each_made_tonight_apart_show_the_same_one_when_they_meet(
        lan: Lan, tmp_path: Path, key: str) -> None:
    boxes = [Kiosk(f"c{n}", lan.add(), "console", tmp_path, key, reader=True) for n in (1, 2)]
    for box in boxes:
        store = open_store(data_dir=box.data)
        try:
            store.players.add("Kari", card=card(1))
        finally:
            store.close()
    try:
        for box in boxes:
            box.host.down()  # cut off from each other from power-on
            box.start()
        for box in boxes:
            box.wait_ready(60)

        def made(box: Kiosk) -> str | None:
            status = box.status()
            return None if status is None else status["tournament"]

        own = [wait_for(lambda b=box: made(b), JOIN_WAIT + 30, f"{box.name} to make one")
               for box in boxes]
        assert own[0] != own[1]
        # Kari checks in at the box whose tournament comes later in the log's order,
        # so the one with a player wins against the first made.
        later = max((0, 1), key=lambda i: created_order(boxes[i], own[i]))
        busy = boxes[later]

        def checked_in() -> bool:
            status = busy.status()
            return bool(status and status["entrants"] == 1)

        busy.tap(card(1), checked_in)
        for box in boxes:
            box.host.up()

        def same() -> bool:
            seen = [box.status() for box in boxes]
            return all(s and s["tournament"] == own[later] and s["entrants"] == 1
                       for s in seen)

        began = time.monotonic()
        wait_for(same, 90, "both boxes to show the tournament Kari is in")
        took = time.monotonic() - began
        time.sleep(3.0)  # and they stay there
        assert same(), [box.status() for box in boxes]
        for box in boxes:
            assert sorted(tournaments(box)) == sorted(own)  # the other one is kept, not shown
            listed = cli(box, "tournament", "list")
            current = [line for line in listed.splitlines() if line.startswith("*")]
            assert len(current) == 1 and own[later] in current[0], listed
        print(f"after the heal both boxes showed the same tournament in {took:.1f} s")
    finally:
        for box in boxes:
            box.close()
