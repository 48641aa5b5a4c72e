"""A real ``pubpoker kiosk --headless`` serving the phones' page, and the TD's CLI beside it."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from tests.kiosk.store.helpers import ROOT, child_env

#: The night every viewer test starts from: two tables of five seats, eight players.
PLAYERS: tuple[str, ...] = ("Ada Lovelace", "Bo Ek", "Cy Twombly", "Dag Solstad",
                            "Eva Joly", "Finn Kydland", "Gro Harlem", "Hans Rask")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def pubpoker(data: Path, *argv: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "kiosk.cli", *argv, "--data-dir", str(data)],
                          cwd=ROOT, env=child_env(), capture_output=True, text=True,
                          timeout=60)
    if check:
        assert done.returncode == 0, (argv, done.stderr)
    return done


def make_night(data: Path, players: Sequence[str] = PLAYERS) -> None:
    pubpoker(data, "tournament", "new", "--name", "Fredagspoker", "--seats", "5",
             "--tables", "2")
    for name in players:
        pubpoker(data, "checkin", "--new", name)
    pubpoker(data, "seat", "draw")
    # Started and paused: the TD resumes it once the kiosk is up.
    pubpoker(data, "clock", "start")
    pubpoker(data, "clock", "pause")


def wait_http(url: str, timeout: float = 30.0) -> bytes:
    end = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                return bytes(answer.read())
        except OSError:
            if time.monotonic() > end:
                raise
            time.sleep(0.1)


def stop(process: subprocess.Popen[str]) -> None:
    """SIGTERM, and SIGKILL if it has not gone in 30 s."""
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextlib.contextmanager
def kiosk(data: Path, port: int, *, size: str = "1280x720", extra: Sequence[str] = (),
          env: Mapping[str, str] | None = None) -> Iterator[subprocess.Popen[str]]:
    """The kiosk process, serving on ``port``; ended (and its stderr checked) after."""
    env = {**child_env(), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           **(env or {})}
    env.pop("PUBPOKER_LANG", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "kiosk.cli", "kiosk", "--headless", "--size", size,
         "--data-dir", str(data), "--viewer-port", str(port), *extra],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_http(f"http://127.0.0.1:{port}/night.json")
        yield process
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
    finally:
        stop(process)
    err = process.stderr.read() if process.stderr else ""
    assert "Traceback" not in err, err
