"""What the TD's read and clock commands answer, through the real ``pubpoker`` process.

``clock`` prints the level and time it leaves the clock at; ``tournament show``
prints status, counts, clock, next level, time to break, running or paused,
hand-for-hand and moves; ``tournament list`` its statuses; all in the venue's
words in nn, nb, da and en, with plurals each language's own ("2 bord",
"2 borde"), and no English left in the others. The nights are set up through
the CLI's ``main`` in this process (cheap); the answers under test come from a
separate process each.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.cli import main

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("nn", "nb", "da", "en")


def pubpoker(data: Path, *argv: str, lang: str = "nn") -> str:
    """Standard output of one real ``pubpoker`` process; it must succeed."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PUBPOKER_LANG", None)
    done = subprocess.run([sys.executable, "-m", "kiosk.cli", "--lang", lang, *argv,
                           "--data-dir", str(data)],
                          env=env, text=True, capture_output=True, timeout=60, cwd=data)
    assert done.returncode == 0, done.stderr
    return done.stdout


def setup(data: Path, *argv: str) -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["--lang", "en", *argv, "--data-dir", str(data)]) == 0


def new_night(data: Path, players: int) -> None:
    setup(data, "tournament", "new", "--name", "Fredag")
    for n in range(1, players + 1):
        setup(data, "checkin", "--new", f"Spelar {n:02d}")


# --- the clock ------------------------------------------------------------------------------

CLOCK = {
    "nn": ("Nivå {n}: {b}, {t} att", "Klokka er stoppa"),
    "nb": ("Nivå {n}: {b}, {t} igjen", "Klokken er stoppet"),
    "da": ("Niveau {n}: {b}, {t} tilbage", "Uret er stoppet"),
    "en": ("Level {n}: {b}, {t} left", "Clock paused"),
}


@pytest.mark.parametrize("lang", LANGS)
def test_each_clock_command_prints_the_level_and_time_it_leaves(
        tmp_path: Path, lang: str) -> None:
    new_night(tmp_path, 3)
    setup(tmp_path, "seat", "draw")
    line, paused = CLOCK[lang]
    # A second or so may pass between the start and its report, or between two
    # processes, on a loaded machine.
    started = pubpoker(tmp_path, "clock", "start", lang=lang)
    pattern = re.escape(line.format(n=1, b="100/200", t="@") + "\n")
    assert re.fullmatch(pattern.replace("@", "(20:00|19:5[0-9])"), started), started
    stopped = pubpoker(tmp_path, "clock", "pause", lang=lang)
    pattern = re.escape(line.format(n=1, b="100/200", t="@") + f" – {paused}\n")
    assert re.fullmatch(pattern.replace("@", "(20:00|19:5[0-9])"), stopped), stopped
    assert pubpoker(tmp_path, "clock", "next", lang=lang) == \
        line.format(n=2, b="200/400", t="20:00") + f" – {paused}\n"
    assert pubpoker(tmp_path, "clock", "add", "-120", lang=lang) == \
        line.format(n=2, b="200/400", t="18:00") + f" – {paused}\n"
    resumed = pubpoker(tmp_path, "clock", "resume", lang=lang)
    pattern = re.escape(line.format(n=2, b="200/400", t="@") + "\n")
    assert re.fullmatch(pattern.replace("@", "(18:00|17:5[0-9])"), resumed), resumed


@pytest.mark.parametrize(("lang", "on_break", "after"), [
    ("da", "Pause, 10:00 tilbage – Uret er stoppet",
     "Niveau 5: 500/1 000, BB-ante 1 000, 20:00 tilbage – Uret er stoppet"),
    ("en", "Break, 10:00 left – Clock paused",
     "Level 5: 500/1,000, BB ante 1,000, 20:00 left – Clock paused"),
])
def test_the_clock_into_a_break_and_out_to_a_big_blind_ante(
        tmp_path: Path, lang: str, on_break: str, after: str) -> None:
    new_night(tmp_path, 3)
    for argv in (("seat", "draw"), ("clock", "start"), ("clock", "pause"),
                 ("clock", "next"), ("clock", "next"), ("clock", "next")):
        setup(tmp_path, *argv)
    assert pubpoker(tmp_path, "clock", "next", lang=lang) == on_break + "\n"
    assert pubpoker(tmp_path, "clock", "next", lang=lang) == after + "\n"


# --- tournament show --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """11 in, two tables, level 2 paused at 18:00, one bust, hand-for-hand on."""
    data = tmp_path_factory.mktemp("night")
    new_night(data, 11)
    assert pubpoker(data, "seat", "draw", lang="da") == "Bordplaceringen er trukket: 2 borde\n"
    for argv in (("clock", "start"), ("clock", "pause"), ("clock", "next"),
                 ("clock", "add", "-120"), ("bust", "Spelar 01"), ("hand-for-hand", "on")):
        setup(data, *argv)
    return data


SHOWN = {
    "nn": ["Fredag", "  Fase: i gang", "  Påmelde: 11   Spelarar att: 10   2 bord",
           "  Nivå 2: 200/400, 18:00 att", "  Klokka er stoppa", "  Neste nivå: 300/600",
           "  Til pause: 58:00", "  Hand for hand: på", "  {moves} flyttingar ventar"],
    "nb": ["Fredag", "  Fase: i gang", "  Påmeldte: 11   Spillere igjen: 10   2 bord",
           "  Nivå 2: 200/400, 18:00 igjen", "  Klokken er stoppet", "  Neste nivå: 300/600",
           "  Til pause: 58:00", "  Hånd for hånd: på", "  {moves} flyttinger venter"],
    "da": ["Fredag", "  Fase: i gang", "  Tilmeldte: 11   Spillere tilbage: 10   2 borde",
           "  Niveau 2: 200/400, 18:00 tilbage", "  Uret er stoppet",
           "  Næste niveau: 300/600", "  Til pause: 58:00", "  Hånd for hånd: til",
           "  {moves} flytninger venter"],
    "en": ["Fredag", "  Status: running", "  Entrants: 11   Players left: 10   2 tables",
           "  Level 2: 200/400, 18:00 left", "  Clock paused", "  Next level: 300/600",
           "  Until break: 58:00", "  Hand for hand: on", "  {moves} moves pending"],
}

#: English words that must not reach a TD who reads another language.
ENGLISH = re.compile(r"\b(Status|running|check-in|seated|finished|created|closed|Level|"
                     r"Table|tables?|Break|left|paused|Entrants|Players|Moves?|pending|"
                     r"Clock|Next|Until|on|off|Results)\b")


@pytest.mark.parametrize("lang", LANGS)
def test_show_says_where_the_night_stands_in_every_language(night: Path, lang: str) -> None:
    import json

    moves = len(json.loads(pubpoker(night, "tournament", "show", "--json"))["moves"])
    assert moves > 1  # ten players fit one table: the other one is broken
    lines = pubpoker(night, "tournament", "show", lang=lang).splitlines()
    assert lines[:9] == [line.format(moves=moves) for line in SHOWN[lang]]
    assert sum(line.startswith(("  Bord ", "  Table ")) for line in lines) == 2
    assert lines[-1].endswith("Spelar 01")  # the results: 11th place
    if lang != "en":
        leaks = [line for line in lines if ENGLISH.search(line.replace("Spelar", ""))]
        assert not leaks, leaks


ONE_TABLE = {"nn": ("Bordplasseringa er trekt: 1 bord", "Påmelde: 3   Spelarar att: 3   1 bord"),
             "nb": ("Bordplasseringen er trukket: 1 bord",
                    "Påmeldte: 3   Spillere igjen: 3   1 bord"),
             "da": ("Bordplaceringen er trukket: 1 bord",
                    "Tilmeldte: 3   Spillere tilbage: 3   1 bord"),
             "en": ("Seats drawn: 1 table", "Entrants: 3   Players left: 3   1 table")}


@pytest.mark.parametrize("lang", LANGS)
def test_one_table_is_singular_in_every_language(tmp_path: Path, lang: str) -> None:
    new_night(tmp_path, 3)
    drawn, counts = ONE_TABLE[lang]
    assert pubpoker(tmp_path, "seat", "draw", lang=lang) == drawn + "\n"
    lines = pubpoker(tmp_path, "tournament", "show", lang=lang).splitlines()
    assert lines[2] == "  " + counts
    assert lines[3] == "  " + {"nn": "Klokka er ikkje starta", "nb": "Klokken er ikke startet",
                               "da": "Uret er ikke startet",
                               "en": "The clock has not been started"}[lang]
    assert lines[4] in ("  Hand for hand: av", "  Hånd for hånd: av", "  Hånd for hånd: fra",
                        "  Hand for hand: off")
    assert lines[5] in ("  Ingen flyttingar ventar", "  Ingen flyttinger venter",
                        "  Ingen flytninger venter", "  No moves pending")


# --- tournament list --------------------------------------------------------------------------

STATUS = {"nn": ("innsjekk", "plassert", "i gang", "avslutta"),
          "nb": ("innsjekk", "plassert", "i gang", "avsluttet"),
          "da": ("indtjekning", "placeret", "i gang", "afsluttet"),
          "en": ("check-in", "seated", "running", "closed")}


def _status_of(listing: str) -> str:
    (line,) = listing.splitlines()
    assert line.startswith("* ")
    return line.split("  ")[2].strip()


def test_list_gives_each_status_as_it_stands_now_in_every_language(tmp_path: Path) -> None:
    new_night(tmp_path, 3)
    for lang in LANGS:
        assert _status_of(pubpoker(tmp_path, "tournament", "list", lang=lang)) == STATUS[lang][0]
    setup(tmp_path, "seat", "draw")
    assert _status_of(pubpoker(tmp_path, "tournament", "list", lang="nb")) == "plassert"
    setup(tmp_path, "clock", "start")
    # Not the stored "created": the night is folded to say what it is now.
    assert _status_of(pubpoker(tmp_path, "tournament", "list", lang="da")) == "i gang"
    setup(tmp_path, "tournament", "close", "--force")
    for lang in LANGS:
        listing = pubpoker(tmp_path, "tournament", "list", lang=lang)
        assert _status_of(listing) == STATUS[lang][3]
        if lang != "en":
            assert not ENGLISH.search(listing.replace("Spelar", "")), listing


def test_an_empty_store_lists_no_tournaments_in_its_own_words(tmp_path: Path) -> None:
    assert pubpoker(tmp_path, "tournament", "list", lang="da") == "Ingen turneringer endnu\n"
    assert pubpoker(tmp_path, "tournament", "list", lang="en") == "No tournaments yet\n"


# --- results show and standings ---------------------------------------------------------------

RESULTS = {
    "nn": ("Fredag  (i gang)", "  Påmelde: 11", "11. plass  Spelar 01  1 poeng", "framleis med",
           "0 poeng", "Sesong {season}", "1. Spelar 01  1 poeng  1 turnering"),
    "nb": ("Fredag  (i gang)", "  Påmeldte: 11", "11. plass  Spelar 01  1 poeng",
           "fortsatt med", "0 poeng", "Sesong {season}", "1. Spelar 01  1 poeng  1 turnering"),
    "da": ("Fredag  (i gang)", "  Tilmeldte: 11", "11. plads  Spelar 01  1 point", "stadig med",
           "0 point", "Sæson {season}", "1. Spelar 01  1 point  1 turnering"),
    "en": ("Fredag  (running)", "  Entrants: 11", "11th  Spelar 01  1 point", "still in",
           "0 points", "Season {season}", "1. Spelar 01  1 point  1 tournament"),
}


def _flat(text: str) -> str:
    """Columns padded to their width, compared without the padding."""
    return " ".join(text.split())


@pytest.mark.parametrize("lang", LANGS)
def test_results_and_standings_in_every_language(night: Path, lang: str) -> None:
    head, entrants, placed, still_in, nought, season, leader = map(_flat, RESULTS[lang])
    lines = [_flat(line) for line in pubpoker(night, "results", "show", lang=lang).splitlines()]
    assert lines[:3] == [head, entrants, placed]
    assert len(lines) == 2 + 11 and all(
        line.startswith(still_in) and line.endswith(nought) for line in lines[3:])
    table = pubpoker(night, "standings", lang=lang).splitlines()
    year = table[0].split()[-1]
    assert table[0] == season.format(season=year) and year.isdigit()
    assert _flat(table[1]) == leader
    if lang != "en":
        text = "\n".join(lines + table).replace("Spelar", "")
        assert not ENGLISH.search(text), text


def test_every_word_and_noun_is_in_every_language() -> None:
    from kiosk.cli.show_words import WORDS
    from rules.i18n import LANGUAGES, NOUNS

    assert tuple(WORDS) == LANGUAGES
    assert all(WORDS[lang].keys() == WORDS["en"].keys() for lang in LANGUAGES)
    assert all(tuple(forms) == LANGUAGES for forms in NOUNS.values())
