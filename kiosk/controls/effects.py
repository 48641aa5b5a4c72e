"""What a handler asks for: typed effects, carried out by the controls and the loop.

A handler never touches the screen and never submits itself. It returns
effects: :class:`Submit` a command (the controls carry it out on the
station, then the effects for its outcome), and for the loop
:class:`~kiosk.controls.messages.Say` a message, :class:`ShowScreen`,
:class:`NextScreen`, :class:`Popup`, :class:`ShowHelp`,
:class:`CycleLanguage`, :class:`AskQuit` and :class:`Quit`. The room's news
(:mod:`kiosk.display.room`) comes the same way, with :class:`AddBusts`,
:class:`DropBustsOf` and :class:`Chime` of its own, and so does the night's
(:mod:`kiosk.night`), with :class:`FreshNight` and :class:`Settle`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from kiosk.controls.messages import Say
from rules.commands import Command

if TYPE_CHECKING:
    from kiosk.station import Outcome

__all__ = ["AddBusts", "AskQuit", "Chime", "CycleLanguage", "Dismiss", "DropBustsOf", "Effect",
           "FindSeat", "FreshNight", "Message", "NextScreen", "Popup", "Quit", "Say", "Settle",
           "ShowHelp", "ShowScreen", "Submit", "UiEffect"]


@dataclass(frozen=True)
class NextScreen:
    """The next screen in the rotation (the SCREEN button, Tab)."""


@dataclass(frozen=True)
class FindSeat:
    """The seat finder's first page of names now, for one round of them (FIND SEAT, f)."""


@dataclass(frozen=True)
class ShowScreen:
    """A screen by name (a :class:`~kiosk.display.loop.Screen` value), for a while or for good."""

    screen: str
    for_seconds: float | None = None


@dataclass(frozen=True)
class ShowHelp:
    """What each of ``buttons`` (the panel's, in its order) does, over every screen a while."""

    buttons: tuple[str, ...]


@dataclass(frozen=True)
class CycleLanguage:
    """The next of the four languages (the ``l`` key)."""


@dataclass(frozen=True)
class AskQuit:
    """Say "press q again to quit" for ``seconds``."""

    seconds: float


@dataclass(frozen=True)
class Quit:
    """Stop the loop (the second ``q``)."""


@dataclass(frozen=True)
class Dismiss:
    """Take the pop-ups of ``kind`` off the screen (a question no longer asked)."""

    kind: str


class Message(Protocol):
    def translate(self, lang: str = ..., /) -> str: ...


@dataclass(frozen=True)
class Popup:
    """A pop-up with a title and a line, translated when shown.

    ``kind`` replaces one of the same kind; ``front`` shows it at once, over
    anything queued (a warning that must be read now).
    """

    #: A name is its own title (a check-in's pop-up): said the same in every language.
    title: str | Message
    line: Message | None = None
    kind: str = ""
    seconds: float = 5.0
    front: bool = False


@dataclass(frozen=True)
class AddBusts:
    """New bust lines on top of the ticker, newest first."""

    lines: tuple[Message, ...]


@dataclass(frozen=True)
class DropBustsOf:
    """Take ``name``'s lines off the ticker (a bust undone)."""

    name: str


@dataclass(frozen=True)
class Chime:
    """Play a chime (a :class:`~kiosk.display.sound.Chime` value), if the kiosk has sound."""

    kind: str


@dataclass(frozen=True)
class FreshNight:
    """Take every pop-up and the ticker off: a new night began (last night's winner
    and busts are over)."""


@dataclass(frozen=True)
class Settle:
    """Take the state as it stands now as told: no pop-up for what happened before
    (a night joined or switched to, with its players already checked in)."""


#: What the loop carries out.
UiEffect = (Say | NextScreen | FindSeat | ShowScreen | ShowHelp | CycleLanguage | AskQuit | Quit
            | Popup | Dismiss | AddBusts | DropBustsOf | Chime | FreshNight | Settle)


@dataclass(frozen=True)
class Submit:
    """Submit ``command`` on the station; then ``ok`` (or ``then(outcome)``) if it was taken.

    A refusal becomes a ``refused`` message with the rules' own reason.
    """

    command: Command
    ok: tuple[UiEffect, ...] = ()
    then: Callable[[Outcome], Sequence[Effect]] | None = field(default=None, compare=False)


Effect = UiEffect | Submit
