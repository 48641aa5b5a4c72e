"""sd_notify: READY=1 then periodic WATCHDOG=1 reach a fake $NOTIFY_SOCKET."""

from __future__ import annotations

import itertools
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk import sdnotify
from kiosk.sdnotify import Watchdog, notify, watchdog_interval

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def notify_socket(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    """A datagram socket bound where systemd's would be."""
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(10.0)
    try:
        yield sock, path
    finally:
        sock.close()


def test_nothing_happens_without_notify_socket() -> None:
    env: dict[str, str] = {}
    assert notify("READY=1", env=env) is False
    assert sdnotify.ready(env=env) is False
    assert sdnotify.watchdog(env=env) is False
    assert sdnotify.status("hello", env=env) is False
    assert watchdog_interval(env=env) is None


def test_messages_reach_the_socket(notify_socket: tuple[socket.socket, str]) -> None:
    sock, path = notify_socket
    env = {"NOTIFY_SOCKET": path}
    assert sdnotify.ready(env=env)
    assert sdnotify.status("Venter på\nTV", env=env)
    assert sdnotify.watchdog(env=env)
    assert sdnotify.stopping(env=env)
    got = [sock.recv(4096) for _ in range(4)]
    assert got == [b"READY=1", "STATUS=Venter på TV".encode(), b"WATCHDOG=1", b"STOPPING=1"]


def test_ready_carries_its_status_in_the_same_datagram(
        notify_socket: tuple[socket.socket, str]) -> None:
    # One datagram: systemctl never shows the kiosk started under the old status.
    sock, path = notify_socket
    assert sdnotify.ready("Waiting for a display:\nno connectors", env={"NOTIFY_SOCKET": path})
    assert sock.recv(4096) == b"READY=1\nSTATUS=Waiting for a display: no connectors"


def test_abstract_namespace_socket() -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("abstract sockets are Linux-only")
    name = f"pubpoker-test-{os.getpid()}-{time.monotonic_ns()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(5.0)
        assert notify("READY=1", env={"NOTIFY_SOCKET": "@" + name})
        assert sock.recv(64) == b"READY=1"


def test_unreachable_socket_is_not_an_error(tmp_path: Path) -> None:
    assert notify("READY=1", env={"NOTIFY_SOCKET": str(tmp_path / "gone")}) is False
    assert notify("READY=1", env={"NOTIFY_SOCKET": "relative/path"}) is False


def test_watchdog_interval_and_pid() -> None:
    assert watchdog_interval(env={"WATCHDOG_USEC": "30000000"}) == 30.0
    mine = {"WATCHDOG_USEC": "2000000", "WATCHDOG_PID": str(os.getpid())}
    assert watchdog_interval(env=mine) == 2.0
    other = {"WATCHDOG_USEC": "2000000", "WATCHDOG_PID": str(os.getpid() + 1)}
    assert watchdog_interval(env=other) is None
    assert watchdog_interval(env={"WATCHDOG_USEC": "0"}) is None


def test_watchdog_pings_at_most_every_half_interval() -> None:
    sent: list[float] = []
    now = 0.0

    def send() -> bool:
        sent.append(now)
        return True

    dog = Watchdog(4.0, send=send)
    while now <= 10.0:
        dog.tick(now)
        now = round(now + 0.1, 1)
    assert sent == [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
    assert not Watchdog.from_env({}).enabled


LOOP = """
import time
from kiosk import sdnotify
from kiosk.sdnotify import Watchdog

dog = Watchdog.from_env()
assert dog.interval is not None, "no watchdog armed"
sdnotify.ready()
end = time.monotonic() + 3.0
while time.monotonic() < end:  # the kiosk loop: wait for events, draw, tick
    dog.tick(time.monotonic())
    time.sleep(0.01)
sdnotify.stopping()
"""


@pytest.mark.realproc
def test_running_process_sends_ready_then_periodic_watchdog(
    notify_socket: tuple[socket.socket, str],
) -> None:
    sock, path = notify_socket
    env = dict(os.environ)
    env.update(NOTIFY_SOCKET=path, WATCHDOG_USEC="1000000", PYTHONPATH=str(REPO))
    # systemd sets WATCHDOG_PID to the main process; the child checks it is itself.
    env.pop("WATCHDOG_PID", None)
    proc = subprocess.Popen([sys.executable, "-c", LOOP], env=env)
    try:
        messages: list[tuple[float, bytes]] = []
        while True:
            data = sock.recv(4096)
            messages.append((time.monotonic(), data))
            if data == b"STOPPING=1":
                break
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    kinds = [data for _, data in messages]
    assert kinds[0] == b"READY=1"
    assert kinds[-1] == b"STOPPING=1"
    pings = [t for t, data in messages if data == b"WATCHDOG=1"]
    # 3 s at one ping per 0.5 s (half of 1 s): about 6, never a flood.
    assert 4 <= len(pings) <= 7, kinds
    gaps = [b - a for a, b in itertools.pairwise(pings)]
    # Never faster than half the interval, and always inside it (or systemd kills).
    assert min(gaps) >= 0.45 and max(gaps) < 1.0, gaps
