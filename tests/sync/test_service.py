"""Two stations linked over loopback, in one process: the sync plumbing end to end."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.station import Station
from kiosk.store import open_store
from kiosk.sync import Identity, Replicator, SyncConfig, SyncService
from kiosk.sync.auth import new_key
from kiosk.timebase import SharedClock
from rules.commands import CheckIn, CreateTournament, DrawSeats, JumpToLevel, StartClock, StartHand
from rules.events import ClockPaused
from rules.fold import fold, state_digest
from rules.structure import preset

KEY = new_key()


class Device:
    def __init__(self, data_dir: Path, role: str, table: int | None = None,
                 peers: tuple[tuple[str, int], ...] = ()) -> None:
        clock = SharedClock()
        self.station = Station(open_store(data_dir=data_dir), clock, rng=random.Random(1))
        self.me = Identity(self.station.store.device_id, role, table, role)
        self.service = SyncService(self.me, KEY, clock,
                                   SyncConfig(discover=False, peers=peers))
        self.service.start()
        self.replicator = Replicator(self.station, self.service, key=KEY, me=self.me)

    def close(self) -> None:
        self.service.stop()
        self.station.close()


def pump_until(devices: list[Device], done: object, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for d in devices:
            d.replicator.pump()
            d.replicator.tick()
        if callable(done) and done():
            return
        time.sleep(0.005)
    raise AssertionError("timed out")


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[list[Device]]:
    display = Device(tmp_path / "a", "display")
    table = Device(tmp_path / "b", "table", 1, peers=(("127.0.0.1", display.service.port),))
    try:
        yield [display, table]
    finally:
        for d in (table, display):
            d.close()


def same(devices: list[Device]) -> bool:
    """Every device holds the same log, and folds each tournament in it alike.

    Per tournament, not the station's current one: which tournament a device
    shows depends on what arrived first, which is not what is tested here.
    """
    vectors = [d.station.store.version_vector() for d in devices]
    if not vectors[0] or any(v != vectors[0] for v in vectors):
        return False
    tournaments = {t.id for t in devices[0].station.store.tournaments()}
    return all(len({state_digest(fold(d.station.store.records(tid))) for d in devices}) == 1
               for tid in tournaments)


def test_events_flow_both_ways_and_the_states_agree(pair: list[Device]) -> None:
    display, table = pair
    assert display.station.create(CreateTournament("Main", preset("pf-pokerklub")), "main").ok
    pump_until(pair, lambda: same(pair))
    for n in range(20):
        assert display.station.submit(CheckIn(f"p{n}", f"P{n}")).ok
    pump_until(pair, lambda: same(pair))
    assert table.station.state.players.keys() == display.station.state.players.keys()
    status = display.service.status()
    assert [p.device_id for p in status.peers] == [table.me.device_id]
    assert status.peers[0].connected and status.peers[0].role == "table"
    assert not status.time.uncertain  # the display is the reference
    pump_until(pair, lambda: not table.replicator.time_uncertain)


def test_a_refused_event_is_stepped_over_in_the_announced_vector(pair: list[Device]) -> None:
    display, table = pair
    display.station.create(CreateTournament("Main", preset("pf-pokerklub")), "main")
    for n in range(4):
        display.station.submit(CheckIn(f"p{n}", f"P{n}"))
    assert display.station.submit(DrawSeats()).ok
    assert display.station.submit(StartClock()).ok
    pump_until(pair, lambda: same(pair))
    # The rules core lets a table jump the level; sync on the display refuses it.
    assert table.station.submit(JumpToLevel(2)).ok
    pump_until(pair, lambda: display.service.stats.drops().get("role") == 1)
    tid = table.me.device_id
    pump_until(pair, lambda: display.replicator.vector().get(tid) == 1)
    assert display.station.store.version_vector().get(tid) is None
    # Its allowed events after the refused one still land, and both agree on the rest.
    assert table.station.submit(StartHand(1)).ok
    pump_until(pair, lambda: display.replicator.vector().get(tid) == 2)
    assert display.station.state.tables[1].hands == 1


def test_stopping_leaves_no_thread_behind(tmp_path: Path) -> None:
    before = set(threading.enumerate())
    device = Device(tmp_path, "console")
    device.close()
    assert set(threading.enumerate()) <= before


def test_a_main_event_and_a_sit_and_go_replicate_without_mixing(pair: list[Device]) -> None:
    display, table = pair
    display.station.create(CreateTournament("Main", preset("pf-pokerklub")), "main")
    for n in range(6):
        display.station.submit(CheckIn(f"m{n}", f"Main {n}"))
    display.station.create(CreateTournament("Sit & Go", preset("pf-pokerklub")), "sng1")
    for n in range(3):
        display.station.submit(CheckIn(f"s{n}", f"SnG {n}"))
    pump_until(pair, lambda: same(pair))
    store = table.station.store
    main, sng = store.records("main"), store.records("sng1")
    assert {r.tournament_id for r in main} == {"main"}
    assert {r.tournament_id for r in sng} == {"sng1"}
    main_state, sng_state = fold(main), fold(sng)
    assert set(main_state.players) == {f"m{n}" for n in range(6)}
    assert set(sng_state.players) == {f"s{n}" for n in range(3)}
    for tid in ("main", "sng1"):
        theirs = fold(display.station.store.records(tid))
        assert state_digest(theirs) == state_digest(fold(store.records(tid)))


def test_events_received_move_the_local_lamport_clock_past_them(pair: list[Device]) -> None:
    display, table = pair
    display.station.create(CreateTournament("Main", preset("pf-pokerklub")), "main")
    for n in range(30):
        display.station.submit(CheckIn(f"p{n}", f"P{n}"))
    pump_until(pair, lambda: same(pair))
    highest = max(r.lamport for r in table.station.store.records("main"))
    assert highest >= 31
    (next_local,) = table.station.store.log.stamp("main", [ClockPaused(at=0.0)])
    assert next_local.lamport > highest


def test_status_shows_peers_lag_while_a_peer_is_behind(pair: list[Device]) -> None:
    display, _table = pair
    display.station.create(CreateTournament("Main", preset("pf-pokerklub")), "main")
    pump_until(pair, lambda: same(pair))
    for n in range(5):
        display.station.submit(CheckIn(f"p{n}", f"P{n}"))
    # The table's main loop has not taken them in yet: the display sees it behind
    # once the table's next vector arrives; after catching up, no lag is left.
    pump_until([display], lambda: any(p.behind > 0 for p in display.service.status().peers))
    pump_until(pair, lambda: same(pair) and all(
        p.behind == 0 for p in display.service.status().peers))
    (peer,) = display.service.status().peers
    assert peer.name == "table" and peer.last_seen_ago is not None and peer.last_seen_ago < 5
