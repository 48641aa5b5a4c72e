"""A hostile client for the security tests: ``python -m tests.sync.attacker MODE URI KEY``.

Runs inside a test namespace and connects to one peer. Modes:
``forged-mac`` (frames signed with a made-up MAC), ``replay`` (a genuine
frame sent twice, and again on a second link), ``big`` (a 10 MiB frame),
``garbage`` (random bytes), ``forged-event`` (genuine frames carrying an
event whose seal is wrong), ``role-claim`` (an event sealed under another role
than the hello's). Prints one JSON line saying what it sent.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sys
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from kiosk.sync.auth import event_seal, frame_mac, parse_key, session_id
from kiosk.sync.frames import PROTOCOL, decode_frame, encode_frame
from rules.events import PlayerCheckedIn, event_to_json


def make(key: bytes, kind: str, counter: int, session: str, **fields: Any) -> str:
    frame: dict[str, Any] = {"v": PROTOCOL, "t": kind, "c": counter,
                             "n": secrets.token_hex(16), "s": session, **fields}
    frame["mac"] = frame_mac(key, frame)
    return encode_frame(frame)


def hello(key: bytes, challenge: str, device: str = "intruder") -> str:
    return make(key, "hello", 1, "", proto=PROTOCOL, device=device, role="console",
                table=None, name="intruder", tournament=None, challenge=challenge)


def handshake(ws: ClientConnection, key: bytes) -> str:
    mine = secrets.token_hex(16)
    ws.send(hello(key, mine))
    theirs = decode_frame(ws.recv(timeout=5))
    return session_id(mine, theirs["challenge"])


def open_link(uri: str) -> ClientConnection:
    return connect(uri, max_size=None, compression=None, proxy=None, open_timeout=5)


def send(ws: ClientConnection, frame: str | bytes) -> None:
    """Send, unless the victim already hung up on us (a fair answer to an attack)."""
    with contextlib.suppress(ConnectionClosed):
        ws.send(frame)


def drain(ws: ClientConnection, seconds: float = 0.5) -> None:
    try:
        while True:
            ws.recv(timeout=seconds)
    except (TimeoutError, ConnectionClosed):
        pass


def main(mode: str, uri: str, key_hex: str) -> dict[str, Any]:
    key = parse_key(key_hex)
    sent = 0
    if mode == "forged-mac":
        with open_link(uri) as ws:
            text = hello(key, secrets.token_hex(16))
            data = json.loads(text)
            data["mac"] = secrets.token_hex(32)
            send(ws, encode_frame(data))
            send(ws, make(secrets.token_bytes(32), "have", 2, "", vector={}, digest=""))
            sent = 2
            drain(ws)
    elif mode == "replay":
        with open_link(uri) as ws:
            session = handshake(ws, key)
            genuine = make(key, "have", 2, session, vector={}, digest="")
            send(ws, genuine)
            send(ws, genuine)  # the same counter and nonce again
            drain(ws)
        # Played back later on a new link. (Not while the first is open: the
        # victim keeps one link per device and may drop the newer one unread.)
        with open_link(uri) as other:
            handshake(other, key)
            send(other, genuine)  # a genuine frame of another link
            drain(other)
        sent = 2
    elif mode == "big":
        with open_link(uri) as ws:
            try:
                send(ws, "x" * (10 * 1024 * 1024))
                drain(ws, 2.0)
            except ConnectionClosed:
                pass
            sent = 1
    elif mode == "garbage":
        with open_link(uri) as ws:
            for _ in range(20):
                send(ws, os.urandom(200))
            send(ws, "{not json")
            drain(ws)
            sent = 21
    elif mode == "forged-event":
        with open_link(uri) as ws:
            session = handshake(ws, key)
            payload = event_to_json(PlayerCheckedIn(at=1.0, player_id="ghost"))
            seal = event_seal(key, "intruder", 1, 999, "main", payload, role="console",
                              table=None)
            forged = seal[:-4] + ("0000" if not seal.endswith("0000") else "1111")
            send(ws, make(key, "events", 2, session,
                         events=[["intruder", 1, 999, "main", payload, forged]], more=False))
            sent = 1
            drain(ws)
    elif mode == "role-claim":
        with open_link(uri) as ws:
            session = handshake(ws, key)  # the hello says "console"
            payload = event_to_json(PlayerCheckedIn(at=1.0, player_id="ghost"))
            seal = event_seal(key, "intruder", 1, 999, "main", payload, role="table", table=1)
            send(ws, make(key, "events", 2, session,
                         events=[["intruder", 1, 999, "main", payload, seal]], more=False))
            sent = 1
            drain(ws)
    else:
        raise SystemExit(f"unknown mode {mode}")
    return {"mode": mode, "sent": sent}


if __name__ == "__main__":
    print(json.dumps(main(*sys.argv[1:4])), flush=True)
