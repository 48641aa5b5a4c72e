"""Chips: denominations, colours and starting-stack compositions (K2, F5).

A :class:`ChipSet` is what a house owns (values and colours); a
:class:`StackComposition` is how a starting stack is counted out from it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from enum import StrEnum, unique
from math import gcd
from typing import Any, Final

from rules.codec import CodecError, from_jsonable, to_jsonable
from rules.errors import RulesError
from rules.i18n import DEFAULT_LANGUAGE
from rules.records import RecordMethods, record

__all__ = [
    "PF_POKERKLUB_CHIPS",
    "PF_POKERKLUB_STACK",
    "SIT_AND_GO_STACK",
    "STARTING_STACK",
    "BadChipSet",
    "BadComposition",
    "BadDenomination",
    "Chip",
    "ChipColour",
    "ChipSet",
    "StackComposition",
    "can_compose",
    "colour_name",
    "make_change",
    "verify_composition",
]

#: F5: every player starts with 10,000 (main event and Sit & Go alike).
STARTING_STACK: Final = 10_000


@unique
class ChipColour(StrEnum):
    GREEN = "green"
    RED = "red"
    BLUE = "blue"
    BLACK = "black"
    WHITE = "white"


_COLOUR_NAMES: Final[Mapping[ChipColour, Mapping[str, str]]] = {
    ChipColour.GREEN: {"nn": "grøn", "nb": "grønn", "da": "grøn", "en": "green"},
    ChipColour.RED: {"nn": "raud", "nb": "rød", "da": "rød", "en": "red"},
    ChipColour.BLUE: {"nn": "blå", "nb": "blå", "da": "blå", "en": "blue"},
    # Seed 002 says "sort" (Danish); Norwegian says "svart".
    ChipColour.BLACK: {"nn": "svart", "nb": "svart", "da": "sort", "en": "black"},
    ChipColour.WHITE: {"nn": "kvit", "nb": "hvit", "da": "hvid", "en": "white"},
}


def colour_name(colour: ChipColour, lang: str = DEFAULT_LANGUAGE) -> str:
    """The colour as the venue says it (English for an unknown language).

    >>> colour_name(ChipColour.RED), colour_name(ChipColour.BLACK, "da")
    ('raud', 'sort')
    >>> colour_name(ChipColour.WHITE, "en")
    'white'
    """
    names = _COLOUR_NAMES[colour]
    return names.get(lang) or names["en"]


class BadDenomination(RulesError, ValueError):
    messages = {
        "nn": "Ugyldig sjetongvalør: {value}",
        "nb": "Ugyldig sjetongvalør: {value}",
        "da": "Ugyldig jetonværdi: {value}",
        "en": "Invalid chip value: {value}",
    }


class BadChipSet(RulesError, ValueError):
    messages = {
        "nn": "Ugyldig sjetongsett: {reason}",
        "nb": "Ugyldig sjetongsett: {reason}",
        "da": "Ugyldigt jetonsæt: {reason}",
        "en": "Invalid chip set: {reason}",
    }


class BadComposition(RulesError, ValueError):
    messages = {
        "nn": "Sjetongane i startstacken er til saman {total}, ikkje {stack}",
        "nb": "Sjetongene i startstacken er til sammen {total}, ikke {stack}",
        "da": "Jetonerne i startstacken er i alt {total}, ikke {stack}",
        "en": "The starting-stack chips add up to {total}, not {stack}",
    }


@dataclass(frozen=True, order=True)
class Chip:
    """One denomination and its colour; ``late`` chips come out late (K2 white).

    >>> Chip(100, ChipColour.GREEN).late
    False
    """

    value: int
    colour: ChipColour
    late: bool = False

    def __post_init__(self) -> None:
        if self.value <= 0:
            raise BadDenomination(value=self.value)


@record
class ChipSet(RecordMethods):
    """The denominations a house plays with, kept in ascending order.

    >>> PF_POKERKLUB_CHIPS.denominations
    (100, 200, 500, 1000, 5000)
    >>> PF_POKERKLUB_CHIPS.colour(500), PF_POKERKLUB_CHIPS.early_denominations
    (<ChipColour.BLUE: 'blue'>, (100, 200, 500, 1000))
    >>> ChipSet.from_dict(PF_POKERKLUB_CHIPS.to_dict()) == PF_POKERKLUB_CHIPS
    True
    """

    name: str
    chips: tuple[Chip, ...]

    def __post_init__(self) -> None:
        if not self.chips:
            raise BadChipSet(reason="no chips")
        values = [c.value for c in self.chips]
        if len(set(values)) != len(values):
            raise BadChipSet(reason="a value appears twice")
        # Canonical order, so equal sets compare and serialise equal.
        object.__setattr__(self, "chips", tuple(sorted(self.chips)))

    @property
    def denominations(self) -> tuple[int, ...]:
        return tuple(c.value for c in self.chips)

    @property
    def early_denominations(self) -> tuple[int, ...]:
        """The values in play from the start (without the late chips)."""
        return tuple(c.value for c in self.chips if not c.late)

    def chip(self, value: int) -> Chip:
        for c in self.chips:
            if c.value == value:
                return c
        raise BadDenomination(value=value)

    def colour(self, value: int) -> ChipColour:
        return self.chip(value).colour

    def to_dict(self) -> dict[str, Any]:
        return dict(to_jsonable(self))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChipSet:
        try:
            return from_jsonable(cls, data)
        except CodecError as err:
            raise BadChipSet(reason=str(err)) from None


@record
class StackComposition(RecordMethods):
    """How a stack is counted out: ``(value, count)`` pairs, ascending by value.

    >>> PF_POKERKLUB_STACK.total, PF_POKERKLUB_STACK.count(200)
    (10000, 6)
    >>> SIT_AND_GO_STACK.counts
    ((100, 10), (500, 4), (1000, 7))
    """

    counts: tuple[tuple[int, int], ...]

    def __post_init__(self) -> None:
        values = [v for v, _ in self.counts]
        if len(set(values)) != len(values):
            raise BadChipSet(reason="a value appears twice")
        for value, count in self.counts:
            if value <= 0:
                raise BadDenomination(value=value)
            if count < 0:
                raise BadChipSet(reason=f"negative count of {value}")
        object.__setattr__(self, "counts", tuple(sorted(self.counts)))

    @property
    def total(self) -> int:
        return sum(value * count for value, count in self.counts)

    @property
    def chip_count(self) -> int:
        return sum(count for _, count in self.counts)

    def count(self, value: int) -> int:
        return dict(self.counts).get(value, 0)


def can_compose(
    composition: StackComposition, stack: int = STARTING_STACK, chipset: ChipSet | None = None
) -> bool:
    """Whether ``composition`` adds up to ``stack`` using only ``chipset``'s values.

    >>> can_compose(PF_POKERKLUB_STACK, 10_000, PF_POKERKLUB_CHIPS)
    True
    >>> can_compose(StackComposition(((100, 8), (500, 8))), 10_000)
    False
    """
    try:
        verify_composition(composition, stack, chipset)
    except RulesError:
        return False
    return True


def verify_composition(
    composition: StackComposition, stack: int = STARTING_STACK, chipset: ChipSet | None = None
) -> None:
    """Raise :class:`BadComposition` (or :class:`BadDenomination`) unless it adds up.

    >>> verify_composition(StackComposition(((1000, 9),)))
    Traceback (most recent call last):
    ...
    rules.chips.BadComposition: The starting-stack chips add up to 9,000, not 10,000
    """
    if chipset is not None:
        for value, _ in composition.counts:
            chipset.chip(value)
    if composition.total != stack:
        raise BadComposition(total=composition.total, stack=stack)


def make_change(amount: int, denominations: Collection[int]) -> tuple[tuple[int, int], ...]:
    """``amount`` in as few chips as possible: ``(value, count)`` pairs, largest first.

    >>> make_change(1500, (500, 1000, 5000))
    ((1000, 1), (500, 1))
    >>> make_change(600, (200, 500))
    ((200, 3),)
    >>> make_change(0, (100,))
    ()
    """
    values = sorted({*denominations}, reverse=True)
    if amount < 0 or not values or values[-1] <= 0:
        raise BadDenomination(value=amount)
    # Greedy is optimal for the usual 1-2-5 chip sets; the search below
    # covers odd sets (200 and 500 make 600 only as three 200s).
    rest, greedy = amount, []
    for value in values:
        count, rest = divmod(rest, value)
        if count:
            greedy.append((value, count))
    if rest == 0:
        return tuple(greedy)
    return _fewest_chips(amount, values)


def _fewest_chips(amount: int, values: list[int]) -> tuple[tuple[int, int], ...]:
    step = 0
    for value in values:
        step = gcd(step, value)
    if amount % step:
        raise BadDenomination(value=amount)
    units = amount // step
    # Each chip is worth at least one step, so no answer needs more than `units` chips.
    never = units + 1
    best = [0] + [never] * units
    last = [0] * (units + 1)
    for u in range(1, units + 1):
        for value in values:
            k = value // step
            if k <= u and best[u - k] + 1 < best[u]:
                best[u], last[u] = best[u - k] + 1, value
    if best[units] == never:
        raise BadDenomination(value=amount)
    counts: dict[int, int] = {}
    u = units
    while u:
        counts[last[u]] = counts.get(last[u], 0) + 1
        u -= last[u] // step
    return tuple(sorted(counts.items(), reverse=True))


#: K2: pf-pokerklub's chips; white only late or at the final table.
PF_POKERKLUB_CHIPS: Final = ChipSet("pf-pokerklub", (
    Chip(100, ChipColour.GREEN),
    Chip(200, ChipColour.RED),
    Chip(500, ChipColour.BLUE),
    Chip(1000, ChipColour.BLACK),
    Chip(5000, ChipColour.WHITE, late=True),
))

#: F5: pf-pokerklub's 10,000 is 8×100, 6×200, 8×500 and 4×1000.
PF_POKERKLUB_STACK: Final = StackComposition(((100, 8), (200, 6), (500, 8), (1000, 4)))

#: F5: a Sit & Go stack is 7×1000, 4×500 and 10×100 (seed 000, Sit & Go).
SIT_AND_GO_STACK: Final = StackComposition(((1000, 7), (500, 4), (100, 10)))
