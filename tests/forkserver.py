"""``pubpoker`` commands for the tests, each its own process, forked warm.

The nights type about a thousand commands each and the CLI's tests a few
hundred, and each ``python -m kiosk.cli`` spent 0.1 CPU-s importing Python and
the CLI before its first line of work: a third of the suite's CPU, with the VMs
beside it on two cores. So a :class:`ForkServer` is a Python that has imported
the CLI's modules once and then forks a child for each command. The child is a
process of its own, as ``pubpoker`` is: it takes the command's argv,
environment and working directory, writes its stdout and stderr to files, runs
:func:`kiosk.cli.main` exactly as ``python -m kiosk.cli`` does, and exits
through the interpreter's own shutdown; the server hands back its exit status.
Only the imports are shared (and the hash seed), and none of them reads the
environment when imported: the commands read it when they run.

What this does not cover, the command started cold (its entry point, its lazy
imports, its start-up time), the README's commands, the CLI's other tests (its
parser, its JSON, its fuzzing, ...) and every kiosk do: they run ``pubpoker`` or
``python -m kiosk.cli`` cold.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: What the nights' commands import, loaded once in the server. Anything else a
#: command needs it imports itself, as it would cold.
PRELOAD = ("kiosk.cli", "kiosk.cli.td_cmd", "kiosk.cli.standings_cmd", "kiosk.cli.export_cmd",
           "kiosk.cli.players_cmd", "kiosk.cli.table_cmd", "kiosk.cli.undo_cmd",
           "kiosk.cli.results_cmd", "kiosk.store", "rules.fold", "sqlite3", "csv", "json")


class Forked:
    """One command's process, as :class:`subprocess.Popen` is to the caller."""

    def __init__(self, conn: socket.socket, out: Path, err: Path) -> None:
        self._conn = conn
        self._out = out
        self._err = err
        self.returncode: int | None = None

    def communicate(self, timeout: float) -> tuple[str, str]:
        self._conn.settimeout(timeout)
        reply = b""
        try:
            while not reply.endswith(b"\n"):
                chunk = self._conn.recv(4096)
                if not chunk:
                    raise RuntimeError("the fork server closed the command's connection")
                reply += chunk
        finally:
            self._conn.close()
        self.returncode = int(json.loads(reply)["code"])
        try:
            return (self._out.read_text(encoding="utf-8"),
                    self._err.read_text(encoding="utf-8"))
        finally:
            self._out.unlink(missing_ok=True)
            self._err.unlink(missing_ok=True)


#: The long-lived children running now, for :func:`live_cpu`.
_LIVE: set[LiveChild] = set()


def live_cpu() -> float:
    """The CPU-s of the long-lived children still running and of those they reaped.

    The suite counts each test's CPU as its own and its reaped children's. A
    child that runs on across tests (a fork server, whose commands it reaps
    itself; a VM's QEMU) would count all at once in the test that reaps it, so
    while it runs its CPU is read from /proc instead, where it is spent.
    """
    return sum(child.cpu() for child in list(_LIVE))


class LiveChild:
    """A child process whose CPU counts in :func:`live_cpu` until it is reaped (then
    it counts among the reaped children's, and here no more)."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        _LIVE.add(self)

    def cpu(self) -> float:
        """Its CPU-s and its reaped children's; 0 once reaped."""
        if self.proc.returncode is not None:
            _LIVE.discard(self)
            return 0.0
        try:
            with open(f"/proc/{self.proc.pid}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        # utime, stime, cutime, cstime: fields 14-17 of proc(5), after pid and comm.
        return sum(int(v) for v in fields[11:15]) / os.sysconf("SC_CLK_TCK")


class ForkServer:
    """A warm Python forking one process per ``pubpoker`` command."""

    def __init__(self, base: Path, env: dict[str, str], cwd: Path) -> None:
        self.base = base
        self.path = base / "forkserver.sock"
        self.path.unlink(missing_ok=True)
        # stdin is the server's lifeline: it exits when this end closes.
        with open(base / "forkserver.log", "ab") as log:
            self.proc = subprocess.Popen([sys.executable, "-m", "tests.forkserver",
                                          str(self.path)], env=env, cwd=cwd,
                                         stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                         stderr=log)
        deadline = time.monotonic() + 60
        while not self._ready():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                log = (base / "forkserver.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"the fork server did not start: {log}")
            time.sleep(0.02)
        LiveChild(self.proc)

    def _ready(self) -> bool:
        with socket.socket(socket.AF_UNIX) as sock:
            try:
                sock.connect(str(self.path))
            except (FileNotFoundError, ConnectionRefusedError):
                return False
            sock.sendall(b"{}\n")  # a probe: the server answers and forks nothing
            return sock.recv(64).startswith(b"{")

    def spawn(self, argv: list[str], env: dict[str, str], cwd: Path) -> Forked:
        fd, out = tempfile.mkstemp(prefix="out.", dir=self.base)
        os.close(fd)
        fd, err = tempfile.mkstemp(prefix="err.", dir=self.base)
        os.close(fd)
        conn = socket.socket(socket.AF_UNIX)
        conn.connect(str(self.path))
        request = {"argv": argv, "env": env, "cwd": str(cwd), "out": out, "err": err}
        conn.sendall(json.dumps(request).encode() + b"\n")
        return Forked(conn, Path(out), Path(err))

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# --- the server's side ------------------------------------------------------------------


def _child(request: dict[str, object]) -> None:
    """In the forked child: become the command, run it, exit as it would."""
    os.chdir(str(request["cwd"]))
    env = request["env"]
    assert isinstance(env, dict)
    os.environ.clear()
    os.environ.update(env)
    time.tzset()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    for fd, path in ((1, request["out"]), (2, request["err"])):
        target = os.open(str(path), os.O_WRONLY | os.O_TRUNC)
        os.dup2(target, fd)
        os.close(target)
    os.close(null)
    argv = request["argv"]
    assert isinstance(argv, list)
    sys.argv = [str(Path(sys.modules["kiosk.cli"].__file__ or "").with_name("__main__.py")),
                *map(str, argv)]
    from kiosk.cli import main

    raise SystemExit(main())


def serve(path: str) -> None:
    for name in PRELOAD:
        importlib.import_module(name)
    # What the imports made stays as it is: the children's collections need not walk
    # it (nor copy each page they would touch doing so).
    gc.freeze()
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(path)
    listener.listen(64)
    wake_r, wake_w = socket.socketpair()
    wake_w.setblocking(False)
    signal.set_wakeup_fd(wake_w.fileno())
    signal.signal(signal.SIGCHLD, lambda *_: None)
    waiting: dict[int, socket.socket] = {}
    pending: dict[socket.socket, bytes] = {}
    while True:
        ready, _, _ = select.select([sys.stdin, listener, wake_r, *pending], [], [])
        if sys.stdin in ready and not os.read(sys.stdin.fileno(), 4096):
            return  # the night is over
        if wake_r in ready:
            with contextlib.suppress(BlockingIOError):
                wake_r.recv(4096)
        if listener in ready:
            conn, _ = listener.accept()
            pending[conn] = b""
        for conn in [c for c in pending if c in ready]:
            chunk = conn.recv(1 << 20)
            pending[conn] += chunk
            if chunk and not pending[conn].endswith(b"\n"):
                continue
            try:
                request = json.loads(pending.pop(conn) or b"{}")
            except ValueError:
                request = {}  # a caller gone mid-request: nothing to run
            if not request:
                with contextlib.suppress(OSError):
                    conn.sendall(b"{}\n")
                conn.close()
                continue
            pid = os.fork()
            if pid == 0:
                listener.close()
                signal.set_wakeup_fd(-1)
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                for other in (wake_r, wake_w, conn, *pending, *waiting.values()):
                    other.close()
                _child(request)
            waiting[pid] = conn
        while waiting:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            conn = waiting.pop(pid)
            with contextlib.suppress(OSError):
                conn.sendall(json.dumps({"code": os.waitstatus_to_exitcode(status)}).encode()
                             + b"\n")
            conn.close()


if __name__ == "__main__":
    serve(sys.argv[1])
