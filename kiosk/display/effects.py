"""The loop carrying out what the controls and the room asked for: effect type → action.

The controls have already submitted the commands (:mod:`kiosk.controls`);
what reaches the loop is for the screen: messages, pop-ups, screens, help,
the language, quitting, the room's news (:mod:`.room`): the ticker's
busts and the chimes, and the night's (:mod:`kiosk.night`): a new night's
empty screen, a night joined taken as told.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from kiosk.controls import effects as fx
from kiosk.controls.help import help_lines
from kiosk.display.messages import Phrase
from kiosk.display.overlays import POPUP_SECONDS
from kiosk.display.registry import Screen
from kiosk.display.sound import Chime
from rules.i18n import LANGUAGES

if TYPE_CHECKING:
    from kiosk.display.wall import Wall

__all__ = ["EFFECTS", "say", "show_effects"]


def say(loop: Wall, message: Any) -> None:
    """A message: a big one (help, the waiting list) long, a refusal under "not done",
    the rest briefly. A check-in is the room's pop-up (:mod:`.room`), not a message."""
    # Kept as words, not text: a language switch says the pop-up again.
    if getattr(message, "error", None) is not None:
        # The answer to the press just made: shown at once, not behind a notice.
        loop.popup(Phrase("refused"), message, kind="refusal", seconds=3.0, front=True)
        return
    big = bool(getattr(message, "popup", False))
    # A message with a heading of its own ("Angra" over what was taken back) fills the box.
    heading, detail = getattr(message, "heading", None), getattr(message, "detail", None)
    if heading is not None and detail is not None:
        loop.popup(heading, detail, kind="say", seconds=POPUP_SECONDS if big else 3.0)
        return
    loop.popup(message, "", kind="say", seconds=POPUP_SECONDS if big else 3.0)


def _language(loop: Wall, effect: fx.CycleLanguage) -> None:
    loop.lang = LANGUAGES[(LANGUAGES.index(loop.lang) + 1) % len(LANGUAGES)]
    loop.popup(Phrase("language_name"), "", kind="language", seconds=2.0)


def _popup(loop: Wall, effect: fx.Popup) -> None:
    loop.popup(effect.title, effect.line if effect.line else "",
               kind=effect.kind, seconds=effect.seconds, front=effect.front)


def _chime(loop: Wall, effect: fx.Chime) -> None:
    # A kiosk without sound (a table device, a test) just has nothing to play on.
    if loop.chimes is not None:
        loop.chimes.play(Chime(effect.kind))


def _fresh_night(loop: Wall, effect: fx.FreshNight) -> None:
    loop.overlays.popups.clear()
    loop.overlays.ticker = []


EFFECTS: Final[dict[type, Callable[[Wall, Any], None]]] = {
    fx.Say: say,
    fx.NextScreen: lambda loop, e: loop.next_screen(),
    fx.FindSeat: lambda loop, e: loop.find_seat(),
    fx.ShowScreen: lambda loop, e: loop.show(Screen(e.screen), for_seconds=e.for_seconds),
    fx.ShowHelp: lambda loop, e: loop.show_help(lambda lang: help_lines(e.buttons, lang)),
    fx.CycleLanguage: _language,
    fx.AskQuit: lambda loop, e: loop.popup(Phrase("quit_confirm"), Phrase("quit_hint"),
                                           kind="quit", seconds=e.seconds),
    fx.Quit: lambda loop, e: loop.stop(),
    fx.Dismiss: lambda loop, e: loop.drop_popups(e.kind),
    fx.Popup: _popup,
    fx.AddBusts: lambda loop, e: loop.overlays.add_busts(e.lines),
    fx.DropBustsOf: lambda loop, e: loop.overlays.drop_busts_of(e.name),
    fx.Chime: _chime,
    fx.FreshNight: _fresh_night,
    fx.Settle: lambda loop, e: loop.settle(),
}


def show_effects(loop: Wall, effects: Sequence[object]) -> None:
    for effect in effects:
        # Any other message (the night's words) is said like a Say.
        EFFECTS.get(type(effect), say)(loop, effect)
