"""The device runtime's command path, with a real SQLite store on disk."""

from __future__ import annotations

import random
from pathlib import Path

from kiosk.station import Station
from kiosk.store import open_store
from kiosk.store.checkpoint import load_checkpoint
from kiosk.timebase import SharedClock
from rules import clock as clocks
from rules.commands import (
    BustPlayers,
    CheckIn,
    CreateTournament,
    DrawSeats,
    StartClock,
    TogglePause,
)
from rules.fold import fold, state_digest
from rules.refusals import PlayerAlreadyOut
from rules.structure import preset


class FakeTime:
    """Shared time the test moves by hand (the monotonic clock is not ours to move)."""

    def __init__(self, start: float = 1000.0) -> None:
        self.t = start

    def now(self) -> float:
        return self.t


def station_at(data_dir: Path, clock: FakeTime) -> Station:
    shared = SharedClock(source=clock.now)
    return Station(open_store(data_dir=data_dir), shared, rng=random.Random(3))


def started(st: Station, players: int = 12) -> None:
    assert st.submit(CreateTournament("Fredag", preset("pf-pokerklub"))).ok
    for n in range(1, players + 1):
        assert st.submit(CheckIn(f"p{n}", f"Player {n}")).ok
    assert st.submit(DrawSeats()).ok
    assert st.submit(StartClock()).ok


def test_a_command_is_durable_before_it_is_shown(tmp_path: Path) -> None:
    clock = FakeTime()
    st = station_at(tmp_path, clock)
    started(st)
    outcome = st.submit(BustPlayers(("p4",)))
    assert outcome.ok and outcome.records
    assert st.state.players["p4"].place == 12
    # A second process reading the same file sees exactly what the screen shows.
    other = open_store(data_dir=tmp_path)
    assert st.tournament_id is not None
    assert state_digest(fold(other.records(st.tournament_id))) == state_digest(st.state)
    other.close()
    st.close()


def test_a_refused_command_changes_nothing_and_says_why_in_the_language(tmp_path: Path) -> None:
    st = station_at(tmp_path, FakeTime())
    started(st)
    st.submit(BustPlayers(("p4",)))
    before = state_digest(st.state)
    assert st.tournament_id is not None
    logged = len(st.store.records(st.tournament_id))
    outcome = st.submit(BustPlayers(("p4",)))
    assert not outcome.ok and isinstance(outcome.refusal, PlayerAlreadyOut)
    assert outcome.message("nn") == "Player 4 er allereie slått ut"
    assert state_digest(st.state) == before
    assert len(st.store.records(st.tournament_id)) == logged
    st.close()


def test_after_a_power_cut_alone_the_clock_comes_back_paused_at_the_checkpoint(
        tmp_path: Path) -> None:
    clock = FakeTime(1000.0)
    st = station_at(tmp_path, clock)
    st.checkpoint_every = 5.0
    started(st)
    for t in range(1000, 1301, 1):  # five minutes of play, ticking each second
        clock.t = float(t)
        st.tick()
    # The power goes: no clean close, the connection is just dropped.
    st.store.conn.close()

    clock.t = 20.0  # the Pi rebooted: its monotonic clock starts again near zero
    again = station_at(tmp_path, clock)
    again.cold_start(peers_present=False)
    structure = preset("pf-pokerklub")
    reading = clocks.read(structure, again.state.clock, again.now())
    assert not reading.running
    # Restored within one checkpoint interval of the 300 s really played.
    assert reading.remaining is not None and 1500.0 <= reading.remaining <= 1505.0
    assert [n.key for n in again.notices] == ["clock-restored"]
    # Shared time went on from the log instead of back to the reboot's zero.
    assert again.now() > 1000.0
    assert again.submit(TogglePause()).ok
    assert again.notices == [] and again.state.clock.running
    again.close()


def test_after_a_clean_stop_and_a_reboot_the_clock_runs_on_from_where_it_stopped(
        tmp_path: Path) -> None:
    clock = FakeTime(1000.0)
    st = station_at(tmp_path, clock)
    started(st)
    clock.t = 1300.0  # five minutes of play, then systemd stops the kiosk cleanly
    stopped_at = st.now()
    st.close()

    clock.t = 20.0  # the Pi rebooted: its monotonic clock starts again near zero
    again = station_at(tmp_path, clock)
    # What kiosk/last_stop.py recorded for another boot: only the time at the stop.
    again.continue_time(base=None, speed=1.0, at_least=stopped_at)
    again.cold_start(peers_present=False, cut=False)
    reading = clocks.read(preset("pf-pokerklub"), again.state.clock, again.now())
    assert reading.running and again.notices == []
    assert reading.remaining == 1500.0  # the 300 s played, not a second more or less
    again.close()


def test_a_paused_clock_is_checkpointed_once_not_every_five_seconds(tmp_path: Path) -> None:
    """No fsync every few seconds while nothing moves (a paused clock at the break, all
    night on a Pi's SD card); a running one is checkpointed on, and so is the pause."""
    clock = FakeTime(1000.0)
    st = station_at(tmp_path, clock)
    st.checkpoint_every = 5.0
    started(st)
    tid = st.tournament_id
    assert tid is not None

    def saved() -> tuple[float, float]:
        cp = load_checkpoint(st.store.conn, tid)
        assert cp is not None
        return cp.at_wall, cp.position

    for t in range(1000, 1031):
        clock.t = float(t)
        st.tick()
    running_at = saved()
    assert st.submit(TogglePause()).ok
    clock.t = 1036.0
    st.tick()
    paused_at = saved()
    assert paused_at != running_at and not load_checkpoint(st.store.conn, tid).running  # type: ignore[union-attr]
    for t in range(1037, 1400):
        clock.t = float(t)
        st.tick()
    assert saved() == paused_at
    assert st.submit(TogglePause()).ok
    clock.t = 1410.0
    st.tick()
    assert saved() != paused_at
    st.close()


def test_records_from_a_peer_are_stored_then_folded_and_duplicates_do_nothing(
        tmp_path: Path) -> None:
    a = station_at(tmp_path / "a", FakeTime())
    b = station_at(tmp_path / "b", FakeTime())
    started(a)
    assert a.tournament_id is not None
    records = a.store.records(a.tournament_id)
    assert b.accept(records) == len(records)
    assert b.accept(records) == 0
    assert state_digest(b.state) == state_digest(a.state)
    a.close()
    b.close()


def test_a_table_device_refuses_what_its_peers_would_refuse(tmp_path: Path) -> None:
    from kiosk.station import NotForThisDevice
    from rules.commands import NextLevel, StartHand

    td = station_at(tmp_path / "td", FakeTime())
    started(td)
    table = station_at(tmp_path / "t1", FakeTime())
    table.role, table.table = "table", 1
    table.accept(td.store.records(td.tournament_id or ""))
    outcome = table.submit(NextLevel())
    assert isinstance(outcome.refusal, NotForThisDevice)
    assert outcome.message("en") == "This device may not do that (level-jumped); use the TD's box"
    assert table.submit(StartHand(1)).ok
    assert not table.submit(StartHand(2)).ok
    table.close()
    td.close()


def test_the_terminal_beside_a_fast_forwarded_kiosk_keeps_its_shared_time(
        tmp_path: Path) -> None:
    """``pubpoker kiosk --speed 60`` and a TD command on the same device agree on the time."""
    mono = FakeTime(5000.0)
    kiosk = Station(open_store(data_dir=tmp_path),
                    SharedClock(source=mono.now, speed=60.0, offset=123.0),
                    rng=random.Random(3))
    started(kiosk)
    mono.t += 10.0
    kiosk.tick()  # the checkpoint saves the kiosk's time for other processes
    mono.t += 2.0
    terminal = Station(open_store(data_dir=tmp_path), SharedClock(source=mono.now),
                       rng=random.Random(4))
    terminal.join_local_time()
    assert abs(terminal.now() - kiosk.now()) < 1e-6
    mono.t += 7.5
    assert abs(terminal.now() - kiosk.now()) < 1e-6
    assert terminal.submit(TogglePause()).ok
    paused = terminal.state.clock
    assert paused.since is None and abs(paused.position - (19.5 * 60.0)) < 1e-6
    terminal.close()
    kiosk.close()
