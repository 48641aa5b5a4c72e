"""Issue 17, item 5: hostile input to the real ``pubpoker`` ends in one clear sentence.

Each case runs the CLI as a process (the TD's SSH session), on a store that
already holds a night, and asserts: exit status 2, the sentence in English and
in the default Nynorsk, no traceback, a short line, and the store exactly as
it was.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rules.i18n import shorten

ROOT = Path(__file__).resolve().parents[2]
LONG = "x" * 5000


def pubpoker(data: Path, *argv: str | bytes, lang: str | None = None,
             timeout: float = 60, env_lang: str | None = None
             ) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PUBPOKER_DATA_DIR": str(data),
           "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env.pop("PUBPOKER_LANG", None)  # the default language is the one under test
    if env_lang is not None:
        env["PUBPOKER_LANG"] = env_lang
    head = [sys.executable, "-m", "kiosk.cli", *(("--lang", lang) if lang else ())]
    return subprocess.run([*head, *argv], env=env, text=True, errors="replace",
                          capture_output=True, timeout=timeout, cwd=data)


def store_rows(data: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """Every event and player, read without writing."""
    conn = sqlite3.connect(f"file:{data / 'pubpoker.db'}?mode=ro", uri=True)
    try:
        return (conn.execute("SELECT * FROM events ORDER BY rowid").fetchall(),
                conn.execute("SELECT * FROM players ORDER BY id").fetchall())
    finally:
        conn.close()


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("night")
    for argv in (("tournament", "new", "--name", "Fredag {date}"),
                 ("checkin", "--new", "Kari Nordmann"), ("checkin", "--new", "Ola Normann"),
                 ("players", "add", "Åse Ødegård")):
        done = pubpoker(data, *argv)
        assert done.returncode == 0, done.stderr
    return data


def refused(data: Path, argv: tuple[str | bytes, ...], lang: str | None) -> str:
    """Run a refused command; assert the refusal's shape and that nothing changed."""
    before = store_rows(data)
    done = pubpoker(data, *argv, lang=lang)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and "Error:" not in done.stderr
    assert done.stdout == ""
    # One sentence (a usage line may come first): no 5,000 characters quoted back. A path
    # is quoted up to 200 characters, and the OS's reason comes with what to do about it.
    assert all(len(line) < 320 for line in done.stderr.splitlines()), done.stderr
    assert store_rows(data) == before
    return done.stderr.strip().splitlines()[-1]


CASES: dict[str, tuple[tuple[str | bytes, ...], str, str]] = {
    "unknown field in the name": (
        ("tournament", "new", "--name", "{evil}"),
        "--name “{evil}” is not valid: only {date}, {weekday} and {month} may stand in "
        "curly braces",
        "--name «{evil}» er ikkje gyldig: berre {date}, {weekday} og {month} kan stå i "
        "krøllparentesar"),
    "printf and an index in the name": (
        ("tournament", "new", "--name", "%s%n{0}"),
        "--name “%s%n{0}” is not valid: only {date}, {weekday} and {month} may stand in "
        "curly braces",
        "--name «%s%n{0}» er ikkje gyldig: berre {date}, {weekday} og {month} kan stå i "
        "krøllparentesar"),
    "a format spec that would fill in a gigabyte": (
        ("tournament", "new", "--name", "{date:>999999999}"),
        "--name “{date:>999999999}” is not valid: only {date}, {weekday} and {month} may stand in "
        "curly braces",
        "--name «{date:>999999999}» er ikkje gyldig: berre {date}, {weekday} og {month} kan stå i "
        "krøllparentesar"),
    "a tournament name too long for the TV": (
        ("tournament", "new", "--name", "Fredagspoker " * 8),
        "--name “Fredagspoker Fredagspoker Fredagspoker F…” is not valid: a tournament name "
        "may have at most 80 characters once {date}, {weekday} and {month} are filled in",
        "--name «Fredagspoker Fredagspoker Fredagspoker F…» er ikkje gyldig: eit "
        "turneringsnamn kan ha høgst 80 teikn når {date}, {weekday} og {month} er fylte inn"),
    "a line break in the tournament name": (
        ("tournament", "new", "--name", "Fredag\nfinale"),
        "--name “Fredag\\nfinale” is not valid: write it on one line without control "
        "characters",
        "--name «Fredag\\nfinale» er ikkje gyldig: skriv det på éi linje utan styreteikn"),
    "a blank tournament name": (
        ("tournament", "new", "--name", "   "),
        "--name is empty; write something between the quotes or remove the line",
        "--name er tom; skriv noko mellom hermeteikna eller fjern lina"),
    "no seats": (
        ("tournament", "new", "--seats", "0"),
        "--seats 0 is out of range; use a number from 2 to 11",
        "--seats 0 er utanfor grensene; bruk eit tal frå 2 til 11"),
    "too many tables": (
        ("tournament", "new", "--tables", "9999"),
        "--tables 9999 is out of range; use a number from 1 to 15",
        "--tables 9999 er utanfor grensene; bruk eit tal frå 1 til 15"),
    "a walk-in's name of 5,000 characters": (
        ("checkin", LONG),
        "The name 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' is too long (5,000 characters); "
        "it may have at most 40",
        "Namnet «xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…» er for langt (5 000 teikn); det "
        "kan ha høgst 40"),
    "a walk-in's name of 41 characters": (
        ("checkin", "K" * 41),
        "The name 'KKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKK…' is too long (41 characters); "
        "it may have at most 40",
        "Namnet «KKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKK…» er for langt (41 teikn); det kan "
        "ha høgst 40"),
    "a terminal escape in a walk-in's name": (
        ("checkin", "Kari\x1b[2J"),
        "The name 'Kari\\x1b[2J' holds a character that cannot be shown (U+001B); write it "
        "on one line without control characters",
        "Namnet «Kari\\x1b[2J» har eit teikn som ikkje kan visast (U+001B); skriv det på éi "
        "linje utan styreteikn"),
    "a new player's name on two lines": (
        ("players", "add", "Kari\nNordmann"),
        "The name 'Kari\\nNordmann' holds a character that cannot be shown (U+000A); write it "
        "on one line without control characters",
        "Namnet «Kari\\nNordmann» har eit teikn som ikkje kan visast (U+000A); skriv det på "
        "éi linje utan styreteikn"),
    "a rename too long": (
        ("players", "rename", "Kari Nordmann", "Kari " * 20),
        "The name 'Kari Kari Kari Kari Kari Kari Kari Kari …' is too long (99 characters); "
        "it may have at most 40",
        "Namnet «Kari Kari Kari Kari Kari Kari Kari Kari …» er for langt (99 teikn); det kan "
        "ha høgst 40"),
    "a rename with a bidi override": (
        ("players", "rename", "Ola Normann", "Ola \u202enamroN"),
        "The name 'Ola \\u202enamroN' holds a character that cannot be shown (U+202E); write "
        "it on one line without control characters",
        "Namnet «Ola \\u202enamroN» har eit teikn som ikkje kan visast (U+202E); skriv det på "
        "éi linje utan styreteikn"),
    "bytes that are not UTF-8": (
        ("players", "add", b"Kari\xff"),
        "“Kari\ufffd” is not UTF-8 text (byte 0xFF); type it again",
        "«Kari\ufffd» er ikkje tekst i UTF-8 (byte 0xFF); skriv det på nytt"),
    "a clock change that is not a number": (
        ("clock", "add", "nan"),
        "clock add nan is out of range; use a number from -10,800 to 10,800",
        "clock add nan er utanfor grensene; bruk eit tal frå -10 800 til 10 800"),
    "a clock change of a lifetime": (
        ("clock", "add", "1e300"),
        "clock add 1e+300 is out of range; use a number from -10,800 to 10,800",
        "clock add 1e+300 er utanfor grensene; bruk eit tal frå -10 800 til 10 800"),
    "side pots for 11,000 seats (a minute of output before)": (
        ("rules", "pots", "--contributions",
         ",".join(f"{seat}:{seat * 7}" for seat in range(1, 11_000))),
        "Seat 12 does not exist: a table has seats 1 to 11",
        "Sete 12 finst ikkje: eit bord har sete 1 til 11"),
    "check-in with neither name nor card": (
        ("checkin",),
        "Give the player's name or --card UID",
        "Skriv namnet til spelaren eller --card UID"),
    "an unknown player of 5,000 characters": (
        ("bust", LONG),
        "Unknown player: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…",
        "Ukjend spelar: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…"),
}


@pytest.mark.parametrize("lang", ["en", None])
@pytest.mark.parametrize("case", list(CASES))
def test_hostile_input_is_refused_in_one_sentence_and_nothing_is_lost(
        night: Path, case: str, lang: str | None) -> None:
    argv, english, nynorsk = CASES[case]
    assert refused(night, argv, lang) == (english if lang else nynorsk)


def test_the_night_is_still_there_after_the_refusals(night: Path) -> None:
    listed = pubpoker(night, "tournament", "show", lang="en")
    assert listed.returncode == 0 and "Entrants: 2" in listed.stdout
    players = pubpoker(night, "players", "list", "--format", "csv")
    assert players.stdout.splitlines()[1:] == ["Kari Nordmann,", "Ola Normann,",
                                               "Åse Ødegård,"]


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "A points table goes up to 10,000 entrants, not 99,999,999,999"),
    (None, "Ein poengtabell går opp til 10 000 påmelde, ikkje 99 999 999 999"),
])
def test_a_runaway_points_table_is_refused_at_once(
        tmp_path: Path, lang: str | None, expected: str) -> None:
    started = time.monotonic()
    done = pubpoker(tmp_path, "points", "--entrants", "99999999999", lang=lang, timeout=20)
    assert (done.returncode, done.stdout, done.stderr.strip()) == (2, "", expected)
    assert time.monotonic() - started < 15
    # The largest table a league may print still prints (10 000 places, grouped).
    done = pubpoker(tmp_path, "points", "--entrants", "10000", lang="en")
    assert done.returncode == 0 and done.stdout.startswith("Points for 10,000 entrants")


@pytest.mark.parametrize("command", ["kiosk", "demo"])
@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "--size 99999x99999 is out of range; use from 320x240 up to 7680x4320 pixels"),
    (None, "--size 99999x99999 er utanfor grensene; bruk frå 320x240 til 7680x4320 pikslar"),
])
def test_a_window_pygame_cannot_make_is_refused_before_pygame(
        tmp_path: Path, command: str, lang: str | None, expected: str) -> None:
    done = pubpoker(tmp_path, command, "--headless", "--size", "99999x99999", "--frames", "1",
                    "--data-dir", str(tmp_path), lang=lang)
    assert (done.returncode, done.stderr.strip()) == (2, expected)
    assert "pygame" not in done.stderr.lower() and "Traceback" not in done.stderr
    # Nothing was started: no store was made in the data dir.
    assert not (tmp_path / "pubpoker.db").exists()


def test_a_config_value_of_5000_characters_is_quoted_cut_short(tmp_path: Path) -> None:
    key = "ab" * 32
    for section, setting in (("display", "connector"), ("tournament", "house"),
                             ("reader", "url")):
        config = tmp_path / f"{section}.toml"
        config.write_text(f'[venue]\nkey = "{key}"\n[{section}]\n{setting} = "{LONG}"\n')
        for lang, expected in (
                ("en", f"Line 4: {section}.{setting} “{'x' * 40}…” is too long (5,000 "
                       "characters); it may have at most 255"),
                (None, f"Linje 4: {section}.{setting} «{'x' * 40}…» er for lang (5 000 teikn); "
                       "han kan ha høgst 255")):
            done = pubpoker(tmp_path, "config", "check", str(config), lang=lang)
            assert (done.returncode, done.stderr.strip()) == (2, expected)


def test_a_5000_character_argument_is_quoted_cut_short_by_argparse(tmp_path: Path) -> None:
    done = pubpoker(tmp_path, "points", "--entrants", LONG, lang="en")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last == f"pubpoker points: error: argument --entrants: invalid int value: " \
                   f"'{'x' * 40}…'"
    done = pubpoker(tmp_path, "points", "--entrants", "5", *([LONG] * 20), lang="en")
    assert done.stderr.strip().splitlines()[-1] == (
        f"pubpoker: error: unrecognized arguments: {' '.join(['x' * 40 + '…'] * 5)} …")


def test_an_import_keeps_the_good_lines_and_names_each_bad_one(tmp_path: Path) -> None:
    csv = tmp_path / "players.csv"
    csv.write_text("name,card\nKari,0A1B2C3D4E\n" + "x" * 5000 + ",\n"
                   '"Ola\nNormann",\n{evil} %s,\nPer,\n', encoding="utf-8")
    done = pubpoker(tmp_path, "players", "import", str(csv), lang="en")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        "Line 3: The name 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' is too long (5,000 "
        "characters); it may have at most 40",
        "Line 4: The name 'Ola\\nNormann' holds a character that cannot be shown (U+000A); "
        "write it on one line without control characters"]
    assert done.stdout == "Imported: 3 new, 1 given a card, 0 unchanged, 2 errors\n"
    listed = pubpoker(tmp_path, "players", "list", "--format", "csv")
    assert listed.stdout.splitlines()[1:] == ["Kari,0A1B2C3D4E", "Per,", "{evil} %s,"]


def test_an_unknown_language_in_the_environment_falls_back_to_nynorsk(night: Path) -> None:
    done = pubpoker(night, "tournament", "show", env_lang="xx")
    assert done.returncode == 0 and "Påmelde: 2" in done.stdout, done.stderr
    done = pubpoker(night, "checkin", "K" * 41, env_lang="xx")
    assert done.returncode == 2 and done.stderr.startswith("Namnet «KKKK")
    # A known one in the environment is taken, for argparse's type checks too.
    done = pubpoker(night, "kiosk", "--size", "5x", env_lang="da")
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        "pubpoker kiosk: fejl: argument --size: »5x« er ikke en størrelse; skriv "
        "BREDDExHØJDE, for eksempel 1280x720")


@pytest.mark.parametrize(("argv", "english", "nynorsk"), [
    (("config", "check", "/dev/zero"),
     "/dev/zero is too big (over 256 KiB) to be a pubpoker.toml",
     "/dev/zero er for stor (over 256 KiB) til å vere ein pubpoker.toml"),
    (("players", "import", "/dev/zero"),
     "/dev/zero is too big (over 4,096 KiB); is it the right file?",
     "/dev/zero er for stor (over 4 096 KiB); er det rett fil?"),
    (("points", "--entrants", "9", "--scheme", "table", "--table", "/dev/zero"),
     "/dev/zero is too big (over 4,096 KiB); is it the right file?",
     "/dev/zero er for stor (over 4 096 KiB); er det rett fil?"),
])
def test_an_endless_file_is_not_read_into_memory(
        night: Path, argv: tuple[str, ...], english: str, nynorsk: str) -> None:
    assert refused(night, argv, "en") == english
    assert refused(night, argv, None) == nynorsk


def test_a_backup_to_a_name_the_file_system_refuses_is_one_sentence(night: Path) -> None:
    target = night / ("y" * 300)
    assert refused(night, ("backup", str(target)), "en") == (
        f"The backup to {shorten(str(target), 200)} failed: the name or path is too long; "
        "choose a shorter name")
    assert not [p for p in night.iterdir() if p.name.startswith("yyy")]


def test_a_csv_field_over_csvs_limit_is_one_sentence_and_imports_nothing(night: Path) -> None:
    big = night / "big.csv"
    big.write_text("name,card\nNils,\n" + "x" * 200_000 + ",\n", encoding="utf-8")
    assert refused(night, ("players", "import", str(big)), "en") == (
        f"Cannot use the file {big}: a field is over 128 KiB; is it really a CSV file of "
        "names and cards?")


def test_files_nested_past_the_parsers_recursion_limit_are_one_sentence(night: Path) -> None:
    table = night / "deep.json"
    table.write_text('{"per_place": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert refused(night, ("points", "--entrants", "5", "--scheme", "table", "--table",
                           str(table)), "en") == (
        f"Cannot read the points table {table}: nested too deeply")
    config = night / "deep.toml"
    config.write_text("name = " + "[" * 100_000 + "]" * 100_000 + "\n")
    assert refused(night, ("config", "check", str(config)), None) == (
        "pubpoker.toml har lister eller tabellar i kvarandre så djupt at ho ikkje kan "
        "lesast; ingen innstilling treng meir enn eitt nivå")


def test_a_percent_sign_and_doubled_braces_are_literal_in_the_name(tmp_path: Path) -> None:
    done = pubpoker(tmp_path, "tournament", "new", "--name", "100% {{moro}} %s {weekday}",
                    lang="en")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Created: 100% {moro} %s ")
    assert "{weekday}" not in done.stdout


@pytest.mark.parametrize("command", ["kiosk", "demo"])
def test_a_screenshot_into_a_missing_folder_is_refused_before_the_run(
        tmp_path: Path, command: str) -> None:
    missing = tmp_path / "no" / "such"
    done = pubpoker(tmp_path, command, "--headless", "--frames", "1", "--data-dir",
                    str(tmp_path), "--screenshot", str(missing / "shot.png"), lang="en")
    assert (done.returncode, done.stderr.strip()) == (
        2, f"--screenshot: the folder {missing} does not exist or cannot be written to")
    assert not (tmp_path / "pubpoker.db").exists()


def test_an_unknown_role_is_refused_before_the_kiosk_starts(tmp_path: Path) -> None:
    for lang, expected in ((None, "Ukjend rolle for eininga: '{evil}'"),
                           ("en", "Unknown device role: 'display+bartender'")):
        role = expected.rpartition(": ")[2].strip("'")
        done = pubpoker(tmp_path, "kiosk", "--headless", "--frames", "1", "--role", role,
                        "--data-dir", str(tmp_path), lang=lang)
        assert (done.returncode, done.stderr.strip()) == (2, expected)
    assert not (tmp_path / "pubpoker.db").exists()


def test_a_backup_onto_the_store_itself_is_refused(night: Path) -> None:
    inode = (night / "pubpoker.db").stat().st_ino
    for target, shown, lang, expected in (
            (night, "pubpoker.db", "en", "is one of the store's files; write the backup "
                                         "somewhere else, for example to a USB stick"),
            (night / "pubpoker.db-wal", "pubpoker.db-wal", "en",
             "is one of the store's files; write the backup somewhere else, for example "
             "to a USB stick"),
            (night / "pubpoker.db", "pubpoker.db", None,
             "er ei av fila til databasen; skriv tryggingskopien ein annan stad, til dømes "
             "på ein USB-pinne")):
        assert refused(night, ("backup", str(target)), lang) == f"{night / shown} {expected}"
    # Not replaced: a running kiosk would have gone on writing into the old file.
    assert (night / "pubpoker.db").stat().st_ino == inode


def test_an_export_over_the_stores_own_files_is_refused(night: Path) -> None:
    for name in ("pubpoker.db", "pubpoker.db-wal"):
        assert refused(night, ("export", "standings", "2026", "--output", str(night / name)),
                       "en") == (f"--output {night / name} is one of the store's files; "
                                 "write the export somewhere else")
