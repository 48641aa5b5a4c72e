"""How long a name may be, and which characters it may not hold.

A player's name is drawn on the TV (seat lists, the bust ticker, the
results), on a table device's small screen and in the exports; a tournament's
name heads the TV and the result files. Both come from a TD typing over SSH,
from a CSV, or from a keyboard at the desk, so they are checked once, here,
for every way in: the store's list of players (:mod:`kiosk.store.players`)
and the commands of the rules core (:mod:`rules.commands`).

The limits are refusals of new commands, not of the log: an event already
in a log folds as it always did, so peers on different versions agree.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from rules.errors import RulesError

__all__ = [
    "PLAYER_NAME_MAX",
    "TOURNAMENT_NAME_MAX",
    "NameHasControlCharacter",
    "NameTooLong",
    "clean_name",
    "forbidden_character",
]

#: Real names ("Kari Nordmann-Haugland", 22) are well under it. The screens
#: cut a name that does not fit its column with an ellipsis
#: (kiosk.display.layout), so past about 40 the wall and a table's small
#: screen show only a part of it, and two players can look the same; a
#: message quotes 40 characters (rules.i18n.QUOTE_LIMIT), so a name fits whole.
PLAYER_NAME_MAX: Final = 40
#: The tournament's name heads the TV in one line and goes into the exports:
#: "Fredagspoker 27.11.2026 – finale" and the like are half of it.
TOURNAMENT_NAME_MAX: Final = 80

# Bidi overrides and isolates reorder the text around them on the screen: a
# name could show as someone else's. Control characters (Cc: line breaks,
# tabs, terminal escapes) break the one line a name is drawn on; lone
# surrogates (Cs) come from undecodable bytes and cannot be stored as UTF-8.
_BIDI: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class NameTooLong(RulesError, ValueError):
    messages = {
        "nn": "Namnet «{name}» er for langt ({length} teikn); det kan ha høgst {limit}",
        "nb": "Navnet «{name}» er for langt ({length} tegn); det kan ha høyst {limit}",
        "da": "Navnet «{name}» er for langt ({length} tegn); det må højst have {limit}",
        "en": "The name '{name}' is too long ({length} characters); it may have at most "
              "{limit}",
    }


class NameHasControlCharacter(RulesError, ValueError):
    messages = {
        "nn": "Namnet «{name}» har eit teikn som ikkje kan visast ({char}); "
              "skriv det på éi linje utan styreteikn",
        "nb": "Navnet «{name}» har et tegn som ikke kan vises ({char}); "
              "skriv det på én linje uten kontrolltegn",
        "da": "Navnet «{name}» har et tegn, der ikke kan vises ({char}); "
              "skriv det på én linje uden kontroltegn",
        "en": "The name '{name}' holds a character that cannot be shown ({char}); "
              "write it on one line without control characters",
    }


def forbidden_character(text: str) -> str | None:
    """The first character a name may not hold, as ``U+XXXX``; None if there is none.

    >>> forbidden_character("Kari Nordmann"), forbidden_character("Åse Ødegård")
    (None, None)
    >>> forbidden_character("Kari\\nNordmann"), forbidden_character("evil\\u202eon")
    ('U+000A', 'U+202E')
    """
    for char in text:
        if unicodedata.category(char) in ("Cc", "Cs") or char in _BIDI:
            return f"U+{ord(char):04X}"
    return None


def clean_name(raw: str, limit: int = PLAYER_NAME_MAX) -> str:
    """``raw`` with its spaces tidied, or a refusal: too long, or a control character.

    An empty result is returned empty: whether a name may be empty (a lookup,
    a walk-in) is the caller's rule.

    >>> clean_name("  Kari   Nordmann ")
    'Kari Nordmann'
    >>> for raw in ("K" * 41, "Kari\\tN"):  # doctest: +ELLIPSIS
    ...     try:
    ...         clean_name(raw)
    ...     except (NameTooLong, NameHasControlCharacter) as err:
    ...         print(err.translate("nn"))
    Namnet «KKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKK…» er for langt (41 teikn); det kan ha høgst 40
    Namnet «Kari\\tN» har eit teikn som ikkje kan visast (U+0009); skriv det ...
    """
    bad = forbidden_character(raw)
    if bad is not None:
        raise NameHasControlCharacter(name=raw, char=bad)
    cleaned = " ".join(raw.split())
    if len(cleaned) > limit:
        raise NameTooLong(name=cleaned, length=len(cleaned), limit=limit)
    return cleaned
