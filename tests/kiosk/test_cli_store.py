"""``pubpoker players``, ``export`` and ``backup`` from the command line."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.store import open_store
from tests.kiosk.store.helpers import Night, players

README = Path(__file__).resolve().parents[2] / "README.md"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def no_appliance_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """This machine's /boot/firmware/pubpoker.toml, if any, must not steer the tests."""
    import kiosk.paths

    monkeypatch.setattr(kiosk.paths, "CONFIG_PATH", tmp_path / "no-config.toml")


@pytest.fixture
def data(tmp_path: Path) -> str:
    return str(tmp_path / "data")


def test_players_add_list_and_link_card(capsys: pytest.CaptureFixture[str], data: str) -> None:
    assert run(capsys, "players", "add", "Kari Nordmann", "--card", "0a1b2c3d4e",
               "--data-dir", data) == (0, "La til Kari Nordmann\n", "")
    assert run(capsys, "--lang", "en", "players", "add", "Ola", "--data-dir", data)[1] == (
        "Added Ola\n")
    code, out, _ = run(capsys, "players", "link-card", "ola", "deadbeef", "--data-dir", data)
    assert code == 0 and out == "Kortet DEADBEEF høyrer no til Ola\n"
    code, out, _ = run(capsys, "players", "list", "--data-dir", data)
    assert out.splitlines() == ["Namn           Kort", "Kari Nordmann  0A1B2C3D4E",
                                "Ola            DEADBEEF"]
    listed = json.loads(run(capsys, "players", "list", "--format", "json", "--data-dir",
                            data)[1])
    assert [(p["name"], p["cards"]) for p in listed] == [("Kari Nordmann", ["0A1B2C3D4E"]),
                                                          ("Ola", ["DEADBEEF"])]


def test_a_payment_card_is_refused_with_status_2_and_not_echoed(
        capsys: pytest.CaptureFixture[str], data: str) -> None:
    run(capsys, "players", "add", "Kari", "--data-dir", data)
    code, out, err = run(capsys, "players", "link-card", "Kari", "4111 1111 1111 1111",
                         "--data-dir", data)
    assert code == 2 and out == ""
    assert err.startswith("Det ser ut som eit betalingskort")
    assert "1111" not in err
    code, _, err = run(capsys, "players", "add", "Ola", "--card", "5500000000000004",
                       "--data-dir", data)
    assert code == 2 and "0004" not in err
    assert "Ola" not in run(capsys, "players", "list", "--data-dir", data)[1]


def test_players_import_reports_bad_lines_and_keeps_good_ones(
        capsys: pytest.CaptureFixture[str], data: str, tmp_path: Path) -> None:
    sheet = tmp_path / "players.csv"
    sheet.write_text("name,card\nKari,0A1B2C3D4E\n,DEADBEEF\nOla,4111111111111111\nPer,\n",
                     encoding="utf-8")
    code, out, err = run(capsys, "--lang", "en", "players", "import", str(sheet),
                         "--data-dir", data)
    assert code == 2
    assert out == "Imported: 2 new, 1 given a card, 0 unchanged, 2 errors\n"
    assert err.splitlines()[0] == "Line 3: The name cannot be empty"
    assert err.splitlines()[1].startswith("Line 4: That looks like a payment card")
    assert "4111" not in err
    code, out, _ = run(capsys, "players", "import", str(sheet.with_name("nope.csv")),
                       "--data-dir", data)
    assert code == 2


def test_an_unknown_player_is_a_translated_refusal(capsys: pytest.CaptureFixture[str],
                                                   data: str) -> None:
    code, _, err = run(capsys, "--lang", "da", "players", "link-card", "Ingen", "DEADBEEF",
                       "--data-dir", data)
    assert (code, err) == (2, "Ukendt spiller «Ingen»\n")


def played(data: str) -> None:
    with open_store(Path(data) / "pubpoker.db") as store:
        Night(store, "t1", name="Fredagspoker").started(players(6)).play_out()


def test_export_results_csv_and_json(capsys: pytest.CaptureFixture[str], data: str,
                                     tmp_path: Path) -> None:
    played(data)
    code, out, _ = run(capsys, "export", "results", "Fredagspoker", "--format", "csv",
                       "--machine-headers", "--data-dir", data)
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["place"] for r in rows] == ["1", "2", "3", "4", "5", "6"]
    target = tmp_path / "results.json"
    assert run(capsys, "export", "results", "t1", "--format", "json", "-o", str(target),
               "--data-dir", data)[:2] == (0, "")
    assert json.loads(target.read_text(encoding="utf-8"))["rows"][0]["knockouts"] == 5


def test_export_standings_csv_and_json(capsys: pytest.CaptureFixture[str], data: str) -> None:
    played(data)
    with open_store(Path(data) / "pubpoker.db") as store:
        season = store.tournament("t1").season
    code, out, _ = run(capsys, "export", "standings", season, "--format", "json",
                       "--data-dir", data)
    assert code == 0 and [r["rank"] for r in json.loads(out)["rows"]] == [1, 2, 3, 4, 5, 6]
    code, out, _ = run(capsys, "export", "standings", season, "--machine-headers",
                       "--data-dir", data)
    assert out.startswith("rank,name,points,tournaments,placings,player_id\n")
    code, _, err = run(capsys, "export", "standings", "1999", "--data-dir", data)
    assert code == 2 and "1999" in err


def test_export_without_a_store_says_where_it_looked(capsys: pytest.CaptureFixture[str],
                                                     data: str) -> None:
    code, _, err = run(capsys, "--lang", "en", "export", "results", "t1",
                         "--data-dir", data)
    assert code == 2 and "There is no store at" in err and data in err
    assert not Path(data).exists()  # nothing was created by asking


def test_backup_copies_the_store(capsys: pytest.CaptureFixture[str], data: str,
                                 tmp_path: Path) -> None:
    played(data)
    target = tmp_path / "usb" / "kopi.db"
    target.parent.mkdir()
    code, out, _ = run(capsys, "--lang", "en", "backup", str(target), "--data-dir", data)
    assert code == 0 and out.startswith(f"Backup written to {target} (")
    with open_store(target) as copy:
        assert copy.fold("t1").state.finished
    code, _, err = run(capsys, "backup", str(target), "--data-dir", str(tmp_path / "none"))
    assert code == 2 and "Det finst ingen database" in err


def test_the_data_dir_comes_from_the_environment_without_the_option(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUBPOKER_DATA_DIR", str(tmp_path / "env"))
    run(capsys, "players", "add", "Kari")
    assert (tmp_path / "env" / "pubpoker.db").exists()


@pytest.mark.parametrize("command", [
    "pubpoker players add NAME", "pubpoker players list", "pubpoker players import",
    "pubpoker players link-card NAME UID", "pubpoker export results TOURNAMENT",
    "pubpoker export standings SEASON", "pubpoker backup PATH",
])
def test_each_store_command_is_in_the_readme(command: str) -> None:
    assert command in README.read_text(encoding="utf-8")


def test_the_config_files_data_dir_is_used_without_the_option(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    import kiosk.paths

    toml = tmp_path / "pubpoker.toml"
    toml.write_text(f'[device]\ndata_dir = "{tmp_path / "cfg"}"\n[venue]\nkey = "{"ab" * 32}"\n',
                    encoding="utf-8")
    monkeypatch.setattr(kiosk.paths, "CONFIG_PATH", toml)
    monkeypatch.setenv("PUBPOKER_DATA_DIR", str(tmp_path / "env"))
    assert run(capsys, "players", "add", "Kari")[0] == 0
    assert (tmp_path / "cfg" / "pubpoker.db").exists()
    assert run(capsys, "players", "add", "Ola", "--data-dir", str(tmp_path / "cli"))[0] == 0
    assert (tmp_path / "cli" / "pubpoker.db").exists()
