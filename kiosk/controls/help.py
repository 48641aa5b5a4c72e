"""The help screen: what each configured button does, in every language.

Shown when two buttons are held together for 3 s (``ButtonsHeld``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from hardware.inputs import Action

__all__ = ["BUTTON_HELP", "help_lines"]


#: What each button does, for the help screen.
BUTTON_HELP: Final[Mapping[Action, Mapping[str, str]]] = {
    Action.pause: {"nn": "PAUSE: stopp / start klokka", "nb": "PAUSE: stopp / start klokken",
                   "da": "PAUSE: stop / start uret", "en": "PAUSE: stop / start the clock"},
    Action.next_level: {"nn": "NESTE: neste nivå", "nb": "NESTE: neste nivå",
                        "da": "NÆSTE: næste niveau", "en": "NEXT: next level"},
    Action.prev_level: {"nn": "FØRRE (hald): førre nivå", "nb": "FORRIGE (hold): forrige nivå",
                        "da": "FORRIGE (hold): forrige niveau",
                        "en": "PREVIOUS (hold): previous level"},
    Action.add_minute: {"nn": "+1: eitt minutt meir (hald: fem)",
                        "nb": "+1: ett minutt mer (hold: fem)",
                        "da": "+1: et minut mere (hold: fem)",
                        "en": "+1: one more minute (hold: five)"},
    Action.remove_minute: {"nn": "−1: eitt minutt mindre (hald: fem)",
                           "nb": "−1: ett minutt mindre (hold: fem)",
                           "da": "−1: et minut mindre (hold: fem)",
                           "en": "−1: one minute less (hold: five)"},
    Action.next_screen: {"nn": "SKJERM: neste skjerm", "nb": "SKJERM: neste skjerm",
                         "da": "SKÆRM: næste skærm", "en": "SCREEN: next screen"},
    Action.find_seat: {"nn": "FINN PLASS: spelarane etter namn",
                       "nb": "FINN PLASS: spillerne etter navn",
                       "da": "FIND PLADS: spillerne efter navn",
                       "en": "FIND SEAT: players by name"},
    Action.undo: {"nn": "ANGRE (hald): angre det siste", "nb": "ANGRE (hold): angre det siste",
                  "da": "FORTRYD (hold): fortryd det sidste",
                  "en": "UNDO (hold): undo the last action"},
    Action.start: {"nn": "START (hald): trekk bord, så start klokka",
                   "nb": "START (hold): trekk bord, så start klokken",
                   "da": "START (hold): træk borde, så start uret",
                   "en": "START (hold): draw seats, then start the clock"},
    Action.new: {"nn": "NY (hald): ny turnering", "nb": "NY (hold): ny turnering",
                 "da": "NY (hold): ny turnering", "en": "NEW (hold): new tournament"},
    Action.hand_for_hand: {"nn": "HAND FOR HAND (hald): på / av",
                           "nb": "HÅND FOR HÅND (hold): på / av",
                           "da": "HÅND FOR HÅND (hold): til / fra",
                           "en": "HAND FOR HAND (hold): on / off"},
    Action.bust: {"nn": "UT: slå ut ein spelar (kort eller sete)",
                  "nb": "UT: slå ut en spiller (kort eller sete)",
                  "da": "UD: slå en spiller ud (kort eller sæde)",
                  "en": "BUST: eliminate a player (card or seat)"},
    Action.new_hand: {"nn": "NY HAND: ny hand", "nb": "NY HÅND: ny hånd",
                      "da": "NY HÅND: ny hånd", "en": "NEW HAND: new hand"},
    Action.clock: {"nn": "KLOKKE: klokke på spelaren", "nb": "KLOKKE: klokke på spilleren",
                   "da": "KLOKKEN: klokken på spilleren", "en": "CLOCK: call the clock"},
    Action.hand_done: {"nn": "FERDIG: handa er ferdig", "nb": "FERDIG: hånden er ferdig",
                       "da": "FÆRDIG: hånden er færdig", "en": "HAND DONE: the hand is over"},
    Action.seat_prev: {"nn": "◀: førre sete", "nb": "◀: forrige sete", "da": "◀: forrige sæde",
                       "en": "◀: previous seat"},
    Action.seat_next: {"nn": "▶: neste sete", "nb": "▶: neste sete", "da": "▶: næste sæde",
                       "en": "▶: next seat"},
    Action.ok: {"nn": "OK: stadfest", "nb": "OK: bekreft", "da": "OK: bekræft",
                "en": "OK: confirm"},
    Action.language: {"nn": "SPRÅK: neste språk", "nb": "SPRÅK: neste språk",
                      "da": "SPROG: næste sprog", "en": "LANGUAGE: next language"},
    Action.sit_and_go: {"nn": "SIT & GO: start neste Sit & Go",
                        "nb": "SIT & GO: start neste Sit & Go",
                        "da": "SIT & GO: start næste Sit & Go",
                        "en": "SIT & GO: start the next Sit & Go"},
}

_KEYBOARD_HELP: Final[Mapping[str, str]] = {
    "nn": "Tastatur: n = ny spelar utan kort, g = start Sit & Go",
    "nb": "Tastatur: n = ny spiller uten kort, g = start Sit & Go",
    "da": "Tastatur: n = ny spiller uden kort, g = start Sit & Go",
    "en": "Keyboard: n = new player without a card, g = start a Sit & Go",
}


def help_lines(actions: Sequence[str | Action], lang: str) -> list[str]:
    """One line per configured button, in the panel's order, then the keyboard's.

    >>> help_lines(["pause", "start"], "en")[:2]
    ['PAUSE: stop / start the clock', 'START (hold): draw seats, then start the clock']
    """
    lines = []
    for name in actions:
        words = BUTTON_HELP.get(Action(name))
        if words is not None:
            lines.append(words.get(lang) or words["en"])
    lines.append(_KEYBOARD_HELP.get(lang) or _KEYBOARD_HELP["en"])
    return lines
