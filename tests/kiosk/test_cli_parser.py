"""The command line's conventions: global options anywhere, ``--version``, bash
completion, exit codes in the help, and the lazily imported command modules.

Real ``pubpoker`` processes (``python -m kiosk.cli``) with a temporary data dir,
as the TD types them; completion through argcomplete's own protocol (the
environment bash's ``complete -F`` hook sets, the answer on a file).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from kiosk import __version__
from kiosk.cli import build_parser
from kiosk.cli.commands import COMMANDS

REPO = Path(__file__).resolve().parents[2]


def pubpoker(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kiosk.cli", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(REPO), **(env or {})})


@pytest.mark.parametrize("argv", [
    ["--data-dir", "{d}", "--lang", "en", "tournament", "show"],
    ["tournament", "show", "--lang", "en", "--data-dir", "{d}"],
    ["--lang", "en", "tournament", "--data-dir", "{d}", "show"],
    ["--data-dir={d}", "tournament", "show", "--lang=en"],
], ids=["before", "after", "between", "equals"])
def test_global_options_before_or_after_the_command(tmp_path: Path, argv: list[str]) -> None:
    made = pubpoker("tournament", "new", "--name", "Fredag", "--data-dir", str(tmp_path))
    assert made.returncode == 0, made.stderr
    shown = pubpoker(*(a.replace("{d}", str(tmp_path)) for a in argv))
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("Fredag"), shown.stdout
    assert "Entrants: 0" in shown.stdout  # --lang en took, wherever it stood


def test_an_option_after_the_command_wins_over_one_before(tmp_path: Path) -> None:
    done = pubpoker("--lang", "nn", "points", "--lang", "en", "--entrants", "0")
    assert done.returncode == 2
    assert "The number of entrants" in done.stderr, done.stderr  # English, not Nynorsk


def test_every_command_has_lang_json_and_data_dir() -> None:
    parser = build_parser()
    for words in (["points", "--entrants", "9"], ["--json", "structure", "show", "pubpoker"],
                  ["clock", "next", "--data-dir", "D", "--json"], ["rules", "min-raise",
                   "--blinds", "100/200", "--lang", "da"]):
        args = parser.parse_args(words)
        assert isinstance(args.lang, str) and isinstance(args.json, bool)
        assert args.json is ("--json" in words)
        assert args.data_dir == ("D" if "D" in words else None)


def test_version_is_the_package_version() -> None:
    done = pubpoker("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"pubpoker {__version__}"
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert "version" in project.get("dynamic", [])  # read from kiosk.__version__


@pytest.mark.parametrize(("lang", "words"), [
    ("nn", ["Avslutningskode: 0", "2 avvist", "1 intern feil", "bruk:"]),
    ("nb", ["Avslutningskode: 0", "2 avvist", "1 intern feil"]),
    ("da", ["Afslutningskode: 0", "2 afvist", "1 intern fejl", "brug:"]),
    ("en", ["Exit status: 0 done", "2 refused or bad input", "1 internal error"]),
])
def test_the_help_gives_the_exit_codes_in_the_language_asked_for(
        lang: str, words: list[str]) -> None:
    done = pubpoker("--help", "--lang", lang)
    assert done.returncode == 0
    text = " ".join(done.stdout.split())  # as wrapped to the terminal's width
    for word in words:
        assert word in text, done.stdout
    assert "tournament" in done.stdout and "venue-key" in done.stdout


def test_exit_codes_refused_and_bad_input_are_2(tmp_path: Path) -> None:
    assert pubpoker("bust", "Nobody", "--data-dir", str(tmp_path)).returncode == 2  # refused
    assert pubpoker("tournament", "bogus", "--data-dir", str(tmp_path)).returncode == 2
    assert pubpoker("nosuchcommand", "--data-dir", str(tmp_path)).returncode == 2


def test_the_command_table_names_what_each_module_registers() -> None:
    """kiosk/cli/commands.py must list every command, with the module that registers it."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    registered = {name: child.get_default("func").__module__ for name, child in
                  sub.choices.items() if child.get_default("func") is not None}
    for name, child in sub.choices.items():  # a command with subcommands: its leaves' func
        if name not in registered:
            inner = next(a for a in child._actions if isinstance(a, argparse._SubParsersAction))
            registered[name] = next(iter(inner.choices.values())).get_default("func").__module__
    assert registered == {name: f"kiosk.cli.{module}" for name, (module, _) in COMMANDS.items()}
    for name, (_, helps) in COMMANDS.items():
        assert set(helps) == {"nn", "nb", "da", "en"}, name


def _imported_command_modules(*argv: str) -> list[str]:
    code = ("import sys, runpy; sys.argv = ['pubpoker', *sys.argv[1:]]\n"
            "try:\n    runpy.run_module('kiosk.cli', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            "print('MODULES', sorted(m for m in sys.modules if m.endswith('_cmd')),"
            " file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, *argv], cwd=REPO, capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(REPO)})
    line = next(x for x in done.stderr.splitlines() if x.startswith("MODULES"))
    return list(eval(line.removeprefix("MODULES ")))  # a printed list of str


def test_help_imports_no_command_module_and_a_command_only_its_own(tmp_path: Path) -> None:
    assert _imported_command_modules("--help") == []
    assert _imported_command_modules("tournament", "show", "--data-dir", str(tmp_path)) == [
        "kiosk.cli.td_cmd"]
    assert _imported_command_modules("--lang", "en", "points", "--entrants", "9") == [
        "kiosk.cli.points_cmd"]


def test_help_and_a_command_leave_sync_and_pygame_unimported(tmp_path: Path) -> None:
    code = ("import sys, runpy; sys.argv = ['pubpoker', *sys.argv[1:]]\n"
            "try:\n    runpy.run_module('kiosk.cli', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            "heavy = [m for m in ('asyncio', 'websockets', 'zeroconf', 'pygame', 'logging',"
            " 'kiosk.sync.service', 'rules.hand_tables', 'argcomplete', 'kiosk.config')"
            " if m in sys.modules]\n"
            "if sys.argv[1:] == ['--help']:  # no records at all: not even dataclasses\n"
            "    heavy += [m for m in ('dataclasses', 'inspect', 'sqlite3') if m in sys.modules]\n"
            "print('HEAVY', heavy, file=sys.stderr)")
    # A store made first: making one runs the migrations, which use sqlite-utils.
    assert pubpoker("tournament", "new", "--data-dir", str(tmp_path)).returncode == 0
    for argv in (["--help"], ["checkin", "--new", "Kari", "--data-dir", str(tmp_path)]):
        done = subprocess.run([sys.executable, "-c", code, *argv], cwd=REPO,
                              capture_output=True, text=True, timeout=60,
                              env={**os.environ, "PYTHONPATH": str(REPO)})
        assert "HEAVY []" in done.stderr, (argv, done.stderr[-2000:])


def complete(line: str, tmp_path: Path) -> list[str]:
    """What bash would offer for ``line`` (the cursor at its end), by argcomplete's protocol."""
    out = tmp_path / "completions"
    done = pubpoker(env={"_ARGCOMPLETE": "1", "_ARGCOMPLETE_IFS": "\n", "COMP_LINE": line,
                         "COMP_POINT": str(len(line)), "COMP_TYPE": "9",
                         "_ARGCOMPLETE_STDOUT_FILENAME": str(out)})
    assert done.returncode == 0, done.stderr
    return [word.strip() for word in out.read_text().split("\n") if word.strip()]


def test_bash_completion_offers_commands_subcommands_and_options(tmp_path: Path) -> None:
    assert complete("pubpoker tou", tmp_path) == ["tournament"]
    assert set(complete("pubpoker ", tmp_path)) >= set(COMMANDS)
    assert set(complete("pubpoker tournament ", tmp_path)) >= {"new", "list", "show", "close"}
    # Every command takes the global options; its completion offers those it declares.
    assert set(complete("pubpoker players link-card --", tmp_path)) >= {
        "--data-dir", "--lang", "--help"}
    assert set(complete("pubpoker doctor --", tmp_path)) >= {"--data-dir", "--json", "--lang"}
    assert complete("pubpoker clock ne", tmp_path) == ["next"]
    assert set(complete("pubpoker --lang ", tmp_path)) == {"nn", "nb", "da", "en"}


def test_readme_tells_how_to_enable_completion() -> None:
    readme = (REPO / "README.md").read_text()
    assert 'eval "$(register-python-argcomplete pubpoker)"' in readme
    assert "Exit status: **0** done; **2** refused or bad input" in readme
