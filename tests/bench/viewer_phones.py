"""Simulated phones for the viewer benchmark: N websocket clients in one process.

``python -m tests.bench.viewer_phones PORT N OUT SECONDS`` opens N
connections to ``ws://127.0.0.1:PORT/live``, each from an address of its own
(127.0.1.1, 127.0.1.2, ...: phones on a pub's Wi-Fi, each under the page's
share per address), prints ``ready`` once every one
has its first document, and for ``SECONDS`` records, per phone, when
(``time.time()``: the CLI's commit time in the store is wall time on the same
machine) it first saw each count of players left. Then it writes
``{"remaining": {count: [arrival, …]}, "phones": N, "lost": n}`` to OUT and
exits. Bounded in count and time, loopback only.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

from websockets.asyncio.client import connect


def address(n: int) -> str:
    """Phone ``n``'s own loopback address (all of 127/8 is loopback on Linux).

    >>> address(0), address(253), address(254)
    ('127.0.1.1', '127.0.1.254', '127.0.2.1')
    """
    return f"127.0.{1 + n // 254}.{1 + n % 254}"


async def phone(port: int, seen: dict[int, list[float]], ready: asyncio.Event,
                count: list[int], total: int, lost: list[int], stop: asyncio.Event,
                n: int = 0) -> None:
    try:
        async with connect(f"ws://127.0.0.1:{port}/live", open_timeout=30,
                           ping_interval=None, compression=None,
                           local_addr=(address(n), 0)) as ws:
            known: set[int] = set()
            first = True
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout=0.5)
                except TimeoutError:
                    continue
                at = time.time()
                if text == "{}":
                    continue
                remaining = json.loads(text).get("remaining")
                if isinstance(remaining, int) and remaining not in known:
                    known.add(remaining)
                    if not first:
                        seen.setdefault(remaining, []).append(at)
                if first:
                    first = False
                    count[0] += 1
                    if count[0] == total:
                        ready.set()
    except Exception:  # counted: a phone the server dropped or refused
        lost[0] += 1
        count[0] += 1
        if count[0] == total:
            ready.set()


async def main(port: int, phones: int, out: Path, seconds: float) -> None:
    seen: dict[int, list[float]] = {}
    ready, stop = asyncio.Event(), asyncio.Event()
    count, lost = [0], [0]
    tasks = []
    for n in range(phones):
        tasks.append(asyncio.create_task(phone(port, seen, ready, count, phones, lost, stop,
                                               n)))
        await asyncio.sleep(0.005)  # a room fills over a while, not in one SYN burst
    await asyncio.wait_for(ready.wait(), timeout=60)
    print("ready", flush=True)
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(*tasks)
    out.write_text(json.dumps({"remaining": seen, "phones": phones, "lost": lost[0]}))


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3]),
                     float(sys.argv[4])))
