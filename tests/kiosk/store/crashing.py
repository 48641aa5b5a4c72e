"""The crash harness shared by the suite's crash test and the soak benchmark."""

from __future__ import annotations

import hashlib
import os
import random
import signal
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path

from kiosk.store import open_store
from rules.fold import state_digest
from tests.kiosk.store.helpers import spawn


@dataclass
class CrashReport:
    kills: int = 0
    acked: dict[tuple[str, int], str] = field(default_factory=dict)
    events: int = 0
    integrity_ok: int = 0
    seconds: float = 0.0


def _read_acks(lines: list[str], acked: dict[tuple[str, int], str]) -> None:
    for line in lines:
        parts = line.split()
        if len(parts) == 4 and parts[0] == "ack":
            acked[(parts[1], int(parts[2]))] = parts[3]


def check_after_kill(db: Path, acked: dict[tuple[str, int], str]) -> int:
    """Integrity ok, every acked event present byte for byte, the log folds cleanly."""
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        have = {(d, s): hashlib.sha256(p.encode()).hexdigest()[:12]
                for d, s, p in conn.execute("SELECT device_id, seq, payload FROM events")}
    finally:
        conn.close()
    missing = [k for k in acked if k not in have]
    assert not missing, f"acknowledged events lost: {missing[:5]}"
    changed = [k for k, sha in acked.items() if have[k] != sha]
    assert not changed, f"acknowledged events changed: {changed[:5]}"
    with open_store(db) as store:
        assert not store.warnings, [w.key for w in store.warnings]
        folded = store.fold("t1")
        full = store.fold("t1", use_snapshot=False, snapshot_every=0)
        assert not full.state.rejected, full.state.rejected[:3]
        assert state_digest(folded.state) == state_digest(full.state)
        # Seqs are contiguous: none reused, none skipped, after every crash.
        vector = store.version_vector()
        assert sum(vector.values()) == len(have)
    return len(have)


def crash_many(db: Path, kills: int, seed: int, *, max_acks: int = 30) -> CrashReport:
    """Run the writer and SIGKILL it ``kills`` times at random moments."""
    rng = random.Random(seed)
    report = CrashReport()
    start = time.perf_counter()
    for round_ in range(kills):
        proc = spawn("tests.kiosk.store.crash_writer", str(db), "--seed", str(seed + round_))
        assert proc.stdout is not None
        seen: list[str] = []
        wait_for = rng.randint(1, max_acks)
        acks = 0
        try:
            while acks < wait_for:
                line = proc.stdout.readline()
                if not line:
                    break
                seen.append(line)
                acks += line.startswith("ack")
            # Land the kill at a random point inside the next appends.
            time.sleep(rng.random() * 0.004)
            os.kill(proc.pid, signal.SIGKILL)
        finally:
            rest, err = proc.communicate(timeout=30)
        seen.extend(rest.splitlines())
        assert proc.returncode == -signal.SIGKILL, err
        _read_acks(seen, report.acked)
        report.events = check_after_kill(db, report.acked)
        report.integrity_ok += 1
        report.kills += 1
    report.seconds = time.perf_counter() - start
    return report
