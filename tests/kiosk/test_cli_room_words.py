"""Issue 48: every word in the room's language, and errors that help, through the
real ``pubpoker`` command in nn, nb, da and en."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from rules.i18n import LANGUAGES, MONTHS, WEEKDAYS
from tests.kiosk.cli_run import pubpoker

pytestmark = pytest.mark.realproc


# Weekday and month names from the catalogue, never the C locale ---------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_weekday_and_month_in_a_name_are_the_rooms(tmp_path: Path, lang: str) -> None:
    before = dt.date.today()
    done = pubpoker(tmp_path, "tournament", "new", "--name", "{weekday}spoker i {month}",
                    lang=lang)
    after = dt.date.today()
    names = {f"{WEEKDAYS[lang][day.weekday()]}spoker i {MONTHS[lang][day.month - 1]}"
             for day in (before, after)}
    said = done.stdout.strip().partition(": ")[2]
    assert said in {name[:1].upper() + name[1:] for name in names}, done.stdout
    if lang != "en":
        assert not any(english in said for english in WEEKDAYS["en"] + MONTHS["en"])


# The small answers ---------------------------------------------------------------------------

IMPORTED = {"nn": "Importerte: 130 nye, 44 fekk kort, 0 uendra, 0 feil",
            "nb": "Importerte: 130 nye, 44 fikk kort, 0 uendrede, 0 feil",
            "da": "Importerede: 130 nye, 44 fik kort, 0 uændrede, 0 fejl",
            "en": "Imported: 130 new, 44 given a card, 0 unchanged, 0 errors"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_import_counts_the_cards_new_players_were_given(tmp_path: Path, lang: str) -> None:
    sheet = tmp_path / "players.csv"
    sheet.write_text("name,card\n" + "".join(
        f"Spelar {n:03d},{f'0A1B2C{n:04X}' if n % 3 == 1 else ''}\n" for n in range(1, 131)),
        encoding="utf-8")
    done = pubpoker(tmp_path, "players", "import", str(sheet), lang=lang)
    assert done.stdout == IMPORTED[lang] + "\n"


def test_the_standings_points_stay_in_line_between_one_point_and_several(
        tmp_path: Path) -> None:
    pubpoker(tmp_path, "tournament", "new", "--name", "Fredag")
    for n in range(1, 12):
        pubpoker(tmp_path, "checkin", "--new", f"Spelar {n:02d}")
    pubpoker(tmp_path, "seat", "draw")
    pubpoker(tmp_path, "clock", "start")
    for n in range(1, 11):  # 11th to 2nd: 1 point up to 10 points
        pubpoker(tmp_path, "bust", f"Spelar {n:02d}")
    rows = pubpoker(tmp_path, "standings", lang="en").stdout.splitlines()[1:]
    assert any(" 1 point " in row for row in rows) and any(" 4 points " in row for row in rows)
    # Every row's count ends in the same column, and so does its noun.
    numbers = {row.index(" point") for row in rows}
    tournaments = {row.index(" tournament") for row in rows}
    assert len(numbers) == 1 and len(tournaments) == 1, rows


MISSING = {"nn": "Kan ikkje bruke fila /nonexistent: fila eller mappa finst ikkje; "
                 "sjå etter skrivefeil i stien",
           "nb": "Kan ikke bruke filen /nonexistent: filen eller mappen finnes ikke; "
                 "se etter skrivefeil i stien",
           "da": "Kan ikke bruge filen /nonexistent: filen eller mappen findes ikke; "
                 "se efter stavefejl i stien",
           "en": "Cannot use the file /nonexistent: there is no such file or folder; "
                 "check the path for a typo"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_players_import_of_a_missing_file_says_so_in_the_rooms_language(
        tmp_path: Path, lang: str) -> None:
    done = pubpoker(tmp_path, "players", "import", "/nonexistent", lang=lang, code=2)
    assert done.stderr == MISSING[lang] + "\n"
    assert "Errno" not in done.stderr


NO_CARD = {"nn": "pubpoker checkin: feil: --card treng minst éin verdi",
           "nb": "pubpoker checkin: feil: --card trenger minst én verdi",
           "da": "pubpoker checkin: fejl: --card skal have mindst én værdi",
           "en": "pubpoker checkin: error: argument --card: expected at least one argument"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_card_without_a_value_is_refused_in_the_rooms_language(
        tmp_path: Path, lang: str) -> None:
    done = pubpoker(tmp_path, "checkin", "--card", lang=lang, code=2)
    assert done.stderr.splitlines()[-1] == NO_CARD[lang]


# One word for one thing ----------------------------------------------------------------------

PAYMENT = {"nn": "Det ser ut som eit betalingskort – bruk spelarkortet. Betalingskort vert "
                 "aldri lagra.",
           "nb": "Det ser ut som et betalingskort – bruk spillerkortet. Betalingskort blir "
                 "aldri lagret.",
           "da": "Det ligner et betalingskort – brug spillerkortet. Betalingskort gemmes "
                 "aldrig.",
           "en": "That looks like a payment card – use the player card. Payment cards are "
                 "never stored."}
UNKNOWN_CARD = {"nn": "Ukjend kort 0FFFFFFFFF", "nb": "Ukjent kort 0FFFFFFFFF",
                "da": "Ukendt kort 0FFFFFFFFF", "en": "Unknown card 0FFFFFFFFF"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_payment_card_gets_one_sentence_at_check_in_and_at_link_card(
        tmp_path: Path, lang: str) -> None:
    pubpoker(tmp_path, "tournament", "new", "--name", "Fredag")
    pubpoker(tmp_path, "players", "add", "Kari")
    at_checkin = pubpoker(tmp_path, "checkin", "--card", "4111111111111111", lang=lang, code=2)
    at_link = pubpoker(tmp_path, "players", "link-card", "Kari", "4111111111111111", lang=lang,
                       code=2)
    assert at_checkin.stderr == at_link.stderr == PAYMENT[lang] + "\n"
    unknown = pubpoker(tmp_path, "checkin", "--card", "0FFFFFFFFF", lang=lang, code=2)
    assert unknown.stderr.startswith(UNKNOWN_CARD[lang])


# config check: every problem, each with its line and the usual fix ----------------------------

SLIPS = "\n".join([
    "[venue]",
    'key = "' + "ab" * 32 + '"',
    "[tournament",
    "name = Fredagspoker {date}",
    "tables = 4",
    "tables = 5",
    "[device]",
    'role = "tv"',
])
CHECKED = {
    "nn": ["pubpoker.toml har ein skrivefeil på linje 3, teikn 12: ei seksjonsoverskrift er "
           "eitt namn i hakeparentesar, til dømes [tournament]",
           "pubpoker.toml har ein skrivefeil på linje 4, teikn 8: verdien kan ikkje lesast; "
           'tekst skal stå i hermeteikn: name = "Fredagspoker {date}"',
           "pubpoker.toml har ein skrivefeil på linje 6, teikn 11: "
           "tournament.tables står to gonger; fjern den eine",
           "Linje 8: device.role «tv» er ukjend; bruk display, console eller table"],
    "nb": ["pubpoker.toml har en skrivefeil på linje 3, tegn 12: en seksjonsoverskrift er "
           "ett navn i hakeparenteser, for eksempel [tournament]",
           "pubpoker.toml har en skrivefeil på linje 4, tegn 8: verdien kan ikke leses; "
           'tekst skal stå i anførselstegn: name = "Fredagspoker {date}"',
           "pubpoker.toml har en skrivefeil på linje 6, tegn 11: "
           "tournament.tables står to ganger; fjern den ene",
           "Linje 8: device.role «tv» er ukjent; bruk display, console eller table"],
    "da": ["pubpoker.toml har en skrivefejl på linje 3, tegn 12: en sektionsoverskrift er "
           "ét navn i kantede parenteser, for eksempel [tournament]",
           "pubpoker.toml har en skrivefejl på linje 4, tegn 8: værdien kan ikke læses; "
           'tekst skal stå i anførselstegn: name = "Fredagspoker {date}"',
           "pubpoker.toml har en skrivefejl på linje 6, tegn 11: "
           "tournament.tables står der to gange; fjern den ene",
           "Linje 8: device.role «tv» er ukendt; brug display, console eller table"],
    "en": ["pubpoker.toml has a syntax error on line 3, column 12: a section heading is one "
           "name in square brackets, for example [tournament]",
           "pubpoker.toml has a syntax error on line 4, column 8: the value cannot be read; "
           'text goes in quotes: name = "Fredagspoker {date}"',
           "pubpoker.toml has a syntax error on line 6, column 11: "
           "tournament.tables is there twice; remove one of them",
           "Line 8: device.role “tv” is unknown; use display, console or table"],
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_config_check_lists_every_problem_with_its_line_and_fix(
        tmp_path: Path, lang: str) -> None:
    config = tmp_path / "pubpoker.toml"
    config.write_text(SLIPS + "\n", encoding="utf-8")
    done = pubpoker(tmp_path, "config", "check", str(config), lang=lang, code=2)
    assert done.stderr.splitlines() == CHECKED[lang]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_config_check_says_a_missing_closing_quote(tmp_path: Path, lang: str) -> None:
    config = tmp_path / "pubpoker.toml"
    config.write_text('[venue]\nkey = "' + "ab" * 32 + '\n', encoding="utf-8")
    done = pubpoker(tmp_path, "config", "check", str(config), lang=lang, code=2)
    assert "Illegal character" not in done.stderr
    assert {"nn": "eit hermeteikn manglar", "nb": "et anførselstegn mangler",
            "da": "et anførselstegn mangler", "en": "a closing quote is missing"}[lang] \
        in done.stderr


@pytest.mark.parametrize("lang", ["nn", "da"])
def test_config_check_goes_on_past_a_missing_venue_key(tmp_path: Path, lang: str) -> None:
    """A missing required key is said, and the sections after it are still checked:
    one trip with the SD card, not two."""
    config = tmp_path / "pubpoker.toml"
    config.write_text('[device]\nrole = "display"\n[venue]\n[display]\nsound = 3\n',
                      encoding="utf-8")
    done = pubpoker(tmp_path, "config", "check", str(config), lang=lang, code=2)
    said = done.stderr.splitlines()
    assert len(said) == 2, said
    assert said[0].startswith({"nn": "Linje 3: venue.key manglar",
                               "da": "Linje 3: venue.key mangler"}[lang]), said
    assert said[1].startswith({"nn": "Linje 5: display.sound", "da": "Linje 5: display.sound"}
                              [lang]), said


# CSV headers in the chosen language; --machine-headers keeps the keys --------------------------

RESULTS_HEADER = {"nn": "Plass,Namn,Poeng,Slo ut,Spelarkode",
                  "nb": "Plass,Navn,Poeng,Slo ut,Spiller-id",
                  "da": "Plads,Navn,Point,Slog ud,Spiller-id",
                  "en": "place,name,points,knockouts,player_id"}
STANDINGS_HEADER = {"nn": "Plassering,Namn,Poeng,Turneringar,Plasseringar,Spelarkode",
                    "nb": "Plassering,Navn,Poeng,Turneringer,Plasseringer,Spiller-id",
                    "da": "Placering,Navn,Point,Turneringer,Placeringer,Spiller-id",
                    "en": "rank,name,points,tournaments,placings,player_id"}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("played")
    pubpoker(data, "tournament", "new", "--name", "Fredag")
    for name in ("Ada", "Bo", "Cy"):
        pubpoker(data, "checkin", "--new", name)
    pubpoker(data, "seat", "draw")
    pubpoker(data, "clock", "start")
    pubpoker(data, "bust", "Ada")
    return data


@pytest.mark.parametrize("lang", LANGUAGES)
def test_export_csv_headers_are_in_the_chosen_language(played: Path, lang: str) -> None:
    season = str(dt.date.today().year)
    results = pubpoker(played, "export", "results", "Fredag", lang=lang).stdout
    standings = pubpoker(played, "export", "standings", season, lang=lang).stdout
    assert results.splitlines()[0] == RESULTS_HEADER[lang]
    assert standings.splitlines()[0] == STANDINGS_HEADER[lang]
    machine = pubpoker(played, "export", "results", "Fredag", "--machine-headers", lang=lang)
    assert machine.stdout.splitlines()[0] == RESULTS_HEADER["en"]
    assert machine.stdout.splitlines()[1:] == results.splitlines()[1:]
