"""Hypothesis fuzz of the ``pubpoker`` command line: no argument vector ends in a traceback.

The argument vectors are drawn from the CLI's own parser (``build_parser()``),
command by command (every leaf, its positionals and options): plausible values
for all arguments but one or two, which get a hostile value of the kind they
take (numbers: huge, negative, NaN, not numbers; free text: braces, ``%``,
unicode, control characters, up to 5,000 characters, pasted lists, things that
look like options; paths: files of hostile CSV, JSON and TOML, a CSV field
over csv's limit, brackets nested past the parsers' recursion limit), so the
command runs far enough for that value to reach the code behind it;
sometimes junk arguments follow. Each must end with exit status 0, 1 or 2,
without a Python traceback, a 5,000-character line or a runaway (20 s). The
store is a night in progress, and every example changes it further. Most
examples run in-process through ``kiosk.cli.main(argv)``, whose only handler
is for ``RulesError``, so any other exception escapes to Hypothesis as it
would to the TD's terminal; a few run as real processes, where a traceback is
read from stderr. ``PUBPOKER_FUZZ_EXAMPLES`` sets the examples per command.

Nothing can be written outside the test's temporary directory: every command
that takes ``--data-dir`` gets the temporary one (and ``$PUBPOKER_DATA_DIR``,
``$HOME`` and the XDG dirs point there too, for anything that falls back on
them), every path argument (``backup PATH``, ``export --output``,
``players import``, ``points --table``, ``config check``) is a file name
inside it (or too long for the file system to make), and the working
directory is it. Only the commands that read a path are given devices
(``/dev/zero``, ``/dev/urandom``: endless; ``/dev/null``: empty).

Excluded, and why:

- ``kiosk``: the appliance: opens the display, starts peer sync (sockets,
  mDNS), talks to systemd and runs until stopped. Its one argument check that
  comes first (``--size``, ``--frames``, ``--speed``) is covered by
  ``test_cli_bounded_inputs.py`` and by ``test_kiosk_speed.py``.
- ``demo``: opens a pygame window (or renders a whole simulated night
  headless, seconds per example). Same argument check as ``kiosk``.
- ``--data-dir`` itself is never fuzzed: a hostile path there is a path
  outside the temporary directory.
- ``-h``/``--help``: prints help and exits 0, which says nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from kiosk.cli import build_parser, main
from rules.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
EXCLUDED = frozenset({"kiosk", "demo"})
PATH_DESTS = frozenset({"path", "file", "output", "table"})
#: The commands whose path argument is only read.
READ_ONLY = frozenset({("config", "check"), ("players", "import"), ("points",)})


@dataclass(frozen=True)
class Leaf:
    """One command the TD can run: its words and the arguments it takes."""

    words: tuple[str, ...]
    actions: tuple[argparse.Action, ...]
    takes_data_dir: bool


def leaves(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()) -> Iterator[Leaf]:
    sub = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not sub:
        yield Leaf(words, tuple(a for a in parser._actions
                                if not isinstance(a, argparse._HelpAction)
                                and a.dest != "data_dir"),
                   any(a.dest == "data_dir" for a in parser._actions))
        return
    for name, child in sub[0].choices.items():
        if not words and name in EXCLUDED:
            continue
        yield from leaves(child, (*words, name))


LEAVES = tuple(leaves(build_parser()))

#: Values people have typed, or that broke something once.
KNOWN_BAD = st.sampled_from([
    "{evil}", "%s%n{0}", "{0}", "{", "}", "{date:>999999999}", "{date.__class__}",
    "{weekday!r}", "%(name)s", "\x00", "Kari\nNordmann", "\x1b[2J\x1b[H", "\u202eevil",
    "x" * 5000, "Å" * 41, "", " ", "-", "--", "--lang", "💥" * 50, "\ud800",
    "99999999999", "-99999999999", "1e308", "nan", "inf", "-inf", "0", "-1",
    "9" * 5000, "0x1F", "1_000", "10 000", "²", "٣", "1:5000,2:1400", "100/200",
    "raise 99999999999999999999, call", "Ah Kh 7c 2d 2s", "1:AsAd,2:KcKd",
    ",".join(f"{seat}:{seat * 7}" for seat in range(1, 3000)), "call, " * 2000,
])
#: Short strings of the characters that format patterns, printf, terminals and
#: number parsers give meaning to: most draws hold some combination of them.
SPECIALS = st.text(alphabet="{}%0sdn:!.[]<>^=-+e_ \n\t\x1b\\'\"9Å", min_size=1, max_size=12)
LONG = st.builds(lambda char, n: char * n, st.sampled_from(["x", "Å", "{", "9", "💥", "\n"]),
                 st.integers(41, 5000))
# one_of picks a branch uniformly: the repeats weigh the branches that find things.
HOSTILE_TEXT = st.one_of(
    KNOWN_BAD, KNOWN_BAD, SPECIALS, SPECIALS, LONG,
    st.text(max_size=40),
    st.integers().map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
)


#: What a TD would type for each argument, so a command runs far enough for the
#: one hostile value among them to reach the code behind it.
PLAUSIBLE: dict[str, list[str]] = {
    "name": ["Kari", "Ola", "Per", "Fredag {date}", "Åse Ødegård"],
    "new_name": ["Kari Nordmann", "Ola"], "card": ["0A1B2C3D4E"], "uid": ["0A1B2C3D4E"],
    "tournament": ["Fredag", "t1"], "season": ["2026"], "seconds": ["60", "-120"],
    "entrants": ["54", "1", "200"], "seats": ["9", "10"], "tables": ["2", "6"],
    "blinds": ["100/200", "800/1600/100"], "ante": ["25"], "players": ["9", "3"],
    "stack": ["5000"], "stacks": ["1:5000,2:1400,3:8000"], "button": ["1", "3"],
    "contributions": ["1:5000,2:1400,3:8000"], "folded": ["2"], "pot": ["1000"],
    "actions": ["raise 500, raise 1200, call", "call, call", ""], "chip": ["25", "1"],
    "board": ["Ah Kh 7c 2d 2s"], "hands": ["1:AsAd,2:KcKd", "1:AsAd,2:KcKd,3:"],
}


def plausible(action: argparse.Action, tmp: Path) -> st.SearchStrategy[str]:
    if action.dest in PATH_DESTS:
        # Inside the temporary directory only: a file that is there, one that is not,
        # the directory itself, or a file of hostile JSON/CSV/TOML written there.
        return st.sampled_from([str(tmp / "missing.json"), str(tmp), str(tmp / "junk.txt"),
                                str(tmp / "players.csv"), str(tmp / "out" / "x.csv"),
                                str(tmp / "table.json"), str(tmp / "pubpoker.toml"),
                                str(tmp / "big.csv"), str(tmp / "deep.json"),
                                str(tmp / "deep.toml")])
    if action.choices is not None:
        return st.sampled_from([str(c) for c in action.choices])
    return st.sampled_from(PLAUSIBLE.get(action.dest, ["Kari", "2"]))


def hostile(action: argparse.Action, tmp: Path, leaf: Leaf) -> st.SearchStrategy[str]:
    if action.dest in PATH_DESTS:
        # A name too long for the file system creates nothing; endless or empty
        # devices only where the command reads (a write there would leave the sandbox).
        paths = [str(tmp / ("y" * 300)), str(tmp / "y" / ("y" * 5000))]
        if leaf.words in READ_ONLY:
            paths += ["/dev/zero", "/dev/null", "/dev/urandom"]
        return st.sampled_from(paths)
    if action.type is int or action.type is float:
        # Mostly numbers argparse takes, so what is behind it sees them.
        numbers = st.one_of(st.integers().map(str), st.integers(-5, 20).map(str),
                            st.sampled_from(["99999999999", "-99999999999", "9" * 4000]))
        if action.type is float:
            numbers = st.one_of(numbers, st.floats(allow_nan=True,
                                                   allow_infinity=True).map(repr))
        return st.one_of(numbers, HOSTILE_TEXT)
    return HOSTILE_TEXT


@st.composite
def argv_for(draw: st.DrawFn, tmp: Path, leaf: Leaf) -> list[str]:
    """``leaf`` with plausible arguments, one of them (sometimes two) hostile."""
    chosen: list[argparse.Action] = []
    for action in leaf.actions:
        if action.dest in ("lang", "command"):
            continue
        optional = action.nargs == "?" or (action.option_strings and not action.required)
        if not optional or draw(st.integers(0, 2)) > 0:
            chosen.append(action)
    valued = [a for a in chosen if a.nargs != 0]
    bad = set(draw(st.lists(st.sampled_from(valued), min_size=1, max_size=2))) if valued else set()
    argv: list[str] = []
    if draw(st.booleans()):
        argv += ["--lang", draw(st.sampled_from(LANGUAGES))]
    argv += leaf.words
    for action in chosen:
        value = draw(hostile(action, tmp, leaf) if action in bad else plausible(action, tmp))
        if not action.option_strings:
            argv.append(value)
            continue
        flag = draw(st.sampled_from(action.option_strings))
        argv += [flag] if action.nargs == 0 else [flag, value]
    if leaf.takes_data_dir:
        argv += ["--data-dir", str(tmp)]
    if draw(st.integers(0, 7)) == 0:
        argv += draw(st.lists(HOSTILE_TEXT, min_size=1, max_size=3))
    return argv


@pytest.fixture()
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A night in a temporary data dir, and every fallback location pointing at it."""
    for name in ("PUBPOKER_DATA_DIR", "HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME",
                 "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(name, str(tmp_path))
    monkeypatch.delenv("PUBPOKER_LANG", raising=False)
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "junk.txt").write_bytes(b"\xff\xfe{not json\n\x00")
    (tmp_path / "players.csv").write_text("name,card\n" + "{evil},%s\n" + "x" * 5000 + ",1\n"
                                          + "Kari\x1bNordmann,\n4111111111111111,\n")
    (tmp_path / "big.csv").write_text("name,card\n" + "x" * 200_000 + ",\n")
    # Parsers that recurse per bracket: json and tomllib hit Python's recursion limit.
    (tmp_path / "deep.json").write_text('{"per_place": ' + "[" * 50_000 + "]" * 50_000 + "}")
    (tmp_path / "deep.toml").write_text("name = " + "[" * 50_000 + "]" * 50_000 + "\n")
    (tmp_path / "table.json").write_text('{"per_place": [1e308, -1, "x"], "default": null, '
                                         '"bonus_per": 0, "bonus_places": 99999999999}')
    (tmp_path / "pubpoker.toml").write_text('[venue]\nkey = "' + "ab" * 32 + '"\n'
                                            '[tournament]\nname = "' + "{" * 5000 + '"\n')
    for argv in (["tournament", "new", "--name", "Fredag {date}"], ["checkin", "--new", "Kari"],
                 ["checkin", "--new", "Ola"], ["checkin", "--new", "Per"]):
        with contextlib.redirect_stdout(io.StringIO()):
            assert main([*argv, "--data-dir", str(tmp_path)]) == 0
    return tmp_path


def run_in_process(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exited:  # argparse's refusals (2) and help (0)
            code = exited.code if isinstance(exited.code, int) else 1
    return code, err.getvalue()


def test_the_fuzz_reaches_every_command_but_the_excluded() -> None:
    commands = {leaf.words[0] for leaf in LEAVES}
    assert {"tournament", "checkin", "players", "points", "rules", "clock", "export",
            "backup", "config", "bust"} <= commands
    assert not commands & EXCLUDED
    assert len(LEAVES) >= 25


#: Far above any command's time on a loaded Pi-class box, far below a runaway's.
RUNAWAY_SECONDS = 20.0
#: Examples per command: about 0.4 s of in-process runs each, 12 s for the CLI.
EXAMPLES = int(os.environ.get("PUBPOKER_FUZZ_EXAMPLES", "25"))


@pytest.mark.parametrize("leaf", LEAVES, ids=lambda leaf: " ".join(leaf.words))
@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_no_argument_vector_ends_in_a_traceback(sandbox: Path, leaf: Leaf,
                                                data: st.DataObject) -> None:
    argv = data.draw(argv_for(sandbox, leaf), label="argv")
    started = time.monotonic()
    code, err = run_in_process(argv)
    # A runaway (a table of 99 999 999 999 rows) shows as minutes; a command takes < 1 s.
    assert time.monotonic() - started < RUNAWAY_SECONDS, argv
    # How far it got (--hypothesis-show-statistics): refused by argparse, or ran.
    event("argparse refused" if "usage:" in err else f"ran, exit {code}")
    assert code in (0, 1, 2), (argv, code, err)
    assert "Traceback" not in err, (argv, err)
    # Whatever was quoted back, no error line repeats a 5,000-character value.
    assert all(len(line) < 600 for line in err.splitlines()), (argv, err[:300])
    assert {p.name for p in sandbox.iterdir()} <= ALLOWED_FILES | {"out"}, argv


ALLOWED_FILES = frozenset({"pubpoker.db", "pubpoker.db-wal", "pubpoker.db-shm", "exports",
                           "junk.txt", "players.csv", "table.json", "pubpoker.toml",
                           "missing.json", "x.csv", "snapshots", "big.csv",
                           "deep.json", "deep.toml",
                           "pubpoker.reserve"})  # the store's space for a full disk


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_no_argument_vector_ends_in_a_traceback_in_a_real_process(
        sandbox: Path, data: st.DataObject) -> None:
    argv = data.draw(st.sampled_from(LEAVES).flatmap(lambda leaf: argv_for(sandbox, leaf)),
                     label="argv")
    if any("\ud800" <= c <= "\udfff" for a in argv for c in a):
        argv = [a.encode("utf-8", "replace").decode() for a in argv]  # not a valid argv
    # exec() cannot pass a NUL (C strings end there): a shell gives the rest of the word.
    argv = [a.split("\x00", 1)[0] for a in argv]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "kiosk.cli", *argv], env=env, cwd=sandbox,
                          capture_output=True, text=True, errors="replace", timeout=60)
    assert done.returncode in (0, 1, 2), (argv, done.returncode, done.stderr)
    assert "Traceback" not in done.stderr, (argv, done.stderr)
