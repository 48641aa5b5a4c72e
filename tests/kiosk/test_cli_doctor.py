"""``pubpoker doctor``: free space, the file system, the reserve and the store's health.

Run as a real process; it must change nothing, and exit 1 when something is wrong.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import sys
from pathlib import Path

import pytest

from kiosk.store import open_store
from rules.events import PlayerRegistered, TournamentCreated
from rules.structure import preset
from tests.kiosk.store.disk import fill, pubpoker, tmpfs


def a_store(data: Path) -> None:
    with open_store(data / "pubpoker.db") as store:
        store.append_new("t1", [TournamentCreated(at=0.0, name="F",
                                                  structure=preset("pubpoker"))])
        store.append_new("t1", [PlayerRegistered(at=1.0, player_id="p1", name="Kari")])
        store.players.add("Kari")
        store.players.add("Ola")


def doctor(data: Path, *extra: str, lang: str = "nn") -> tuple[int, str]:
    done = pubpoker("doctor", "--data-dir", str(data), *extra, lang=lang)
    assert "Traceback" not in done.stderr and done.stderr == "", done.stderr
    return done.returncode, done.stdout


def test_a_healthy_device(tmp_path: Path) -> None:
    a_store(tmp_path)
    code, out = doctor(tmp_path)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"Datamappe: {tmp_path}"
    assert lines[1].startswith("Ledig plass: ") and " byte av " in lines[1]
    assert lines[2] == "Filsystem: skrivbart"
    assert lines[3] == "Reserve: 4 194 304 byte (pubpoker.reserve)"
    assert lines[4] == "Database: i orden (skjema 5, 2 hendingar, 2 spelarar)"
    assert lines[-1] == "Alt i orden."
    code, out = doctor(tmp_path, lang="en")
    assert code == 0 and "Database: healthy (schema 5, 2 events, 2 players)" in out
    code, out = doctor(tmp_path, "--json")
    report = json.loads(out)
    assert code == 0 and report["healthy"] and report["problems"] == []
    assert report["space"]["free_bytes"] > 0 and 0 < report["space"]["free_percent"] <= 100
    assert report["file_system"] == {"read_only": False, "writable": True}
    assert report["reserve"]["present"] and report["reserve"]["bytes"] == 4194304
    assert {k: report["store"][k] for k in ("healthy", "quick_check", "schema_version",
                                            "events", "players")} == {
        "healthy": True, "quick_check": "ok", "schema_version": 5, "events": 2, "players": 2}


def test_a_damaged_store_is_reported_and_left_alone(tmp_path: Path) -> None:
    a_store(tmp_path)
    db = tmp_path / "pubpoker.db"
    db.write_bytes(b"not sqlite at all" * 300)
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    code, out = doctor(tmp_path)
    assert code == 1
    assert "Database: øydelagd (fila er ikkje ein SQLite-database); " in out
    assert out.splitlines()[-1] == "Problem: Databasen er øydelagd"
    code, out = doctor(tmp_path, "--json")
    assert code == 1 and json.loads(out)["problems"] == ["store-damaged"]
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    assert not list(tmp_path.glob("*.corrupt-*"))


DAMAGED_INSIDE = {
    "nn": "Database: øydelagd (SQLite fann skade inne i fila; «pubpoker doctor --json» gjev "
          "SQLite sine eigne ord); kiosken flyttar henne til side ved neste start",
    "nb": "Database: ødelagt (SQLite fant skade inne i filen; «pubpoker doctor --json» gir "
          "SQLites egne ord); kiosken flytter den til side ved neste start",
    "da": "Database: beskadiget (SQLite fandt skade inde i filen; «pubpoker doctor --json» "
          "giver SQLites egne ord); kiosken flytter den til side ved næste start",
    "en": "Database: damaged (SQLite found damage inside the file; 'pubpoker doctor --json' "
          "gives SQLite's own words); the kiosk sets it aside at its next start"}


@pytest.mark.parametrize("lang", ["nn", "nb", "da", "en"])
def test_damage_inside_the_store_is_said_in_the_rooms_language(
        tmp_path: Path, lang: str) -> None:
    """SQLite's "database disk image is malformed" stayed English on a Nynorsk doctor (issue 48)."""
    a_store(tmp_path)
    db = tmp_path / "pubpoker.db"
    raw = bytearray(db.read_bytes())
    raw[4096:12000] = b"Z" * len(raw[4096:12000])  # the header stays; the pages after it do not
    db.write_bytes(bytes(raw))
    code, out = doctor(tmp_path, lang=lang)
    assert code == 1 and DAMAGED_INSIDE[lang] in out.splitlines(), out
    assert "malformed" not in out or lang == "en"
    code, out = doctor(tmp_path, "--json", lang=lang)
    assert "malformed" in json.loads(out)["store"]["quick_check"]  # SQLite's words, for a helper


def test_a_foreign_or_missing_store(tmp_path: Path) -> None:
    code, out = doctor(tmp_path, lang="en")
    assert code == 1 and "Database: missing" in out and "Problems: No database" in out
    conn = sqlite3.connect(tmp_path / "pubpoker.db")
    conn.execute("create table events(x)")
    conn.close()
    code, out = doctor(tmp_path, "--json", lang="nb")
    report = json.loads(out)
    assert code == 1 and report["problems"] == ["store-foreign"]
    assert report["store"]["error_code"] == "ForeignStore"
    assert "annet program" in report["store"]["error"]


def test_a_full_disk_is_reported_with_the_store_still_healthy() -> None:
    with tmpfs("2m") as data:
        a_store(data)
        (data / "pubpoker.reserve").unlink()
        fill(data)
        code, out = doctor(data)
        assert code == 1
        assert "Ledig plass: 0 byte av 2 097 152 (0,0 %)" in out
        assert "Reserve: ingen" in out
        assert "Database: i orden (skjema 5, 2 hendingar, 2 spelarar)" in out
        assert out.splitlines()[-1] == "Problem: Minnekortet er fullt"
        code, out = doctor(data, "--json")
        report = json.loads(out)
        assert report["problems"] == ["disk-full"] and report["space"]["full"]
        assert not list(data.glob("*.corrupt-*"))


def test_the_listeners_pauses_the_kiosk_noted_are_told_in_every_language(
        tmp_path: Path) -> None:
    """What kiosk.pause_ledger writes when peer sync or the page ran out of descriptors."""
    a_store(tmp_path)
    code, out = doctor(tmp_path, lang="en")
    assert code == 0 and "file descriptors" not in out
    with open_store(tmp_path / "pubpoker.db") as store:
        store.note("listener_pauses", json.dumps(
            {"peers": 3, "phones": 1200, "since": "2026-12-04T19:00:00+01:00",
             "last": "2026-12-04T21:12:09+01:00"}))
    expected = {
        "nn": "Tilkoplingar venta på ledige fildeskriptorar sidan kiosken starta "
              "(2026-12-04T19:00:00+01:00): 3 gonger for andre einingar, 1 200 for telefonar "
              "(sist 2026-12-04T21:12:09+01:00)",
        "nb": "Tilkoblinger ventet på ledige fildeskriptorer siden kiosken startet "
              "(2026-12-04T19:00:00+01:00): 3 ganger for andre enheter, 1 200 for telefoner "
              "(sist 2026-12-04T21:12:09+01:00)",
        "da": "Forbindelser ventede på ledige fildeskriptorer siden kiosken startede "
              "(2026-12-04T19:00:00+01:00): 3 gange for andre enheder, 1 200 for telefoner "
              "(senest 2026-12-04T21:12:09+01:00)",
        "en": "Connections waited for free file descriptors since the kiosk started "
              "(2026-12-04T19:00:00+01:00): 3 times for other devices, 1,200 for phones "
              "(last 2026-12-04T21:12:09+01:00)",
    }
    for lang, line in expected.items():
        code, out = doctor(tmp_path, lang=lang)
        assert code == 0 and line in out.splitlines(), (lang, out)
    code, out = doctor(tmp_path, "--json")
    assert json.loads(out)["store"]["listener_pauses"] == {
        "peers": 3, "phones": 1200, "since": "2026-12-04T19:00:00+01:00",
        "last": "2026-12-04T21:12:09+01:00"}


def test_the_buttons_side_no_chip_is_no_problem(tmp_path: Path) -> None:
    """This host has no /dev/gpiochip*, like a laptop: said, and all is still well."""
    a_store(tmp_path)
    code, out = doctor(tmp_path)
    lines = out.splitlines()
    assert code == 0 and lines[-1] == "Alt i orden."
    assert "GPIO-brikke: ingen; knappane er av, tastaturet verkar framleis" in lines
    assert any(line.startswith("GPIO-drivar: ") for line in lines)
    code, out = doctor(tmp_path, "--json")
    gpio = json.loads(out)["gpio"]
    assert code == 0 and gpio["chips"] == [] and gpio["chip"] is None


def test_the_pin_factory_and_the_chip_in_every_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kiosk.cli import doctor_cmd
    from kiosk.cli.doctor_cmd import GpioReport, examine_gpio, render_gpio
    from tests.hardware.fake_gpiod import FakeGpiod

    (tmp_path / "gpiochip0").touch()
    (tmp_path / "gpiochip4").touch()
    fake = FakeGpiod({str(tmp_path / "gpiochip0"): "gpio-brcmstb@107d508500",
                      str(tmp_path / "gpiochip4"): "pinctrl-rp1"})
    monkeypatch.setitem(sys.modules, "gpiod", fake)
    monkeypatch.setattr(doctor_cmd, "_factory_installed", lambda name: name == "gpiod")
    gpio = examine_gpio({"GPIOZERO_PIN_FACTORY": "gpiod"}, dev=str(tmp_path))
    assert gpio == GpioReport(factory="gpiod", installed=True,
                              chips=(str(tmp_path / "gpiochip0"), str(tmp_path / "gpiochip4")),
                              chip=str(tmp_path / "gpiochip4"), label="pinctrl-rp1")
    chip = f"{tmp_path}/gpiochip4 (pinctrl-rp1)"
    assert render_gpio(gpio, "nn") == ["GPIO-drivar: «gpiod» ($GPIOZERO_PIN_FACTORY)",
                                       f"GPIO-brikke: {chip}"]
    assert render_gpio(gpio, "nb") == ["GPIO-driver: «gpiod» ($GPIOZERO_PIN_FACTORY)",
                                       f"GPIO-brikke: {chip}"]
    assert render_gpio(gpio, "da") == ["GPIO-driver: «gpiod» ($GPIOZERO_PIN_FACTORY)",
                                       f"GPIO-chip: {chip}"]
    assert render_gpio(gpio, "en") == ["GPIO pin factory: 'gpiod' ($GPIOZERO_PIN_FACTORY)",
                                       f"GPIO chip: {chip}"]
    lgpio = examine_gpio({"GPIOZERO_PIN_FACTORY": "lgpio"}, dev=str(tmp_path))
    assert not lgpio.installed
    assert render_gpio(lgpio, "nn")[0] == ("GPIO-drivar: «lgpio» ($GPIOZERO_PIN_FACTORY), "
                                           "men han er ikkje installert")
    assert render_gpio(lgpio, "en")[0] == ("GPIO pin factory: 'lgpio' ($GPIOZERO_PIN_FACTORY), "
                                           "but it is not installed")
    default = examine_gpio({}, dev=str(tmp_path))
    assert default.factory is None and default.installed is None
    assert render_gpio(default, "nb")[0] == (
        "GPIO-driver: gpiozero velger selv ($GPIOZERO_PIN_FACTORY er ikke satt)")


def test_a_chip_that_is_not_a_gpio_device_is_still_listed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without (v2) bindings, the first /dev/gpiochip* is named, with no label."""
    from kiosk.cli.doctor_cmd import examine_gpio

    monkeypatch.setitem(sys.modules, "gpiod", None)  # import gpiod fails
    (tmp_path / "gpiochip0").touch()
    gpio = examine_gpio({"GPIOZERO_PIN_FACTORY": "mock"}, dev=str(tmp_path))
    assert gpio.installed and gpio.chip == str(tmp_path / "gpiochip0") and gpio.label is None


def test_the_real_factory_check(monkeypatch: pytest.MonkeyPatch) -> None:
    from kiosk.cli.doctor_cmd import _factory_installed

    assert _factory_installed("mock") and _factory_installed("MOCK")
    assert not _factory_installed("no-such-factory")
    monkeypatch.setitem(sys.modules, "lgpio", None)
    assert not _factory_installed("lgpio")  # registered by gpiozero, but no lgpio module
