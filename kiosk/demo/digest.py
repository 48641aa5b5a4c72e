"""The digest of a store's event log: ``python -m kiosk.demo.digest DATA_DIR``.

Two demo nights with the same seed must print the same digest. It covers
every column of every row of ``events`` (the device id, the payloads, the
Lamport times, ``received_at``...), in insertion order, each row as one line
of JSON; floats are written by ``repr``, which round-trips.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import sys
from pathlib import Path

__all__ = ["log_digest", "log_lines"]

_COLUMNS = ("rowid, device_id, seq, lamport, tournament_id, kind, payload, mac, received_at,"
            " unreadable")


def log_lines(db: str | Path) -> list[str]:
    """The events table of the store file ``db`` as canonical JSON lines, oldest first."""
    conn = sqlite3.connect(f"{Path(db).resolve().as_uri()}?mode=ro", uri=True)
    try:
        rows = conn.execute(f"SELECT {_COLUMNS} FROM events ORDER BY rowid").fetchall()
    finally:
        conn.close()
    return [json.dumps(list(row), ensure_ascii=False, separators=(",", ":")) for row in rows]


def log_digest(db: str | Path) -> str:
    """SHA-256 of :func:`log_lines`, each line ended by a newline."""
    text = "".join(f"{line}\n" for line in log_lines(db))
    return hashlib.sha256(text.encode()).hexdigest()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m kiosk.demo.digest DATA_DIR|DB_FILE", file=sys.stderr)
        return 2
    where = Path(args[0])
    db = where / "pubpoker.db" if where.is_dir() else where
    print(f"{log_digest(db)}  {len(log_lines(db))} events  {db}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
