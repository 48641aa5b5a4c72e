"""A kiosk stand-in for the recovery test: run a clock, checkpoint it, get killed.

``python -m tests.kiosk.store.clock_runner DB --interval 0.2``

Shared time here is the monotonic clock, which every process on the machine
shares, so the test can tell where the clock truly stood when it struck.
"""

from __future__ import annotations

import argparse
import sys
import time

from kiosk.store import open_store
from tests.kiosk.store.helpers import Night, players


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("--interval", type=float, default=0.2)
    args = parser.parse_args(argv)
    store = open_store(args.db)
    night = Night(store)
    night.started(players(10))  # StartClock at shared time 0.0
    started = time.monotonic()
    print(f"started {started!r}", flush=True)
    while True:
        time.sleep(args.interval)
        now = time.monotonic() - started  # shared time: seconds since the start
        position = night.state.clock.position_at(now)
        store.save_checkpoint("t1", position)
        print(f"cp {position!r}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
