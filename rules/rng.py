"""The randomness the core is handed, described by what it may do with it.

The core never imports ``random``: seat draws, card draws and balancing
fallbacks take any object with these methods, such as the caller's
``random.Random(seed)``, so a replay with the same seed draws the same.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Any, Protocol, TypeVar

__all__ = ["RandomSource"]

T = TypeVar("T")


class RandomSource(Protocol):
    """What the rules ask of a random number generator.

    >>> import random
    >>> def draw(rng: RandomSource) -> str:
    ...     return rng.choice(["a", "b", "c"])
    >>> draw(random.Random(3)) == draw(random.Random(3))
    True
    """

    def choice(self, seq: Sequence[T], /) -> T: ...

    def sample(self, population: Sequence[T], k: int) -> list[T]: ...

    def shuffle(self, x: MutableSequence[Any], /) -> None: ...
