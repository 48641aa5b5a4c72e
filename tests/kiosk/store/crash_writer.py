"""A kiosk stand-in for the crash tests: append events, acknowledge each one.

``python -m tests.kiosk.store.crash_writer DB [--count N] [--seed S]``

Every line ``ack DEVICE SEQ SHA`` is printed (and flushed) only after the
append that wrote the event has returned, i.e. after the commit and fsync.
The test kills this process with SIGKILL at random moments and then checks
that every acknowledged event is in the log, byte for byte.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys

from kiosk.store import StoredEvent, open_store
from rules.commands import (
    AdjustTime,
    CheckIn,
    Command,
    CreateTournament,
    DrawSeats,
    StartClock,
    TogglePause,
    decide,
)
from rules.errors import RulesError
from rules.house import profile
from rules.structure import preset


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("--tournament", default="t1")
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--snapshot-every", type=int, default=25)
    parser.add_argument("--checkpoint-every", type=int, default=7)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    store = open_store(args.db)
    tid = args.tournament
    folded = store.fold(tid, snapshot_every=args.snapshot_every)
    out = sys.stdout

    def run(command: Command) -> None:
        state = folded.state
        events = decide(state, command, now=state.last_at + 1.0, rng=rng)
        for record in store.append_new(tid, events):
            sha = hashlib.sha256(StoredEvent.of(record).payload.encode()).hexdigest()[:12]
            out.write(f"ack {record.device_id} {record.seq} {sha}\n")
        out.flush()
        folded.catch_up()

    if folded.state.config is None:
        run(CreateTournament("Crash night", preset("pf-pokerklub"), profile("pubpoker")))
    out.write("ready\n")
    out.flush()
    for _ in range(args.count):
        state = folded.state
        n = len(state.players)
        if n < 10:
            command: Command = CheckIn(f"p{n + 1}", f"Player {n + 1}")
        elif not state.clock.started:
            command = DrawSeats() if not state.tables else StartClock()
        else:
            command = rng.choice([TogglePause(), AdjustTime(5.0), AdjustTime(-3.0)])
        try:
            run(command)
        except RulesError:
            continue
        if rng.randrange(args.checkpoint_every) == 0:
            folded_state = folded.state
            store.save_checkpoint(tid, folded_state.clock.position_at(folded_state.last_at))
    out.write("done\n")
    out.flush()
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
