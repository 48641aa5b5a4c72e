"""Real processes for the benchmarks that measure what ships (STYLE 14).

A kiosk here is ``pubpoker kiosk`` started as a process of its own (under
``$PUBPOKER_BENCH_PYTHON``, default this interpreter, so the same benches
run under a venv with another pygame), with SDL's dummy drivers. What the
benches read of it comes from outside:

- CPU: the kernel's count for the whole process, all threads, read twice,
  ``utime + stime`` from ``/proc/PID/stat`` (10 ms ticks) and the process's
  CPU-time clock (``clock_getcpuclockid``: the same sum the kernel keeps,
  in nanoseconds). An idle clock costs tens of milliseconds in a window of
  half a minute, where one tick is a tenth of the figure; the ticks are
  printed beside it to show both count the same;
- its store: a read-only SQLite connection (WAL: readers never block the
  kiosk), polled for the row an action makes, which is durable once a
  reader sees it (a commit is visible only after its fsync);
- its screen: its frame log (``PUBPOKER_FRAME_LOG``: a line after each frame
  shown, with the store rowid it was drawn from), the kiosk's own or, for a
  checkout without one, :mod:`tests.bench.frame_probe`'s.

Also here: the data dir prepared with the ``pubpoker`` CLI, figures as
min/median/max, percentiles and the load average.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import math
import os
import signal
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.bench.procstat import sample
from tests.sync.netns import Host

__all__ = [
    "PYTHON",
    "ROOT",
    "SIZE",
    "Arrival",
    "Frame",
    "FrameLog",
    "Kiosk",
    "Lines",
    "Process",
    "Row",
    "Spread",
    "StoreWatch",
    "cli",
    "cli_argv",
    "cpu_seconds",
    "environment",
    "load_average",
    "percentile",
    "prepare_tournament",
    "probe_needed",
    "python_versions",
    "render_table",
    "screen_observable",
    "settle",
    "stat_seconds",
    "wait",
    "wall_offset",
]

ROOT = Path(__file__).resolve().parents[2]
#: The interpreter every measured process runs under (a venv with pygame 2.1.3, say).
PYTHON = os.environ.get("PUBPOKER_BENCH_PYTHON") or sys.executable
#: The TV's size: every figure is at 1080p.
SIZE = "1920x1080"

# --- CPU ---------------------------------------------------------------------------------

_libc = ctypes.CDLL(None, use_errno=True)


def cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user + system, every thread, the exited ones too) of ``pid``, or None.

    >>> cpu_seconds(os.getpid()) > 0
    True
    """
    clock = ctypes.c_int()
    if _libc.clock_getcpuclockid(pid, ctypes.byref(clock)) != 0:
        return None
    try:
        return time.clock_gettime(clock.value)
    except OSError:
        return None


def stat_seconds(pid: int) -> float | None:
    """``utime + stime`` of ``/proc/PID/stat`` in seconds (whole ticks), or None."""
    now = sample(pid, time.monotonic())
    return None if now is None else now.cpu_s


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, as the kernel prints them."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


# --- figures -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Spread:
    """Repetitions of one figure: its min, median and max."""

    values: tuple[float, ...]

    @classmethod
    def of(cls, values: Iterable[float]) -> Spread:
        return cls(tuple(values))

    @property
    def min(self) -> float:
        return min(self.values)

    @property
    def median(self) -> float:
        return statistics.median(self.values)

    @property
    def max(self) -> float:
        return max(self.values)

    def format(self, spec: str = ".3f") -> str:
        """``median (min–max)``.

        >>> Spread.of([3.0, 1.0, 2.0]).format(".1f")
        '2.0 (1.0–3.0)'
        """
        return f"{self.median:{spec}} ({self.min:{spec}}–{self.max:{spec}})"


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank percentile (``q`` in 0..100): a value that was measured.

    >>> percentile(list(range(1, 201)), 99), percentile([5.0], 50)
    (198, 5.0)
    """
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def render_table(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A plain text table, columns as wide as their widest cell.

    >>> print(render_table(["a", "bb"], [[1, "x"]]))
    a | bb
    --+---
    1 | x
    """
    cells = [[str(h) for h in headers], *([str(c) for c in row] for row in rows)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = [" | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
             for row in cells]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(lines)


def wall_offset() -> float:
    """``time.time() - time.monotonic()`` now, to turn a wall time stored by another
    process on this machine into its monotonic time (one clock for every process)."""
    pairs = []
    for _ in range(5):
        before = time.monotonic()
        wall = time.time()
        after = time.monotonic()
        pairs.append((after - before, wall - (before + after) / 2))
    return min(pairs)[1]


# --- processes ---------------------------------------------------------------------------

def environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """What every measured process gets: this checkout first, SDL's dummy drivers."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy",
           "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    for name in ("PUBPOKER_STATUS_FILE", "PUBPOKER_FAKE_PINS", "PUBPOKER_FAKE_PINS_LOG",
                 "PUBPOKER_FRAME_LOG"):
        env.pop(name, None)
    env.update(extra or {})
    return env


def python_versions(python: str = PYTHON) -> dict[str, str]:
    """The Python, pygame and SDL the measured processes run with."""
    code = ("import json, sys, pygame; print(json.dumps({'python': sys.version.split()[0], "
            "'pygame': pygame.version.ver, "
            "'sdl': '.'.join(map(str, pygame.get_sdl_version()))}))")
    run = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True,
                         env=environment(), timeout=60)
    found: dict[str, str] = json.loads(run.stdout.strip().splitlines()[-1])
    found["executable"] = python
    return found


def cli(data_dir: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """``pubpoker ARGS --data-dir DIR``, as the TD types it on the device."""
    run = subprocess.run([PYTHON, "-m", "kiosk.cli", "--lang", "en", *args,
                          "--data-dir", str(data_dir)], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, env=environment())
    if check and run.returncode != 0:
        raise AssertionError(f"pubpoker {' '.join(args)}: {run.stderr[-2000:]}")
    return run


def cli_argv(data_dir: Path, *args: str) -> list[str]:
    return [PYTHON, "-m", "kiosk.cli", "--lang", "en", *args, "--data-dir", str(data_dir)]


def prepare_tournament(data_dir: Path, *, players: int = 24, tables: int = 3) -> None:
    """Tonight's tournament in a fresh data dir, all with the CLI: created, ``players``
    checked in, seats drawn, the clock started and paused (the kiosk resumes it)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    cli(data_dir, "tournament", "new", "--tables", str(tables))
    for n in range(1, players + 1):
        cli(data_dir, "checkin", "--new", f"Player {n:02d}")
    cli(data_dir, "seat", "draw")
    cli(data_dir, "clock", "start")
    cli(data_dir, "clock", "pause")


@dataclass
class Process:
    """One measured process; its output goes to ``log``."""

    argv: list[str]
    env: dict[str, str]
    log: Path
    proc: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0

    def start(self) -> Process:
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(self.argv, stdout=out, stderr=out, cwd=ROOT,
                                         env=self.env)
        self.started_at = time.monotonic()
        return self

    @property
    def pid(self) -> int:
        assert self.proc is not None
        # ``ip netns exec`` execs the command: the pid is the program's own.
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def check_alive(self, what: str) -> None:
        if not self.alive():
            tail = self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""
            raise AssertionError(f"{what} exited ({self.proc and self.proc.returncode}): {tail}")

    def cpu(self) -> tuple[float, float]:
        """(CPU clock seconds, /proc/PID/stat seconds) now."""
        precise, ticks = cpu_seconds(self.pid), stat_seconds(self.pid)
        if precise is None or ticks is None:
            self.check_alive(" ".join(self.argv[-6:]))
            raise AssertionError(f"no CPU figures for pid {self.pid}")
        return precise, ticks

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


def settle(processes: Sequence[Process], *, at_least: float, timeout: float = 90.0,
           idle: float = 0.08) -> None:
    """Wait until every process is ``at_least`` seconds old and used under ``idle``
    CPU seconds in the last second (its start-up is over); ``timeout`` seconds
    after they are old enough, fail."""
    deadline = time.monotonic() + at_least + timeout
    last = {id(p): p.cpu()[0] for p in processes}
    while True:
        time.sleep(1.0)
        now = {id(p): p.cpu()[0] for p in processes}
        quiet = all(now[id(p)] - last[id(p)] < idle for p in processes)
        old = all(time.monotonic() - p.started_at >= at_least for p in processes)
        if quiet and old:
            return
        if time.monotonic() > deadline:
            raise AssertionError("the processes did not settle: "
                                 + ", ".join(f"{now[id(p)] - last[id(p)]:.3f} s/s"
                                             for p in processes))
        last = now


# --- a kiosk -----------------------------------------------------------------------------

def probe_needed() -> bool:
    """Whether a kiosk must run under :mod:`tests.bench.frame_probe` for its frame log.

    ``PUBPOKER_BENCH_PROBE`` says so (1) or not (0); by default only when the
    checkout under test has no frame log of its own (``kiosk.display.framelog``,
    which writes the same lines).
    """
    choice = os.environ.get("PUBPOKER_BENCH_PROBE", "auto")
    if choice == "auto":
        return not (ROOT / "kiosk" / "display" / "framelog.py").exists()
    return choice != "0"


def screen_observable() -> str:
    """Which frame log the latency figures read, for the bench's output."""
    return ("tests.bench.frame_probe wrapping pygame.display.flip/update" if probe_needed()
            else "the kiosk's own PUBPOKER_FRAME_LOG")


@dataclass
class Kiosk:
    """``pubpoker kiosk --headless --size 1920x1080``, with a config when it has a key.

    Without a ``key`` it runs as a laptop would, ``--role ROLE --data-dir DIR``
    (no peer sync, no buttons); with one, from a ``pubpoker.toml`` in ``dir``
    (peer sync on ``eth0`` of its ``host``'s namespace, the ``pins`` on fake
    pins). ``probe`` makes it log its frames (``PUBPOKER_FRAME_LOG``), under
    :mod:`tests.bench.frame_probe` where the kiosk has no log of its own.
    """

    name: str
    dir: Path
    role: str
    key: str | None = None
    table: int | None = None
    host: Host | None = None
    pins: Mapping[str, int] = field(default_factory=dict)
    probe: bool = False
    #: More environment for the kiosk (``PUBPOKER_STATUS_FILE``, say).
    env: Mapping[str, str] = field(default_factory=dict)
    process: Process | None = None

    @property
    def data(self) -> Path:
        return self.dir / "data"

    @property
    def config(self) -> Path:
        return self.dir / "pubpoker.toml"

    @property
    def fifo(self) -> Path:
        return self.dir / "pins"

    @property
    def pins_log(self) -> Path:
        return self.dir / "pins.log"

    @property
    def frame_log(self) -> Path:
        return self.dir / "frames.log"

    def _toml(self) -> str:
        lines = ["[device]", f'role = "{self.role}"', f'name = "{self.name}"',
                 f'data_dir = "{self.data}"']
        if self.table is not None:
            lines.append(f"table = {self.table}")
        lines += ["[venue]", f'key = "{self.key}"',
                  "[display]", "sound = false", "fullscreen = false"]
        if self.host is not None:
            lines += ["[network]", 'interface = "eth0"']
        if self.pins:
            lines.append("[buttons]")
            lines += [f"{action} = {pin}" for action, pin in self.pins.items()]
        return "\n".join(lines) + "\n"

    def argv(self) -> list[str]:
        wrapped = self.probe and probe_needed()
        program = ["-m", "tests.bench.frame_probe"] if wrapped else ["-m", "kiosk.cli"]
        args = [PYTHON, *program, "kiosk", "--headless", "--size", SIZE]
        if self.key is None:
            args += ["--role", self.role, "--data-dir", str(self.data)]
        else:
            args += ["--config", str(self.config)]
        return self.host.argv(*args) if self.host is not None else args

    def start(self) -> Kiosk:
        self.dir.mkdir(parents=True, exist_ok=True)
        extra: dict[str, str] = dict(self.env)
        if self.key is not None:
            self.config.write_text(self._toml())
        if self.pins:
            extra["PUBPOKER_FAKE_PINS"] = str(self.fifo)
            extra["PUBPOKER_FAKE_PINS_LOG"] = str(self.pins_log)
        if self.probe:
            extra["PUBPOKER_FRAME_LOG"] = str(self.frame_log)
        for stale in (self.pins_log, self.frame_log):
            with contextlib.suppress(FileNotFoundError):
                stale.unlink()
        self.process = Process(self.argv(), environment(extra), self.dir / "kiosk.log").start()
        return self

    def stop(self) -> None:
        if self.process is not None:
            self.process.stop()

    def pins_write(self, line: str) -> None:
        """One command to the fake pins (see :mod:`kiosk.fake_pins`)."""
        fd = os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)
        try:
            os.write(fd, (line + "\n").encode())
        finally:
            os.close(fd)


# --- what a kiosk shows and stores -------------------------------------------------------

@dataclass(frozen=True)
class Row:
    rowid: int
    device_id: str
    seq: int
    kind: str
    received_at: float


class StoreWatch:
    """A read-only look at a kiosk's store while it runs."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / "pubpoker.db"
        self.conn: sqlite3.Connection | None = None

    def _conn(self) -> sqlite3.Connection | None:
        if self.conn is None:
            if not self.path.exists():
                return None
            self.conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True,
                                        isolation_level=None, check_same_thread=False)
            self.conn.execute("PRAGMA busy_timeout = 1000")
        return self.conn

    def rows_after(self, rowid: int, kinds: Iterable[str] | None = None) -> list[Row]:
        conn = self._conn()
        if conn is None:
            return []
        query = "SELECT rowid, device_id, seq, kind, received_at FROM events WHERE rowid > ?"
        params: list[object] = [rowid]
        wanted = list(kinds or ())
        if wanted:
            query += f" AND kind IN ({', '.join('?' * len(wanted))})"
            params += wanted
        try:
            return [Row(*r) for r in conn.execute(query + " ORDER BY rowid", params)]
        except sqlite3.OperationalError as err:
            if "no such table" in str(err) or "locked" in str(err):
                return []
            raise

    def max_rowid(self) -> int:
        conn = self._conn()
        if conn is None:
            return 0
        try:
            return int(conn.execute("SELECT COALESCE(MAX(rowid), 0) FROM events").fetchone()[0])
        except sqlite3.OperationalError:
            return 0

    def count(self) -> int:
        conn = self._conn()
        if conn is None:
            return 0
        try:
            return int(conn.execute("SELECT COUNT(*) FROM events").fetchone()[0])
        except sqlite3.OperationalError:
            return 0

    def device_id(self) -> str:
        conn = self._conn()
        assert conn is not None
        return str(conn.execute("SELECT value FROM meta WHERE key = 'device_id'").fetchone()[0])

    def clock_running(self) -> bool | None:
        """Whether the store's last clock event leaves the clock running (None: no clock)."""
        conn = self._conn()
        if conn is None:
            return None
        row = conn.execute(
            "SELECT kind FROM events WHERE kind IN ('clock-started', 'clock-paused', "
            "'clock-resumed', 'clock-restored') ORDER BY lamport DESC, device_id DESC, "
            "seq DESC LIMIT 1").fetchone()
        if row is None:
            return None
        return row[0] in ("clock-started", "clock-resumed")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


@dataclass(frozen=True)
class Frame:
    at: float
    kind: str
    rowid: int
    running: bool


class FrameLog:
    """The frames a probed kiosk showed (:mod:`tests.bench.frame_probe`), read as they come."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.frames: list[Frame] = []
        self._offset = 0
        self._pending = b""

    def read(self) -> list[Frame]:
        """Take in what was appended since the last call; return every frame so far."""
        try:
            with open(self.path, "rb") as f:
                f.seek(self._offset)
                chunk = f.read()
        except FileNotFoundError:
            return self.frames
        self._offset += len(chunk)
        *lines, self._pending = (self._pending + chunk).split(b"\n")
        for line in lines:
            at, kind, rowid, running = line.decode().split()
            self.frames.append(Frame(float(at), kind, int(rowid), running == "1"))
        return self.frames

    def first_showing(self, rowid: int, after: float = -math.inf) -> Frame | None:
        """The first frame drawn from a state with ``rowid`` folded in, after ``after``."""
        for frame in self.read():
            if frame.rowid >= rowid and frame.at >= after:
                return frame
        return None

    def has_frames(self) -> bool:
        return bool(self.read())


class Lines:
    """Lines another process appends to a file (the fake pins' log), read as they come."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._offset = 0
        self._pending = b""

    def new(self) -> list[str]:
        try:
            with open(self.path, "rb") as f:
                f.seek(self._offset)
                chunk = f.read()
        except FileNotFoundError:
            return []
        self._offset += len(chunk)
        *lines, self._pending = (self._pending + chunk).split(b"\n")
        return [line.decode() for line in lines]


class Arrival:
    """One event on its way into a kiosk's store and onto its screen, polled from outside.

    ``durable_at`` is when a read of the store first saw the row (monotonic):
    the commit came between the read before and this one, so it is late by at
    most the poll interval. ``frame`` is the first frame drawn with the row
    folded in.
    """

    def __init__(self, store: StoreWatch, frames: FrameLog | None, after_rowid: int,
                 kinds: Iterable[str], *, device_id: str | None = None) -> None:
        self.store = store
        self.frames = frames
        self.after_rowid = after_rowid
        self.kinds = tuple(kinds)
        self.device_id = device_id
        self.row: Row | None = None
        self.durable_at: float | None = None
        self.frame: Frame | None = None

    def poll(self) -> bool:
        """Look once; True when the event is both durable and on the screen."""
        if self.row is None:
            looked = time.monotonic()
            rows = [r for r in self.store.rows_after(self.after_rowid, self.kinds)
                    if self.device_id is None or r.device_id == self.device_id]
            if rows:
                self.row, self.durable_at = rows[0], looked
        if self.row is not None and self.frame is None and self.frames is not None:
            self.frame = self.frames.first_showing(self.row.rowid)
        return self.row is not None and (self.frames is None or self.frame is not None)


def wait(check: Any, timeout: float, what: str, every: float = 0.05) -> Any:
    """Poll ``check()`` until it gives something truthy; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(every)
