"""Storage errors are not corruption: a full disk, a read-only disk, file modes and a foreign
schema are one translated sentence, exit status 2, nothing renamed and nothing lost.

Every case runs the real ``pubpoker`` CLI in its own process against a real
SQLite file, on a real small tmpfs where the disk matters (root only).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from kiosk.paths import DataDirFull, DataDirReadOnly
from kiosk.store.errors import (
    DiskFull,
    ForeignStore,
    Notice,
    StoreNoPermission,
    StoreReadOnly,
)
from kiosk.store.space import RESERVE_NAME
from tests.kiosk.store.disk import fill, pubpoker, remount, tmpfs, use_up_inodes

# A real `pubpoker` process on a real small disk each: seconds apiece.
pytestmark = pytest.mark.realproc


def ok(*argv: str) -> str:
    done = pubpoker(*argv)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout


def refused(*argv: str, lang: str = "nn", drop_dac: bool = False) -> str:
    """The one translated sentence a refused command prints (nothing else on stderr but
    the disk-low warning); asserts exit 2, no traceback."""
    done = pubpoker(*argv, lang=lang, drop_dac=drop_dac)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and "sqlite3." not in done.stderr, done.stderr
    *before, line = [line for line in done.stderr.splitlines() if line.strip()]
    # Only the open's warning may come first, when the store opened and the write
    # was refused (a reader left SQLite's -shm file, so the open needed no room):
    # low while a reserve is left, full once none is.
    warnings = {Notice("disk-low", {"free": "< 1"}).translate(lang),
                Notice("disk-full").translate(lang)}
    assert all(other in warnings for other in before), done.stderr
    return line


def read_or_refused(*argv: str, lang: str = "nn") -> None:
    """A read on a full disk works when SQLite's -shm file is already there (a read-only
    connection left it), else it is refused like a write; never anything else."""
    done = pubpoker(*argv, lang=lang)
    assert "Traceback" not in done.stderr, done.stderr
    if done.returncode != 0:
        assert done.returncode == 2
        assert done.stderr.splitlines()[-1] == DiskFull().translate(lang)


def set_aside(data: Path) -> list[Path]:
    return sorted(data.glob("*.corrupt-*"))


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def a_night(data: Path) -> int:
    """A tournament with three checked in and a fourth player; the events one check-in makes."""
    d = str(data)
    ok("tournament", "new", "--name", "Fredag", "--data-dir", d)
    ok("checkin", "--new", "Kari", "--data-dir", d)
    first = events_of(data)
    for name in ("Ola", "Per"):
        ok("checkin", "--new", name, "--data-dir", d)
    ok("players", "add", "Siri", "--data-dir", d)
    return (events_of(data) - first) // 2


def players_of(data: Path) -> list[str]:
    out = ok("players", "list", "--format", "json", "--data-dir", str(data))
    return sorted(p["name"] for p in json.loads(out))


def events_of(data: Path) -> int:
    done = pubpoker("doctor", "--json", "--data-dir", str(data))
    return int(json.loads(done.stdout)["store"]["events"])


def test_a_full_disk_uses_the_reserve_then_refuses_and_carries_on_once_freed() -> None:
    with tmpfs("2m") as data:
        d = str(data)
        per_checkin = a_night(data)
        assert (data / RESERVE_NAME).stat().st_size > 0
        events = events_of(data)
        filler = fill(data)
        # The reserve goes to the first write that finds the disk full: it lands.
        done = pubpoker("checkin", "--new", "Anne", "--data-dir", d)
        assert done.returncode == 0, done.stderr
        assert "Lite plass på minnekortet" in done.stderr
        assert not (data / RESERVE_NAME).exists()
        fill(data, "filler2")
        # Now there is nothing left to give: refused in one sentence, in every language.
        assert refused("checkin", "--new", "Bo", "--data-dir", d) == DiskFull().translate("nn")
        assert refused("checkin", "--new", "Bo", "--data-dir", d,
                       lang="en") == DiskFull().translate("en")
        assert "Minnekortet er fullt" in refused("players", "add", "Eli", "--data-dir", d)
        read_or_refused("players", "list", "--data-dir", d, lang="da")
        assert set_aside(data) == [] and (data / "pubpoker.db").stat().st_size > 0
        # Space comes back: the very next command works, with everything there.
        filler.unlink()
        (data / "filler2").unlink()
        freed = time.monotonic()
        ok("checkin", "--new", "Bo", "--data-dir", d)
        recovered = time.monotonic() - freed
        assert players_of(data) == ["Anne", "Bo", "Kari", "Ola", "Per", "Siri"]
        assert events_of(data) == events + 2 * per_checkin
        assert (data / RESERVE_NAME).exists()  # made again once there was room
        assert set_aside(data) == []
        print(f"first write after freeing the disk: {recovered:.2f} s (one CLI process)")


def test_a_full_disk_without_a_reserve_is_refused_at_open_and_nothing_is_moved() -> None:
    with tmpfs("2m") as data:
        d = str(data)
        a_night(data)
        (data / RESERVE_NAME).unlink()
        before = digest(data / "pubpoker.db")
        filler = fill(data)
        for argv in (("checkin", "--new", "Bo"), ("players", "add", "Eli"),
                     ("export", "results", "Fredag", "--format", "csv")):
            assert refused(*argv, "--data-dir", d) == DiskFull().translate("nn")
        read_or_refused("players", "list", "--data-dir", d)
        read_or_refused("tournament", "show", "--data-dir", d)
        assert set_aside(data) == [] and digest(data / "pubpoker.db") == before
        filler.unlink()
        assert players_of(data) == ["Kari", "Ola", "Per", "Siri"]


def test_a_disk_out_of_inodes_is_full_too() -> None:
    with tmpfs("4m", inodes=64) as data:
        d = str(data)
        a_night(data)
        (data / RESERVE_NAME).unlink()
        before = digest(data / "pubpoker.db")
        empties = use_up_inodes(data)
        # Bytes to spare but no file can be made: the probe's, or SQLite's -wal and -shm.
        line = refused("players", "add", "Bo", "--data-dir", d)
        assert line in (DataDirFull(path=d).translate("nn"), DiskFull().translate("nn"))
        assert set_aside(data) == [] and digest(data / "pubpoker.db") == before
        for path in empties:
            path.unlink()
        ok("players", "add", "Bo", "--data-dir", d)
        assert players_of(data) == ["Bo", "Kari", "Ola", "Per", "Siri"]


def test_a_read_only_disk_is_named_not_set_aside() -> None:
    with tmpfs("4m") as data:
        d = str(data)
        a_night(data)
        before = digest(data / "pubpoker.db")
        names = sorted(p.name for p in data.iterdir())
        remount(data, "ro")
        try:
            expected = DataDirReadOnly(path=d).translate("nn")
            assert refused("checkin", "--new", "Bo", "--data-dir", d) == expected
            assert refused("players", "list", "--data-dir", d) == expected
            report = pubpoker("doctor", "--json", "--data-dir", d)
            assert report.returncode == 1
            found = json.loads(report.stdout)
            assert found["file_system"] == {"read_only": True, "writable": False}
            assert found["store"]["healthy"] and found["store"]["players"] == 4
        finally:
            remount(data, "rw")
        assert sorted(p.name for p in data.iterdir()) == names
        assert digest(data / "pubpoker.db") == before
        assert players_of(data) == ["Kari", "Ola", "Per", "Siri"]


def test_a_file_this_user_may_not_open_is_named_not_set_aside(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("dropping root's file-mode override needs root")
    data = tmp_path / "data"
    a_night(data)
    db = data / "pubpoker.db"
    before = digest(db)
    db.chmod(0o000)
    try:
        line = refused("players", "list", "--data-dir", str(data), drop_dac=True)
        assert line == StoreNoPermission(path=str(db), user="root").translate("nn")
    finally:
        db.chmod(0o644)
    assert set_aside(data) == [] and digest(db) == before
    db.chmod(0o444)
    try:
        line = refused("checkin", "--new", "Bo", "--data-dir", str(data), drop_dac=True)
        assert line == StoreReadOnly(path=str(db)).translate("nn")
        # Reading a read-only file is fine.
        done = pubpoker("players", "list", "--data-dir", str(data), drop_dac=True)
        assert done.returncode == 0 and "Siri" in done.stdout
    finally:
        db.chmod(0o644)
    assert set_aside(data) == []
    assert players_of(data) == ["Kari", "Ola", "Per", "Siri"]


@pytest.mark.parametrize("schema", [
    ["create table events(x)"],
    # pubpoker's meta, but an events table another program made.
    ["create table meta(key text primary key, value text not null)",
     "insert into meta values ('schema_version', '4')", "create table events(x)"],
    ["create table notes(body text)", "insert into notes values ('hei')"],
])
def test_a_foreign_sqlite_file_is_refused_untouched(tmp_path: Path, schema: list[str]) -> None:
    data = tmp_path / "data"
    data.mkdir()
    db = data / "pubpoker.db"
    shell = shutil.which("sqlite3")
    if shell is not None:
        # Made as the probe made it: with the sqlite3 shell.
        subprocess.run([shell, str(db), ";".join(schema)], check=True)
    else:
        conn = sqlite3.connect(db)
        for sql in schema:
            conn.execute(sql)
        conn.commit()
        conn.close()
    before = digest(db)
    table = "notes" if "notes" in schema[0] else "events"
    expected = ForeignStore(path=str(db), table=table).translate("nn")
    for argv in (("players", "list"), ("checkin", "--new", "Bo"), ("tournament", "show"),
                 ("players", "add", "Eli")):
        assert refused(*argv, "--data-dir", str(data)) == expected
    assert "another program" in refused("players", "list", "--data-dir", str(data), lang="en")
    report = pubpoker("doctor", "--json", "--data-dir", str(data))
    assert report.returncode == 1
    assert json.loads(report.stdout)["problems"] == ["store-foreign"]
    assert digest(db) == before
    assert sorted(p.name for p in data.iterdir()) == ["pubpoker.db"]


def test_a_truly_corrupt_file_is_still_set_aside_by_the_cli(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    garbage = b"this is not a database" * 400
    (data / "pubpoker.db").write_bytes(garbage)
    done = pubpoker("players", "list", "--data-dir", str(data))
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert "Databasen var øydelagd" in done.stderr
    (moved,) = [p for p in set_aside(data) if not p.name.endswith(("-wal", "-shm"))]
    assert moved.read_bytes() == garbage


def test_the_kiosks_store_opens_as_it_is_on_a_full_disk_refuses_writes_and_writes_again(
        ) -> None:
    """What ``pubpoker kiosk`` opens (``as_is_when_full``) when no CLI could."""
    from kiosk.store import open_store
    from rules.events import ClockPaused

    with tmpfs("2m") as data:
        a_night(data)
        # As a kiosk's clean shutdown leaves it: the last connection to close
        # (read-write) folds the WAL in and removes it and the -shm.
        conn = sqlite3.connect(data / "pubpoker.db")
        conn.execute("SELECT COUNT(*) FROM events").fetchone()
        conn.close()
        assert not (data / "pubpoker.db-shm").exists()
        (data / RESERVE_NAME).unlink()
        before = digest(data / "pubpoker.db")
        filler = fill(data)
        with pytest.raises(DiskFull):
            open_store(data_dir=data).close()
        store = open_store(data_dir=data, as_is_when_full=True)
        try:
            assert isinstance(store.refusal, DiskFull)
            assert store.disk_notice() == Notice("disk-full")
            tournament = store.current_tournament()
            assert tournament is not None
            held = len(store.records(tournament))
            assert sorted(p.name for p in store.players.list()) == ["Kari", "Ola", "Per", "Siri"]
            with pytest.raises(DiskFull):
                store.append_new(tournament, [ClockPaused(at=1.0)])
            with pytest.raises(DiskFull):
                store.players.add("Eli")
            assert not store.try_writable()  # still full: nothing changes
            assert isinstance(store.refusal, DiskFull)
            assert digest(data / "pubpoker.db") == before
            filler.unlink()
            assert store.try_writable()
            assert store.refusal is None
            store.append_new(tournament, [ClockPaused(at=2.0)])
            store.players.add("Eli")
            assert len(store.records(tournament)) == held + 1
        finally:
            store.close()
        assert set_aside(data) == []
        assert players_of(data) == ["Eli", "Kari", "Ola", "Per", "Siri"]
