"""A number and its noun, singular or plural as each language says it: "1 bord", "2 borde".

In Nynorsk, Bokmål, Danish and English alike the singular is for exactly one
(0 takes the plural: "0 spelarar", "0 tables"); what differs is the plural
itself, and a neuter noun in Norwegian has none ("1 bord, 2 bord"). A plain
module of dicts, cheap to import.
"""

from __future__ import annotations

from typing import Final

from rules.i18n import DEFAULT_LANGUAGE, format_int

__all__ = ["NOUNS", "count", "noun"]

#: noun (or an adjective that agrees with a count: "1 ny, 2 nye") → language →
#: (singular, plural).
NOUNS: Final[dict[str, dict[str, tuple[str, str]]]] = {
    "event": {"nn": ("hending", "hendingar"), "nb": ("hendelse", "hendelser"),
              "da": ("hændelse", "hændelser"), "en": ("event", "events")},
    "player": {"nn": ("spelar", "spelarar"), "nb": ("spiller", "spillere"),
               "da": ("spiller", "spillere"), "en": ("player", "players")},
    "entrant": {"nn": ("påmeld", "påmelde"), "nb": ("påmeldt", "påmeldte"),
                "da": ("tilmeldt", "tilmeldte"), "en": ("entrant", "entrants")},
    "table": {"nn": ("bord", "bord"), "nb": ("bord", "bord"), "da": ("bord", "borde"),
              "en": ("table", "tables")},
    "seat": {"nn": ("sete", "sete"), "nb": ("sete", "seter"), "da": ("sæde", "sæder"),
             "en": ("seat", "seats")},
    "error": {"nn": ("feil", "feil"), "nb": ("feil", "feil"), "da": ("fejl", "fejl"),
              "en": ("error", "errors")},
    "new": {"nn": ("ny", "nye"), "nb": ("ny", "nye"), "da": ("ny", "nye"),
            "en": ("new", "new")},
    "unchanged": {"nn": ("uendra", "uendra"), "nb": ("uendret", "uendrede"),
                  "da": ("uændret", "uændrede"), "en": ("unchanged", "unchanged")},
}


def noun(n: int, key: str, lang: str) -> str:
    """The form of noun ``key`` that goes with ``n``.

    >>> noun(1, "table", "da"), noun(2, "table", "da"), noun(0, "table", "en")
    ('bord', 'borde', 'tables')
    """
    forms = NOUNS[key].get(lang) or NOUNS[key][DEFAULT_LANGUAGE]
    return forms[0] if n == 1 else forms[1]


def count(n: int, key: str, lang: str) -> str:
    """``n`` (thousands grouped as ``lang`` writes them) and its noun.

    >>> count(1, "event", "nn"), count(12000, "event", "nn"), count(1, "player", "en")
    ('1 hending', '12 000 hendingar', '1 player')
    """
    return f"{format_int(n, lang)} {noun(n, key, lang)}"
