"""Betting actions as values, and the text form the CLI and the log use.

``Action`` is what a player does; ``Acted`` is what the engine recorded
(what the action counted as, and how many chips went in). Amounts of bets
and raises are always the player's *total* for the round, as a dealer says
"raise to 1 200".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum, unique

from rules.betting_errors import UnknownAction
from rules.limits import Street

__all__ = ["Acted", "Action", "ActionKind", "parse_action", "parse_actions"]


@unique
class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALL_IN = "all-in"

    @property
    def puts_chips_in(self) -> bool:
        """X12: does this kind of action put chips in the pot?

        >>> ActionKind.CALL.puts_chips_in, ActionKind.CHECK.puts_chips_in
        (True, False)
        """
        return self not in (ActionKind.FOLD, ActionKind.CHECK)


_NEEDS_AMOUNT = (ActionKind.BET, ActionKind.RAISE)


@dataclass(frozen=True)
class Action:
    """One player's action; ``amount`` is the round total of a bet or raise.

    >>> str(Action(ActionKind.RAISE, 1200)), str(Action(ActionKind.ALL_IN))
    ('raise 1200', 'all-in')
    """

    kind: ActionKind
    amount: int | None = None

    def __post_init__(self) -> None:
        needs = self.kind in _NEEDS_AMOUNT
        if needs != (self.amount is not None) or (self.amount is not None and self.amount <= 0):
            raise UnknownAction(text=str(self))

    def __str__(self) -> str:
        return str(self.kind) if self.amount is None else f"{self.kind} {self.amount}"


@dataclass(frozen=True)
class Acted:
    """What one action counted as, as recorded in the hand's history.

    An all-in is recorded as the call, bet or raise it was, with ``all_in``
    set. ``auto`` marks the fold the engine makes for an absent player (B6).
    """

    seat: int
    street: Street
    kind: ActionKind
    added: int
    to: int
    all_in: bool = False
    auto: bool = False


_WORDS = {
    "fold": ActionKind.FOLD, "f": ActionKind.FOLD,
    "check": ActionKind.CHECK, "x": ActionKind.CHECK,
    "call": ActionKind.CALL, "c": ActionKind.CALL,
    "bet": ActionKind.BET, "b": ActionKind.BET,
    "raise": ActionKind.RAISE, "r": ActionKind.RAISE,
    "all-in": ActionKind.ALL_IN, "allin": ActionKind.ALL_IN, "all in": ActionKind.ALL_IN,
    "shove": ActionKind.ALL_IN,
}
# "raise to 1 200", "bet 1,200", "raise 1200": the amount may be grouped with
# spaces (the Scandinavian way), thin spaces, commas or dots.
_PATTERN = re.compile(r"^\s*([a-z][a-z -]*?)\s*(?:\bto\b\s*)?(\d[\d \u2009\u202f,.]*)?\s*$")


def parse_action(text: str) -> Action:
    """Read one action as the CLI and tests write it.

    >>> parse_action("raise 1 200"), parse_action("All-in"), parse_action("bet 300")
    (Action(kind=<ActionKind.RAISE: 'raise'>, amount=1200), \
Action(kind=<ActionKind.ALL_IN: 'all-in'>, amount=None), \
Action(kind=<ActionKind.BET: 'bet'>, amount=300))
    >>> parse_action("raise to 500").amount
    500
    >>> parse_action("dance")
    Traceback (most recent call last):
    rules.betting_errors.UnknownAction: Unknown action 'dance': use fold, check, call, \
bet N, raise N or all-in
    """
    match = _PATTERN.match(text.lower())
    kind = _WORDS.get(match.group(1).strip()) if match else None
    if match is None or kind is None:
        raise UnknownAction(text=text.strip())
    digits = re.sub(r"\D", "", match.group(2) or "")
    amount = int(digits) if digits else None
    if (kind in _NEEDS_AMOUNT) != (amount is not None):
        raise UnknownAction(text=text.strip())
    return Action(kind, amount)


def parse_actions(text: str) -> tuple[Action, ...]:
    """A comma- or semicolon-separated list of actions.

    >>> [str(a) for a in parse_actions("raise 500, raise 1,200; fold")]
    ['raise 500', 'raise 1200', 'fold']
    """
    # A comma followed by a digit groups thousands ("raise 1,200"), not actions.
    parts = re.split(r"[;\n]|,(?=\s*[^\d\s])", text)
    return tuple(parse_action(part) for part in parts if part.strip())
