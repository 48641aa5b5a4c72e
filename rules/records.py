"""``repr``, ``==`` and ``hash`` for a family of frozen dataclasses, written once.

A dataclass compiles its own ``__repr__``, ``__eq__`` and ``__hash__`` when its
class is made; for the sixty-odd events and commands that was a large share of
every CLI command's and the kiosk's start-up. :class:`Record` gives the same
results from the fields, for classes declared ``repr=False, eq=False``: fields
with ``repr=False`` are not shown, those with ``compare=False`` are neither
compared nor hashed, and only instances of the same class are equal.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

__all__ = ["RecordMethods"]


class RecordMethods:
    """The generated dataclass methods, shared (see the module).

    >>> from dataclasses import dataclass, field
    >>> @dataclass(frozen=True, repr=False, eq=False)
    ... class Pair(RecordMethods):
    ...     a: int
    ...     b: str = field(default="", compare=False, repr=False)
    >>> Pair(1, "x"), Pair(1, "x") == Pair(1, "y"), hash(Pair(1)) == hash(Pair(1, "z"))
    (Pair(a=1), True, True)
    >>> Pair(1) == Pair(2), Pair(1) == (1,)
    (False, False)
    """

    __slots__ = ()

    def __repr__(self) -> str:
        shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(_any(self))
                          if f.repr)
        return f"{type(self).__qualname__}({shown})"

    def _compared(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f.name) for f in fields(_any(self)) if f.compare)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, RecordMethods)
        return self._compared() == other._compared()

    def __hash__(self) -> int:
        return hash(self._compared())


def _any(record: RecordMethods) -> Any:
    # A RecordMethods is always a dataclass instance, which mypy cannot know here.
    return record
