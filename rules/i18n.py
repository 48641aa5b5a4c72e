"""Languages and number formatting shared by every message the core produces."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Final, NamedTuple

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LONG_QUOTE_LIMIT",
    "MONTHS",
    "NOUNS",
    "OS_REASONS",
    "OTHER_OS_REASON",
    "QUOTE_LIMIT",
    "WEEKDAYS",
    "Counted",
    "OsReason",
    "count",
    "day_name",
    "format_int",
    "format_place",
    "format_time",
    "month_name",
    "quote_limit",
    "shorten",
]

#: Nynorsk is the venue's own language and the default.
LANGUAGES: Final = ("nn", "nb", "da", "en")
DEFAULT_LANGUAGE: Final = "nn"

#: A value quoted back in a message is cut to this many characters: a one-line
#: error on an 80-column SSH terminal (or the TV's status line) must still show
#: its sentence, and a pasted 5,000-character value is no help repeated whole.
#: 40 is also the longest player name (:mod:`rules.names`), so a name fits whole.
QUOTE_LIMIT: Final = 40
#: Paths and the operating system's reasons are cut later: their useful part
#: (the file name, "No space left on device") is at the end or in the middle.
#: So are the lists a message names (the tied players a draw must part, the
#: presets there are, the actions allowed): each item is already short.
LONG_QUOTE_LIMIT: Final = 200
_LONG_PARAMS: Final = frozenset({"path", "reason", "detail", "moved_to", "files", "why",
                                 "players", "names", "known", "allowed"})


def format_int(value: int, lang: str = DEFAULT_LANGUAGE) -> str:
    """Group thousands the way each language writes them.

    >>> format_int(10000, "nn"), format_int(1200, "da"), format_int(10000, "en")
    ('10 000', '1 200', '10,000')
    >>> format_int(-2500, "nb")
    '-2 500'
    """
    grouped = f"{value:,}"
    # A space, not a comma, is the Scandinavian thousands separator.
    return grouped if lang == "en" else grouped.replace(",", " ")


#: Nouns written after a count, as (singular, plural) per language. In all four
#: languages the singular goes with exactly one and the plural with every other
#: count, nought included ("0 bord", "0 borde", "0 tables"); what differs is the
#: plural itself: a neuter noun such as *bord* takes no ending in Norwegian
#: (nn and nb "2 bord") but does in Danish ("2 borde").
NOUNS: Final[Mapping[str, Mapping[str, tuple[str, str]]]] = {
    "table": {"nn": ("bord", "bord"), "nb": ("bord", "bord"),
              "da": ("bord", "borde"), "en": ("table", "tables")},
    "player": {"nn": ("spelar", "spelarar"), "nb": ("spiller", "spillere"),
               "da": ("spiller", "spillere"), "en": ("player", "players")},
    "move": {"nn": ("flytting", "flyttingar"), "nb": ("flytting", "flyttinger"),
             "da": ("flytning", "flytninger"), "en": ("move", "moves")},
    "point": {"nn": ("poeng", "poeng"), "nb": ("poeng", "poeng"),
              "da": ("point", "point"), "en": ("point", "points")},
    "tournament": {"nn": ("turnering", "turneringar"), "nb": ("turnering", "turneringer"),
                   "da": ("turnering", "turneringer"), "en": ("tournament", "tournaments")},
    "event": {"nn": ("hending", "hendingar"), "nb": ("hendelse", "hendelser"),
              "da": ("hændelse", "hændelser"), "en": ("event", "events")},
    "entrant": {"nn": ("påmeld", "påmelde"), "nb": ("påmeldt", "påmeldte"),
                "da": ("tilmeldt", "tilmeldte"), "en": ("entrant", "entrants")},
    "seat": {"nn": ("sete", "sete"), "nb": ("sete", "seter"), "da": ("sæde", "sæder"),
             "en": ("seat", "seats")},
    "stack": {"nn": ("stack", "stackar"), "nb": ("stack", "stacker"), "da": ("stack", "stacks"),
              "en": ("stack", "stacks")},
    "night": {"nn": ("kveld", "kveldar"), "nb": ("kveld", "kvelder"), "da": ("aften", "aftener"),
              "en": ("night", "nights")},
    "card": {"nn": ("kort", "kort"), "nb": ("kort", "kort"), "da": ("kort", "kort"),
             "en": ("card", "cards")},
    "error": {"nn": ("feil", "feil"), "nb": ("feil", "feil"), "da": ("fejl", "fejl"),
              "en": ("error", "errors")},
    # Adjectives agree with a count too ("1 ny, 2 nye").
    "new": {"nn": ("ny", "nye"), "nb": ("ny", "nye"), "da": ("ny", "nye"),
            "en": ("new", "new")},
    "unchanged": {"nn": ("uendra", "uendra"), "nb": ("uendret", "uendrede"),
                  "da": ("uændret", "uændrede"), "en": ("unchanged", "unchanged")},
}


#: The days of the week, Monday first (:meth:`datetime.date.weekday`), as a
#: name in the middle of a sentence writes them. Never the C locale's
#: ``strftime("%A")``: the appliance's image has English only, so a Nynorsk
#: wall would read "Thursdayspoker".
WEEKDAYS: Final[Mapping[str, tuple[str, ...]]] = {
    "nn": ("måndag", "tysdag", "onsdag", "torsdag", "fredag", "laurdag", "sundag"),
    "nb": ("mandag", "tirsdag", "onsdag", "torsdag", "fredag", "lørdag", "søndag"),
    "da": ("mandag", "tirsdag", "onsdag", "torsdag", "fredag", "lørdag", "søndag"),
    "en": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
}
#: The months, January first, as :data:`WEEKDAYS` (never ``strftime("%B")``).
MONTHS: Final[Mapping[str, tuple[str, ...]]] = {
    "nn": ("januar", "februar", "mars", "april", "mai", "juni", "juli", "august",
           "september", "oktober", "november", "desember"),
    "nb": ("januar", "februar", "mars", "april", "mai", "juni", "juli", "august",
           "september", "oktober", "november", "desember"),
    "da": ("januar", "februar", "marts", "april", "maj", "juni", "juli", "august",
           "september", "oktober", "november", "december"),
    "en": ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"),
}


def day_name(weekday: int, lang: str = DEFAULT_LANGUAGE) -> str:
    """The name of a weekday (0 is Monday, as :meth:`datetime.date.weekday`) in ``lang``.

    >>> day_name(3, "nn"), day_name(5, "nb"), day_name(6, "da"), day_name(3, "en")
    ('torsdag', 'lørdag', 'søndag', 'Thursday')
    """
    return (WEEKDAYS.get(lang) or WEEKDAYS["en"])[weekday]


def month_name(month: int, lang: str = DEFAULT_LANGUAGE) -> str:
    """The name of a month (1 is January, as :attr:`datetime.date.month`) in ``lang``.

    >>> month_name(3, "da"), month_name(12, "nn"), month_name(5, "en")
    ('marts', 'desember', 'May')
    """
    return (MONTHS.get(lang) or MONTHS["en"])[month - 1]


def count(number: int, noun: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """``number`` and ``noun`` (a key of :data:`NOUNS`) in the form the count takes.

    >>> [count(n, "table", "nn") for n in (1, 2)], [count(n, "table", "da") for n in (1, 2)]
    (['1 bord', '2 bord'], ['1 bord', '2 borde'])
    >>> count(0, "player", "nb"), count(1, "player", "en"), count(1200, "player", "nn")
    ('0 spillere', '1 player', '1 200 spelarar')
    """
    forms = NOUNS[noun]
    one, other = forms.get(lang) or forms["en"]
    return f"{format_int(number, lang)} {one if number == 1 else other}"


class Counted(NamedTuple):
    """A count a message shows with its noun, in the form the language needs.

    A :class:`~rules.errors.RulesError` parameter of this type is written by
    :func:`count`, so one template serves "1 spelar att" and "2 spelarar att".
    A NamedTuple, not a dataclass: every process imports this module, ``--help``
    too, and dataclasses brings in inspect, ast and dis.

    >>> Counted(2, "player").render("nn"), Counted(2, "player")
    ('2 spelarar', Counted(number=2, noun='player'))
    """

    number: int
    noun: str

    def render(self, lang: str) -> str:
        return count(self.number, self.noun, lang)


#: The operating system's reasons a TD meets, by errno name, each with what to do
#: about it: ``strerror`` is English whatever the room speaks.
OS_REASONS: Final[Mapping[str, Mapping[str, str]]] = {
    "ENOENT": {"nn": "fila eller mappa finst ikkje; sjå etter skrivefeil i stien",
               "nb": "filen eller mappen finnes ikke; se etter skrivefeil i stien",
               "da": "filen eller mappen findes ikke; se efter stavefejl i stien",
               "en": "there is no such file or folder; check the path for a typo"},
    "EACCES": {"nn": "du har ikkje løyve til det; prøv med sudo eller ei anna mappe",
               "nb": "du har ikke tillatelse til det; prøv med sudo eller en annen mappe",
               "da": "du har ikke tilladelse til det; prøv med sudo eller en anden mappe",
               "en": "permission denied; try sudo or another folder"},
    "EISDIR": {"nn": "det er ei mappe, ikkje ei fil; skriv namnet på fila",
               "nb": "det er en mappe, ikke en fil; skriv navnet på filen",
               "da": "det er en mappe, ikke en fil; skriv navnet på filen",
               "en": "that is a folder, not a file; give the file's name"},
    "ENOTDIR": {"nn": "ein del av stien er ei fil, ikkje ei mappe",
                "nb": "en del av stien er en fil, ikke en mappe",
                "da": "en del af stien er en fil, ikke en mappe",
                "en": "part of the path is a file, not a folder"},
    "ENOSPC": {"nn": "det er ikkje meir plass på disken",
               "nb": "det er ikke mer plass på disken",
               "da": "der er ikke mere plads på disken",
               "en": "there is no space left on the disk"},
    "EROFS": {"nn": "disken er berre for lesing",
              "nb": "disken er skrivebeskyttet",
              "da": "disken er skrivebeskyttet",
              "en": "the disk is read-only"},
    "EEXIST": {"nn": "det finst alt", "nb": "det finnes allerede", "da": "det findes allerede",
               "en": "it is there already"},
    "EADDRINUSE": {"nn": "porten er i bruk av eit anna program; stopp det eller vent litt",
                   "nb": "porten er i bruk av et annet program; stopp det eller vent litt",
                   "da": "porten bruges af et andet program; stop det eller vent lidt",
                   "en": "the port is in use by another program; stop it or wait a little"},
    "EIO": {"nn": "disken svarte med ein lesefeil; kortet kan vere skadd",
            "nb": "disken svarte med en lesefeil; kortet kan være skadet",
            "da": "disken svarede med en læsefejl; kortet kan være beskadiget",
            "en": "the disk gave a read error; the card may be damaged"},
    "ENAMETOOLONG": {"nn": "namnet eller stien er for lang; vel eit kortare namn",
                     "nb": "navnet eller stien er for lang; velg et kortere navn",
                     "da": "navnet eller stien er for lang; vælg et kortere navn",
                     "en": "the name or path is too long; choose a shorter name"},
    "ELOOP": {"nn": "stien går i ring gjennom symbolske lenkjer; sjå kvar lenkja peikar",
              "nb": "stien går i ring gjennom symbolske lenker; se hvor lenken peker",
              "da": "stien går i ring gennem symbolske links; se hvor linket peger",
              "en": "the path loops through symbolic links; check where the link points"},
}

#: Any other reason the system gives by name: the name is what a helper can look up,
#: and ``strerror`` would be English on a Nynorsk wall.
OTHER_OS_REASON: Final[Mapping[str, str]] = {
    "nn": "operativsystemet sa nei (feilkode {name})",
    "nb": "operativsystemet sa nei (feilkode {name})",
    "da": "styresystemet sagde nej (fejlkode {name})",
    "en": "the operating system refused ({name})",
}


class OsReason(NamedTuple):
    """Why the operating system refused, as a message parameter in the room's language.

    A :class:`~rules.errors.RulesError` parameter of this type is written from
    :data:`OS_REASONS`, or :data:`OTHER_OS_REASON` with the errno's name; only
    an error without an errno keeps its own words.

    >>> missing = OsReason.of(FileNotFoundError(2, "No such file or directory"))
    >>> missing.render("nb")
    'filen eller mappen finnes ikke; se etter skrivefeil i stien'
    >>> OsReason("ETXTBSY", "Text file busy").render("da")
    'styresystemet sagde nej (fejlkode ETXTBSY)'
    >>> OsReason.of(OSError(999, "Odd")).render("nn")
    'Odd'
    """

    errno_name: str
    text: str

    @classmethod
    def of(cls, err: OSError) -> OsReason:
        import errno  # here: only a refusal needs it

        name = errno.errorcode.get(err.errno or 0, "")
        return cls(name, err.strerror or str(err))

    def render(self, lang: str) -> str:
        if not self.errno_name:
            return self.text
        texts = OS_REASONS.get(self.errno_name)
        if texts is None:
            other = OTHER_OS_REASON.get(lang) or OTHER_OS_REASON["en"]
            return other.format(name=self.errno_name)
        return texts.get(lang) or texts["en"]


def format_place(place: int, lang: str = DEFAULT_LANGUAGE) -> str:
    """A finishing place as the venue says it.

    >>> format_place(37, "nn"), format_place(37, "da"), format_place(37, "en")
    ('37. plass', '37. plads', '37th')
    >>> format_place(1, "en"), format_place(2, "en"), format_place(13, "en"), format_place(22, "en")
    ('1st', '2nd', '13th', '22nd')
    """
    if lang == "en":
        teens = 10 <= place % 100 <= 20
        suffix = "th" if teens else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
        return f"{place}{suffix}"
    word = "plads" if lang == "da" else "plass"
    return f"{place}. {word}"


def format_time(seconds: float) -> str:
    """``MM:SS`` under an hour and ``H:MM:SS`` above, rounding up so 0:00 means done.

    >>> format_time(1800), format_time(59.2), format_time(3725), format_time(0)
    ('30:00', '01:00', '1:02:05', '00:00')
    """
    whole = max(0, int(-(-seconds // 1)))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def shorten(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters and an ellipsis, to quote it in a message.

    Line breaks and other control characters are shown as ``\\n``-style escapes,
    so a quoted value never breaks the one line a message is.

    >>> shorten("Kari Nordmann")
    'Kari Nordmann'
    >>> shorten("x" * 5000)
    'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'
    >>> shorten("two\\nlines\\x1b[31m", 14)
    'two\\\\nlines\\\\x1b…'
    """
    if any(_hidden(c) for c in text):
        text = "".join(c.encode("unicode_escape").decode("ascii") if _hidden(c) else c
                       for c in text)
    return text if len(text) <= limit else text[:limit] + "…"


def quote_limit(param: str) -> int:
    """How much of a message parameter is quoted (:data:`QUOTE_LIMIT` unless a path or reason).

    >>> quote_limit("name"), quote_limit("path")
    (40, 200)
    """
    return LONG_QUOTE_LIMIT if param in _LONG_PARAMS else QUOTE_LIMIT


def _hidden(char: str) -> bool:
    # Control characters (Cc), lone surrogates from undecodable argv bytes (Cs)
    # and the bidi overrides would garble a terminal or the TV line.
    return unicodedata.category(char) in ("Cc", "Cs") or char in _BIDI


_BIDI: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
