"""Issue 10's soak: an 8-hour night at 60× on six real kiosk processes.

Run with ``./dev test tests/bench/test_bench_night_soak.py -m bench -s`` (as
root: network namespaces). ``PUBPOKER_SOAK_HOURS`` (default 8) and
``PUBPOKER_SOAK_SPEED`` (default 60) set the night; 0.5 hours smokes it in a
few minutes. The same six devices as the whole-night scenario
(``tests/night/test_whole_night.py``), each ``pubpoker kiosk --speed 60``:
40 players checked in by card at the console, the draw and the clock by the
display's START, then a bust every night/39 (about 12 simulated minutes) by
BUST + card, moves confirmed by card at the new table, a NEW HAND at every
live table every few simulated minutes, the clock resumed after the final
table's redraw, one table SIGKILLed and restarted halfway, and every
simulated hour a forged peer (``tests.sync.attacker``) against the next
device in turn.

Every few seconds each kiosk's ``/proc`` and status file are sampled.
Reported, as a table (``-s``) and as JSON (``PUBPOKER_SOAK_REPORT``, default
``/tmp/pubpoker-soak.json``): peak RSS per process and its ratio to the RSS
after power-on (the baseline from the same run), CPU seconds per device over
the night and as a share of one core, the frames each device dropped (forged
ones apart), how often its shared time was uncertain, how far the devices'
shared clocks were apart, and the clock level reached hour by hour. Asserted:
every device ends with the same digest, the places are the scripted busts',
the display announced the winner, every attacked device counted forged
frames and no forged event was stored anywhere. Speed figures are not asserted.
"""

from __future__ import annotations

import json
import os
import random
import resource
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from kiosk.store import open_store
from kiosk.sync.stats import Drop
from tests.bench.procstat import ProcSample, sample
from tests.night.rig import ROOT, Kiosk, card, wait_for
from tests.night.test_whole_night import BUST_TAP, PLAYERS, Night, on_a_lan
from tests.sync.netns import Host, Lan

HOURS = float(os.environ.get("PUBPOKER_SOAK_HOURS", "8"))
SPEED = float(os.environ.get("PUBPOKER_SOAK_SPEED", "60"))
REPORT = Path(os.environ.get("PUBPOKER_SOAK_REPORT", "/tmp/pubpoker-soak.json"))
SEED = int(os.environ.get("PUBPOKER_SOAK_SEED", "20261130"))
#: Real seconds the night's clock runs (8 hours at 60×: 8 minutes).
NIGHT = HOURS * 3600 / SPEED
#: Real seconds between two samples of every process.
SAMPLE_EVERY = 2.0
#: Shared seconds between two hands at a table: a live hand takes two or three minutes.
HAND_EVERY = 150.0
#: Shared seconds between two forged peers.
ATTACK_EVERY = 3600.0
ATTACKS = ("forged-mac", "forged-event", "role-claim", "garbage")
#: Drop reasons for frames and events that were never genuine (the rest are
#: genuine ones dropped: replays, a peer's stale link, a role's refusal).
FORGED = frozenset({Drop.BAD_MAC.value, Drop.EVENT_MAC.value, Drop.ROLE_CLAIM.value,
                    Drop.MALFORMED.value})

pytestmark = [pytest.mark.bench, pytest.mark.timeout(int(NIGHT + 1200))]


# --- watching the processes ---------------------------------------------------------------

@dataclass
class Life:
    """One process of a device (a restart is a new life)."""

    pid: int
    first: ProcSample
    last: ProcSample
    peak_kb: int
    #: The last status file read while this process ran.
    status: dict[str, Any] = field(default_factory=dict)
    samples: int = 0
    uncertain: int = 0
    #: (monotonic seconds, RSS in kB) at every sample: growth hour by hour.
    series: list[tuple[float, int]] = field(default_factory=list)


@dataclass
class Track:
    name: str
    lives: list[Life] = field(default_factory=list)
    #: Named moments (power-on, clock start, end): the sample taken then.
    marks: dict[str, ProcSample] = field(default_factory=dict)

    def life(self, pid: int) -> Life | None:
        return next((life for life in self.lives if life.pid == pid), None)


class Sampler:
    """Samples every device's process and status file on a thread of its own."""

    def __init__(self, devices: list[Kiosk]) -> None:
        self.devices = devices
        self.tracks = {d.name: Track(d.name) for d in devices}
        self.lock = threading.Lock()
        self.stop = threading.Event()
        #: (real seconds, display's clock level, remaining) per sample.
        self.levels: list[tuple[float, int | None, float | None]] = []
        #: Per device, how far its shared time was from the display's at each sample.
        self.skews: dict[str, list[float]] = {d.name: [] for d in devices}
        #: (shared seconds apart, real seconds since the clock started, device), worst first.
        self.worst: list[tuple[float, float, str]] = []
        #: Set when the clock starts: skews before it are of time sync settling at power-on.
        self.began: float | None = None
        self.thread = threading.Thread(target=self._run, name="soak-sampler", daemon=True)

    def take(self, mark: str | None = None) -> None:
        now = time.monotonic()
        statuses: dict[str, dict[str, Any]] = {}
        with self.lock:
            for device in self.devices:
                proc = device.proc
                if proc is None or proc.poll() is not None:
                    continue
                got = sample(proc.pid, now)
                if got is None:
                    continue
                track = self.tracks[device.name]
                life = track.life(got.pid)
                if life is None:
                    life = Life(got.pid, got, got, got.hwm_kb)
                    track.lives.append(life)
                life.last, life.peak_kb = got, max(life.peak_kb, got.hwm_kb)
                life.samples += 1
                life.series.append((now, got.rss_kb))
                status = device.status()
                if status is not None and status.get("pid") == got.pid:
                    life.status = status
                    statuses[device.name] = status
                    estimate = status.get("time") or {}
                    life.uncertain += bool(estimate.get("uncertain"))
                if mark is not None:
                    track.marks[mark] = got
            self._clocks(now, statuses)

    def _clocks(self, now: float, statuses: dict[str, dict[str, Any]]) -> None:
        tv = statuses.get("tv")
        if tv is None or tv.get("clock") is None or self.began is None:
            return
        clock = tv["clock"]
        self.levels.append((now, clock.get("level"), clock.get("remaining")))
        for name, status in statuses.items():
            if name != "tv" and status.get("tournament") == tv["tournament"]:
                # Each file says when it was written: bring both to the display's moment.
                theirs = status["shared"] + (tv["mono"] - status["mono"]) * SPEED
                skew = abs(theirs - tv["shared"])
                self.skews[name].append(skew)
                self.worst = sorted([*self.worst, (skew, round(now - self.began, 1), name)],
                                    reverse=True)[:5]

    def _run(self) -> None:
        while not self.stop.wait(SAMPLE_EVERY):
            self.take()

    def start(self) -> None:
        self.thread.start()

    def close(self) -> None:
        self.stop.set()
        if self.thread.is_alive():
            self.thread.join(10)


# --- the forged peer ----------------------------------------------------------------------

def port_of(device: Kiosk) -> int:
    out = subprocess.run(device.host.argv("ss", "-ltnH"), capture_output=True, text=True,
                         check=True).stdout
    ports = [int(line.split()[3].rsplit(":", 1)[1]) for line in out.splitlines()
             if line.split()[3].startswith(device.host.address)]
    assert ports, out
    return ports[0]


class Attacker:
    """Every simulated hour, the attacker's modes against the next device in turn."""

    def __init__(self, host: Host, devices: list[Kiosk], key: str, quiet: threading.Lock,
                 began: float) -> None:
        self.host, self.devices, self.key, self.quiet = host, devices, key, quiet
        self.began = began
        self.rounds: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="soak-attacker", daemon=True)

    def _run(self) -> None:
        # The first at half past, then on the hour: 8 rounds in an 8-hour night (and
        # one in a night shorter than an hour).
        every = min(ATTACK_EVERY, HOURS * 3600) / SPEED
        n = 0
        while True:
            due = self.began + (n + 0.5) * every
            if due >= self.began + NIGHT or self.stop.wait(max(0.0, due - time.monotonic())):
                return
            target = self.devices[n % len(self.devices)]
            with self.quiet:  # not while a device is down for its restart
                self.attack(target, n)
            n += 1

    def attack(self, target: Kiosk, n: int) -> None:
        sent: dict[str, int] = {}
        try:
            port = port_of(target)
            for mode in ATTACKS:
                run = subprocess.run(self.host.argv(
                    sys.executable, "-m", "tests.sync.attacker", mode,
                    f"ws://{target.host.address}:{port}/sync", self.key),
                    cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                    capture_output=True, text=True, timeout=60)
                if run.returncode != 0:
                    self.errors.append(f"{target.name} {mode}: {run.stderr[-500:]}")
                    continue
                sent[mode] = json.loads(run.stdout)["sent"]
        except Exception as err:  # reported and asserted at the end, not lost in a thread
            self.errors.append(f"{target.name}: {err!r}")
        hour = (time.monotonic() - self.began) * SPEED / 3600
        self.rounds.append({"hour": round(hour, 2), "target": target.name, "sent": sent})
        target.note(f"forged peer round {n}: {sent}")

    def start(self) -> None:
        self.thread.start()

    def close(self) -> None:
        self.stop.set()
        if self.thread.is_alive():
            self.thread.join(120)


# --- driving the night through the devices' inputs -----------------------------------------

class Soak(Night):
    """The whole-night rig's devices at ``SPEED``, acknowledged through their status files
    (a fold of a device's store per poll would cost this process more CPU than a kiosk)."""

    def __init__(self, lan: Lan, base: Path) -> None:
        super().__init__(lan, base)
        for device in self.devices:
            device.speed = SPEED
        self.rng = random.Random(SEED)
        self.numbers: dict[str, int] = {}  # player id -> card number
        self.hands = Counter[int]()  # acknowledged NEW HANDs per table
        self.lost_hands: list[str] = []
        self.moves = 0
        self.resumes = 0
        self.attacker: Attacker | None = None
        #: The machine's load when the clock started (other tests may share it).
        self.load_before = (0.0, 0.0, 0.0)

    def status_of(self, device: Kiosk) -> dict[str, Any]:
        return device.status() or {}

    def new_hand_fast(self, t: int) -> None:
        device = self.tables[t]
        before = self.status_of(device).get("hands", {}).get(str(t), 0)
        self.press_and_wait(device, "new_hand")
        try:
            wait_for(lambda: self.status_of(device).get("hands", {}).get(str(t), 0) > before,
                     10, f"t{t}: new hand")
            self.hands[t] += 1
        except AssertionError as err:
            self.lost_hands.append(str(err))
            self.say(f"lost: {err}")

    def bust_fast(self, t: int, player: str, place: int) -> None:
        """BUST + card at table ``t``; ``place`` players are left before it (a status
        file may be a moment old, so count down from what is known, not from it)."""
        device = self.tables[t]
        wait_for(lambda: self.status_of(device).get("remaining") == place, 20,
                 f"{device.name} to know {place} players are left")
        self.press_and_wait(device, "bust", said=BUST_TAP)
        device.tap(card(self.numbers[player]),
                   lambda: self.status_of(device).get("remaining", place) < place,
                   timeout=30.0)
        self.expected[player] = place

    def confirm_moves_fast(self, source: Kiosk) -> None:
        """Every move pending at ``source``: the mover taps their card at the new table.

        Taken one at a time from the source's status, as a confirmed move may make
        balancing cancel or re-plan another one.
        """
        deadline = time.monotonic() + 120.0
        while moves := self.status_of(source).get("moves", {}):
            assert time.monotonic() < deadline, f"moves not confirmed: {moves}"
            player, table = next(iter(moves.items()))
            target = self.tables[table]

            def known(p: str = player, n: int = table, d: Kiosk = target) -> bool | None:
                if self.status_of(source).get("moves", {}).get(p) != n:
                    return None  # cancelled or re-planned meanwhile: read the source again
                return self.status_of(d).get("moves", {}).get(p) == n

            wait_for(lambda: known() is not False, 20, f"{target.name} to know the move")
            if known():
                target.tap(card(self.numbers[player]),
                           lambda p=player, d=target: p not in self.status_of(d).get("moves", {}))
                self.moves += 1
                wait_for(lambda p=player: p not in self.status_of(source).get("moves", {}), 20,
                         "the move confirmed at the bust's table")

    def resume_after_redraw(self, source: Kiosk) -> None:
        """C6 stops the clock for the final table's redraw; the TD starts it again.

        ``source`` is the device of the bust that drew the final table: its status
        already shows the stopped clock, the display's may not yet.
        """
        status = self.status_of(source)
        clock = status.get("clock") or {}
        if clock.get("started") and not clock.get("running") and not status.get("winner"):
            wait_for(lambda: not (self.status_of(self.tv).get("clock") or {}).get("running"),
                     15, "the display to stop the clock for the redraw")
            self.press_and_wait(self.tv, "pause")
            wait_for(lambda: (self.status_of(self.tv).get("clock") or {}).get("running"), 15,
                     "the clock running after the redraw")
            self.resumes += 1
            self.say("clock resumed after the final table's redraw")

    def restart_table(self, t: int) -> dict[str, float]:
        """SIGKILL, a second off, power on: real seconds to its first status and to
        the same digest as every other device."""
        device = self.tables[t]
        device.kill()
        time.sleep(1.0)
        began = time.monotonic()
        device.start()
        device.wait_ready(60)
        ready = time.monotonic()
        self.converge(f"t{t} restart", timeout=60)
        return {"start_s": round(ready - began, 2),
                "converged_s": round(time.monotonic() - ready, 2)}


@pytest.fixture
def soak(tmp_path: Path) -> Iterator[Soak]:
    yield from on_a_lan(Soak, tmp_path, Path("/tmp/pubpoker-soak-last"))


def test_bench_soak_a_night_at_speed(soak: Soak) -> None:
    sampler = Sampler(soak.devices)
    soak.prepare()
    soak.start()
    speeds = {d.name: (d.status() or {}).get("speed") for d in soak.devices}
    assert set(speeds.values()) == {SPEED}, f"not every kiosk runs at {SPEED}×: {speeds}"
    sampler.take("power-on")
    sampler.start()
    quiet = threading.Lock()
    try:
        began, busts, levels = _run_night(soak, sampler, quiet)
    finally:
        sampler.close()
    report = _report(soak, sampler, began, busts, levels)
    _check(soak, report)


def _run_night(soak: Soak, sampler: Sampler, quiet: threading.Lock
               ) -> tuple[float, int, dict[str, Any]]:
    for n in range(1, PLAYERS + 1):
        soak.console.tap(card(n), lambda n=n: soak.status_of(soak.console).get("entrants", 0)
                         >= n)
    state = soak.state()
    soak.numbers = {p: int(e.name.split()[-1]) for p, e in state.players.items()}
    soak.say(f"{PLAYERS} checked in")
    soak.press_and_wait(soak.tv, "start", hold=True)
    wait_for(lambda: len(soak.status_of(soak.tv).get("hands", {})) >= 4, 15, "seats drawn")
    soak.press_and_wait(soak.tv, "start", hold=True)
    wait_for(lambda: (soak.status_of(soak.tv).get("clock") or {}).get("running"), 15,
             "clock running")
    began = sampler.began = time.monotonic()
    sampler.take("clock-start")
    soak.load_before = os.getloadavg()
    soak.converge("the draw")
    attacker_host = soak.lan.add()
    attacker = Attacker(attacker_host, soak.devices, soak.key, quiet, began)
    soak.attacker = attacker
    attacker.start()
    soak.say(f"clock started: {HOURS} h at {SPEED}× ({NIGHT:.0f} s real)")

    busts = PLAYERS - 1
    rng = soak.rng
    restart_at = busts // 2
    hand_gap = HAND_EVERY / SPEED
    live = soak.live_tables()
    next_hand = {t: began + rng.uniform(0, hand_gap) for t in live}
    extra: dict[str, Any] = {}
    try:
        for k in range(busts):
            due = began + (k + 1) * NIGHT / busts
            _hands_until(soak, due, next_hand, hand_gap)
            if k == restart_at:
                t = rng.choice(live)
                with quiet:
                    extra["restart"] = {"table": t, "at_bust": k, **soak.restart_table(t)}
                soak.say(f"t{t} killed and restarted: {extra['restart']}")
                soak.new_hand_fast(t)
            state = soak.state()
            tables = sorted(t for t, table in state.tables.items()
                            if [p for p in table.seats.values() if p not in state.moves])
            t = rng.choice(tables)
            mine = soak.state(soak.tables[t])
            seated = sorted(p for p in mine.tables[t].seats.values() if p not in mine.moves)
            soak.bust_fast(t, rng.choice(seated), PLAYERS - k)
            soak.confirm_moves_fast(soak.tables[t])
            soak.resume_after_redraw(soak.tables[t])
            live = soak.live_tables()
            for gone in set(next_hand) - set(live):
                del next_hand[gone]
            for new in set(live) - set(next_hand):
                next_hand[new] = time.monotonic()
            late = time.monotonic() - due
            soak.say(f"bust {k + 1}/{busts} at t{t} ({late:+.1f} s against the schedule), "
                     f"tables {live}")
        wait_for(lambda: soak.status_of(soak.console).get("winner"), 15,
                 "the console to know the winner")
        final = soak.state()
        assert final.winner is not None
        soak.expected[final.winner.player_id] = 1
        soak.say(f"winner {final.winner.name}")
        extra["final_convergence_s"] = round(soak.converge("the end"), 2)
        wait_for(lambda: any(final.winner is not None and final.winner.name in line
                             for _t, line in soak.status_of(soak.tv).get("announced", [])),
                 15, "the display to announce the winner")
        # The clock runs on to the end of the night (a soak measures the idle kiosk too).
        time.sleep(max(0.0, began + NIGHT - time.monotonic()))
    finally:
        attacker.close()
    sampler.take("end")
    extra["real_s"] = round(time.monotonic() - began, 1)
    return began, busts, extra


def _hands_until(soak: Soak, due: float, next_hand: dict[int, float], gap: float) -> None:
    """NEW HAND at each live table every ``gap`` real seconds until the next bust is due."""
    while (now := time.monotonic()) < due:
        if not next_hand:
            time.sleep(due - now)
            return
        t = min(next_hand, key=next_hand.__getitem__)
        if next_hand[t] > now:
            time.sleep(min(next_hand[t], due) - now)
            continue
        soak.new_hand_fast(t)
        next_hand[t] = max(next_hand[t] + gap, time.monotonic())


# --- the figures ---------------------------------------------------------------------------

def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def _at(series: list[tuple[float, int]], began: float, hour: float) -> int:
    """RSS (kB) at the first sample from ``hour`` simulated hours on (else the last)."""
    when = began + hour * 3600 / SPEED
    return next((kb for at, kb in series if at >= when), series[-1][1])


def _by_hour(series: list[tuple[float, int]], began: float) -> dict[str, float]:
    hours = int((series[-1][0] - began) * SPEED / 3600)
    return {str(h): round(_at(series, began, h) / 1024, 1) for h in range(hours + 1)}


def _device_row(track: Track, skews: list[float], began: float, ended: float
                ) -> dict[str, Any]:
    """One device's figures; RSS ratios are its first process's (up since power-on)."""
    start = track.marks.get("clock-start")
    first = track.lives[0]
    base_kb = track.marks.get("power-on", first.first).rss_kb
    cpu = 0.0
    drops: Counter[str] = Counter()
    moved: Counter[str] = Counter()
    samples = uncertain = 0
    for life in track.lives:
        # A process started during the night counts all its CPU; the first from clock start.
        since = start.cpu_s if start is not None and start.pid == life.pid else 0.0
        cpu += life.last.cpu_s - since
        drops.update(life.status.get("drops", {}))
        moved.update(life.status.get("moved", {}))
        samples += life.samples
        uncertain += life.uncertain
    last = track.lives[-1].last
    return {
        "device": track.name,
        "rss_power_on_mb": round(base_kb / 1024, 1),
        "rss_hour_1_mb": round(_at(first.series, began, 1.0) / 1024, 1),
        "rss_end_mb": round(first.last.rss_kb / 1024, 1),
        "peak_rss_mb": round(first.peak_kb / 1024, 1),
        "peak_over_power_on": round(first.peak_kb / base_kb, 3),
        "end_over_power_on": round(first.last.rss_kb / base_kb, 3),
        # After the first simulated hour the kiosk is warm (fonts, screens, caches):
        # growth from there on is what a longer night would keep adding.
        "rss_by_hour_mb": _by_hour(first.series, began),
        "end_over_hour_1": round(first.last.rss_kb / _at(first.series, began, 1.0), 3),
        "cpu_night_s": round(cpu, 1),
        "cpu_share_of_core": round(cpu / (ended - began), 3),
        "threads_end": last.threads,
        "fds_end": last.fds,
        "frames_in": moved.get("frames_in", 0),
        "frames_out": moved.get("frames_out", 0),
        "dropped": sum(drops.values()),
        "forged": sum(n for reason, n in drops.items() if reason in FORGED),
        "drops": dict(sorted(drops.items())),
        "time_uncertain_share": round(uncertain / samples, 3) if samples else None,
        "clock_skew_p99_s": round(_percentile(skews, 0.99), 3),
        "clock_skew_max_s": round(max(skews, default=0.0), 3),
        "processes": [{"pid": life.pid, "rss_first_mb": round(life.first.rss_kb / 1024, 1),
                       "rss_last_mb": round(life.last.rss_kb / 1024, 1),
                       "peak_rss_mb": round(life.peak_kb / 1024, 1),
                       "cpu_s": round(life.last.cpu_s, 1), "samples": life.samples}
                      for life in track.lives],
    }


def _report(soak: Soak, sampler: Sampler, began: float, busts: int,
            extra: dict[str, Any]) -> dict[str, Any]:
    ended = began + extra["real_s"]
    rows = [_device_row(sampler.tracks[d.name], sampler.skews[d.name], began, ended)
            for d in soak.devices]
    skews = [x for values in sampler.skews.values() for x in values]
    by_hour: dict[str, Any] = {}
    for at, level, remaining in sampler.levels:
        hour = (at - began) * SPEED / 3600
        if hour >= 0:
            by_hour.setdefault(f"{int(hour)}", [level, remaining])
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    report = {
        "hours": HOURS, "speed": SPEED, "players": PLAYERS, "busts": busts,
        "seed": SEED, "night_real_s": extra["real_s"],
        "devices": rows,
        "hands_acknowledged": dict(sorted(soak.hands.items())),
        "hands_lost": soak.lost_hands,
        "moves_confirmed": soak.moves,
        "clock_resumes": soak.resumes,
        "clock_level_by_hour": by_hour,
        "clock_level_end": sampler.levels[-1][1] if sampler.levels else None,
        "shared_clock_skew_s": {"p50": round(_percentile(skews, 0.5), 3),
                                "p99": round(_percentile(skews, 0.99), 3),
                                "max": round(max(skews, default=0.0), 3),
                                "samples": len(skews),
                                "worst": [{"skew": round(x, 3), "at_real_s": at, "device": n}
                                          for x, at, n in sampler.worst]},
        "attacks": [] if soak.attacker is None else soak.attacker.rounds,
        "attack_errors": [] if soak.attacker is None else soak.attacker.errors,
        "restart": extra.get("restart"),
        "final_convergence_s": extra.get("final_convergence_s"),
        "digests": {name: list(v) for name, v in soak.digests().items()},
        "driver_cpu_s": round(me.ru_utime + me.ru_stime, 1),
        "cores": os.cpu_count(),
        "loadavg_at_clock_start": [round(x, 2) for x in soak.load_before],
        "loadavg_at_end": [round(x, 2) for x in os.getloadavg()],
        "attackers_and_children_cpu_s": round(kids.ru_utime + kids.ru_stime, 1),
    }
    REPORT.write_text(json.dumps(report, indent=2))
    _print(report)
    return report


def _print(report: dict[str, Any]) -> None:
    head = (f"{'device':8} {'RSS on':>7} {'RSS 1h':>7} {'RSS end':>7} {'end/1h':>7} "
            f"{'peak':>7} {'peak/on':>7} "
            f"{'CPU s':>6} {'core%':>6} {'thr':>4} {'fds':>4} {'frm in':>7} {'dropped':>7} "
            f"{'forged':>6} {'t?%':>4} {'skew99':>6}  drops by reason")
    lines = ["", f"soak: {report['hours']} h at {report['speed']}× "
             f"({report['night_real_s']} s real), {report['players']} players, "
             f"{report['busts']} busts. RSS in MB (the first process of each device), CPU "
             "over the night, t?% = samples with shared time uncertain, skew99 = p99 of "
             "|shared time - the display's| in shared s", head, "-" * len(head)]
    for r in report["devices"]:
        uncertain = r["time_uncertain_share"]
        shown = "-" if uncertain is None else f"{100 * uncertain:.0f}"
        later = r["processes"][1:]
        lines.append(
            f"{r['device']:8} {r['rss_power_on_mb']:7.1f} {r['rss_hour_1_mb']:7.1f} "
            f"{r['rss_end_mb']:7.1f} {r['end_over_hour_1']:7.3f} "
            f"{r['peak_rss_mb']:7.1f} {r['peak_over_power_on']:7.3f} {r['cpu_night_s']:6.1f} "
            f"{100 * r['cpu_share_of_core']:6.1f} {r['threads_end']:4} {r['fds_end']:4} "
            f"{r['frames_in']:7} {r['dropped']:7} {r['forged']:6} {shown:>4} "
            f"{r['clock_skew_p99_s']:6.2f}  "
            + (", ".join(f"{k} {v}" for k, v in r["drops"].items()) or "-")
            + "".join(f"  (restarted: pid {p['pid']} peak {p['peak_rss_mb']} MB)"
                      for p in later))
    skew = report["shared_clock_skew_s"]
    lines += [
        f"hands acknowledged per table: {report['hands_acknowledged']}, lost: "
        f"{len(report['hands_lost'])}; moves confirmed: {report['moves_confirmed']}; "
        f"clock resumed after the final table's redraw: {report['clock_resumes']}",
        "clock level at each simulated hour: "
        + ", ".join(f"{h}: {'break' if lv is None else lv}"
                    + ("" if r is None else f" ({int(r) // 60}:{int(r) % 60:02d} left)")
                    for h, (lv, r) in report["clock_level_by_hour"].items()),
        f"shared clocks against the display's: p50 {skew['p50']} s, p99 {skew['p99']} s, "
        f"max {skew['max']} s over {skew['samples']} readings (shared seconds); worst: "
        + ", ".join(f"{w['device']} {w['skew']} s at {w['at_real_s']} s" for w in skew["worst"]),
        "forged peer rounds: " + ", ".join(f"{a['hour']} h → {a['target']}"
                                           for a in report["attacks"]),
        f"table restart: {report['restart']}; final convergence "
        f"{report['final_convergence_s']} s",
        f"driver CPU {report['driver_cpu_s']} s, attackers "
        f"{report['attackers_and_children_cpu_s']} s; {report['cores']} cores, load average "
        f"{report['loadavg_at_clock_start']} at clock start, {report['loadavg_at_end']} at "
        f"the end; report: {REPORT}",
    ]
    print("\n".join(lines))


def _check(soak: Soak, report: dict[str, Any]) -> None:
    digests = {tuple(v) for v in report["digests"].values()}
    assert len(digests) == 1 and None not in next(iter(digests)), report["digests"]
    assert not report["attack_errors"], report["attack_errors"]
    attacked = {a["target"] for a in report["attacks"]}
    assert attacked, "no forged peer came"
    rows = {r["device"]: r for r in report["devices"]}
    for name in attacked:
        assert rows[name]["forged"] > 0, (name, rows[name]["drops"])
    for device in soak.devices:
        state, records = device.state()[0], device.records()
        assert state.finished and state.winner is not None
        assert {p: e.place for p, e in state.players.items()} == soak.expected, device.name
        assert "ghost" not in state.players, device.name
        started = Counter(getattr(r.event, "table", None) for r in records
                          if r.event.kind.value == "hand-started")
        for t, n in soak.hands.items():
            assert started[t] >= n, (device.name, t, started[t], n)
        store = open_store(data_dir=device.data)
        try:  # in any tournament, not only tonight's
            assert "intruder" not in store.version_vector(), device.name
        finally:
            store.close()
