"""Issue 48: a file the CLI cannot use is said in the room's language, with what to do.

Python's own words ("'utf-8' codec can't decode byte", "field larger than field
limit", "File name too long") reached the TD whatever ``--lang`` said, because
only the commonest operating-system reasons were in the catalogue. Real
``pubpoker`` processes; each message is also put through the leak finder.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from rules.i18n import LANGUAGES
from tests.kiosk.cli_run import pubpoker
from tests.kiosk.word_lists import leaks

pytestmark = pytest.mark.realproc

CANNOT_USE = {"nn": "Kan ikkje bruke fila {path}: ", "nb": "Kan ikke bruke filen {path}: ",
              "da": "Kan ikke bruge filen {path}: ", "en": "Cannot use the file {path}: "}

NOT_UTF8 = {"nn": "ho er ikkje tekst i UTF-8; lagra ho som «CSV UTF-8» i reknearket",
            "nb": "den er ikke tekst i UTF-8; lagre den som «CSV UTF-8» i regnearket",
            "da": "den er ikke tekst i UTF-8; gem den som «CSV UTF-8» i regnearket",
            "en": "it is not UTF-8 text; save it as \"CSV UTF-8\" in the spreadsheet"}

FIELD_TOO_LONG = {
    "nn": "eitt felt er over 128 KiB; er det verkeleg ei CSV-fil med namn og kort?",
    "nb": "ett felt er over 128 KiB; er det virkelig en CSV-fil med navn og kort?",
    "da": "et felt er over 128 KiB; er det virkelig en CSV-fil med navne og kort?",
    "en": "a field is over 128 KiB; is it really a CSV file of names and cards?"}

NAME_TOO_LONG = {"nn": "namnet eller stien er for lang; vel eit kortare namn",
                 "nb": "navnet eller stien er for lang; velg et kortere navn",
                 "da": "navnet eller stien er for lang; vælg et kortere navn",
                 "en": "the name or path is too long; choose a shorter name"}

LOOP = {"nn": "stien går i ring gjennom symbolske lenkjer; sjå kvar lenkja peikar",
        "nb": "stien går i ring gjennom symbolske lenker; se hvor lenken peker",
        "da": "stien går i ring gennem symbolske links; se hvor linket peger",
        "en": "the path loops through symbolic links; check where the link points"}


def _refusal(data: Path, file: Path, lang: str) -> str:
    done = pubpoker(data, "players", "import", str(file), lang=lang, code=2)
    assert "Traceback" not in done.stderr
    if lang != "en":
        assert not leaks(done.stderr, lang), done.stderr
    return done.stderr


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_import_of_a_file_not_in_utf8_says_how_to_save_it(tmp_path: Path, lang: str) -> None:
    file = tmp_path / "spelarar.csv"
    file.write_bytes("namn,kort\nKåre,\n".encode("latin-1"))  # a spreadsheet's "CSV", not UTF-8
    said = _refusal(tmp_path / "data", file, lang)
    assert said == CANNOT_USE[lang].format(path=file) + NOT_UTF8[lang] + "\n"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_import_of_a_file_with_a_huge_field_asks_if_it_is_the_right_file(
        tmp_path: Path, lang: str) -> None:
    file = tmp_path / "spelarar.csv"
    file.write_text("namn,kort\n" + "x" * 200_000 + "\n", encoding="utf-8")
    said = _refusal(tmp_path / "data", file, lang)
    assert said == CANNOT_USE[lang].format(path=file) + FIELD_TOO_LONG[lang] + "\n"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_name_too_long_is_said_in_the_rooms_language(tmp_path: Path, lang: str) -> None:
    file = tmp_path / ("a" * 300 + ".csv")
    said = _refusal(tmp_path / "data", file, lang)
    assert said.rstrip("\n").endswith(": " + NAME_TOO_LONG[lang]), said


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_symlink_loop_is_said_in_the_rooms_language(tmp_path: Path, lang: str) -> None:
    file = tmp_path / "spelarar.csv"
    file.symlink_to(file)
    said = _refusal(tmp_path / "data", file, lang)
    assert said == CANNOT_USE[lang].format(path=file) + LOOP[lang] + "\n"


NOT_A_FILE = {
    "nn": "Tryggingskopien til {path} feila: det er ikkje ei vanleg fil eller mappe; skriv "
          "namnet på ei ny fil",
    "nb": "Sikkerhetskopien til {path} feilet: det er ikke en vanlig fil eller mappe; skriv "
          "navnet på en ny fil",
    "da": "Sikkerhedskopien til {path} mislykkedes: det er ikke en almindelig fil eller "
          "mappe; skriv navnet på en ny fil",
    "en": "The backup to {path} failed: it is not an ordinary file or folder; give the name "
          "of a new file"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_backup_onto_a_device_or_pipe_is_refused_and_leaves_it_be(
        tmp_path: Path, lang: str) -> None:
    """``pubpoker backup /dev/null`` put a regular file where the device was (as root)."""
    data = tmp_path / "data"
    pubpoker(data, "tournament", "new", lang=lang)
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)  # stands in for /dev/null: a test must not risk the real one
    done = pubpoker(data, "backup", str(pipe), lang=lang, code=2)
    assert done.stderr == NOT_A_FILE[lang].format(path=pipe) + "\n"
    assert stat.S_ISFIFO(pipe.lstat().st_mode)
    assert not (tmp_path / "pipe.part").exists()
