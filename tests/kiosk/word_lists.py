"""Is a word English? Debian's word lists, for the language tests.

A word is an English leak in a language when Debian's English word lists
(wbritish, wamerican) have it and that language's own list (wnorwegian's
``nynorsk`` and ``bokmaal``, wdanish's ``danish``) does not. There is no
hand-kept exception list: what the TD types (command names, choices, roles,
betting actions) is taken from the real parser and the rules core, and the
poker words the venue says in English are those GLOSSARY.md and the seeds use.
Tests that use :func:`leaks` set ``pytestmark = WORD_LISTS`` to skip without the lists.
"""

from __future__ import annotations

import argparse
import re
from functools import cache
from pathlib import Path

import pytest

from kiosk.cli import build_parser
from rules.betting_actions import ActionKind
from rules.roles import Role

DICT = Path("/usr/share/dict")
LANGS = ("nn", "nb", "da")
ENGLISH_LISTS = ("british-english", "american-english")
#: Each language's own list; the Norwegian lists are Latin-1 in Debian.
NATIVE_LISTS = {"nn": (("nynorsk", "latin-1"),), "nb": (("bokmaal", "latin-1"),),
                "da": (("danish", "utf-8"),)}
_NEEDED = [DICT / name for name in ENGLISH_LISTS] + [
    DICT / name for lists in NATIVE_LISTS.values() for name, _ in lists]

WORD_LISTS = pytest.mark.skipif(
    not all(p.exists() for p in _NEEDED),
    reason="word lists missing: apt-get install wbritish wamerican wnorwegian wdanish "
           f"(needs {', '.join(str(p) for p in _NEEDED if not p.exists())})")

#: GLOSSARY.md's nn/nb/da columns keep these poker words in English ("Small blind",
#: "Snittstack", "Straight flush (Royal flush)", "Dealerknapp", "BB-ante"); Danish takes
#: "stack" with its English plural ("Gns. stack", "lige stacks").
GLOSSARY_WORDS = frozenset({"small", "big", "blind", "blinds", "stack", "stacks", "straight",
                            "flush", "royal", "dealer", "ante"})
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
        # A command's own usage line names the words it takes ("pubpoker move confirm").
        for typed in re.findall(r"\bpubpoker((?:[ \t]+[a-z][\w-]*)+)", parser.usage or ""):
            commands.update(typed.split())
    walk(build_parser())
    # Typed too, though not as argparse choices: --role and [device] role, --actions.
    choices.update(role.value for role in Role)
    choices.update(word for kind in ActionKind for word in re.findall(r"[a-z]+", kind.value))
    return frozenset(commands), frozenset(choices)


@cache
def _typed_span() -> re.Pattern[str]:
    """``pubpoker`` and the command words after it; a command named at a help line's start,
    or quoted as argparse lists the commands it would take ('players', 'undo')."""
    commands, _ = _typed()
    names = "|".join(sorted((re.escape(c) for c in commands), key=len, reverse=True))
    return re.compile(rf"\bpubpoker(?:\s+(?:{names})\b)*|^\s+(?:{names})(?=\s{{2,}}|$)"
                      rf"|'(?:{names})'", re.MULTILINE)


#: Spans that are not words of the language: placeholders, `code`, options and
#: what follows them on the same token, argparse's {choice,lists}, paths, $VARS.
_NOT_WORDS = re.compile(
    r"\{[^{}]*\}|`[^`]*`|(?<![\w-])--?[\w-]+|\$\w+|\S*/\S*|\S+\.(?:toml|db|csv|json|png)\b"
    r"|«pubpoker[^»]*»|»pubpoker[^«]*«|'pubpoker[^']*'"
    # Cards as the TD types them (Ah, KcKd) and the keys of a JSON example.
    r"|\b(?:[2-9TJQKA][shdc])+\b|\"[\w-]+\":"
    # The config file's own syntax: [section], section.key, key = value; and
    # device names that end in a number (HDMI-A-1).
    r"|\[\w+\]|\w+\.\w+|\w+ = (?:\"[^\"]*\"|\S+)|[\w-]+-\d+\b"
    # Ids the store draws at random (t3bd342483488): hex that may spell "bad" or "face".
    r"|\bt?[0-9a-f]{12}\b")
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


