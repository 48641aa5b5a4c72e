"""What a ``pubpoker`` command costs the box: CPU seconds of the real process, beside bare Python.

Run with ``./dev test tests/bench/test_bench_cli.py -m bench -s``.
``PUBPOKER_BENCH_REPEATS`` (default 9) sets the rounds.

Each round runs, interleaved so that the machine's load falls on all alike:
``python -c pass``, ``pubpoker --help``, ``pubpoker tournament show`` and
``pubpoker checkin NAME`` (a new walk-in each round), the last two on
tonight's tournament (24 players at 6 tables, seats drawn, the clock started
and paused). A process's CPU is ``ru_utime + ru_stime`` from ``os.wait4``: the
kernel's count for it and all its threads. Modules run byte-compiled, as an
installed package does (into a cache of this run's, not the checkout's
``__pycache__``), after a warm-up run of each command.

Goals, on the medians: ``tournament show`` and ``checkin`` at most 0.25 CPU-s and
at most 5× bare Python; ``--help`` at most 3×.
"""

from __future__ import annotations

import os
import statistics
import subprocess
from pathlib import Path

import pytest

from tests.bench.realproc import (
    PYTHON,
    ROOT,
    environment,
    load_average,
    prepare_tournament,
    render_table,
)

pytestmark = [pytest.mark.bench, pytest.mark.timeout(900)]

REPEATS = int(os.environ.get("PUBPOKER_BENCH_REPEATS", "9"))
GOAL_CPU_S = 0.25
GOAL_RATIO = 5.0
HELP_RATIO = 3.0


def bench_env() -> dict[str, str]:
    """As the device runs: byte-compiled modules, even where the shell says not to write them."""
    env = environment()
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.setdefault("PYTHONPYCACHEPREFIX", str(Path(os.environ.get("TMPDIR", "/tmp"))
                                              / "pubpoker-bench-pycache"))
    return env


def cpu_of(argv: list[str], env: dict[str, str]) -> tuple[float, int]:
    """CPU seconds (user + system, from the kernel's rusage) and exit status of one run."""
    proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    return usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)


def test_cli_commands_cost_a_few_times_bare_python(tmp_path: Path) -> None:
    data = tmp_path / "night"
    # 6 tables of 9 seats: room for a walk-in every round after the 24 seated.
    assert 24 + 1 + REPEATS <= 6 * 9
    prepare_tournament(data, players=24, tables=6)
    env = bench_env()
    cli = [PYTHON, "-m", "kiosk.cli"]
    commands = {
        "python -c pass": lambda n: [PYTHON, "-c", "pass"],
        "pubpoker --help": lambda n: [*cli, "--help"],
        "pubpoker tournament show": lambda n: [*cli, "tournament", "show",
                                               "--data-dir", str(data)],
        "pubpoker checkin NAME": lambda n: [*cli, "checkin", "--new", f"Walk-in {n:03d}",
                                            "--data-dir", str(data)],
    }
    for argv in commands.values():  # warm-up: byte code and page cache
        cpu_of(argv(999), env)
    figures: dict[str, list[float]] = {name: [] for name in commands}
    for n in range(REPEATS):
        for name, argv in commands.items():
            cpu, status = cpu_of(argv(n), env)
            assert status == 0, (name, status)
            figures[name].append(cpu)
    bare = statistics.median(figures["python -c pass"])
    median = {name: statistics.median(values) for name, values in figures.items()}
    print()
    print(render_table(["command", "CPU s median", "min", "max", "× bare"], [
        [name, f"{median[name]:.3f}", f"{min(values):.3f}", f"{max(values):.3f}",
         f"{median[name] / bare:.1f}"] for name, values in figures.items()]))
    print(f"{REPEATS} rounds, interleaved; load {load_average()}")
    for name in ("pubpoker tournament show", "pubpoker checkin NAME"):
        assert median[name] <= GOAL_CPU_S, f"{name}: {median[name]:.3f} CPU-s"
        assert median[name] <= GOAL_RATIO * bare, f"{name}: {median[name] / bare:.1f}× bare"
    assert median["pubpoker --help"] <= HELP_RATIO * bare, (
        f"--help: {median['pubpoker --help'] / bare:.1f}× bare")
