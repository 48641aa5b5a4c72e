"""Every record (:func:`rules.records.record`) is the frozen dataclass it stands for.

For each record class in ``rules/`` and ``kiosk/``, a twin is made with
``@dataclass(frozen=True)`` from the same fields; the two must take the same
arguments, build equal-looking instances, compare, hash and refuse writes alike.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
from typing import Any

import pytest

import kiosk
import rules
from rules.records import RecordMethods, record


def _modules() -> list[str]:
    found = []
    for package in (rules, kiosk):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            found.append(info.name)
    return found


def _records() -> list[type[Any]]:
    seen: dict[str, type[Any]] = {}
    for name in _modules():
        if name.startswith(("kiosk.display", "kiosk.demo", "kiosk.cli.__main__",
                            "kiosk.lean_pygame", "kiosk.hdmi")):
            continue  # pygame and the screen: not where records are made
        module = importlib.import_module(name)
        for value in vars(module).values():
            if (isinstance(value, type) and issubclass(value, RecordMethods)
                    and dataclasses.is_dataclass(value) and value.__module__ == name):
                seen[f"{name}.{value.__qualname__}"] = value
    return [seen[k] for k in sorted(seen)]


RECORDS = _records()


def _twin(cls: type[Any]) -> type[Any]:
    """The same fields as a plain frozen dataclass."""
    specs = []
    for f in dataclasses.fields(cls):
        spec = dataclasses.field(default=f.default, default_factory=f.default_factory,
                                 init=f.init, repr=f.repr, compare=f.compare,
                                 kw_only=f.kw_only)
        specs.append((f.name, f.type, spec))
    return dataclasses.make_dataclass(cls.__name__, specs, frozen=True)


def test_the_records_are_found() -> None:
    names = {c.__name__ for c in RECORDS}
    # Events, commands, the clock, the store's rows and sync's frames at least.
    assert {"ClockPaused", "CheckIn", "ClockState", "StoredEvent", "Player"} <= names
    assert len(RECORDS) > 100


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_a_record_takes_the_arguments_its_dataclass_would(cls: type[Any]) -> None:
    twin = _twin(cls)
    assert str(inspect.signature(cls)) == str(inspect.signature(twin))
    assert cls.__match_args__ == twin.__match_args__


def test_a_record_behaves_as_a_frozen_dataclass() -> None:
    @record(kw_only=True)
    class Seat(RecordMethods):
        table: int
        seat: int = 1
        names: tuple[str, ...] = dataclasses.field(default_factory=tuple)
        note: str = dataclasses.field(default="", compare=False, repr=False)
        made: int = dataclasses.field(default=0, init=False)

    twin = _twin(Seat)
    mine, theirs = Seat(table=2, note="x"), twin(table=2, note="x")
    assert repr(mine).split("Seat")[-1] == repr(theirs).split("Seat")[-1]
    assert mine == Seat(table=2, note="y") and hash(mine) == hash(Seat(table=2, note="y"))
    assert mine != Seat(table=3) and mine.made == theirs.made == 0
    assert mine.names == () and mine.names is Seat(table=1).names  # a fresh (): the same ()
    assert dataclasses.replace(mine, seat=4) == Seat(table=2, seat=4)
    assert dataclasses.asdict(mine) == dataclasses.asdict(theirs)
    with pytest.raises(dataclasses.FrozenInstanceError):
        mine.table = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del mine.table  # type: ignore[misc]
    with pytest.raises(TypeError):
        Seat(2)  # type: ignore[misc]


def test_a_list_default_factory_is_called_for_each_instance() -> None:
    @record
    class Bag(RecordMethods):
        items: list[int] = dataclasses.field(default_factory=list)

    a, b = Bag(), Bag()
    a.items.append(1)
    assert b.items == [] and Bag([2]).items == [2]


def test_post_init_runs_and_a_misordered_default_is_refused() -> None:
    @record
    class Checked(RecordMethods):
        n: int

        def __post_init__(self) -> None:
            if self.n < 0:
                raise ValueError("negative")

    with pytest.raises(ValueError, match="negative"):
        Checked(-1)
    with pytest.raises(TypeError, match="follows"):
        @record
        class Wrong(RecordMethods):
            a: int = 1
            b: int  # type: ignore[misc]


def test_a_class_with_its_own_eq_stays_hashable() -> None:
    @record
    class Named(RecordMethods):
        name: str

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Named) and other.name.lower() == self.name.lower()

    assert Named("a") == Named("A") and isinstance(hash(Named("a")), int)
