"""CPU of a 1080p clock in a real ``pubpoker kiosk`` process, against two reference loops.

Run with ``./dev test tests/bench/test_bench_real_clock.py -m bench -s`` (as root:
the kiosks with a venue key run peer sync in network namespaces of their own).
``PUBPOKER_BENCH_PYTHON=/path/to/venv/bin/python`` runs every measured process
under another interpreter (CI's pygame 2.1.3 venv); ``PUBPOKER_BENCH_WINDOW``
sets the measured window (default 30 s).

One test per role (display, table). In each of 3 repetitions these run side by
side, started together, each a fresh process:

- four ``pubpoker kiosk --headless --size 1920x1080`` showing the clock of a
  tournament prepared with the CLI (24 players checked in, seats drawn, the
  clock started): without a venue key (``--role ROLE --data-dir DIR``: no
  peer sync) and with one (a ``pubpoker.toml``: peer sync on, alone on a LAN
  of its own), each with the clock running (resumed with ``pubpoker clock
  resume`` once the kiosk is up) and paused;
- the **floor** (:mod:`tests.bench.ref_loops`): a pygame loop at 1920x1080 that
  sleeps to the next second and redraws only the digits;
- **naive**: a pygame loop that redraws the whole screen 60 times a second.

Once every process has settled (start-up over, and sync's timers at rest:
:data:`AT_REST`) and the running clocks have been resumed, each process's
CPU (user + system, all threads) is read at the start and end of the window,
from ``/proc/PID/stat`` and from its CPU-time clock (:mod:`tests.bench.realproc`),
and scaled to CPU seconds per minute.
Each kiosk's figure is divided by the floor's and the naive loop's from the
same window. Goals, on the median of the 3 repetitions, for every kiosk:
at most 1.5× the floor and at most 1/40 of naive. The buttons are left out
(a real panel's pins are not here, and the fake pins' FIFO thread is a cost
the appliance does not have).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import pytest

from kiosk.sync.auth import new_key
from kiosk.sync.rest import REST_AFTER, REST_CAP
from tests.bench.realproc import (
    PYTHON,
    SIZE,
    Kiosk,
    Process,
    Spread,
    StoreWatch,
    cli,
    environment,
    load_average,
    prepare_tournament,
    python_versions,
    render_table,
    settle,
)
from tests.sync.netns import Host, Lan, require_netns

pytestmark = [pytest.mark.bench, pytest.mark.timeout(1200)]

REPETITIONS = 3
WINDOW = float(os.environ.get("PUBPOKER_BENCH_WINDOW", "30"))
#: Seconds after ``clock resume`` before the window opens (the kiosk folds it within 1 s).
AFTER_RESUME = 3.0
FLOOR_GOAL = 1.5
NAIVE_GOAL = 1 / 40
#: Seconds after start before the window opens: sync's timers keep their own
#: periods for REST_AFTER seconds after power-on (a join is quick), then
#: double their sleeps up to REST_CAP. A night spends its hours at rest;
#: the minute after power-on is not what a running clock costs.
AT_REST = REST_AFTER + 2 * REST_CAP


@dataclass(frozen=True)
class Variant:
    key: bool
    running: bool

    @property
    def label(self) -> str:
        return (f"kiosk, {'venue key' if self.key else 'no key'}, "
                f"{'running' if self.running else 'paused'}")


VARIANTS = (Variant(False, True), Variant(False, False), Variant(True, True),
            Variant(True, False))


@dataclass
class Window:
    """One repetition: CPU seconds per minute of each process, from both sources."""

    precise: dict[str, float]
    ticks: dict[str, float]
    fps: dict[str, float]
    load_before: str
    load_after: str


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One prepared data dir, copied for every kiosk of every repetition."""
    data = tmp_path_factory.mktemp("clock-template") / "data"
    prepare_tournament(data)
    return data


@pytest.fixture
def lans() -> Iterator[list[Lan]]:
    """A LAN of its own for each kiosk with a key: it is alone, as tested."""
    require_netns()
    made: list[Lan] = []
    try:
        yield made
    finally:
        for lan in made:
            lan.close()


def _reference(kind: str, where: Path) -> Process:
    return Process([PYTHON, "-m", "tests.bench.ref_loops", kind, "--size", SIZE],
                   environment(), where / f"{kind}.log").start()


def _reference_report(log: Path) -> dict[str, object]:
    """What a reference loop printed: its versions, then its frames and seconds."""
    lines = [json.loads(line) for line in log.read_text().splitlines()
             if line.startswith("{")]
    return {k: v for line in lines for k, v in line.items()}


def _repetition(role: str, base: Path, template: Path, hosts: list[Host | None]) -> Window:
    kiosks: dict[Variant, Kiosk] = {}
    for n, variant in enumerate(VARIANTS):
        where = base / f"k{n}"
        shutil.copytree(template, where / "data")
        kiosks[variant] = Kiosk(
            variant.label, where, role,
            key=new_key().hex() if variant.key else None,
            table=1 if role == "table" and variant.key else None,
            host=hosts[n])
    with ExitStack() as stack:
        for kiosk in kiosks.values():
            kiosk.start()
            stack.callback(kiosk.stop)
        floor = _reference("floor", base)
        stack.callback(floor.stop)
        naive = _reference("naive", base)
        stack.callback(naive.stop)
        processes = {v.label: k.process for v, k in kiosks.items()}
        processes["floor"], processes["naive"] = floor, naive
        measured = {label: p for label, p in processes.items() if p is not None}
        # The naive loop is busy by design; the others go quiet once started.
        settle([p for label, p in measured.items() if label != "naive"], at_least=AT_REST)
        for variant, kiosk in kiosks.items():
            if variant.running:
                cli(kiosk.data, "clock", "resume")
        time.sleep(AFTER_RESUME)
        load_before = load_average()
        start = {label: p.cpu() for label, p in measured.items()}
        began = time.monotonic()
        time.sleep(WINDOW)
        end = {label: p.cpu() for label, p in measured.items()}
        took = time.monotonic() - began
        load_after = load_average()
        for label, p in measured.items():
            p.check_alive(label)
        for variant, kiosk in kiosks.items():
            store = StoreWatch(kiosk.data)
            try:
                state = "running" if variant.running else "paused"
                assert store.clock_running() is variant.running, (
                    f"{variant.label}: the clock is not {state}")
            finally:
                store.close()
        floor.stop()
        naive.stop()
        fps = {}
        for label, ref in (("floor", floor), ("naive", naive)):
            report = _reference_report(ref.log)
            fps[label] = float(report["frames"]) / float(report["seconds"])  # type: ignore[arg-type]
    per_minute = 60.0 / took
    return Window(
        precise={k: (end[k][0] - start[k][0]) * per_minute for k in measured},
        ticks={k: (end[k][1] - start[k][1]) * per_minute for k in measured},
        fps=fps, load_before=load_before, load_after=load_after)


def _report(role: str, windows: list[Window], refs: dict[str, object]) -> list[str]:
    versions = python_versions()
    print(f"\nCPU of a {SIZE} clock, role {role}: {REPETITIONS} repetitions of a "
          f"{WINDOW:.0f} s window, every process side by side")
    print(f"python {versions['python']} ({versions['executable']}), pygame "
          f"{versions['pygame']}, SDL {versions['sdl']}, driver {refs.get('driver')}; "
          f"{os.cpu_count()} cores")
    for n, w in enumerate(windows, 1):
        print(f"repetition {n}: load average {w.load_before} before, {w.load_after} after; "
              f"floor {w.fps['floor']:.2f} frames/s, naive {w.fps['naive']:.1f} frames/s")
    rows = []
    failures = []
    for label in [v.label for v in VARIANTS] + ["floor", "naive"]:
        cpu = Spread.of(w.precise[label] for w in windows)
        ticks = Spread.of(w.ticks[label] for w in windows)
        vs_floor = Spread.of(w.precise[label] / w.precise["floor"] for w in windows)
        vs_naive = Spread.of(w.precise[label] / w.precise["naive"] for w in windows)
        if label.startswith("kiosk"):
            ok_floor = vs_floor.median <= FLOOR_GOAL
            ok_naive = vs_naive.median <= NAIVE_GOAL
            verdict = "ok" if ok_floor and ok_naive else "FAIL"
            if not ok_floor:
                failures.append(f"{label}: {vs_floor.median:.2f}× the floor "
                                f"(goal <= {FLOOR_GOAL}×)")
            if not ok_naive:
                failures.append(f"{label}: 1/{1 / vs_naive.median:.0f} of naive "
                                f"(goal <= 1/{1 / NAIVE_GOAL:.0f})")
            goals = f"<= {FLOOR_GOAL}× floor, <= 1/{1 / NAIVE_GOAL:.0f} naive"
        else:
            verdict, goals = "", "reference"
        rows.append([label, cpu.format(".3f"), ticks.format(".2f"), vs_floor.format(".2f"),
                     "1/" + Spread.of(1 / v for v in vs_naive.values).format(".0f"),
                     goals, verdict])
    print(render_table(["process", "CPU s/min (clock)", "CPU s/min (stat ticks)",
                        "× floor", "of naive", "goal", ""], rows))
    print("median (min–max) of the repetitions; ratios are taken within each window")
    return failures


def _cpu_bench(role: str, tmp_path: Path, template: Path, lans: list[Lan]) -> None:
    hosts: list[Host | None] = []
    for variant in VARIANTS:
        if variant.key:
            lan = Lan()
            lans.append(lan)
            hosts.append(lan.add())
        else:
            hosts.append(None)
    windows = [_repetition(role, tmp_path / f"rep{n}", template, hosts)
               for n in range(1, REPETITIONS + 1)]
    refs = _reference_report(tmp_path / f"rep{REPETITIONS}" / "floor.log")
    failures = _report(role, windows, refs)
    # Two reads of one kernel count, whole ticks against nanoseconds: within two
    # ticks over the window (each read truncates), scaled to a minute like the figures.
    tolerance = 2 / os.sysconf("SC_CLK_TCK") * 60 / WINDOW
    for w in windows:
        for label in w.precise:
            assert abs(w.precise[label] - w.ticks[label]) <= tolerance + 0.02 * w.precise[label], (
                label, w.precise[label], w.ticks[label])
    assert not failures, "; ".join(failures)


def test_cpu_of_a_1080p_clock_on_the_display(tmp_path: Path, template: Path,
                                              lans: list[Lan]) -> None:
    _cpu_bench("display", tmp_path, template, lans)


def test_cpu_of_a_1080p_clock_on_a_table(tmp_path: Path, template: Path,
                                         lans: list[Lan]) -> None:
    _cpu_bench("table", tmp_path, template, lans)
