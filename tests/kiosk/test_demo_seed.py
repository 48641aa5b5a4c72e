"""``pubpoker demo --seed N``: the same seed gives the same night, event for event.

Real ``pubpoker demo`` processes, each in its own data dir, are compared by
their whole event log as the store holds it: every column of every row of
``events``, in insertion order. Nothing is left out: the device id, the
player ids, the event times and ``received_at`` (the store's wall clock) all
come from the seed and the demo's simulated time. The runs differ in what
must not matter (the window size, Python's string hash seed, the speed, a
window paced by the real clock instead of headless fast-forward) and, as a
check that the comparison can fail, in the seed.

The digests are printed (``pytest -s``): ``python -m kiosk.demo.digest DIR``
prints the same one for a data dir.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

# Its fixture runs four whole demo nights as real processes: ten seconds.
pytestmark = pytest.mark.realproc

#: Every column of the log; ``rowid`` first, so the order is compared too.
_COLUMNS = ("rowid, device_id, seq, lamport, tournament_id, kind, payload, mac, received_at,"
            " unreadable")

#: name → (extra arguments, PYTHONHASHSEED); every run plays the default seed unless told.
_RUNS: dict[str, tuple[tuple[str, ...], str]] = {
    "720p": (("--headless", "--until-finished", "--size", "1280x720"), "1"),
    "1080p": (("--headless", "--until-finished", "--size", "1920x1080"), "2"),
    # Not headless: SDL's dummy window, the night paced by the real clock
    # (several steps in a slow frame), at another speed.
    "1080p window, --speed 2000": (
        ("--until-finished", "--size", "1920x1080", "--speed", "2000", "--no-sound"), "3"),
    "720p, --seed 2027": (("--headless", "--until-finished", "--size", "1280x720",
                           "--seed", "2027"), "1"),
}


def _log_rows(data_dir: Path) -> list[str]:
    """The events table as canonical JSON lines, in insertion order."""
    conn = sqlite3.connect(data_dir / "pubpoker.db")
    try:
        rows = conn.execute(f"SELECT {_COLUMNS} FROM events ORDER BY rowid").fetchall()
    finally:
        conn.close()
    # json.dumps writes floats by repr, which round-trips: equal text, equal values.
    return [json.dumps(list(row), ensure_ascii=False, separators=(",", ":")) for row in rows]


def _digest(rows: list[str]) -> str:
    return hashlib.sha256("".join(f"{r}\n" for r in rows).encode()).hexdigest()


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """The four nights, played side by side, each by its own ``pubpoker demo``."""
    root = tmp_path_factory.mktemp("demo-seed")
    started = time.monotonic()
    processes = {}
    for i, (name, (extra, hash_seed)) in enumerate(_RUNS.items()):
        args = [sys.executable, "-m", "kiosk.cli", "demo", *extra,
                "--data-dir", str(root / f"run{i}")]
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
               "PYTHONHASHSEED": hash_seed}
        processes[name] = (i, args, subprocess.Popen(
            args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    out: dict[str, list[str]] = {}
    for name, (i, args, process) in processes.items():
        _, err = process.communicate(timeout=280)
        assert process.returncode == 0, f"{name}: {' '.join(args)}\n{err[-2000:]}"
        out[name] = _log_rows(root / f"run{i}")
    print(f"\n{len(out)} demo nights in {time.monotonic() - started:.1f} s")
    for name, rows in out.items():
        print(f"{name}: {len(rows)} events, sha256 {_digest(rows)}")
    return out


def _assert_same(logs: dict[str, list[str]], a: str, b: str) -> None:
    first, other = logs[a], logs[b]
    diverged = next((i for i, (x, y) in enumerate(zip(first, other, strict=False)) if x != y),
                    min(len(first), len(other)))
    assert other == first, (
        f"{a} and {b} differ ({len(first)} and {len(other)} events) from row {diverged}:\n"
        f"{first[diverged][:400] if diverged < len(first) else '(none)'}\n"
        f"{other[diverged][:400] if diverged < len(other) else '(none)'}")


def test_the_same_seed_gives_the_same_log_at_720p_and_1080p(
        logs: dict[str, list[str]]) -> None:
    assert len(logs["720p"]) > 400
    _assert_same(logs, "720p", "1080p")
    assert _digest(logs["720p"]) == _digest(logs["1080p"])


def test_a_window_paced_by_the_real_clock_writes_the_same_log(
        logs: dict[str, list[str]]) -> None:
    _assert_same(logs, "720p", "1080p window, --speed 2000")


def test_another_seed_gives_another_log(logs: dict[str, list[str]]) -> None:
    other = logs["720p, --seed 2027"]
    assert _digest(other) != _digest(logs["720p"])
    # Another night, not only other ids: the hands and busts went differently.
    kinds = [json.loads(row)[5] for row in other]
    assert kinds != [json.loads(row)[5] for row in logs["720p"]]
