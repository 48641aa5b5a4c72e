"""One table from input to handler: what a button press or a card tap means here.

Every input, whether a GPIO button, a key on a USB keyboard or a card on a
reader, arrives as one of :mod:`hardware.inputs`' messages. :data:`ROUTES`
maps each :class:`~hardware.inputs.Action` to the handlers that may take it,
each for the roles it serves (a table device's OK confirms a bust; the TD's
confirms quitting). A handler returns effects (:mod:`kiosk.controls.effects`)
and changes nothing itself; :meth:`Controller.handle` carries out the
submits on the station and gives the rest to the loop.

A new button is one :class:`~hardware.inputs.Action` member and one row
here (plus its help line and its key, if it has one). A device's own rows
(the night's NEW, walk-in and Sit & Go, and what a card means at the TD's
desk) come as :class:`Rows`, handed to the :class:`Controller` when it is
built: the table it dispatches on is fixed from then on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from hardware.inputs import (
    Action,
    ButtonHint,
    ButtonPressed,
    ButtonsHeld,
    CardRead,
    ReaderStatus,
    minutes_for,
)
from kiosk.controls import cards, undo
from kiosk.controls.device import Mode
from kiosk.controls.effects import (
    AskQuit,
    CycleLanguage,
    Dismiss,
    Effect,
    FindSeat,
    NextScreen,
    Quit,
    ShowHelp,
    Submit,
    UiEffect,
)
from kiosk.controls.messages import Say
from kiosk.role import Role
from kiosk.station import Station
from rules.commands import (
    AdjustTime,
    CallClock,
    DrawButton,
    FinishHand,
    NextLevel,
    PreviousLevel,
    SetHandForHand,
    Start,
    StartHand,
    TogglePause,
)

__all__ = ["QUIT_CONFIRM_SECONDS", "ROUTES", "Controller", "Input", "Mode", "Route", "Rows"]

Input = ButtonPressed | ButtonHint | ButtonsHeld | CardRead | ReaderStatus

#: How long "press q again" waits for the second press.
QUIT_CONFIRM_SECONDS = 5.0

TD = frozenset({Role.CONSOLE, Role.DISPLAY})
TABLE = frozenset({Role.TABLE})
ANY = frozenset(Role)


#: A handler: None when the press is not its business here, else its effects.
Handler = Callable[["Controller", ButtonPressed], Sequence[Effect] | None]


@dataclass(frozen=True)
class Route:
    roles: frozenset[Role]
    handler: Handler
    #: Acts only on a long press; a short one says "hold to …".
    hold: bool = False


@dataclass(frozen=True)
class Rows:
    """A device's own rows, tried before the table's: per action, and for a card
    (after the one lookup of who owns it, before the usual check-in)."""

    routes: Mapping[Action, Sequence[Route]] = field(default_factory=dict)
    card: cards.DeskCard | None = None


def _hold_hint(action: Action) -> list[Effect]:
    return [Say("hold-to", {"action": action.value})]


# --- the TD's buttons ------------------------------------------------------------------

def _minutes(ctl: Controller, press: ButtonPressed) -> list[Effect]:
    # A long press is five minutes; more needs repeated long presses.
    return [Submit(AdjustTime(60 * minutes_for(press)))]


def _pause(ctl: Controller, press: ButtonPressed) -> list[Effect]:
    return [Submit(TogglePause())]


def _next_level(ctl: Controller, press: ButtonPressed) -> list[Effect]:
    return [Submit(NextLevel())]


def _prev_level(ctl: Controller, press: ButtonPressed) -> list[Effect]:
    return [Submit(PreviousLevel())]


def _start(ctl: Controller, press: ButtonPressed) -> list[Effect]:
    # What START means tonight (draw, play on after a break, start) is the rules' call.
    return [Submit(Start())]


def _hand_for_hand(ctl: Controller, press: ButtonPressed) -> list[Effect]:
    # Every table waits for the others (C7): too much to trigger by a brush.
    on = not ctl.station.state.hand_for_hand
    return [Submit(SetHandForHand(on),
                   ok=(Say("hand-for-hand-on" if on else "hand-for-hand-off", popup=True),))]


# --- a table device's buttons ---------------------------------------------------------

def _bust(ctl: Controller, press: ButtonPressed) -> list[Effect]:
    ctl.mode, ctl.selected_seat = Mode.BUST, None
    return [Say("bust-tap")]


def _seat_step(ctl: Controller, press: ButtonPressed) -> list[Effect] | None:
    if ctl.mode is not Mode.BUST:
        return None
    return cards.pick_seat(ctl, +1 if press.action is Action.seat_next else -1)


def _table_ok(ctl: Controller, press: ButtonPressed) -> list[Effect] | None:
    if ctl.mode is not Mode.BUST or ctl.selected_seat is None:
        return None
    player = ctl.my_seats().get(ctl.selected_seat)
    ctl.mode, ctl.selected_seat = Mode.IDLE, None
    return [] if player is None else cards.bust(ctl, player)


def _new_hand(ctl: Controller, press: ButtonPressed) -> list[Effect]:
    ctl.mode = Mode.IDLE
    table = ctl.my_table()
    here = ctl.station.state.tables.get(table)
    start = Submit(StartHand(table))
    if here is not None and here.button is None and len(here.seats) > 1:
        # B8: the table's first hand starts with the high-card draw, and from
        # then on balancing knows who is due the big blind.
        return [Submit(DrawButton(table), ok=(start,))]
    return [start]


def _call_clock(ctl: Controller, press: ButtonPressed) -> list[Effect]:
    return [Submit(CallClock(ctl.my_table()))]


def _hand_done(ctl: Controller, press: ButtonPressed) -> list[Effect]:
    return [Submit(FinishHand(ctl.my_table()))]


# --- every device ------------------------------------------------------------------------

def _undo(ctl: Controller, press: ButtonPressed) -> list[Effect]:
    return undo.undo_newest(ctl)


def _next_screen(ctl: Controller, press: ButtonPressed) -> list[Effect]:
    return [NextScreen()]


def _find_seat(ctl: Controller, press: ButtonPressed) -> list[Effect]:
    return [FindSeat()]


def _language(ctl: Controller, press: ButtonPressed) -> list[Effect]:
    return [CycleLanguage()]


def _quit(ctl: Controller, press: ButtonPressed) -> list[Effect]:
    now = ctl.monotonic()
    if ctl.quit_until > now:
        ctl.quit_until = 0.0
        return [Quit()]
    ctl.quit_until = now + QUIT_CONFIRM_SECONDS
    return [AskQuit(QUIT_CONFIRM_SECONDS)]


def _confirm_quit(ctl: Controller, press: ButtonPressed) -> list[Effect] | None:
    if ctl.quit_until <= ctl.monotonic():
        return None
    ctl.quit_until = 0.0
    return [Quit()]


#: Every action's handlers, tried in order; the first whose roles match and
#: that takes the press wins.
ROUTES: dict[Action, list[Route]] = {
    Action.pause: [Route(TD, _pause)],
    Action.next_level: [Route(TD, _next_level)],
    Action.prev_level: [Route(TD, _prev_level, hold=True)],
    Action.add_minute: [Route(TD, _minutes)],
    Action.remove_minute: [Route(TD, _minutes)],
    Action.start: [Route(TD, _start, hold=True)],
    Action.hand_for_hand: [Route(TD, _hand_for_hand, hold=True)],
    Action.bust: [Route(TABLE, _bust)],
    Action.seat_next: [Route(TABLE, _seat_step)],
    Action.seat_prev: [Route(TABLE, _seat_step)],
    Action.ok: [Route(TABLE, _table_ok), Route(ANY, _confirm_quit)],
    Action.new_hand: [Route(TABLE, _new_hand)],
    Action.clock: [Route(TABLE, _call_clock)],
    Action.hand_done: [Route(TABLE, _hand_done)],
    Action.undo: [Route(ANY, _undo, hold=True)],
    Action.next_screen: [Route(ANY, _next_screen)],
    Action.find_seat: [Route(ANY, _find_seat)],
    Action.language: [Route(ANY, _language)],
    Action.quit: [Route(ANY, _quit)],
}


@dataclass
class Controller:
    """The role's controls: one dispatch for every input, and the little UI state
    a button box needs ("BUST pressed, waiting for the card")."""

    station: Station
    roles: frozenset[Role]
    table: int | None = None
    #: A table device may undo its own last action within this many real seconds.
    undo_window: float = 10.0
    #: The configured buttons, in the panel's order, for the help screen.
    buttons: Sequence[str] = ()
    monotonic: Callable[[], float] = field(default=lambda: 0.0)
    mode: Mode = Mode.IDLE
    selected_seat: int | None = None
    #: The last card nobody owns, waiting for the TD to type a name.
    unnamed_card: str | None = None
    quit_until: float = 0.0
    #: This device's own rows (the night's), before the table's.
    rows: Rows = field(default_factory=Rows)
    #: Readers reported lost and not back yet, by name.
    readers_lost: set[str] = field(default_factory=set)
    #: Every action's routes, this device's rows first: built once, never patched.
    _routes: dict[Action, tuple[Route, ...]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if Role.TABLE in self.roles and self.table is None:
            raise ValueError("a table device needs its table number")
        self._routes = {action: (*self.rows.routes.get(action, ()), *ROUTES.get(action, ()))
                        for action in (*self.rows.routes, *ROUTES)}

    @property
    def td(self) -> bool:
        return bool(self.roles & TD)

    def my_table(self) -> int:
        assert self.table is not None
        return self.table

    def my_seats(self) -> dict[int, str]:
        table = self.station.state.tables.get(self.table or 0)
        return dict(table.seats) if table is not None else {}

    # --- dispatch ---------------------------------------------------------------------

    def handle(self, message: Input) -> list[UiEffect]:
        """Act on one input: its submits carried out, the rest for the screen."""
        return self.carry_out(self.decide(message))

    def decide(self, message: Input) -> Sequence[Effect]:
        if isinstance(message, ButtonHint):
            return [Say("hold-to", {"action": message.action.value})]
        if isinstance(message, ButtonsHeld):
            return [ShowHelp(tuple(self.buttons))]
        if isinstance(message, ReaderStatus):
            return self._reader(message)
        if isinstance(message, CardRead):
            return cards.card(self, message, self.rows.card)
        return self._press(message)

    def _reader(self, status: ReaderStatus) -> Sequence[Effect]:
        """A lost reader is said, and its return; not its first start (the worker
        reports every open), which put "Kortlesaren er tilbake" on the power-on screen."""
        if not status.connected:
            self.readers_lost.add(status.reader)
            return [Say("reader-lost")]
        if status.reader in self.readers_lost:
            self.readers_lost.discard(status.reader)
            return [Say("reader-back")]
        return []

    def _press(self, press: ButtonPressed) -> Sequence[Effect]:
        dismissed: list[Effect] = []
        if self.quit_until and press.action not in (Action.quit, Action.ok):
            # Any other button takes back "press q again", and still acts.
            self.quit_until = 0.0
            dismissed.append(Dismiss("quit"))
        return [*dismissed, *self._route(press)]

    def _route(self, press: ButtonPressed) -> Sequence[Effect]:
        for route in self._routes.get(press.action, ()):
            if not route.roles & self.roles:
                continue
            if route.hold and not press.long:
                return _hold_hint(press.action)
            effects = route.handler(self, press)
            if effects is not None:
                return effects
        return []

    def carry_out(self, effects: Sequence[Effect]) -> list[UiEffect]:
        """Submit what is to be submitted; a refusal says why and stops what followed."""
        shown: list[UiEffect] = []
        for effect in effects:
            if not isinstance(effect, Submit):
                shown.append(effect)
                continue
            outcome = self.station.submit(effect.command)
            if not outcome.ok:
                shown.append(Say("refused", error=outcome.refusal))
                continue
            shown.extend(self.carry_out(effect.then(outcome) if effect.then is not None
                                        else effect.ok))
        return shown
