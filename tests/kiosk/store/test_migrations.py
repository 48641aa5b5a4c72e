"""Each numbered migration takes a database built by the version before it."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from kiosk.store import SCHEMA_VERSION, StoreTooNew, migrate, open_store
from kiosk.store.migrations import MIGRATIONS, schema_version
from kiosk.store.schema import configure, get_meta
from rules.events import PlayerRegistered, TournamentCreated, event_to_json
from rules.structure import preset

CREATED = event_to_json(TournamentCreated(at=0.0, name="Fredag", structure=preset("pubpoker")))
REGISTERED = event_to_json(PlayerRegistered(at=1.0, player_id="p1", name="Kari"))


def at_version(path: Path, version: int) -> sqlite3.Connection:
    """A database as the store at ``version`` built it."""
    conn = sqlite3.connect(path)
    configure(conn)
    assert migrate(conn, target=version) == list(range(1, version + 1))
    return conn


def tables(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]


def test_the_versions_are_numbered_from_one_without_gaps() -> None:
    assert SCHEMA_VERSION == len(MIGRATIONS) == 5


def test_v1_builds_the_log_and_meta(tmp_path: Path) -> None:
    conn = at_version(tmp_path / "db", 1)
    assert tables(conn) == {"events", "meta"}
    assert columns(conn, "events") == ["device_id", "seq", "lamport", "tournament_id", "kind",
                                       "payload", "mac", "received_at", "unreadable"]
    assert schema_version(conn) == 1


def test_v2_migrates_a_v1_database_keeping_its_log(tmp_path: Path) -> None:
    conn = at_version(tmp_path / "db", 1)
    with conn:
        conn.execute("INSERT INTO meta VALUES ('device_id', 'dev1')")
        conn.execute("INSERT INTO events (device_id, seq, lamport, tournament_id, kind, payload,"
                     " received_at) VALUES ('dev1', 1, 1, 't1', 'tournament-created', ?, ?)",
                     (CREATED, time.time()))
    assert migrate(conn, target=2) == [2]
    assert {"players", "cards"} <= tables(conn)
    assert conn.execute("SELECT payload, mac FROM events").fetchone() == (CREATED, "")
    assert get_meta(conn, "device_id") == "dev1" and schema_version(conn) == 2


def test_v3_migrates_a_v2_database_and_lists_its_tournaments(tmp_path: Path) -> None:
    conn = at_version(tmp_path / "db", 2)
    when = time.mktime((2025, 3, 14, 20, 0, 0, 0, 0, -1))
    with conn:
        conn.execute("INSERT INTO players VALUES ('p1', 'Kari', 'kari', '2025-01-01T19:00:00')")
        conn.execute("INSERT INTO cards VALUES ('0A1B2C3D4E', 'p1', '2025-01-01T19:00:00')")
        conn.executemany(
            "INSERT INTO events (device_id, seq, lamport, tournament_id, kind, payload,"
            " received_at, unreadable) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [("d", 1, 1, "t1", "tournament-created", CREATED, when, None),
             ("d", 2, 2, "t1", "player-registered", REGISTERED, when, None),
             ("d", 3, 3, "t9", "tournament-created", "{garbage", when, "not JSON")])
    assert migrate(conn, target=3) == [3]
    assert {"tournaments", "results", "standings"} <= tables(conn)
    assert conn.execute("SELECT id, name, date, preset, status, season FROM tournaments"
                        ).fetchall() == [("t1", "Fredag", "2025-03-14", "pubpoker", "created",
                                          "2025")]
    assert conn.execute("SELECT uid, player_id FROM cards").fetchall() == [("0A1B2C3D4E", "p1")]


def test_v4_migrates_a_v3_database_and_opens_as_a_store(tmp_path: Path) -> None:
    path = tmp_path / "db"
    conn = at_version(path, 3)
    with conn:
        conn.execute("INSERT INTO meta VALUES ('device_id', 'dev1')")
        conn.execute("INSERT INTO events (device_id, seq, lamport, tournament_id, kind, payload,"
                     " received_at) VALUES ('dev1', 1, 1, 't1', 'tournament-created', ?, ?)",
                     (CREATED, time.time()))
        conn.execute("INSERT INTO tournaments VALUES ('t1', 'Fredag', '2025-03-14', 'pubpoker',"
                     " 'running', '2025')")
    conn.close()
    with open_store(path) as store:
        assert schema_version(store.conn) == SCHEMA_VERSION
        assert {"clock_checkpoints", "snapshots"} <= tables(store.conn)
        assert store.device_id == "dev1"
        # The v3 data reads through the v4 store, and the device continues its seqs.
        assert store.tournament("Fredag").status == "running"
        assert store.append_new("t1", [PlayerRegistered(at=1.0, player_id="p1", name="K")]
                                )[0].seq == 2
        assert store.fold("t1").state.config is not None


def test_an_old_store_upgrades_on_open_from_every_earlier_version(tmp_path: Path) -> None:
    for version in range(1, SCHEMA_VERSION):
        path = tmp_path / f"v{version}.db"
        at_version(path, version).close()
        with open_store(path) as store:
            assert schema_version(store.conn) == SCHEMA_VERSION


def test_a_failed_step_leaves_the_previous_version_intact(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import kiosk.store.migrations as migrations

    conn = at_version(tmp_path / "db", 3)

    def broken(db: object) -> None:
        migrations._v4_recovery(db)  # type: ignore[arg-type]
        raise RuntimeError("power cut mid-upgrade")

    monkeypatch.setattr(migrations, "MIGRATIONS", (*migrations.MIGRATIONS[:3], broken))
    with pytest.raises(RuntimeError):
        migrations.migrate(conn, target=4)
    assert schema_version(conn) == 3
    assert "snapshots" not in tables(conn)


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    conn = at_version(tmp_path / "db", SCHEMA_VERSION)
    with conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'",
                     (str(SCHEMA_VERSION + 1),))
    with pytest.raises(StoreTooNew):
        migrate(conn)
