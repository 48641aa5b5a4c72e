"""A real kiosk serving the phones' page, and what a flood against it is judged by.

The kiosk runs headless with a status file (``PUBPOKER_STATUS_FILE``); the
judges are what a pub would notice: its memory (``VmRSS`` from
``/proc/PID/status``), how long a TD's command takes to reach the wall (the
status file), and whether a real phone (from an address of its own,
127.0.0.2, not the flooder's 127.0.0.1) still gets the page. Everything here
goes to loopback only.
"""

from __future__ import annotations

import base64
import contextlib
import http.client
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.kiosk.store.helpers import ROOT, child_env
from tests.sync.harness import wait_for
from tests.viewer.realkiosk import free_port, pubpoker, stop, wait_http

#: The flooder's address and a real phone's (all of 127/8 is loopback on Linux).
FLOODER, PHONE = "127.0.0.1", "127.0.0.2"


@dataclass
class Kiosk:
    process: subprocess.Popen[bytes]
    data: Path
    port: int
    status_path: Path
    log_path: Path
    #: Why each GET of the last :meth:`phone_gets` that was not served was not.
    missed: list[str] = field(default_factory=list)
    #: The longest a GET of the last :meth:`phone_gets` took, served or not (seconds).
    slowest: float = 0.0

    def status(self) -> dict[str, Any]:
        try:
            return dict(json.loads(self.status_path.read_text()))
        except (OSError, ValueError):
            return {}

    def viewer(self) -> dict[str, Any]:
        return dict(self.status().get("viewer") or {})

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise AssertionError("no VmRSS")

    def command_to_screen(self, *argv: str, shows: Any) -> float:
        """Seconds from the TD's command returning to the wall's status file showing it."""
        pubpoker(self.data, *argv)
        start = time.monotonic()
        wait_for(lambda: shows(self.status()), 30, every=0.02, what=f"{argv} on the wall")
        return time.monotonic() - start

    def phone_gets(self, count: int = 30, timeout: float = 3.0) -> int:
        """GETs of /night.json a phone at :data:`PHONE` had answered 200, of ``count``."""
        served = 0
        self.missed.clear()
        self.slowest = 0.0
        for _ in range(count):
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout,
                                              source_address=(PHONE, 0))
            began = time.monotonic()
            try:
                conn.request("GET", "/night.json")
                answer = conn.getresponse()
                if answer.status == 200 and json.loads(answer.read())["tournament"]:
                    served += 1
                else:
                    self.missed.append(f"status {answer.status}")
            except (OSError, ValueError, http.client.HTTPException) as err:
                self.missed.append(f"{err!r} after {time.monotonic() - began:.2f} s")
            finally:
                conn.close()
                self.slowest = max(self.slowest, time.monotonic() - began)
        return served


def resumed(status: dict[str, Any]) -> bool:
    return (status.get("clock") or {}).get("running") is True


def paused(status: dict[str, Any]) -> bool:
    return (status.get("clock") or {}).get("running") is False


@contextlib.contextmanager
def real_kiosk(tmp_path: Path) -> Iterator[Kiosk]:
    """``pubpoker kiosk --headless`` on a night made by ``make_night`` (clock paused)."""
    data = tmp_path / "data"
    status, log_path = tmp_path / "status.json", tmp_path / "kiosk.log"
    port = free_port()
    env = {**child_env(), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "PUBPOKER_STATUS_FILE": str(status)}
    env.pop("PUBPOKER_LANG", None)
    with log_path.open("w") as log_file:
        process = subprocess.Popen(
            [sys.executable, "-m", "kiosk.cli", "kiosk", "--headless", "--size", "1280x720",
             "--data-dir", str(data), "--viewer-port", str(port)],
            cwd=ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT)
    kiosk = Kiosk(process, data, port, status, log_path)
    try:
        wait_http(f"http://127.0.0.1:{port}/night.json")
        wait_for(lambda: kiosk.status().get("ports", {}).get("viewer") == port, 15,
                 what="the status file")
        yield kiosk
        assert process.poll() is None, "the kiosk died"
    finally:
        stop(process)  # type: ignore[arg-type]
    text = log_path.read_text(errors="replace")
    assert "Traceback" not in text, text[-3000:]


def upgrade(port: int, *, rcvbuf: int | None = None, timeout: float = 5.0) -> socket.socket:
    """A raw socket from :data:`FLOODER` that has opened ``/live`` (the 101 read, nothing more)."""
    sock = socket.socket()
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(timeout)
    sock.bind((FLOODER, 0))
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /live HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        got = sock.recv(1)  # a byte at a time: not one byte past the headers
        if not got:
            raise ConnectionError("closed during the handshake")
        head += got
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def ping_frames(count: int) -> bytes:
    """``count`` masked pings of 125 bytes each (the largest a control frame may be)."""
    mask = os.urandom(4)
    payload = bytes(b ^ mask[i % 4] for i, b in enumerate(b"p" * 125))
    return (b"\x89" + bytes([0x80 | 125]) + mask + payload) * count


#: ``tcpi_state`` of a connection that is over (reset, or closed both ways).
TCP_CLOSE = 7


def tcp_state(sock: socket.socket) -> int:
    """The kernel's state of ``sock`` (``struct tcp_info``'s first byte)."""
    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0]
