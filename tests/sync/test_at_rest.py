"""Sync at rest: a device with nobody to talk to lets its timers sleep, and still links at once.

With a venue key and no peer, sync's timers used to wake about 13 times a
second (time sync looked every 0.1 s for a reference it would never have,
anti-entropy every 2 s, the network read every 2 s on a thread): 0.2 CPU
seconds a minute for nothing. Now they keep their periods for a while after
the last thing happened (start-up, a peer gone, a write) and then back off
to :data:`kiosk.sync.rest.REST_CAP`; a network change is heard from netlink.
Measured on a real peer process in a network namespace, from
``/proc/PID/task``: every thread but the main one (the scripted peer's own
loop) is sync's.
"""

from __future__ import annotations

import dataclasses
import random
import select
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from kiosk.station import Station
from kiosk.store import open_store
from kiosk.sync import Identity, Replicator, SyncConfig, SyncService
from kiosk.sync.auth import new_key
from kiosk.sync.rest import REST_AFTER
from kiosk.timebase import SharedClock
from rules.commands import CreateTournament
from rules.events import PlayerRegistered
from rules.structure import preset
from tests.sync.harness import Peer, wait_for
from tests.sync.netns import Lan


@dataclass(frozen=True)
class Threads:
    """Context switches and CPU ticks of a process's threads but its main one."""

    switches: int
    ticks: int

    @classmethod
    def of(cls, pid: int) -> Threads:
        switches = ticks = 0
        for task in Path(f"/proc/{pid}/task").iterdir():
            if task.name == str(pid):
                continue
            try:
                status = (task / "status").read_text()
                stat = (task / "stat").read_text()
            except OSError:  # a thread that just ended
                continue
            for line in status.splitlines():
                if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                    switches += int(line.split()[1])
            fields = stat.rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
        return cls(switches, ticks)


def connected(peer: Peer) -> set[str]:
    return {p["device_id"] for p in peer.ask("status")["peers"] if p["connected"]}


@pytest.mark.slow
def test_a_lone_device_wakes_rarely_and_links_at_once_when_a_peer_comes(
        lan: Lan, spawn: Callable[..., Peer]) -> None:
    display = spawn(lan.add(), "display", name="display")
    assert display.proc is not None
    pid = display.proc.pid
    # Resting sets in REST_AFTER seconds after the start; then the sleeps double to the cap.
    time.sleep(REST_AFTER + 12.0)
    window = 20.0
    before = Threads.of(pid)
    time.sleep(window)
    after = Threads.of(pid)
    rate = (after.switches - before.switches) / window
    cpu = (after.ticks - before.ticks) / 100 / window * 60  # USER_HZ is 100 on Linux
    print(f"sync at rest: {rate:.2f} wake-ups/s, {cpu:.3f} CPU-s/min (13/s and 0.2 before)")
    assert rate < 2.0, rate

    console = spawn(lan.add(), "console", name="console", start=False)
    started = time.monotonic()
    console.start()
    # From the console's ready line: its own start-up (Python, imports) is not the
    # display's doing, and took 1-2 s of this on a loaded machine.
    began = time.monotonic()
    wait_for(lambda: connected(display) == {console.device}, 10, every=0.05,
             what="the resting display to link with the console")
    took = time.monotonic() - began
    print(f"a console ready {took:.2f} s before the resting display had linked to it "
          f"(its start-up {began - started:.2f} s)")
    assert took < 3.0, took


# --- in one process, on loopback: the schedule and what wakes it -------------------------


KEY = new_key()


@pytest.fixture
def device(tmp_path: Path) -> Iterator[Callable[..., SyncService]]:
    """Sync services on loopback without discovery, each with its station and store."""
    made: list[tuple[SyncService, Station]] = []

    def make(role: str, config: SyncConfig) -> SyncService:
        clock = SharedClock()
        station = Station(open_store(data_dir=tmp_path / f"d{len(made)}"), clock,
                          rng=random.Random(1))
        me = Identity(station.store.device_id, role, 1 if role == "table" else None, role)
        service = SyncService(me, KEY, clock, config)
        made.append((service, station))
        service.start()
        Replicator(station, service, key=KEY, me=me)
        return service

    try:
        yield make
    finally:
        for service, station in reversed(made):
            service.stop()
            station.close()


def wakeups_in(service: SyncService, seconds: float) -> int:
    start = service.wakeups
    time.sleep(seconds)
    return service.wakeups - start


RESTING = SyncConfig(discover=False, rest_after=0.5, rest_cap=30.0)


@pytest.mark.realproc
def test_a_peer_linking_wakes_resting_timers_at_once(
        device: Callable[..., SyncService]) -> None:
    table = device("table", RESTING)
    time.sleep(3.0)  # resting: each sleep twice the last, up to 30 s
    assert wakeups_in(table, 2.0) <= 2
    assert table.estimate.uncertain  # no time reference linked
    began = time.monotonic()
    device("display", dataclasses.replace(RESTING, peers=(("127.0.0.1", table.port),)))
    # The table's time sync, asleep for seconds, wakes as the link opens and
    # takes its warm-up samples from the display 0.1 s apart.
    wait_for(lambda: not table.estimate.uncertain, 3, what="the table's time")
    assert time.monotonic() - began < 3.0


@pytest.mark.realproc
def test_a_local_write_lets_a_lone_device_rest(device: Callable[..., SyncService],
                                                tmp_path: Path) -> None:
    """Nobody to push to: the CLI's write on a device alone wakes none of its timers
    (a kiosk's clock checkpoint or the TD's command would keep them awake)."""
    console = device("console", RESTING)
    time.sleep(3.0)
    station = Station(open_store(data_dir=tmp_path / "d0"), SharedClock(),
                      rng=random.Random(2))
    start = console.wakeups
    try:
        # Another process's write (the CLI): the store watch sees it.
        assert station.create(CreateTournament("Main", preset("pf-pokerklub"))).ok
    finally:
        station.close()
    time.sleep(1.5)
    assert console.wakeups - start <= 1


def test_the_replicator_asks_for_its_head_only_after_another_process_commits(
        tmp_path: Path) -> None:
    """With the store's change signal wired in (the kiosk), a tick of a running
    clock asks the store nothing about the head; another process's commit of
    this device's events is announced at the next tick."""
    from kiosk.bootstrap import _StoreChanged

    station = Station(open_store(data_dir=tmp_path / "d"), SharedClock(), rng=random.Random(3))
    me = Identity(station.store.device_id, "console", None, "console")
    service = SyncService(me, KEY, SharedClock(), RESTING)
    service.start()
    source = _StoreChanged(station, [station.looks])
    try:
        assert station.create(CreateTournament("Main", preset("pf-pokerklub"))).ok
        announced: list[dict[str, int]] = []
        set_head = service.set_head

        def record(vector: dict[str, int], tournament: str | None) -> None:
            announced.append(dict(vector))
            set_head(vector, tournament)

        service.set_head = record  # type: ignore[method-assign]
        replicator = Replicator(station, service, key=KEY, me=me)
        select.select([source], [], [], 2.0)
        source.drain()
        replicator.tick()
        asked: list[str] = []
        station.store.conn.set_trace_callback(asked.append)
        for _ in range(5):
            replicator.tick()
        assert not [sql for sql in asked if "FROM events" in sql], asked
        other = open_store(data_dir=tmp_path / "d")  # the TD's ``pubpoker`` on this box
        try:
            tid = station.tournament_id
            assert tid is not None
            other.append_new(tid, [PlayerRegistered(at=station.now(), player_id="p9",
                                                    name="Ola")])
            expected = other.version_vector()
        finally:
            other.close()
        assert select.select([source], [], [], 2.0)[0]
        assert source.drain()
        replicator.tick()
        assert announced[-1] == expected, announced
    finally:
        station.store.conn.set_trace_callback(None)
        source.watcher.close()
        service.stop()
        station.close()
