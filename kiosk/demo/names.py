"""Made-up player names for the demo night: Norwegian and Danish, as in the venues."""

from __future__ import annotations

import random
from typing import Final

__all__ = ["player_names"]

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
