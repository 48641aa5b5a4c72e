"""Languages and number formatting shared by every message the core produces."""

from __future__ import annotations

from typing import Final

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "format_int", "format_place", "format_time"]

#: Nynorsk is the venue's own language and the default.
LANGUAGES: Final = ("nn", "nb", "da", "en")
DEFAULT_LANGUAGE: Final = "nn"


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
