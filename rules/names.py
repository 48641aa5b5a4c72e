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
from collections.abc import Iterable, Sequence
from typing import ClassVar, Final, TypeVar

from rules.errors import RulesError

__all__ = [
    "PLAYER_NAME_MAX",
    "TOURNAMENT_NAME_MAX",
    "AmbiguousName",
    "AmbiguousPlayer",
    "AmbiguousTournament",
    "NameHasControlCharacter",
    "NameNotVisible",
    "NameTooLong",
    "clean_name",
    "forbidden_character",
    "name_key",
    "pick_by_name",
    "visible",
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

# Characters that draw nothing, taken out of a name wherever it comes from: a
# zero-width space in "Ka\u200bri" would make a second Kari that looks like the
# first, and a name of them alone would be a blank line on the TV. Format
# characters (Cf: zero-width spaces and joiners, the byte-order mark, the word
# joiner, soft hyphens; the bidi ones are refused above, not taken out), the
# Hangul fillers and the blank braille pattern (letters and a symbol to Unicode,
# blank on every screen), the combining grapheme joiner and variation selectors.
_BLANK: Final = frozenset("\u034f\u115f\u1160\u2800\u3164\uffa0"
                          + "".join(map(chr, range(0xFE00, 0xFE10)))
                          + "".join(map(chr, range(0x180B, 0x1810))))


def _draws_nothing(char: str) -> bool:
    return (char in _BLANK or 0xE0100 <= ord(char) <= 0xE01EF
            or (unicodedata.category(char) == "Cf" and char not in _BIDI))


def visible(text: str) -> str:
    """``text`` in NFC with every character that draws nothing taken out and its
    spaces tidied: how a name is stored and compared, whichever way it came in.

    >>> visible("  Ka\u200bri \ufeff Nord\u2060mann "), visible("\u3164\u2800")
    ('Kari Nordmann', '')
    >>> visible("A\u030ase") == "\u00c5se"  # Å typed as A and a ring: one Åse
    True
    """
    composed = unicodedata.normalize("NFC", text)
    return " ".join("".join(c for c in composed if not _draws_nothing(c)).split())


class NameTooLong(RulesError, ValueError):
    messages = {
        "nn": "Namnet «{name}» er for langt ({length} teikn); det kan ha høgst {limit}",
        "nb": "Navnet «{name}» er for langt ({length} tegn); det kan ha høyst {limit}",
        "da": "Navnet «{name}» er for langt ({length} tegn); det må højst have {limit}",
        "en": "The name '{name}' is too long ({length} characters); it may have at most "
              "{limit}",
    }


class NameNotVisible(RulesError, ValueError):
    messages = {
        "nn": "Namnet har ingen teikn som syner; skriv namnet med bokstavar",
        "nb": "Navnet har ingen tegn som synes; skriv navnet med bokstaver",
        "da": "Navnet har ingen tegn, der kan ses; skriv navnet med bogstaver",
        "en": "The name has no characters that show; write the name in letters",
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
    """``raw`` as :func:`visible` makes it, or a refusal: too long, a control
    character, or nothing that shows although something was typed.

    An empty ``raw`` (or spaces) is returned empty: whether a name may be empty
    (a lookup, a walk-in) is the caller's rule.

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
    cleaned = visible(raw)
    if not cleaned and raw.strip():
        raise NameNotVisible()
    if len(cleaned) > limit:
        raise NameTooLong(name=cleaned, length=len(cleaned), limit=limit)
    return cleaned


# --- finding a name the TD typed ------------------------------------------------------

K = TypeVar("K")

#: How many of the names that fit an ambiguous one a refusal lists.
LISTED: Final = 5


def name_key(name: str) -> str:
    """How two names are compared: case, spacing and what draws nothing do not count.

    >>> name_key("  Kari   NORDMANN ") == name_key("kari\u200b nordmann")
    True
    """
    return visible(name).casefold()


class AmbiguousName(RulesError, LookupError):
    """A name that fits more than one: the refusal lists them (the first few)."""

    messages = {
        "nn": "«{name}» kan vere fleire: {names}. Skriv meir av namnet",
        "nb": "«{name}» kan være flere: {names}. Skriv mer av navnet",
        "da": "«{name}» kan være flere: {names}. Skriv mere af navnet",
        "en": "'{name}' could be more than one: {names}. Type more of the name",
    }
    _MORE: ClassVar[dict[str, str]] = {"nn": "og {n} til", "nb": "og {n} til",
                                       "da": "og {n} andre", "en": "and {n} more"}

    @classmethod
    def render_param(cls, key: str, value: object, lang: str) -> object:
        if key == "names" and isinstance(value, tuple):
            names = [str(v) for v in value]
            shown = ", ".join(str(RulesError.render_param("name", n, lang))
                              for n in names[:LISTED])
            if len(names) > LISTED:
                more = cls._MORE.get(lang) or cls._MORE["en"]
                shown += " " + more.format(n=len(names) - LISTED)
            return shown
        return RulesError.render_param(key, value, lang)


class AmbiguousPlayer(AmbiguousName):
    messages = {
        "nn": "«{name}» kan vere fleire spelarar: {names}. Skriv meir av namnet",
        "nb": "«{name}» kan være flere spillere: {names}. Skriv mer av navnet",
        "da": "«{name}» kan være flere spillere: {names}. Skriv mere af navnet",
        "en": "'{name}' could be more than one player: {names}. Type more of the name",
    }


class AmbiguousTournament(AmbiguousName):
    messages = {
        "nn": "«{name}» kan vere fleire turneringar: {names}. Skriv meir av namnet "
              "eller bruk kjenneteiknet",
        "nb": "«{name}» kan være flere turneringer: {names}. Skriv mer av navnet "
              "eller bruk id-en",
        "da": "«{name}» kan være flere turneringer: {names}. Skriv mere af navnet "
              "eller brug id'et",
        "en": "'{name}' could be more than one tournament: {names}. Type more of the name "
              "or use its id",
    }


def _matches(wanted: str, named: Sequence[tuple[K, str]]) -> list[tuple[K, str]]:
    exact = [(k, n) for k, n in named if n == wanted]
    if exact:
        return exact
    key = name_key(wanted)
    if not key:
        return []
    same = [(k, n) for k, n in named if name_key(n) == key]
    return same or [(k, n) for k, n in named if name_key(n).startswith(key)]


def pick_by_name(wanted: str, named: Iterable[tuple[K, str]], *,
                 ambiguous: type[AmbiguousName] = AmbiguousName) -> K | None:
    """The one entry ``wanted`` names: the exact name, else the same name in any
    case and spacing, else the only name that starts so. None if no name fits;
    ``ambiguous`` is raised, listing them, when several different names do.

    Entries with the same name (two tournaments both called "Pubpoker") are
    one name: the first given wins, so give the newest first.

    >>> named = [("p1", "Kari Nordmann"), ("p2", "Karl Olsen"), ("p3", "Ola")]
    >>> pick_by_name("kari", named), pick_by_name("OLA", named), pick_by_name("Per", named)
    ('p1', 'p3', None)
    >>> pick_by_name("Kar", named)
    Traceback (most recent call last):
    ...
    rules.names.AmbiguousName: 'Kar' could be more than one: Kari Nordmann, Karl Olsen. \
Type more of the name
    >>> pick_by_name("Ola", [("p3", "Ola"), ("p4", "Ola Nordmann")])  # a whole name wins
    'p3'
    """
    found = _matches(wanted, list(named))
    names: dict[str, str] = {}
    for _, name in found:
        names.setdefault(name_key(name), name)
    if len(names) > 1:
        raise ambiguous(name=wanted, names=tuple(sorted(names.values(), key=name_key)))
    return found[0][0] if found else None
