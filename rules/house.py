"""House-rule settings: where the venues' rule documents disagree.

Each difference is a named setting, and a profile is a set of defaults for
one house. ``pubpoker`` (seed 000) is the venue's own profile and the default.
"""

from __future__ import annotations

from enum import StrEnum, unique
from typing import Any

from rules.codec import CodecError, from_jsonable, to_jsonable
from rules.errors import RulesError
from rules.records import RecordMethods, record

__all__ = [
    "AnteOrder",
    "ColourUpMethod",
    "HouseRules",
    "OutOfTurnPolicy",
    "PointsScheme",
    "ShowdownOrder",
    "UnknownProfile",
    "profile",
]


@unique
class OutOfTurnPolicy(StrEnum):
    """X11: what an action out of turn means."""

    #: Binding if the action to the player does not change; fold always binding.
    PUBPOKER = "pubpoker"
    #: The player may only call or fold; a bet out of turn is withdrawn.
    CALL_OR_FOLD = "call-or-fold"
    #: The player may only call in that round.
    CALL_ONLY = "call-only"


@unique
class AnteOrder(StrEnum):
    """B7: a big blind too short for both the blind and the big-blind ante."""

    BLIND_FIRST = "blind-first"  # TDA 2024 RP-11, the default
    ANTE_FIRST = "ante-first"  # seed 004's house option


@unique
class ShowdownOrder(StrEnum):
    """P3: who shows first when nobody shows voluntarily."""

    LAST_AGGRESSOR = "last-aggressor"
    LEFT_OF_LAST_CALLER = "left-of-last-caller"  # pf-pokerklub


@unique
class ColourUpMethod(StrEnum):
    """K1: how a removed denomination is exchanged."""

    ROUND_UP = "round-up"  # pubpoker house rule
    CHIP_RACE = "chip-race"  # TDA


@unique
class PointsScheme(StrEnum):
    PF_POKERKLUB = "pf-pokerklub"
    TABLE = "table"  # a generic per-place table plus an entrants bonus


class UnknownProfile(RulesError, LookupError):
    messages = {
        "nn": "Ukjend husregelprofil «{name}»",
        "nb": "Ukjent husregelprofil «{name}»",
        "da": "Ukendt husregelprofil «{name}»",
        "en": "Unknown house-rule profile '{name}'",
    }


@record
class HouseRules(RecordMethods):
    """The settings that differ between houses, with the pubpoker defaults.

    >>> profile("pf-pokerklub").absent_limit_minutes
    20
    >>> profile("pubpoker").out_of_turn
    <OutOfTurnPolicy.PUBPOKER: 'pubpoker'>
    >>> HouseRules.from_dict(profile("dk-club").to_dict()) == profile("dk-club")
    True
    """

    name: str = "pubpoker"
    out_of_turn: OutOfTurnPolicy = OutOfTurnPolicy.PUBPOKER
    ante_order: AnteOrder = AnteOrder.BLIND_FIRST
    showdown_order: ShowdownOrder = ShowdownOrder.LAST_AGGRESSOR
    colour_up: ColourUpMethod = ColourUpMethod.ROUND_UP
    #: F6: away longer than this is eliminated; None = blinded out instead.
    absent_limit_minutes: int | None = None
    seats_per_table: int = 10
    points: PointsScheme = PointsScheme.PF_POKERKLUB
    #: S5: the button stays dead for a hand when its player is moved.
    dead_button_on_move: bool = True

    def to_dict(self) -> dict[str, Any]:
        return dict(to_jsonable(self))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HouseRules:
        try:
            return from_jsonable(cls, data)
        except CodecError as err:
            raise ValueError(f"bad house rules: {err}") from err


_PROFILES = {
    "pubpoker": HouseRules(),
    "pf-pokerklub": HouseRules(
        name="pf-pokerklub",
        out_of_turn=OutOfTurnPolicy.CALL_OR_FOLD,
        showdown_order=ShowdownOrder.LEFT_OF_LAST_CALLER,
        absent_limit_minutes=20,
    ),
    "dk-club": HouseRules(name="dk-club", out_of_turn=OutOfTurnPolicy.CALL_ONLY),
}


def profile(name: str) -> HouseRules:
    """The house rules of a named profile: ``pubpoker``, ``pf-pokerklub`` or ``dk-club``."""
    try:
        return _PROFILES[name]
    except KeyError:
        raise UnknownProfile(name=name) from None


#: Every profile name, for CLIs and config validation.
PROFILES = tuple(_PROFILES)
