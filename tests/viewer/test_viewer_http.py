"""The phones' server as a phone, a browser and a vandal see it: a real kiosk process.

Read-only (GET only, others 405), nothing secret in what it serves, and no
request however broken takes it down or stops it pushing.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import sqlite3
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.viewer.realkiosk import free_port, kiosk, make_night, pubpoker, wait_http

pytestmark = pytest.mark.slow

CARD = "0A1B2C3D4E"


def _send(port: int, payload: bytes, *, wait: float = 0.5) -> bytes:
    """Raw bytes to the server; whatever comes back before it closes (or ``wait``)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        with contextlib.suppress(OSError):
            sock.sendall(payload)
        sock.settimeout(wait)
        got = b""
        with contextlib.suppress(OSError):
            while chunk := sock.recv(65536):
                got += chunk
        return got


def _status(port: int, method: str, path: str = "/") -> int:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                     data=b"x" if method in ("POST", "PUT") else None)
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as err:
        return int(err.code)


def test_the_page_is_read_only_and_tells_nothing_the_wall_does_not(tmp_path: Path) -> None:
    data = tmp_path / "data"
    make_night(data)
    pubpoker(data, "players", "link-card", "Ada Lovelace", CARD)
    port = free_port()
    with kiosk(data, port):
        base = f"http://127.0.0.1:{port}"
        page = wait_http(base + "/").decode()
        assert "<script src=\"/app.js\">" in page and "http" not in page.split("<body>")[1]
        for path in ("/app.js", "/style.css"):
            assert wait_http(base + path)
        # Nothing but the page: no CDN, no other host anywhere in what it loads.
        for path in ("/", "/app.js", "/style.css"):
            body = wait_http(base + path).decode()
            assert not re.search(r"https?://|[\"'(]//|@import", body), path
        assert _status(port, "GET", "/nothing-here") == 404
        for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"):
            assert _status(port, method, "/night.json") == 405, method
        text = wait_http(base + "/night.json").decode()
        night = json.loads(text)
        assert night["tournament"] and len(night["seats"]) == 8
        with contextlib.closing(sqlite3.connect(data / "pubpoker.db")) as db:
            device = db.execute("SELECT value FROM meta WHERE key = 'device_id'").fetchone()
            player_ids = [r[0] for r in db.execute("SELECT id FROM players")]
        assert device and device[0] not in text
        assert player_ids and not [p for p in player_ids if p in text]
        assert CARD not in text and CARD.lower() not in text.lower()
        assert "card" not in text.lower()


GARBAGE: tuple[bytes, ...] = (
    os.urandom(4096),
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + os.urandom(200),  # a TLS hello
    b"GET / HTTP/9.9\r\n\r\n",
    b"GET\r\n\r\n",
    b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\n\r\n",
    b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(300)) + b"\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nX: " + b"b" * 20000 + b"\r\n\r\n",
    b"POST /night.json HTTP/1.1\r\nContent-Length: 100000\r\n\r\n" + b"z" * 5000,
    b"GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nffffffff\r\n",
    b"GET /live HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: nope\r\nSec-WebSocket-Version: 13\r\n\r\n",
    b"GET /live HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    + os.urandom(3000),
    b"GET /%00%ff/../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
    "GET /ø HTTP/1.1\r\n\r\n".encode(),
    b"\r\n" * 5000,
    b"",
)


def test_garbage_never_takes_the_server_down_and_phones_go_on_being_told(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    make_night(data)
    port = free_port()
    with kiosk(data, port) as process:
        with connect(f"ws://127.0.0.1:{port}/live", open_timeout=5) as phone:
            assert json.loads(phone.recv(timeout=5))["tournament"]
            for payload in GARBAGE:
                answer = _send(port, payload)
                assert not answer or answer.startswith(b"HTTP/1.1 "), answer[:80]
            assert _send(port, b"GET /etc/passwd HTTP/1.1\r\n\r\n").startswith(
                b"HTTP/1.1 404")
            # A phone that talks too much is cut off; the others are not.
            with connect(f"ws://127.0.0.1:{port}/live", open_timeout=5) as chatty:
                chatty.recv(timeout=5)
                chatty.send("x" * 10000)
                with pytest.raises(ConnectionClosed):
                    for _ in range(5):
                        chatty.recv(timeout=5)
            # Half-open connections that never finish a request are let go.
            idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(20)]
            for sock in idle:
                sock.sendall(b"GET / HTTP/1.1\r\n")
            pubpoker(data, "bust", "Hans Rask")
            end = time.monotonic() + 5
            while True:
                message = phone.recv(timeout=5)
                if "Hans Rask" in message:
                    break
                assert time.monotonic() < end
            for sock in idle:
                sock.close()
        assert process.poll() is None
        assert json.loads(wait_http(f"http://127.0.0.1:{port}/night.json"))["remaining"] == 7
