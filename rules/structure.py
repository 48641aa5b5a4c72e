"""Blind structures: levels, breaks and the presets the venues use.

A structure is a sequence of periods, each a :class:`Level` or a
:class:`Break`. Levels run on effective playing time (C3): breaks and pauses
stop the level clock, so a break is simply a period of its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import StrEnum, unique
from typing import Any, Literal

from rules.codec import CodecError, from_jsonable, to_jsonable
from rules.errors import RulesError
from rules.records import RecordMethods, record

__all__ = [
    "PRESETS",
    "AnteKind",
    "BadStructure",
    "Break",
    "Level",
    "Period",
    "Structure",
    "UnknownPreset",
    "preset",
]


@unique
class AnteKind(StrEnum):
    PER_PLAYER = "per-player"
    #: One ante for the whole table, posted by the big blind (B7).
    BIG_BLIND = "big-blind"


class BadStructure(RulesError, ValueError):
    messages = {
        "nn": "Ugyldig struktur: {reason}",
        "nb": "Ugyldig struktur: {reason}",
        "da": "Ugyldig struktur: {reason}",
        "en": "Invalid structure: {reason}",
    }


class UnknownPreset(RulesError, LookupError):
    messages = {
        "nn": "Ukjend struktur «{name}». Kjende: {known}",
        "nb": "Ukjent struktur «{name}». Kjente: {known}",
        "da": "Ukendt struktur «{name}». Kendte: {known}",
        "en": "Unknown structure '{name}'. Known: {known}",
    }


@record
class Level(RecordMethods):
    """One blind level.

    >>> Level(100, 200, seconds=1800).ante
    0
    """

    small_blind: int
    big_blind: int
    ante: int = 0
    ante_kind: AnteKind = AnteKind.PER_PLAYER
    seconds: int = 1200
    type: Literal["level"] = "level"


@record
class Break(RecordMethods):
    """A pause in play; ``colour_up`` names the denominations removed in it."""

    seconds: int
    colour_up: tuple[int, ...] = ()
    meal: bool = False
    type: Literal["break"] = "break"


Period = Level | Break


@record
class Structure(RecordMethods):
    """A named sequence of levels and breaks.

    ``heads_up_seconds`` (C4) replaces the length of every level that starts
    after play became heads-up. ``starting_stack`` is the freezeout stack (F1).

    >>> s = preset("pf-pokerklub")
    >>> [lv.big_blind for lv in s.levels()][:3], s.starting_stack, s.heads_up_seconds
    ([200, 400, 600], 10000, 600)
    >>> Structure.from_dict(s.to_dict()) == s
    True
    """

    name: str
    periods: tuple[Period, ...]
    starting_stack: int = 10_000
    heads_up_seconds: int | None = None

    def __post_init__(self) -> None:
        if not any(isinstance(p, Level) for p in self.periods):
            raise BadStructure(reason="no levels")
        if self.starting_stack <= 0:
            raise BadStructure(reason="starting stack must be positive")
        if self.heads_up_seconds is not None and self.heads_up_seconds <= 0:
            raise BadStructure(reason="heads-up level length must be positive")
        for number, period in enumerate(self.periods, 1):
            if period.seconds <= 0:
                raise BadStructure(reason=f"period {number} has no length")
            if isinstance(period, Level) and not (
                0 <= period.small_blind <= period.big_blind and period.ante >= 0
                and period.big_blind > 0
            ):
                raise BadStructure(reason=f"level {number} has impossible blinds")

    def levels(self) -> Iterator[Level]:
        return (p for p in self.periods if isinstance(p, Level))

    def level_number(self, index: int) -> int | None:
        """The 1-based level number of period ``index``; None for a break.

        >>> s = preset("pf-pokerklub")
        >>> s.level_number(0), s.level_number(2), s.level_number(3)
        (1, None, 3)
        """
        if isinstance(self.periods[index], Break):
            return None
        return sum(1 for p in self.periods[: index + 1] if isinstance(p, Level))

    def to_dict(self) -> dict[str, Any]:
        return dict(to_jsonable(self))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Structure:
        """Build from plain data (a parsed TOML or JSON file), with a clear error."""
        try:
            return from_jsonable(cls, data)
        except CodecError as err:
            raise BadStructure(reason=str(err)) from None


def _levels(minutes: int, rows: list[tuple[int, int, int]], kind: AnteKind) -> list[Level]:
    return [Level(sb, bb, ante, kind if ante else AnteKind.PER_PLAYER, minutes * 60)
            for sb, bb, ante in rows]


def _pf_pokerklub() -> Structure:
    # C2 exactly: 30-minute levels; a 10-minute break after every hour of
    # play. The "longer meal break" falls after two hours (30 minutes), and
    # the 100s and 200s are coloured up once antes reach 500 (K1, K2).
    lv = _levels(30, [
        (100, 200, 0), (200, 400, 0), (300, 600, 0), (500, 1000, 0), (800, 1600, 100),
        (1200, 2400, 200), (2000, 4000, 500), (3000, 6000, 500), (5000, 10000, 1000),
    ], AnteKind.PER_PLAYER)
    periods: tuple[Period, ...] = (
        lv[0], lv[1], Break(600),
        lv[2], lv[3], Break(1800, meal=True),
        lv[4], lv[5], Break(600, colour_up=(100, 200)),
        lv[6], lv[7], Break(600),
        lv[8],
    )
    return Structure("pf-pokerklub", periods, starting_stack=10_000, heads_up_seconds=600)


def _pubpoker() -> Structure:
    # The venue publishes its live blinds separately; this default suits a
    # free pub freezeout of about four hours with 10,000 stacks (F5) and a
    # big-blind ante from level 5 (B7), which is the TDA's recommendation.
    lv = _levels(20, [
        (100, 200, 0), (200, 400, 0), (300, 600, 0), (400, 800, 0),
        (500, 1000, 1000), (600, 1200, 1200), (800, 1600, 1600), (1000, 2000, 2000),
        (1500, 3000, 3000), (2000, 4000, 4000), (3000, 6000, 6000), (4000, 8000, 8000),
        (5000, 10000, 10000), (6000, 12000, 12000), (8000, 16000, 16000),
        (10000, 20000, 20000),
    ], AnteKind.BIG_BLIND)
    periods: tuple[Period, ...] = (
        *lv[0:4], Break(600),
        *lv[4:8], Break(900, colour_up=(100,)),
        *lv[8:12], Break(600),
        *lv[12:],
    )
    return Structure("pubpoker", periods, starting_stack=10_000, heads_up_seconds=None)


def _sit_and_go() -> Structure:
    # G3: 10,000 stacks, short levels so a table finishes within the evening.
    lv = _levels(10, [
        (100, 200, 0), (200, 400, 0), (300, 600, 0), (500, 1000, 0), (700, 1400, 0),
        (1000, 2000, 0), (1500, 3000, 0), (2000, 4000, 0), (3000, 6000, 0),
        (5000, 10000, 0),
    ], AnteKind.PER_PLAYER)
    return Structure("sit-and-go", tuple(lv), starting_stack=10_000)


PRESETS = {
    "pubpoker": _pubpoker(),
    "pf-pokerklub": _pf_pokerklub(),
    "sit-and-go": _sit_and_go(),
}


def preset(name: str) -> Structure:
    """A structure by preset name.

    >>> preset("sit-and-go").starting_stack
    10000
    """
    try:
        return PRESETS[name]
    except KeyError:
        raise UnknownPreset(name=name, known=", ".join(PRESETS)) from None
