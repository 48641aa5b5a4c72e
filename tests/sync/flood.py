"""A stranger's connection flood: ``python -m tests.sync.flood HOST PORT [options]``.

Runs in the attacker's namespace, without the venue key. Keeps ``--silent``
TCP connections to the victim open at once that never send a byte, and
``--upgraded`` websocket connections that answer pings but never say hello;
each one the victim closes is opened again (``--again`` seconds later) until
``--seconds`` have passed. ``--sources`` spreads them over several local
addresses (``--upgraded-sources`` the upgrades). The upgrades go first, so
that some of them are let in before the silent ones fill every place.
Prints ``{"flooding": ...}`` once the first wave is open, then one JSON line
with what was opened and how long the victim let each one live.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import socket
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import connect

__all__ = ["main"]


@dataclass
class Tally:
    opened: int = 0
    #: Connects the victim reset before they were even done (held off at once).
    reset: int = 0
    #: Connects that failed otherwise or took over five seconds (a full accept queue).
    failed: int = 0
    #: Seconds each connection lived until the victim closed it.
    lives: list[float] = field(default_factory=list)
    #: Ages of the connections still open when the flood ended.
    open_at_end: list[float] = field(default_factory=list)
    #: Connections open only at this end: the victim reset the byte sent when the
    #: flood ended, so it never had them. A connect completes on a SYN cookie while
    #: the victim's accept queue is full and the victim then drops the handshake's
    #: last ACK: it holds nothing for it, and a silent client never finds out.
    phantom: int = 0

    def report(self) -> dict[str, Any]:
        lives = sorted(self.lives)

        def at(q: float) -> float | None:
            return round(lives[min(len(lives) - 1, int(q * len(lives)))], 3) if lives else None

        return {"opened": self.opened, "reset": self.reset, "failed": self.failed,
                "closed": len(lives),
                "closed_within_half_a_second": sum(1 for x in lives if x < 0.5),
                "life_p50": at(0.5), "life_p99": at(0.99),
                "life_max": round(lives[-1], 3) if lives else None,
                "life_mean": round(statistics.mean(lives), 3) if lives else None,
                "open_at_end": len(self.open_at_end), "phantom": self.phantom,
                "open_at_end_oldest": round(max(self.open_at_end), 3)
                if self.open_at_end else None}


async def _victim_holds(loop: asyncio.AbstractEventLoop, sock: socket.socket) -> bool:
    """Whether the victim has this still-open connection: a byte sent now is taken
    quietly by a connection it holds, and reset by one it never had (see
    :attr:`Tally.phantom`) or closed."""
    try:
        await loop.sock_sendall(sock, b"\0")
        return bool(await asyncio.wait_for(loop.sock_recv(sock, 4096), 1.0))
    except TimeoutError:
        return True
    except OSError:
        return False


@dataclass
class Flood:
    host: str
    port: int
    seconds: float
    again: float
    sources: Sequence[str]
    upgraded_sources: Sequence[str] = ()
    silent: Tally = field(default_factory=Tally)
    upgraded: Tally = field(default_factory=Tally)
    now_open: int = 0
    peak_open: int = 0
    end: float = 0.0

    def _source(self, i: int, upgraded: bool = False) -> str | None:
        sources = self.upgraded_sources if upgraded and self.upgraded_sources else self.sources
        return sources[i % len(sources)] if sources else None

    def _opened(self, tally: Tally) -> None:
        tally.opened += 1
        self.now_open += 1
        self.peak_open = max(self.peak_open, self.now_open)

    async def silent_slot(self, i: int) -> None:
        loop = asyncio.get_running_loop()
        while time.monotonic() < self.end:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setblocking(False)
            try:
                source = self._source(i)
                if source is not None:
                    sock.bind((source, 0))
                await asyncio.wait_for(loop.sock_connect(sock, (self.host, self.port)), 5)
            except (ConnectionResetError, ConnectionRefusedError):
                self.silent.reset += 1
                sock.close()
                await asyncio.sleep(self.again)
                continue
            except (OSError, TimeoutError):
                self.silent.failed += 1
                sock.close()
                await asyncio.sleep(self.again)
                continue
            born = time.monotonic()
            self._opened(self.silent)
            try:
                while await asyncio.wait_for(loop.sock_recv(sock, 4096),
                                             max(0.0, self.end - time.monotonic())):
                    pass
                self.silent.lives.append(time.monotonic() - born)
            except (ConnectionResetError, BrokenPipeError):
                self.silent.lives.append(time.monotonic() - born)
            except TimeoutError:
                if await _victim_holds(loop, sock):
                    self.silent.open_at_end.append(time.monotonic() - born)
                else:
                    self.silent.phantom += 1
            finally:
                self.now_open -= 1
                sock.close()
            await asyncio.sleep(self.again)

    async def upgraded_slot(self, i: int) -> None:
        uri = f"ws://{self.host}:{self.port}/sync"
        while time.monotonic() < self.end:
            source = self._source(i, upgraded=True)
            try:
                ws = await connect(uri, proxy=None, compression=None, open_timeout=5,
                                   local_addr=(source, 0) if source else None)
            except (ConnectionResetError, ConnectionRefusedError):
                self.upgraded.reset += 1
                await asyncio.sleep(self.again)
                continue
            except Exception:  # timed out, or closed during the upgrade
                self.upgraded.failed += 1
                await asyncio.sleep(self.again)
                continue
            born = time.monotonic()
            self._opened(self.upgraded)
            try:
                await asyncio.wait_for(ws.wait_closed(), max(0.0, self.end - born))
                self.upgraded.lives.append(time.monotonic() - born)
            except TimeoutError:
                self.upgraded.open_at_end.append(time.monotonic() - born)
            finally:
                self.now_open -= 1
                ws.transport.abort()
            await asyncio.sleep(self.again)

    async def run(self, silent: int, upgraded: int) -> dict[str, Any]:
        start = time.monotonic()
        self.end = start + self.seconds
        tasks = [asyncio.create_task(self.upgraded_slot(i)) for i in range(upgraded)]
        while (upgraded and self.upgraded.opened + self.upgraded.reset + self.upgraded.failed
               < upgraded and time.monotonic() < start + 2.0):
            await asyncio.sleep(0.02)
        tasks += [asyncio.create_task(self.silent_slot(i)) for i in range(silent)]
        # The first wave: every slot has had its first connect answered (or not).
        while (self.silent.opened + self.silent.reset + self.silent.failed < silent
               and time.monotonic() < self.end):
            await asyncio.sleep(0.05)
        print(json.dumps({"flooding": True, "opened": self.silent.opened,
                          "after": round(time.monotonic() - start, 3)}), flush=True)
        await asyncio.gather(*tasks)
        return {"seconds": round(time.monotonic() - start, 3), "peak_open": self.peak_open,
                "silent": self.silent.report(), "upgraded": self.upgraded.report()}


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(prog="python -m tests.sync.flood")
    p.add_argument("host")
    p.add_argument("port", type=int)
    p.add_argument("--silent", type=int, default=2000)
    p.add_argument("--upgraded", type=int, default=20)
    p.add_argument("--seconds", type=float, default=15.0)
    p.add_argument("--again", type=float, default=0.5,
                   help="seconds before a closed connection's slot connects again")
    p.add_argument("--sources", default="", help="local addresses to connect from, a,b,c")
    p.add_argument("--upgraded-sources", default="", help="the same, for the upgrades")
    args = p.parse_args(argv)
    # The attacker's own descriptors: one per connection, and some to spare.
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = args.silent + args.upgraded + 256
    if hard != resource.RLIM_INFINITY and hard < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, want))  # root may raise it
    else:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    flood = Flood(args.host, args.port, args.seconds, args.again,
                  [s for s in args.sources.split(",") if s],
                  [s for s in args.upgraded_sources.split(",") if s])
    return asyncio.run(flood.run(args.silent, args.upgraded))


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:])), flush=True)
