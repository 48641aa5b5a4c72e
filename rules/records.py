"""Frozen records for the log's events and commands, made cheaply.

Events and commands are frozen dataclasses. On Python 3.11 ``@dataclass(frozen=True)``
compiles five functions for every class as it is made (``__init__``, ``__repr__``,
``__eq__``, ``__setattr__``, ``__delattr__``), each with its own ``exec``; for the
sixty-odd records that was a third of every CLI command's CPU and of the kiosk's
start-up. :func:`record` gives the same classes for one ``exec`` each:

- :mod:`dataclasses` still collects the fields (``fields()``, ``replace()``,
  ``asdict()`` and ``__match_args__`` work as for any dataclass);
- ``__init__`` is compiled here, in one piece, with the signature the dataclass
  would have had (a test compares them for every record);
- ``repr``, ``==``, ``hash`` and frozenness are written once, in
  :class:`RecordMethods`: fields with ``repr=False`` are not shown, those with
  ``compare=False`` are neither compared nor hashed, only instances of the same
  class are equal, and assigning or deleting an attribute raises
  :class:`~dataclasses.FrozenInstanceError`.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from dataclasses import MISSING, FrozenInstanceError, fields
from typing import Any, TypeVar, dataclass_transform, overload

__all__ = ["RecordMethods", "record"]

T = TypeVar("T", bound=type)


class RecordMethods:
    """The methods a frozen dataclass would generate per class, shared (see the module).

    >>> @record
    ... class Pair(RecordMethods):
    ...     a: int
    ...     b: str = dataclasses.field(default="", compare=False, repr=False)
    >>> Pair(1, "x"), Pair(1, "x") == Pair(1, "y"), hash(Pair(1)) == hash(Pair(1, "z"))
    (Pair(a=1), True, True)
    >>> Pair(1) == Pair(2), Pair(1) == (1,)
    (False, False)
    >>> Pair(1).a = 2
    Traceback (most recent call last):
    dataclasses.FrozenInstanceError: cannot assign to field 'a'
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

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")


def _any(record: RecordMethods) -> Any:
    # A RecordMethods is always a dataclass instance, which mypy cannot know here.
    return record


@overload
def record(cls: T, /) -> T: ...
@overload
def record(*, kw_only: bool = False) -> Callable[[T], T]: ...


@dataclass_transform(frozen_default=True, eq_default=True,
                     field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: T | None = None, /, *, kw_only: bool = False) -> T | Callable[[T], T]:
    """A frozen dataclass whose class is a :class:`RecordMethods`.

    >>> @record(kw_only=True)
    ... class Timed(RecordMethods):
    ...     at: float
    ...     tags: tuple[str, ...] = dataclasses.field(default_factory=tuple)
    >>> Timed(at=1.0), dataclasses.replace(Timed(at=1.0), tags=("a",))
    (Timed(at=1.0, tags=()), Timed(at=1.0, tags=('a',)))
    >>> Timed(1.0)
    Traceback (most recent call last):
    TypeError: Timed.__init__() takes 1 positional argument but 2 were given
    """
    def wrap(cls: T) -> T:
        if not issubclass(cls, RecordMethods):
            raise TypeError(f"{cls.__name__}: a record is a RecordMethods")
        documented = bool(cls.__dict__.get("__doc__"))
        dataclasses.dataclass(cls, init=False, repr=False, eq=False, kw_only=kw_only)
        if "__init__" not in cls.__dict__:
            type.__setattr__(cls, "__init__", _init(cls))
        if not documented:  # as dataclass writes it, from the signature it now has
            type.__setattr__(cls, "__doc__", cls.__name__ + str(
                inspect.signature(cls)).replace(" -> None", ""))
        if cls.__dict__.get("__hash__", MISSING) is None and "__eq__" in cls.__dict__:
            # A class body with its own __eq__ loses __hash__; a frozen dataclass
            # hashes its fields then, and so does a record.
            type.__setattr__(cls, "__hash__", RecordMethods.__hash__)
        return cls
    return wrap if cls is None else wrap(cls)


def _init(cls: type) -> Callable[..., None]:
    """``cls.__init__`` as a frozen dataclass would compile it, in one ``exec``."""
    every = list(fields(cls))
    pseudo = set(cls.__dataclass_fields__) - {f.name for f in every}  # type: ignore[attr-defined]
    if any("InitVar" in str(cls.__dataclass_fields__[n].type) for n in pseudo):  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__}: a record takes no InitVar")
    names: dict[str, object] = {"__set": object.__setattr__, "__factory": _FACTORY}
    positional: list[str] = []
    keyword: list[str] = []
    body: list[str] = []
    for f in every:
        if f.default_factory is not MISSING:
            names[f"__f_{f.name}"] = f.default_factory
        elif f.default is not MISSING:
            names[f"__d_{f.name}"] = f.default
        if not f.init:
            if f.default_factory is not MISSING:
                body.append(f"__set(self, {f.name!r}, __f_{f.name}())")
            elif f.default is not MISSING:
                body.append(f"__set(self, {f.name!r}, __d_{f.name})")
            continue
        if f.default_factory is not MISSING:
            param = f"{f.name}=__factory"
            body.append(f"__set(self, {f.name!r}, __f_{f.name}() if {f.name} is __factory "
                        f"else {f.name})")
        else:
            param = f.name if f.default is MISSING else f"{f.name}=__d_{f.name}"
            body.append(f"__set(self, {f.name!r}, {f.name})")
        (keyword if f.kw_only else positional).append(param)
    if hasattr(cls, "__post_init__"):
        body.append("self.__post_init__()")
    defaulted = ["=" in p for p in positional]
    if defaulted != sorted(defaulted):  # a False (no default) after a True
        raise TypeError(f"{cls.__name__}: a field without a default follows one with one")
    params = ["self", *positional, *(["*", *keyword] if keyword else [])]
    source = (f"def __init__({', '.join(params)}):\n    "
              + "\n    ".join(body or ["pass"]) + "\n")
    made: dict[str, Any] = {}
    exec(source, names, made)  # the dataclass way, once per class
    init: Callable[..., None] = made["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    # As the dataclass's own: typing.get_type_hints and inspect.signature read these.
    init.__annotations__ = {**{f.name: f.type for f in every if f.init}, "return": None}
    return init


class _Factory:
    def __repr__(self) -> str:
        return "<factory>"


#: The default of a parameter whose field has a default factory (as dataclasses shows it).
_FACTORY = _Factory()
