"""No English in the Nynorsk, Bokmål and Danish words: every catalogue, every ``--help`` page.

A word is English when Debian's English word lists have it and the
language's own list does not (:mod:`tests.kiosk.word_lists`); the test skips
when the lists are not installed (``.ci/run`` installs them).

The catalogues are found, not listed: every mapping from the four languages
to text (or from keys to the four languages), at module level or on a class
(RulesError ``messages``, ``Notice.CATALOGUE``), in every module of ``rules``
and ``kiosk``. The help pages are those of every command path of the real
parser, rendered as ``pubpoker … --help`` renders them.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import pkgutil
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path

import pytest

import kiosk
import rules
from kiosk.cli import build_parser, main
from tests.kiosk.word_lists import LANGS, WORD_LISTS, leaks

REPO = Path(__file__).resolve().parents[2]

pytestmark = WORD_LISTS


# The catalogues ------------------------------------------------------------------------------

def _modules() -> Iterator[object]:
    for package in (rules, kiosk):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if info.name.endswith("__main__"):
                continue
            yield importlib.import_module(info.name)


def _texts(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _texts(item)


def _catalogue_texts(name: str, value: object) -> Iterator[tuple[str, str, str]]:
    """(lang, where, text) for a mapping by language, or by key then language."""
    if not isinstance(value, Mapping) or not value:
        return
    if set(LANGS) <= set(value):
        for lang in LANGS:
            for text in _texts(value[lang]):
                yield lang, name, text
        return
    for key, item in value.items():
        if isinstance(item, Mapping) and set(LANGS) <= set(item):
            yield from _catalogue_texts(f"{name}[{key!r}]", item)


@cache
def catalogue_texts() -> tuple[tuple[str, str, str], ...]:
    found: dict[tuple[str, str, str], None] = {}
    for module in _modules():
        for attr, value in vars(module).items():
            where = f"{module.__name__}.{attr}"
            if isinstance(value, type) and value.__module__ == module.__name__:
                for cls_attr, cls_value in vars(value).items():
                    found.update(dict.fromkeys(_catalogue_texts(f"{where}.{cls_attr}",
                                                                cls_value)))
            else:
                found.update(dict.fromkeys(_catalogue_texts(where, value)))
    return tuple(found)


# The help pages ------------------------------------------------------------------------------

def command_paths(parser: argparse.ArgumentParser | None = None,
                  prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    parser = parser or build_parser()
    paths = [prefix]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                paths.extend(command_paths(child, (*prefix, name)))
    return paths


def _needs_arguments(path: tuple[str, ...]) -> bool:
    """Does ``pubpoker PATH`` refuse to run without more? (Then it never opens a store.)"""
    parser = build_parser()
    for name in path:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = sub.choices[name]
    return any(a.required for a in parser._actions) or any(
        g.required for g in parser._mutually_exclusive_groups)


def refusal(path: tuple[str, ...], lang: str) -> str:
    """argparse's refusal of ``pubpoker PATH`` without its arguments, as printed."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as done:
        main(["--lang", lang, *path])
    assert done.value.code == 2
    return err.getvalue()


def help_page(path: tuple[str, ...], lang: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as done:
        main(["--lang", lang, *path, "--help"])
    assert done.value.code == 0
    return out.getvalue()


# The tests -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "lang", "expected"), [
    ("Status: running", "nn", ["running"]),
    ("Status: running", "da", ["running"]),
    ("1 tables", "nb", ["tables"]),
    ("show this help message and exit", "nn", ["this", "help", "message"]),
    ("Heads-up: 5 min", "da", []),
    ("Status: finished, 2 players", "da", ["finished", "players"]),
    ("  doctor    sjekk disken", "nn", []),
    ("køyr «pubpoker players link-card NAMN»", "nn", []),
    ("Spelarar att: {left}", "nn", []),
    ("bruk --force for å avslutte; `pubpoker doctor`", "nn", []),
    ("Ledig plads: 10 byte af 20", "da", []),
    ('korta, til dømes "Ah Kh 7c", (standard no-limit), {"per_place": [10]}', "nn", []),
    ("eit tal (default 9)", "nn", ["default"]),
    ("'nosuch' er ikkje eit av vala ('players', 'undo', 'tables')", "nn", ["tables"]),
    ("players står to gonger", "nn", ["players"]),
])
def test_the_leak_finder_finds_english_and_only_english(
        text: str, lang: str, expected: list[str]) -> None:
    assert leaks(text, lang) == expected


def test_the_catalogues_are_found() -> None:
    places = {where.split("[")[0] for _, where, _ in catalogue_texts()}
    for expected in ("kiosk.display.messages.MESSAGES", "kiosk.store.errors.Notice.CATALOGUE",
                     "kiosk.store.errors.DiskFull.messages", "kiosk.cli.help_words.HELP",
                     "kiosk.cli.doctor_cmd._TEXT", "rules.errors.RulesError.messages"):
        assert expected in places


def test_no_english_in_any_catalogue() -> None:
    found = [f"{lang} {where}: {word!r} in {text!r}"
             for lang, where, text in catalogue_texts() for word in leaks(text, lang)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_on_any_help_page(lang: str) -> None:
    found = []
    for path in command_paths():
        # The whole page: argparse wraps a quoted `span` or «command» over lines.
        page = help_page(path, lang)
        found.extend(f"pubpoker {' '.join(path)} --help: {word!r}" for word in leaks(page, lang))
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_in_argparse_refusals(lang: str) -> None:
    paths = [path for path in command_paths() if _needs_arguments(path)]
    assert len(paths) > 10
    found = [f"pubpoker {' '.join(path)}: {word!r} in {line.strip()!r}"
             for path in paths for line in refusal(path, lang).splitlines()
             for word in leaks(line, lang)]
    assert not found, "\n".join(found)


def test_every_help_page_renders_in_english_too() -> None:
    for path in command_paths():
        page = help_page(path, "en")
        assert page.startswith("usage: pubpoker"), path
        assert "show this help message and exit" in page


@pytest.mark.parametrize("lang", [*LANGS, "en"])
def test_commands_are_listed_by_the_names_they_are_typed_with(lang: str) -> None:
    """A placeholder is translated (NAME → NAMN); a command's name never is."""
    for path in command_paths():
        parser = build_parser()
        for name in path:
            parser = next(a for a in parser._actions
                          if isinstance(a, argparse._SubParsersAction)).choices[name]
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if subs:
            page = help_page(path, lang)
            for name in subs[0].choices:
                assert re.search(rf"^    {re.escape(name)}(\s|$)", page, re.MULTILINE), (
                    path, name, page)


@pytest.mark.parametrize(("lang", "usage", "options"), [
    ("nn", "bruk:", "val:"), ("nb", "bruk:", "valg:"), ("da", "brug:", "tilvalg:"),
    ("en", "usage:", "options:")])
def test_the_real_command_prints_help_in_the_language_asked_for(
        tmp_path: Path, lang: str, usage: str, options: str) -> None:
    env = {**os.environ, "PUBPOKER_LANG": lang}
    for argv in (["--help"], ["doctor", "--help"], ["tournament", "new", "-h"]):
        done = subprocess.run([sys.executable, "-m", "kiosk.cli", *argv], cwd=REPO, env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done
        assert done.stdout.startswith(f"{usage} pubpoker"), done.stdout
        assert f"\n{options}\n" in done.stdout, done.stdout
        if lang != "en":
            assert not leaks(done.stdout, lang), done.stdout
