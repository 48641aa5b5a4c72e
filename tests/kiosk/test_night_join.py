"""Power-on on the TD's box waits for its peers; which tournament is tonight's when boxes meet.

In one process on fake time: :class:`kiosk.night.Night` with a stand-in for
peer sync (only what it asks of it), and stores that "meet" by taking each
other's records, as sync appends them. The same on real processes in network
namespaces: tests/night/test_power_on_join.py.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kiosk.app import App
from kiosk.bootstrap import Options, bootstrap
from kiosk.config import TournamentConfig
from kiosk.controls.effects import Dismiss, FreshNight, Popup, Settle, ShowScreen
from kiosk.night import JOIN_PATIENCE, JOIN_WAIT, Night
from kiosk.station import Station
from kiosk.store import Store, open_store
from kiosk.timebase import SharedClock
from kiosk.tonight import Tonight, auto_id, follow_tonight, is_auto, tonight
from rules.commands import CheckIn, DrawSeats, StartClock
from tests.kiosk.night_app import night_of

TONIGHT = TournamentConfig(name="Torsdag {date}", tables=3, seats_per_table=8)
DAY = dt.date(2026, 11, 26)


class Peers:
    """What Night asks of peer sync: the tournaments linked peers announced."""

    def __init__(self) -> None:
        self.announced: set[str] = set()

    def peer_tournaments(self) -> set[str]:
        return set(self.announced)


@pytest.fixture()
def make(tmp_path: Path) -> Iterator[Callable[[str], App]]:
    made: list[App] = []

    def build(name: str) -> App:
        app = bootstrap(Options(data_dir=str(tmp_path / name), role="console", shift=False,
                                sound=False, lang="en"), fake=True,
                        flow=lambda core: Night(core, TONIGHT, today=lambda: DAY))
        made.append(app)
        return app

    yield build
    for app in made:
        app.close()


def powered_on(app: App, peers: Peers) -> Night:
    app.sync = peers
    night = night_of(app)
    assert not night.power_on()
    return night


def step(app: App, seconds: float = 0.0) -> None:
    assert app.time is not None
    app.time.advance(seconds)
    app.loop.step(block=False)


def tids(store: Store) -> list[str]:
    return [row.id for row in store.tournaments()]


def made_elsewhere(path: Path, *, players: int = 0, auto: bool = True, seed: int = 1) -> tuple[
        str, list[object]]:
    """Tonight's tournament made in another box's store: its id and records."""
    store = open_store(data_dir=path)
    station = Station(store, SharedClock(), random.Random(seed), role="console")
    try:
        rng = random.Random(seed)
        assert station.create(tonight(TONIGHT, DAY), auto_id(rng) if auto else None).ok
        for n in range(players):
            player = store.players.add(f"P{n}")
            assert station.submit(CheckIn(player.id, player.name)).ok
        tid = station.tournament_id
        assert tid is not None
        return tid, list(store.records(tid))
    finally:
        station.close()


def test_alone_the_box_creates_tonight_after_the_wait_and_not_before(make) -> None:  # type: ignore[no-untyped-def]
    app = make("console")
    night = powered_on(app, Peers())
    step(app)
    assert app.station.tournament_id is None
    assert [p.title for p in app.loop.overlays.popups] == ["Looking for tonight's tournament…"]
    step(app, JOIN_WAIT - 0.1)
    assert app.station.tournament_id is None and tids(app.store) == []
    step(app, 0.1)
    tid = app.station.tournament_id
    assert tid is not None and is_auto(tid) and tids(app.store) == [tid]
    assert app.station.state.config is not None
    assert app.station.state.config.name == "Torsdag 26.11.2026"
    assert night.joining_since is None and not app.loop.overlays.popups
    step(app, JOIN_WAIT)
    assert tids(app.store) == [tid]  # once


def test_the_box_joins_what_a_peer_brings_and_creates_nothing(make, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make("console")
    night = powered_on(app, Peers())
    step(app, 1.0)
    tid, records = made_elsewhere(tmp_path / "display", players=3, auto=False)
    app.station.accept(records)  # what sync does with the display's events
    step(app, 0.1)
    assert app.station.tournament_id == tid and app.station.state.entrants == 3
    assert night.joining_since is None and not app.loop.overlays.popups
    step(app, JOIN_PATIENCE)
    assert tids(app.store) == [tid]


def test_the_night_hands_the_wall_effects_and_never_reaches_into_the_loop(  # type: ignore[no-untyped-def]
        make, tmp_path: Path) -> None:
    """Power-on's pop-up, joining and creating are effects its tick returns (issue 50)."""
    app = make("console")
    night = powered_on(app, Peers())
    assert not any(p.kind == "joining" for p in app.loop.overlays.popups)  # not shown yet
    joining = night.tick()
    assert [(type(e), getattr(e, "kind", None)) for e in joining] == [(Popup, "joining")]
    assert night.tick() == []
    tid, records = made_elsewhere(tmp_path / "display", players=2, auto=False)
    app.station.accept(records)
    assert night.tick() == [Dismiss("joining"), Settle()]
    assert app.station.tournament_id == tid

    alone = make("alone")
    night = powered_on(alone, Peers())
    night.tick()
    assert alone.time is not None
    alone.time.advance(JOIN_WAIT)
    assert night.tick() == [Dismiss("joining"), FreshNight(), Settle(), ShowScreen("clock")]
    assert alone.station.tournament_id is not None
    assert not any(p.kind == "joining" for p in alone.loop.overlays.popups)  # nobody showed it


def test_a_linked_peer_with_a_tournament_on_its_way_is_waited_for(make, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app, peers = make("console"), Peers()
    powered_on(app, peers)
    tid, records = made_elsewhere(tmp_path / "display", players=2, auto=False)
    peers.announced = {tid}  # the display's hello said so; its log is still coming
    step(app, JOIN_WAIT + 5.0)
    assert app.station.tournament_id is None
    app.station.accept(records)
    step(app)
    assert app.station.tournament_id == tid and tids(app.store) == [tid]

    # A promise that never comes is waited for JOIN_PATIENCE seconds, no more.
    late = make("late")
    peers_late = Peers()
    peers_late.announced = {"tnever"}
    powered_on(late, peers_late)
    step(late, JOIN_PATIENCE - 0.5)
    assert late.station.tournament_id is None
    step(late, 0.5)
    assert late.station.tournament_id is not None


def meet(*stores: Store) -> None:
    """Every store takes every other's records, as sync does when the boxes meet."""
    everything = [r for s in stores for tid in tids(s) for r in s.records(tid)]
    for store in stores:
        store.append(everything)


@pytest.mark.parametrize("players_on", ["a", "b", None])
def test_two_boxes_that_each_made_tonight_pick_the_same_one_when_they_meet(
        tmp_path: Path, players_on: str | None) -> None:
    a_tid, a_records = made_elsewhere(tmp_path / "a", players=2 if players_on == "a" else 0,
                                      seed=1)
    b_tid, b_records = made_elsewhere(tmp_path / "b", players=2 if players_on == "b" else 0,
                                      seed=2)
    a, b = open_store(data_dir=tmp_path / "a"), open_store(data_dir=tmp_path / "b")
    try:
        meet(a, b)
        picks = []
        for store in (a, b):
            chooser = Tonight(store)
            try:
                picks.append(chooser.pick())
            finally:
                chooser.close()
        assert picks[0] == picks[1]
        if players_on is not None:
            assert picks[0] == {"a": a_tid, "b": b_tid}[players_on]
        else:
            # Nobody in either: the first made in the log's (lamport, device, seq) order.
            first = min((a_records[0], b_records[0]),
                        key=lambda r: (r.lamport, r.device_id, r.seq))  # type: ignore[attr-defined]
            assert picks[0] == first.tournament_id  # type: ignore[attr-defined]
    finally:
        a.close()
        b.close()


def test_the_td_s_new_tournament_replaces_the_running_one(tmp_path: Path) -> None:
    store = open_store(data_dir=tmp_path / "td")
    station = Station(store, SharedClock(), random.Random(3), role="console")
    try:
        assert station.create(tonight(TONIGHT, DAY), auto_id(random.Random(3))).ok
        first = station.tournament_id
        for n in range(4):
            player = store.players.add(f"P{n}")
            assert station.submit(CheckIn(player.id, player.name)).ok
        assert station.submit(DrawSeats()).ok and station.submit(StartClock()).ok
        assert station.create(tonight(TONIGHT, DAY)).ok  # NEW: the TD asked for it
        chooser = Tonight(store, station)
        try:
            assert chooser.pick() == station.tournament_id != first
        finally:
            chooser.close()
    finally:
        station.close()


def test_a_box_on_its_own_empty_tournament_switches_to_the_one_with_players(
        make, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make("console")
    follow_tonight(app)
    night_of(app).power_on()  # no sync: at once
    mine = app.station.tournament_id
    assert mine is not None and is_auto(mine)
    theirs, records = made_elsewhere(tmp_path / "display", players=5, seed=9)
    app.station.accept(records)
    step(app, 2.0)
    assert app.station.tournament_id == theirs and app.station.state.entrants == 5
    assert app.store.current_tournament() == theirs
    assert sorted(tids(app.store)) == sorted([mine, theirs])  # nothing is lost


def test_joining_a_peer_with_a_sit_and_go_shows_the_main_event(make, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make("console")
    powered_on(app, Peers())
    store = open_store(data_dir=tmp_path / "display")
    station = Station(store, SharedClock(), random.Random(5), role="console")
    try:
        assert station.create(tonight(TONIGHT, DAY)).ok
        main = station.tournament_id
        for n in range(3):
            player = store.players.add(f"P{n}")
            assert station.submit(CheckIn(player.id, player.name)).ok
        side = Station(store, SharedClock(), random.Random(6), role="console")
        assert side.create(tonight(TONIGHT, DAY), f"{main}-sng1").ok  # the newest made
        records = [r for tid in (main, f"{main}-sng1") for r in store.records(tid)]
    finally:
        station.close()
    app.station.accept(records)
    assert app.station.tournament_id == f"{main}-sng1"  # what the store calls newest
    step(app)
    assert app.station.tournament_id == main and app.station.state.entrants == 3
