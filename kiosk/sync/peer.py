"""A scripted peer: a Station and a SyncService driven by JSON lines on stdin.

Integration tests and benchmarks start one per network namespace::

    python -m kiosk.sync.peer --data-dir D --role table --table 1 --key HEX \\
        --address 10.77.0.3

Each stdin line is a JSON object with an ``op``; each answer is one JSON line
on stdout (``{"ok": true, ...}``). Ops: ``create``, ``use``, ``submit``,
``burst``, ``digest``, ``seats``, ``clock``, ``status``, ``applied``, ``quit``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import queue
import random
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from kiosk.station import Station
from kiosk.store import open_store
from kiosk.sync.auth import parse_key
from kiosk.sync.link import Identity
from kiosk.sync.replicate import Replicator
from kiosk.sync.service import Incoming, SyncConfig, SyncService
from kiosk.timebase import SharedClock
from rules import clock as clocks
from rules import commands
from rules.fold import fold, state_digest
from rules.structure import preset

__all__ = ["main"]


class _Line:
    def __init__(self, text: str) -> None:
        self.text = text


def _read_stdin(mailbox: queue.Queue[Any]) -> None:
    for line in sys.stdin:
        if line.strip():
            mailbox.put(_Line(line))
    mailbox.put(_Line('{"op": "quit"}'))


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


class Runner:
    def __init__(self, station: Station, service: SyncService, replicator: Replicator) -> None:
        self.station = station
        self.service = service
        self.replicator = replicator
        self.applied: dict[str, float] = {}
        self.submitted: dict[str, float] = {}
        self.due: deque[tuple[float, Callable[[], None]]] = deque()
        self.running = True

    # --- ops ---------------------------------------------------------------------------

    def op_create(self, msg: dict[str, Any]) -> dict[str, Any]:
        cmd = commands.CreateTournament(msg.get("name", "Main"),
                                        preset(msg.get("preset", "pf-pokerklub")))
        out = self.station.create(cmd, msg.get("tid"))
        self.replicator.publish()
        return {"ok": out.ok, "tid": self.station.tournament_id}

    def op_use(self, msg: dict[str, Any]) -> dict[str, Any]:
        tid = msg["tid"]
        st = self.station
        st.store.set_current_tournament(tid)
        st.switch(tid)
        return {"ok": True}

    def _submit(self, name: str, args: dict[str, Any]) -> Any:
        cls = getattr(commands, name)
        return self.station.submit(cls(**{k: _tuples(v) for k, v in args.items()}))

    def op_submit(self, msg: dict[str, Any]) -> dict[str, Any]:
        out = self._submit(msg["cmd"], msg.get("args", {}))
        return {"ok": out.ok, "refusal": out.message("en"),
                "seqs": [r.seq for r in out.records]}

    def op_burst(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Check in ``n`` new players ``gap`` seconds apart, noting when each was sent."""
        n, gap, prefix = int(msg["n"]), float(msg.get("gap", 0.005)), msg.get("prefix", "b")
        start = time.monotonic()
        for i in range(n):
            def one(i: int = i) -> None:
                t = time.monotonic()
                out = self._submit("CheckIn", {"player_id": f"{prefix}{i}",
                                               "name": f"Bench {i}"})
                for r in out.records:
                    self.submitted[f"{r.device_id}/{r.seq}"] = t
            self.due.append((start + i * gap, one))
        return {"ok": True}

    def op_digest(self, msg: dict[str, Any]) -> dict[str, Any]:
        store = self.station.store
        tids = sorted({row.id for row in store.tournaments()})
        digests = {tid: state_digest(fold(store.records(tid))) for tid in tids}
        rejected = {tid: [[r.device_id, r.seq, r.kind, r.code]
                          for r in fold(store.records(tid)).rejected] for tid in tids}
        return {"ok": True, "digests": digests, "rejected": rejected,
                "count": store.log.count(), "vector": store.version_vector(),
                "device": store.device_id}

    def op_seats(self, msg: dict[str, Any]) -> dict[str, Any]:
        tables = self.station.state.tables
        return {"ok": True, "tables": {str(n): sorted(t.seats.values())
                                       for n, t in tables.items()}}

    def op_clock(self, msg: dict[str, Any]) -> dict[str, Any]:
        state = self.station.state
        mono = time.monotonic()
        now = self.station.now()
        remaining = None
        if state.config is not None and state.clock.started:
            remaining = clocks.read(state.config.structure, state.clock, now).remaining
        return {"ok": True, "remaining": remaining, "mono": mono, "now": now,
                "offset": self.station.clock.offset,
                "uncertain": self.replicator.time_uncertain}

    def op_status(self, msg: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, **self.service.status().to_json()}

    def op_applied(self, msg: dict[str, Any]) -> dict[str, Any]:
        out = {"ok": True, "applied": self.applied, "submitted": self.submitted,
               "pending": len(self.due)}
        if msg.get("clear"):
            self.applied, self.submitted = {}, {}
        return out

    def op_quit(self, msg: dict[str, Any]) -> dict[str, Any]:
        self.running = False
        return {"ok": True}

    # --- the loop ----------------------------------------------------------------------

    def command(self, line: str) -> None:
        try:
            msg = json.loads(line)
            reply = getattr(self, "op_" + msg["op"])(msg)
        except Exception as err:  # a bad script line is reported, never fatal
            reply = {"ok": False, "error": f"{type(err).__name__}: {err}"}
        print(json.dumps(reply), flush=True)

    def run(self, mailbox: queue.Queue[Any]) -> None:
        next_tick = 0.0
        while self.running:
            now = time.monotonic()
            while self.due and self.due[0][0] <= now:
                self.due.popleft()[1]()
            if now >= next_tick:
                self.replicator.tick()
                next_tick = now + 0.05
            wait = min(0.05, max(0.0, self.due[0][0] - now) if self.due else 0.05)
            try:
                items = [mailbox.get(timeout=wait)]
            except queue.Empty:
                continue
            while True:  # take whatever else is waiting: one append for all of it
                try:
                    items.append(mailbox.get_nowait())
                except queue.Empty:
                    break
            lines = [i for i in items if isinstance(i, _Line)]
            self.replicator.handle_many([i for i in items if not isinstance(i, _Line)])
            t = time.monotonic()
            for item in items:
                if isinstance(item, Incoming):
                    for row in item.rows:
                        self.applied.setdefault(f"{row.device_id}/{row.seq}", t)
            for line in lines:
                self.command(line.text)


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m kiosk.sync.peer")
    p.add_argument("--data-dir", required=True)
    p.add_argument("--role", required=True)
    p.add_argument("--table", type=int)
    p.add_argument("--name", default="")
    p.add_argument("--key", required=True, help="venue key, 64 hex characters")
    p.add_argument("--address", action="append", default=[],
                   help="address to bind and announce on (repeatable)")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--peer", action="append", default=[], help="HOST:PORT to dial")
    p.add_argument("--no-discovery", action="store_true")
    p.add_argument("--clock-skew", type=float, default=0.0,
                   help="seconds added to this device's clock source (tests)")
    p.add_argument("--seed", type=int, default=1)
    return p.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse(argv)
    logging.basicConfig(level=os.environ.get("PUBPOKER_LOG", "INFO"), stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    key = parse_key(args.key)
    skew = args.clock_skew
    clock = SharedClock(source=lambda: time.monotonic() + skew)
    store = open_store(data_dir=args.data_dir)
    station = Station(store, clock, rng=random.Random(args.seed))
    me = Identity(store.device_id, args.role, args.table, args.name)
    peers = tuple((h, int(p)) for h, p in (s.rsplit(":", 1) for s in args.peer))
    config = SyncConfig(addresses=tuple(args.address or ["127.0.0.1"]), port=args.port,
                        discover=not args.no_discovery, peers=peers)
    mailbox: queue.Queue[Any] = queue.Queue()
    service = SyncService(me, key, clock, config, inbound=mailbox)
    service.start()
    try:
        replicator = Replicator(station, service, key=key, me=me)
        runner = Runner(station, service, replicator)
        threading.Thread(target=_read_stdin, args=(mailbox,), daemon=True).start()
        print(json.dumps({"ready": True, "device": store.device_id, "port": service.port}),
              flush=True)
        runner.run(mailbox)
    finally:
        service.stop()
        station.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
