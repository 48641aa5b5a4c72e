"""One authenticated peer link over a websocket, in the sync loop.

Both ends send a signed ``hello`` at once, each with a fresh random
challenge. Every later frame carries the session id made from both
challenges, a random nonce and a counter that rises by one per frame sent.
A frame is read only if its MAC is right, then only if its counter is above
the last one seen on this link and its nonce is new, then only if its
session is this link's: so nothing recorded on one link or earlier on this
one is accepted again. Whatever fails is dropped and counted, and the link
goes on.

The first genuine frame after the hellos proves the peer holds the key and
is live (it is bound to this end's fresh challenge): ``on_proven`` hears of
it, before the frame is handled, and may end the link there (one per peer).
"""

from __future__ import annotations

import asyncio
import hmac
import itertools
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from websockets.exceptions import ConnectionClosed

from kiosk.sync.auth import ReplayGuard, frame_mac, session_id
from kiosk.sync.frames import PROTOCOL, Frame, FrameError, FrameType, decode_frame, encode_frame
from kiosk.sync.stats import Drop, SyncStats
from rules.records import RecordMethods, record

__all__ = ["Identity", "Link", "PeerInfo", "Socket"]

log = logging.getLogger(__name__)

_ids = itertools.count(1)


class Socket(Protocol):
    """The part of a websockets connection a link uses."""

    async def send(self, message: str) -> None: ...
    async def recv(self) -> str | bytes: ...
    async def close(self, code: int = 1000, reason: str = "") -> None: ...


@record
class Identity(RecordMethods):
    """Who this device is, as it says in its signed hello."""

    device_id: str
    role: str
    table: int | None = None
    name: str = ""


@record
class PeerInfo(RecordMethods):
    device_id: str
    role: str
    table: int | None
    name: str
    tournament: str | None


class Link:
    def __init__(self, ws: Socket, *, key: bytes, me: Identity, dialer: bool,
                 stats: SyncStats, tournament: Callable[[], str | None],
                 on_open: Callable[[Link], Awaitable[None]],
                 on_frame: Callable[[Link, Frame], Awaitable[None]],
                 on_proven: Callable[[Link], bool] | None = None) -> None:
        self.id = next(_ids)
        self.ws = ws
        self.key = key
        self.me = me
        self.dialer = dialer
        self.stats = stats
        self._tournament = tournament
        self._on_open = on_open
        self._on_frame = on_frame
        self._on_proven = on_proven
        self.peer: PeerInfo | None = None
        self.session: str | None = None
        self._challenge = secrets.token_hex(16)
        self._counter = 0
        self._guard = ReplayGuard()
        self._send_lock = asyncio.Lock()
        self.closed = asyncio.Event()
        #: True once the peer sent a frame bound to this link's session: a
        #: replayed hello alone opens nothing.
        self.verified = False

    # --- sending ------------------------------------------------------------------

    async def send(self, kind: FrameType, **fields: Any) -> None:
        async with self._send_lock:
            self._counter += 1
            frame: dict[str, Any] = {
                "v": PROTOCOL, "t": kind.value, "c": self._counter,
                "n": secrets.token_hex(16), "s": self.session or "", **fields,
            }
            frame["mac"] = frame_mac(self.key, frame)
            text = encode_frame(frame)
            await self.ws.send(text)
        self.stats.add("frames_out")
        self.stats.add("bytes_out", len(text.encode()))

    async def _hello(self) -> None:
        await self.send(FrameType.HELLO, proto=PROTOCOL, device=self.me.device_id,
                        role=self.me.role, table=self.me.table, name=self.me.name,
                        tournament=self._tournament(), challenge=self._challenge)

    # --- receiving ----------------------------------------------------------------

    async def run(self) -> None:
        """Hello, then read frames until the socket closes."""
        proven = False
        try:
            await self._hello()
            while True:
                message = await self.ws.recv()
                self.stats.add("frames_in")
                self.stats.add("bytes_in", len(message))
                frame = self.check(message)
                if frame is None:
                    continue
                if frame.type is FrameType.HELLO:
                    if not await self._take_hello(frame):
                        return
                    continue
                if not proven:
                    proven = True
                    if self._on_proven is not None and not self._on_proven(self):
                        return
                await self._on_frame(self, frame)
        except ConnectionClosed as closed:
            if closed.sent is not None and closed.sent.code == 1009:
                self.stats.drop(Drop.OVERSIZE)
        finally:
            self.closed.set()

    def check(self, message: str | bytes) -> Frame | None:
        """The frame if it is well formed, genuine and fresh; else count why not."""
        try:
            frame = decode_frame(message)
        except FrameError as err:
            self.stats.drop(err.reason)
            return None
        if not hmac.compare_digest(frame_mac(self.key, frame.raw), frame.mac):
            self.stats.drop(Drop.BAD_MAC)
            return None
        if not self._guard.check(frame.counter, frame.nonce):
            self.stats.drop(Drop.REPLAY)
            return None
        if frame.type is FrameType.HELLO:
            if self.peer is not None or frame.session != "":
                self.stats.drop(Drop.UNEXPECTED)
                return None
        elif self.session is None:
            self.stats.drop(Drop.UNEXPECTED)
            return None
        elif frame.session != self.session:
            # A genuine frame of another link: recorded and played back.
            self.stats.drop(Drop.REPLAY)
            return None
        if frame.type is not FrameType.HELLO:
            self.verified = True
        return frame

    async def _take_hello(self, frame: Frame) -> bool:
        if frame["proto"] != PROTOCOL:
            self.stats.drop(Drop.WRONG_PROTOCOL)
            await self.ws.close(1002, "protocol version")
            return False
        if frame["device"] == self.me.device_id:
            await self.ws.close(1000, "that is me")
            return False
        self.peer = PeerInfo(frame["device"], frame["role"], frame["table"], frame["name"],
                             frame["tournament"])
        theirs = frame["challenge"]
        self.session = (session_id(self._challenge, theirs) if self.dialer
                        else session_id(theirs, self._challenge))
        await self._on_open(self)
        return True

    async def close(self) -> None:
        await self.ws.close()
