"""No English in the Nynorsk, Bokmål and Danish words: every catalogue, every ``--help`` page.

A word is an English leak in a language when Debian's English word lists
(wbritish, wamerican) have it and that language's own list (wnorwegian's
``nynorsk`` and ``bokmaal``, wdanish's ``danish``) does not. There is no
hand-kept exception list: what the TD types (command and option names,
choices, presets) is taken from the real parser, and the poker words the
venue says in English are the ones GLOSSARY.md lists in its nn/nb/da columns.

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
from rules.betting_actions import ActionKind
from rules.roles import Role

REPO = Path(__file__).resolve().parents[2]
DICT = Path("/usr/share/dict")
LANGS = ("nn", "nb", "da")
ENGLISH_LISTS = ("british-english", "american-english")
#: Each language's own list; the Norwegian lists are Latin-1 in Debian.
NATIVE_LISTS = {"nn": (("nynorsk", "latin-1"),), "nb": (("bokmaal", "latin-1"),),
                "da": (("danish", "utf-8"),)}
_NEEDED = [DICT / name for name in ENGLISH_LISTS] + [
    DICT / name for lists in NATIVE_LISTS.values() for name, _ in lists]

pytestmark = pytest.mark.skipif(
    not all(p.exists() for p in _NEEDED),
    reason="word lists missing: apt-get install wbritish wamerican wnorwegian wdanish "
           f"(needs {', '.join(str(p) for p in _NEEDED if not p.exists())})")

#: GLOSSARY.md's nn/nb/da columns keep these poker words in English ("Small blind",
#: "Snittstack", "Straight flush (Royal flush)", "Dealerknapp", "BB-ante").
GLOSSARY_WORDS = frozenset({"small", "big", "blind", "blinds", "stack", "straight", "flush",
                            "royal", "dealer", "ante"})
#: The venue's rulebooks (seeds 000, 002-004, in Nynorsk and Danish) say these as they are.
SEED_WORDS = frozenset({"all-in", "heads-up", "sit", "go", "misdeal", "showdown"})
#: The product's own names: the Raspberry Pi it runs on.
PRODUCT_WORDS = frozenset({"raspberry", "pi"})


@cache
def _words(name: str, encoding: str = "utf-8") -> frozenset[str]:
    text = (DICT / name).read_text(encoding=encoding, errors="replace")
    return frozenset(w.lower() for w in text.split())


@cache
def _english_words(name: str) -> frozenset[str]:
    # Only the common words: "USB", "Go" or "Sit" with a capital are names and
    # acronyms in Debian's English lists, and "table's" is "table".
    text = (DICT / name).read_text(encoding="utf-8")
    return frozenset(w.split("'")[0] for w in text.split() if w.islower())


@cache
def _english() -> frozenset[str]:
    return frozenset().union(*(_english_words(name) for name in ENGLISH_LISTS))


@cache
def _native(lang: str) -> frozenset[str]:
    return frozenset().union(*(_words(name, enc) for name, enc in NATIVE_LISTS[lang]))


@cache
def _typed() -> tuple[frozenset[str], frozenset[str]]:
    """What the TD types, as the real parser spells it: command names, and choices."""
    commands: set[str] = set()
    choices: set[str] = set()

    def walk(parser: argparse.ArgumentParser) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                commands.update(action.choices)
                for child in action.choices.values():
                    walk(child)
            elif action.choices is not None:
                choices.update(str(c).lower() for c in action.choices)
    walk(build_parser())
    # Typed too, though not as argparse choices: --role and [device] role, --actions.
    choices.update(role.value for role in Role)
    choices.update(word for kind in ActionKind for word in re.findall(r"[a-z]+", kind.value))
    return frozenset(commands), frozenset(choices)


@cache
def _typed_span() -> re.Pattern[str]:
    """``pubpoker`` and the command words after it; a command named at a help line's start."""
    commands, _ = _typed()
    names = "|".join(sorted((re.escape(c) for c in commands), key=len, reverse=True))
    return re.compile(rf"\bpubpoker(?:\s+(?:{names})\b)*|^\s+(?:{names})(?=\s{{2,}}|$)",
                      re.MULTILINE)


#: Spans that are not words of the language: placeholders, `code`, options and
#: what follows them on the same token, argparse's {choice,lists}, paths, $VARS.
_NOT_WORDS = re.compile(
    r"\{[^{}]*\}|`[^`]*`|(?<![\w-])--?[\w-]+|\$\w+|\S*/\S*|\S+\.(?:toml|db|csv|json|png)\b"
    r"|«pubpoker[^»]*»|»pubpoker[^«]*«|'pubpoker[^']*'"
    # Cards as the TD types them (Ah, KcKd) and the keys of a JSON example.
    r"|\b(?:[2-9TJQKA][shdc])+\b|\"[\w-]+\":"
    # The config file's own syntax: [section], section.key, key = value; and
    # device names that end in a number (HDMI-A-1).
    r"|\[\w+\]|\w+\.\w+|\w+ = (?:\"[^\"]*\"|\S+)|[\w-]+-\d+\b")
_SEED_PHRASES = re.compile(
    "|".join(rf"\b{re.escape(w)}\b" for w in sorted(SEED_WORDS) if "-" in w), re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


def leaks(text: str, lang: str) -> list[str]:
    """The English words in ``text``, which should be in ``lang``.

    A hyphenated word passes whole when the language has it ("All-in" is
    Danish), else each part must pass ("BB-ante", "USB-pinne").
    """
    english, native, (_, choices) = _english(), _native(lang), _typed()

    def leaked(word: str) -> bool:
        low = word.lower()
        # One letter is a key to press or a unit (q, y, s, x), not a word.
        return (len(low) > 1 and low in english and low not in native and low not in choices
                and low not in GLOSSARY_WORDS and low not in SEED_WORDS
                and low not in PRODUCT_WORDS)

    found = []
    native = _native(lang)
    words = _NOT_WORDS.sub(" ", _typed_span().sub(" ", text))
    words = _SEED_PHRASES.sub(" ", words)  # "all-in-høyning"
    for word in _WORD.findall(words):
        low = word.lower()
        if "-" in word and (low in native or low in SEED_WORDS or low in choices):
            continue
        found.extend(part for part in word.split("-") if leaked(part))
    return found


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
        page = help_page(path, lang)
        found.extend(f"pubpoker {' '.join(path)} --help: {word!r} in {line.strip()!r}"
                     for line in page.splitlines() for word in leaks(line, lang))
    assert not found, "\n".join(found)


def test_every_help_page_renders_in_english_too() -> None:
    for path in command_paths():
        page = help_page(path, "en")
        assert page.startswith("usage: pubpoker"), path
        assert "show this help message and exit" in page


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
