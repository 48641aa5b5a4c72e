"""Peers as real processes (``python -m kiosk.sync.peer``) driven over stdin/stdout."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tests.sync.netns import Host

__all__ = ["Peer", "converged", "wait_for"]

ROOT = Path(__file__).resolve().parents[2]


def wait_for(check: Callable[[], Any], timeout: float, every: float = 0.05,
              what: str = "condition") -> Any:
    """Poll ``check`` until it returns something truthy; fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(every)


class Peer:
    def __init__(self, host: Host | None, data_dir: Path, role: str, key: str, *,
                 table: int | None = None, skew: float = 0.0, name: str = "",
                 extra: Sequence[str] = ()) -> None:
        self.host = host
        self.data_dir = data_dir
        self.role = role
        self.key = key
        self.table = table
        self.skew = skew
        self.name = name or role
        self.extra = list(extra)
        self.proc: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.device = ""
        self.port = 0
        self.log = data_dir / "peer.log"

    def argv(self) -> list[str]:
        cmd = [sys.executable, "-m", "kiosk.sync.peer", "--data-dir", str(self.data_dir),
               "--role", self.role, "--key", self.key, "--name", self.name,
               "--clock-skew", str(self.skew), *self.extra]
        if self.table is not None:
            cmd += ["--table", str(self.table)]
        if self.host is not None:
            cmd += ["--address", self.host.address]
            return self.host.argv(*cmd)
        return cmd

    def start(self, timeout: float = 20.0) -> Peer:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.lines = queue.Queue()
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        with open(self.log, "a") as err:
            self.proc = subprocess.Popen(self.argv(), stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=err, text=True,
                                         cwd=ROOT, env=env, bufsize=1)
        threading.Thread(target=self._read, args=(self.proc, self.lines), daemon=True).start()
        ready = self._next(timeout)
        assert ready.get("ready"), ready
        self.device, self.port = ready["device"], ready["port"]
        return self

    @staticmethod
    def _read(proc: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    def _next(self, timeout: float) -> dict[str, Any]:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"{self.name}: no answer in {timeout}s; "
                                 f"log: {self.log.read_text()[-2000:]}") from None
        if line is None:
            raise AssertionError(f"{self.name} exited; log: {self.log.read_text()[-3000:]}")
        result: dict[str, Any] = json.loads(line)
        return result

    def ask(self, op: str, timeout: float = 20.0, **fields: Any) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"op": op, **fields}) + "\n")
        self.proc.stdin.flush()
        return self._next(timeout)

    def submit(self, cmd: str, **args: Any) -> dict[str, Any]:
        return self.ask("submit", cmd=cmd, args=args)

    def digest(self) -> dict[str, Any]:
        return self.ask("digest")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write('{"op": "quit"}\n')
            self.proc.stdin.close()
            self.proc.wait(15)
        except (OSError, subprocess.TimeoutExpired, ValueError):
            self.kill()


def converged(peers: Sequence[Peer], count: int | None = None) -> dict[str, Any] | None:
    """The common digest answer if every peer has the same log and state, else None."""
    answers = [p.digest() for p in peers]
    first = answers[0]
    if not first["digests"]:
        return None
    if count is not None and first["count"] != count:
        return None
    for other in answers[1:]:
        if other["digests"] != first["digests"] or other["vector"] != first["vector"]:
            return None
    return first
