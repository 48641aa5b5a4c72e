"""Made-up player names for the demo night and the screenshots: Norwegian and Danish,
as in the venues ("Kari Nordmann", not "Player 146")."""

from __future__ import annotations

import random
from typing import Final

__all__ = ["player_names", "venue_names"]

_FIRST: Final = (
    "Kari", "Ola", "Ingrid", "Lars", "Sigrid", "Magnus", "Astrid", "Henrik", "Solveig",
    "Jonas", "Frida", "Emil", "Nora", "Anders", "Maja", "Sander", "Ida", "Mathias",
    "Thea", "Kristian", "Silje", "Mads", "Freja", "Rasmus", "Line", "Søren", "Mette",
    "Bjørn", "Hanne", "Torstein", "Liv", "Eirik", "Ragnhild", "Oddvar", "Åse", "Knut",
)
_LAST: Final = (
    "Nordmann", "Hansen", "Johansen", "Olsen", "Larsen", "Andersen", "Pedersen",
    "Nilsen", "Kristiansen", "Jensen", "Berg", "Haugen", "Hagen", "Bakken", "Dahl",
    "Lund", "Solberg", "Strand", "Moen", "Rasmussen", "Sørensen", "Eriksen", "Holm",
    "Kvam", "Fjeld", "Aasen", "Vik", "Brekke", "Myhre", "Østby",
)


def player_names(count: int, rng: random.Random) -> list[str]:
    """``count`` different names, drawn with ``rng``.

    >>> len(set(player_names(54, random.Random(1))))
    54
    """
    pool = [f"{first} {last}" for first in _FIRST for last in _LAST]
    return rng.sample(pool, count)


def venue_names(count: int, seed: int) -> list[str]:
    """``count`` different names for ``seed``: the same on every run, in every process.

    A string seeds ``random.Random`` through SHA-512, not ``hash()``, so no
    ``PYTHONHASHSEED`` changes them.

    >>> venue_names(3, 19) == venue_names(3, 19) != venue_names(3, 20)
    True
    >>> all(" " in name and not name.startswith("Player") for name in venue_names(150, 19))
    True
    """
    return player_names(count, random.Random(f"pubpoker-names/{seed}"))
