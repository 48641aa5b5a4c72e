"""Every way a ``pubpoker`` command refuses, in Nynorsk, Bokmål and Danish: no English.

The catalogues are checked word by word (:mod:`tests.kiosk.test_language_leaks`);
what slips past them is the outside text a message carries: the OS's reason, a
parser's or SQLite's words, a value quoted back. So these are the refusals that
carry such text, each run as the real command and put through the leak finder:
a file that is not there, a folder, a file not in UTF-8, a name too long, a
symlink loop, a damaged database, a broken ``pubpoker.toml``, an argparse
refusal of each kind, and the rules' refusals on an empty night.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.kiosk.store.helpers import ROOT, child_env
from tests.kiosk.word_lists import WORD_LISTS, leaks

pytestmark = [WORD_LISTS, pytest.mark.realproc]

BAD_TOML = """[device
role = tv
[venue]
key = abc
name = "x"
name = "y"
[display]
size =
"""


def _files(tmp: Path) -> dict[str, Path]:
    """The awkward files the refusals are about, made once per language."""
    tmp.mkdir()
    latin = tmp / "latin1.csv"
    latin.write_bytes("namn,kort\nKåre,\n".encode("latin-1"))
    huge = tmp / "huge.csv"
    huge.write_text("namn,kort\n" + "x" * 200_000 + "\n", encoding="utf-8")
    loop = tmp / "loop.csv"
    loop.symlink_to(loop)
    toml = tmp / "pubpoker.toml"
    toml.write_text(BAD_TOML, encoding="utf-8")
    latin_toml = tmp / "latin1.toml"
    latin_toml.write_bytes('[device]\nrole = "tv æ"\n'.encode("latin-1"))
    table = tmp / "table.json"
    table.write_text("[1, 2", encoding="utf-8")
    a_file = tmp / "a-file"
    a_file.write_text("x", encoding="utf-8")
    return {"latin": latin, "huge": huge, "loop": loop, "toml": toml,
            "latin_toml": latin_toml, "table": table, "file": a_file, "dir": tmp}


#: (what it is, argv given the awkward files); each must exit non-zero.
REFUSALS: list[tuple[str, Callable[[dict[str, Path]], list[str]]]] = [
    ("import: no such file", lambda f: ["players", "import", str(f["dir"] / "nope.csv")]),
    ("import: a folder", lambda f: ["players", "import", str(f["dir"])]),
    ("import: not UTF-8", lambda f: ["players", "import", str(f["latin"])]),
    ("import: a huge field", lambda f: ["players", "import", str(f["huge"])]),
    ("import: a symlink loop", lambda f: ["players", "import", str(f["loop"])]),
    ("import: a name too long", lambda f: ["players", "import",
                                           str(f["dir"] / ("a" * 300))]),
    ("export: no such folder", lambda f: ["export", "standings", "2026", "--output",
                                          str(f["dir"] / "nope" / "x.csv")]),
    ("backup: no such folder", lambda f: ["backup", str(f["dir"] / "nope" / "b.db")]),
    ("backup: a name too long", lambda f: ["backup", str(f["dir"] / ("b" * 300))]),
    ("config: no such file", lambda f: ["config", "check", str(f["dir"] / "nope.toml")]),
    ("config: a folder", lambda f: ["config", "check", str(f["dir"])]),
    ("config: many slips", lambda f: ["config", "check", str(f["toml"])]),
    ("config: not UTF-8", lambda f: ["config", "check", str(f["latin_toml"])]),
    ("points: a broken table", lambda f: ["points", "--scheme", "table", "--table",
                                          str(f["table"]), "--entrants", "5"]),
    ("points: no such table", lambda f: ["points", "--scheme", "table", "--table",
                                         str(f["dir"] / "nope.json"), "--entrants", "5"]),
    ("data dir is a file", lambda f: ["--data-dir", str(f["file"]), "players", "list"]),
    ("argparse: unknown command", lambda f: ["nosuch"]),
    ("argparse: unknown option", lambda f: ["tournament", "new", "--bogus"]),
    ("argparse: not a number", lambda f: ["points", "--entrants", "abc"]),
    ("argparse: no value", lambda f: ["points", "--entrants"]),
    ("argparse: no values", lambda f: ["checkin", "--card"]),
    ("argparse: a wrong choice", lambda f: ["structure", "show", "nosuch"]),
    ("argparse: a port out of range", lambda f: ["kiosk", "--viewer-port", "99999"]),
    ("name: an unknown field", lambda f: ["tournament", "new", "--name", "{evil}"]),
    ("rules: no tournament", lambda f: ["clock", "start"]),
    ("rules: nothing to undo", lambda f: ["undo"]),
    ("rules: unknown player", lambda f: ["bust", "Kari"]),
    ("rules: unknown tournament", lambda f: ["results", "show", "nosuch"]),
    ("rules: a payment card", lambda f: ["players", "link-card", "Kari",
                                         "4111111111111111"]),
]


def _run(data: Path, lang: str, argv: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**child_env(), "PUBPOKER_DATA_DIR": str(data)}
    return subprocess.run([sys.executable, "-m", "kiosk.cli", "--lang", lang, *argv],
                          env=env, cwd=ROOT, text=True, capture_output=True, timeout=60)


@pytest.mark.parametrize("lang", ["nn", "nb", "da"])
def test_every_refusal_is_in_the_language_asked_for(tmp_path: Path, lang: str) -> None:
    files = _files(tmp_path / "files")
    found = []
    for what, argv in REFUSALS:
        done = _run(tmp_path / "data", lang, argv(files))
        said = done.stdout + done.stderr
        assert done.returncode != 0, (what, said)
        assert "Traceback" not in said, (what, said)
        found.extend(f"{what}: {word!r} in {line!r}" for line in said.splitlines()
                     for word in leaks(line, lang))
    assert not found, "\n".join(found)


def test_a_damaged_database_is_refused_in_the_language_asked_for(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert _run(data, "nn", ["tournament", "new"]).returncode == 0
    db = data / "pubpoker.db"
    raw = bytearray(db.read_bytes())
    raw[4096:12000] = b"Z" * len(raw[4096:12000])
    db.write_bytes(bytes(raw))
    for lang in ("nn", "nb", "da"):
        done = _run(data, lang, ["doctor"])
        assert done.returncode == 1 and "Traceback" not in done.stderr
        assert not leaks(done.stdout + done.stderr, lang), done.stdout
    for lang in ("nn", "nb", "da"):
        # SQLite's "database disk image is malformed" was the reason a backup gave (issue 48).
        target = tmp_path / f"backup-{lang}.db"
        done = _run(data, lang, ["backup", str(target)])
        said = done.stdout + done.stderr
        assert done.returncode == 2 and "Traceback" not in said, said
        assert "pubpoker doctor" in said and "malformed" not in said, said
        assert not leaks(said, lang), said
        assert not target.exists() and not list(tmp_path.glob("*.part"))
