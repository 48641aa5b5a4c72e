"""What the commands print is in the language asked for: no English, plurals right.

Real ``pubpoker`` processes on a real store, in Nynorsk, Bokmål and Danish;
each output goes through the language test's word-list check
(:func:`tests.kiosk.test_language_leaks.leaks`). A store with one event and
one entrant shows the singular ("1 hending", "1 tilmeldt", "1 bord"), which
came out as "1 hendingar", "1 tilmeldte" and "1 borde".
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.store.migrations import SCHEMA_VERSION
from tests.kiosk.word_lists import WORD_LISTS, leaks

REPO = Path(__file__).resolve().parents[2]

# Each language's run is a dozen processes.
pytestmark = [WORD_LISTS, pytest.mark.slow]

SINGULAR = {
    "nn": ["Poeng for 1 påmeld (",
           f"(skjema {SCHEMA_VERSION}, 1 hending, 0 spelarar)", "(1 hending, ",
           "Importerte: 1 ny, 0 fekk kort, 0 uendra, 0 feil", "er trekt: 1 bord\n",
           "Vinnar: sete 2"],
    "nb": ["Poeng for 1 påmeldt (",
           f"(skjema {SCHEMA_VERSION}, 1 hendelse, 0 spillere)", "(1 hendelse, ",
           "Importerte: 1 ny, 0 fikk kort, 0 uendrede, 0 feil", "er trukket: 1 bord\n",
           "Vinner: sete 2"],
    "da": ["Point for 1 tilmeldt (",
           f"(skema {SCHEMA_VERSION}, 1 hændelse, 0 spillere)", "(1 hændelse, ",
           "Importerede: 1 ny, 0 fik kort, 0 uændrede, 0 fejl", "er trukket: 1 bord\n",
           "Vinder: sæde 2"],
}


def _run(lang: str, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kiosk.cli", "--lang", lang, *argv],
                          cwd=REPO, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("lang", ["nn", "nb", "da"])
def test_every_output_line_is_in_the_language_asked_for(tmp_path: Path, lang: str) -> None:
    data = ["--data-dir", str(tmp_path / "data")]
    bad_table = tmp_path / "table.json"
    bad_table.write_text("[1, 2", encoding="utf-8")
    players = tmp_path / "players.csv"
    players.write_text("name,card\nKari\n", encoding="utf-8")
    runs = [
        (0, ["tournament", "new", *data]),
        (0, ["points", "--entrants", "1"]),
        (2, ["points", "--scheme", "table", "--table", str(bad_table), "--entrants", "5"]),
        (0, ["structure", "show", "pubpoker"]),
        (0, ["doctor", *data]),
        (0, ["backup", str(tmp_path / "copy.db"), *data]),
        (0, ["results", "recompute", "--all", *data]),
        (2, ["results", "recompute", *data]),
        (2, ["config", "check", str(tmp_path / "missing.toml")]),
        (0, ["players", "import", str(players), *data]),
        (0, ["checkin", "--new", "Kari", *data]),
        (0, ["checkin", "--new", "Ola", *data]),
        (0, ["seat", "draw", *data]),
        (0, ["rules", "pots", "--contributions", "1:100,2:300,3:300", "--hands",
             "1:AsAd,2:KcKd,3:QcQd", "--board", "Ah Kh 7c 2d 3s"]),
        (0, ["rules", "showdown", "--board", "Ah Kh 7c 2d 2s", "--hands", "1:QcJd,2:KcKd"]),
    ]
    printed = []
    for status, argv in runs:
        done = _run(lang, *argv)
        assert done.returncode == status, (argv, done)
        assert "Traceback" not in done.stderr
        printed.append(done.stdout + done.stderr)
        found = leaks(done.stdout + done.stderr, lang)
        assert not found, (argv, found, done.stdout, done.stderr)
    text = "".join(printed)
    for expected in SINGULAR[lang]:
        assert expected in text, text


@pytest.mark.parametrize("lang", ["nn", "nb", "da"])
def test_tournament_show_and_list_are_in_the_language_asked_for(
        tmp_path: Path, lang: str) -> None:
    """They printed the phase and status as stored: 'Status: running', 'created'."""
    data = ["--data-dir", str(tmp_path)]
    for argv in (["tournament", "new"], ["checkin", "--new", "Kari"], ["checkin", "--new", "Ola"],
                 ["seat", "draw"], ["clock", "start"]):
        assert _run(lang, *argv, *data).returncode == 0
    found = []
    for argv in (["tournament", "show"], ["tournament", "list"]):
        done = _run(lang, *argv, *data)
        assert done.returncode == 0, done
        found += leaks(done.stdout + done.stderr, lang)
    assert not found, found
