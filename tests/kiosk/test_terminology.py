"""One word for one thing in each language (issue 48).

Every message catalogue in ``rules`` and ``kiosk`` is searched (found as
:mod:`tests.kiosk.test_language_leaks` finds them: every mapping from the four
languages to text) for a second spelling of a word the venue uses. The words
come from ``docs/GLOSSARY.md`` (a copy of the shared glossary): each row of
:data:`TERMS` names the glossary's concept, the word the glossary gives, and the
spellings that would be a second word for the same thing ("Ukjent kort" beside
"Ukjend spelar", "bankkort" beside "betalingskort", Bokmål's "klokken" on a
Nynorsk wall). Words the glossary has no row for (``None``) are the house's own.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path

import pytest

import kiosk
import rules
from rules.i18n import LANGUAGES

GLOSSARY = Path(__file__).resolve().parents[2] / "docs" / "GLOSSARY.md"

#: (language, glossary concept or None, the one spelling, its second spellings).
TERMS: tuple[tuple[str, str | None, str, tuple[str, ...]], ...] = (
    ("nn", "players left", "Spelarar", ("spiller", "spillere", "spelare", "spelere")),
    ("nn", "chips in play", "Sjetongar", ("sjetonger", "sjetongene", "jetoner")),
    ("nn", "clock paused", "Klokka", ("klokken", "uret")),
    ("nn", "tournament leader", "Turneringsleiar", ("turneringsleder", "turneringsleaar")),
    ("nn", "entrants", "Påmelde", ("påmeldte", "tilmeldte")),
    ("nn", "winner", "Vinnar", ("vinner", "vinder")),
    ("nn", "colour-up", "Fargebyte", ("fargebytte", "farveskift")),
    ("nn", "break", "Pause", ("pausa",)),
    ("nn", None, "ukjend", ("ukjent", "ukjente")),
    ("nn", None, "betalingskort", ("bankkort", "kredittkort")),
    ("nb", "players left", "Spillere", ("spelar", "spelarar")),
    ("nb", "chips in play", "Sjetonger", ("sjetongar", "sjetongane", "jetoner")),
    ("nb", "clock paused", "Klokken", ("klokka",)),
    ("nb", "tournament leader", "Turneringsleder", ("turneringsleiar",)),
    ("nb", "winner", "Vinner", ("vinnar",)),
    ("nb", "colour-up", "Fargebytte", ("fargebyte", "farveskift")),
    ("nb", "hand for hand", "Hånd", ("hand",)),
    ("nb", None, "ukjent", ("ukjend", "ukjende")),
    ("nb", None, "betalingskort", ("bankkort", "kredittkort")),
    ("da", "chips in play", "Jetoner", ("sjetonger", "sjetongar")),
    ("da", "clock paused", "Uret", ("klokka",)),
    ("da", "colour-up", "Farveskift", ("fargebytte", "fargebyte")),
    ("da", "check-in", "Indtjekning", ("innsjekk", "check-in")),
    ("da", "average stack", "stack", ("stak", "stakke", "stakkene", "startstak")),
    ("da", None, "ukendt", ("ukjent", "ukjend")),
    ("da", None, "betalingskort", ("bankkort", "kreditkort")),
    ("en", "colour-up", "Colour-up", ("color-up", "color up")),
    ("en", "tournament leader", "Tournament director", ("tournament leader",)),
    ("en", None, "payment card", ("bank card", "credit card")),
)


def _glossary() -> dict[str, dict[str, str]]:
    """The glossary's concepts: {concept: {lang: its words}}."""
    concepts: dict[str, dict[str, str]] = {}
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 5 and cells[0] != "concept":
            concepts[cells[0]] = dict(zip(LANGUAGES, cells[1:], strict=True))
    return concepts


def _catalogue(name: str, value: object) -> Iterator[tuple[str, str, str]]:
    """(lang, where, text) for a mapping by language, or by key then language."""
    if not isinstance(value, Mapping) or not value:
        return
    if set(LANGUAGES) <= set(value):
        for lang in LANGUAGES:
            yield from ((lang, name, text) for text in _texts(value[lang]))
        return
    for key, item in value.items():
        if isinstance(item, Mapping):
            yield from _catalogue(f"{name}[{key!r}]", item)


def _texts(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _texts(item)


@cache
def catalogue() -> tuple[tuple[str, str, str], ...]:
    found: dict[tuple[str, str, str], None] = {}
    for package in (rules, kiosk):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if info.name.endswith("__main__"):
                continue
            module = importlib.import_module(info.name)
            for attr, value in vars(module).items():
                where = f"{module.__name__}.{attr}"
                if isinstance(value, type) and value.__module__ == module.__name__:
                    for cls_attr, cls_value in vars(value).items():
                        found.update(dict.fromkeys(_catalogue(f"{where}.{cls_attr}", cls_value)))
                else:
                    found.update(dict.fromkeys(_catalogue(where, value)))
    return tuple(found)


#: What is not a word of the sentence: options (--same-hand), {placeholders},
#: and commands quoted to type.
_NOT_WORDS = re.compile(r"--[\w-]+|\{[^}]*\}|«pubpoker[^»]*»|'pubpoker[^']*'|“pubpoker[^”]*”")


def _has(text: str, word: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])",
                     _NOT_WORDS.sub(" ", text), re.IGNORECASE) is not None


def test_every_term_is_the_glossarys_word() -> None:
    glossary = _glossary()
    for lang, concept, word, _ in TERMS:
        if concept is not None:
            assert _has(glossary[concept][lang], word), (concept, lang, word)


def test_the_catalogue_is_found() -> None:
    langs = {lang for lang, _, _ in catalogue()}
    assert langs == set(LANGUAGES) and len(catalogue()) > 1000


@pytest.mark.parametrize(("lang", "concept", "word", "others"), TERMS,
                         ids=[f"{lang}-{word}" for lang, _, word, _ in TERMS])
def test_one_word_for_one_thing(lang: str, concept: str | None, word: str,
                                others: tuple[str, ...]) -> None:
    second = [(where, text) for text_lang, where, text in catalogue() if text_lang == lang
              for other in others if _has(text, other)]
    assert not second, f"{lang} says {word!r}, and also: {second}"
