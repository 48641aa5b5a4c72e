"""The queries a kiosk's start-up makes stay cheap however long the night's log is.

Checked on SQLite's own query plans, with a real store: the last clock event (for
the power-cut banner) comes from the small partial index ``events_clock``, and
what arrived after a snapshot or a checkpoint from the rowid range, not from a
walk of the tournament's whole index.
"""

from __future__ import annotations

from pathlib import Path

from kiosk.store import open_store
from kiosk.store.checkpoint import _CLOCK_IN, CLOCK_KINDS
from rules.events import ClockPaused, ClockStarted, HandStarted, TournamentCreated
from rules.structure import preset


def plan(conn: object, sql: str, params: tuple[object, ...]) -> str:
    return " ".join(str(row[3]) for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}", params))


def test_start_up_queries_use_the_small_index_and_the_rowid_range(tmp_path: Path) -> None:
    with open_store(data_dir=tmp_path) as store:
        store.append_new("t1", [TournamentCreated(at=0.0, name="Fredag",
                                                  structure=preset("pubpoker")),
                                ClockStarted(at=1.0), ClockPaused(at=2.0)])
        store.append_new("t1", [HandStarted(at=3.0 + n, table=1) for n in range(300)])
        conn = store.conn
        last_clock = plan(conn, f"SELECT kind FROM events WHERE tournament_id = ? AND kind IN"
                                f" {_CLOCK_IN} AND unreadable IS NULL ORDER BY lamport DESC,"
                                " device_id DESC, seq DESC LIMIT 1", ("t1",))
        assert "events_clock" in last_clock, last_clock
        assert store.power_cut_notice("t1", store.fold("t1").state) is None  # paused by the TD
        tail = plan(conn, "SELECT lamport, device_id, seq FROM events WHERE rowid > ?"
                          " AND +tournament_id = ? AND unreadable IS NULL", (300, "t1"))
        assert "PRIMARY KEY (rowid>?)" in tail, tail
        assert store.log.keys_after("t1", 302) == [(303, store.device_id, 303)]
        assert len(store.log.rows("t1", after_rowid=300)) == 3
    assert set(CLOCK_KINDS) == {"clock-started", "clock-paused", "clock-resumed",
                                "level-jumped", "time-adjusted", "clock-restored",
                                "action-undone"}  # the list migration 5 wrote out


def test_the_unreadable_rows_come_from_their_own_index(tmp_path: Path) -> None:
    """Start-up re-reads the flagged rows (after an upgrade): a lookup, not a walk of the log."""
    with open_store(data_dir=tmp_path) as store:
        store.append_new("t1", [TournamentCreated(at=0.0, name="Fredag",
                                                  structure=preset("pubpoker"))])
        store.append_new("t1", [HandStarted(at=1.0 + n, table=1) for n in range(300)])
        traced: list[str] = []
        store.conn.set_trace_callback(traced.append)
        assert store.log.reread_unreadable() == set()
        store.conn.set_trace_callback(None)
        query = next(q for q in traced if "unreadable IS NOT NULL" in q)
        assert "events_unreadable" in plan(store.conn, query, ()), plan(store.conn, query, ())
