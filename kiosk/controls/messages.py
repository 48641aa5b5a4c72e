"""What the controls say: messages in every language, translated when drawn.

A :class:`Say` is kept untranslated until the screen shows it, so a
language switch applies to what is already on the screen.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from hardware.inputs import Action
from kiosk.store import StoreError
from kiosk.store.errors import PAYMENT_CARD
from kiosk.undone import UNDONE, UNDONE_LINE, undone_what
from rules.errors import RulesError
from rules.i18n import DEFAULT_LANGUAGE, format_place

__all__ = ["HOLD_FOR", "MESSAGES", "UNDONE", "Say", "undone_what"]


MESSAGES: Mapping[str, Mapping[str, str]] = {
    # F2: every place is taken; the phone says it the same way.
    "waitlisted": {"nn": "{name}: Venteliste – du er nr. {place}",
                   "nb": "{name}: Venteliste – du er nr. {place}",
                   "da": "{name}: Venteliste – du er nr. {place}",
                   "en": "{name}: Waiting list – you are number {place}"},
    "already-in": {"nn": "{name} er allereie inne: bord {table}, sete {seat}",
                   "nb": "{name} er allerede inne: bord {table}, sete {seat}",
                   "da": "{name} er allerede med: bord {table}, sæde {seat}",
                   "en": "{name} is already in: table {table}, seat {seat}"},
    "already-checked-in": {"nn": "{name} er allereie sjekka inn",
                           "nb": "{name} er allerede sjekket inn",
                           "da": "{name} er allerede tjekket ind",
                           "en": "{name} is already checked in"},
    "new-card": {"nn": "Nytt kort – skriv namnet", "nb": "Nytt kort – skriv navnet",
                 "da": "Nyt kort – skriv navnet", "en": "New card – enter a name"},
    "unknown-card": {"nn": "Ukjend kort", "nb": "Ukjent kort", "da": "Ukendt kort",
                     "en": "Unknown card"},
    "payment-card": PAYMENT_CARD,
    "hold-to": {"nn": "Hald knappen inne for å {what}", "nb": "Hold knappen inne for å {what}",
                "da": "Hold knappen inde for at {what}", "en": "Hold the button to {what}"},
    "bust-tap": {"nn": "Slått ut: den utslåtte viser kortet sitt (eller vel sete)",
                 "nb": "Slått ut: den utslåtte viser kortet sitt (eller velg sete)",
                 "da": "Slået ud: den udslåede viser sit kort (eller vælg sæde)",
                 "en": "Bust: the busted player taps their card (or pick the seat)"},
    "bust-seat": {"nn": "Slå ut sete {seat}: {name}? Trykk OK",
                  "nb": "Slå ut sete {seat}: {name}? Trykk OK",
                  "da": "Slå sæde {seat} ud: {name}? Tryk OK",
                  "en": "Bust seat {seat}: {name}? Press OK"},
    "busted": {"nn": "{name} er slått ut", "nb": "{name} er slått ut",
               "da": "{name} er slået ud", "en": "{name} is eliminated"},
    "already-out": {"nn": "{name} er allereie slått ut ({place})",
                    "nb": "{name} er allerede slått ut ({place})",
                    "da": "{name} er allerede slået ud ({place})",
                    "en": "{name} is already out ({place})"},
    "not-here": {"nn": "{name} sit ikkje ved dette bordet",
                 "nb": "{name} sitter ikke ved dette bordet",
                 "da": "{name} sidder ikke ved dette bord", "en": "{name} is not at this table"},
    "moved": {"nn": "{name} sit no ved bord {table}, sete {seat}",
              "nb": "{name} sitter nå ved bord {table}, sete {seat}",
              "da": "{name} sidder nu ved bord {table}, sæde {seat}",
              "en": "{name} now sits at table {table}, seat {seat}"},
    "nothing-to-undo": {"nn": "Ingenting å angre", "nb": "Ingenting å angre",
                        "da": "Intet at fortryde", "en": "Nothing to undo"},
    "hand-for-hand-on": {"nn": "Hand for hand: bordet trykkjer FERDIG etter kvar hand",
                         "nb": "Hånd for hånd: bordet trykker FERDIG etter hver hånd",
                         "da": "Hånd for hånd: bordet trykker FÆRDIG efter hver hånd",
                         "en": "Hand for hand: each table presses HAND DONE after every hand"},
    "hand-for-hand-off": {"nn": "Hand for hand er slutt", "nb": "Hånd for hånd er slutt",
                          "da": "Hånd for hånd er slut", "en": "Hand for hand is over"},
    "help": {"nn": "Hjelp", "nb": "Hjelp", "da": "Hjælp", "en": "Help"},
    "next-screen": {"nn": "Neste skjerm", "nb": "Neste skjerm", "da": "Næste skærm",
                    "en": "Next screen"},
    "reader-lost": {"nn": "Kortlesaren er kopla frå", "nb": "Kortleseren er koblet fra",
                    "da": "Kortlæseren er frakoblet", "en": "Card reader disconnected"},
    "reader-back": {"nn": "Kortlesaren er tilbake", "nb": "Kortleseren er tilbake",
                    "da": "Kortlæseren er tilbage", "en": "Card reader connected"},
    "refused": {"nn": "{text}", "nb": "{text}", "da": "{text}", "en": "{text}"},
    "undone": UNDONE_LINE,
}


#: What a long press is needed for, said in the hint.
HOLD_FOR: Mapping[Action, Mapping[str, str]] = {
    Action.prev_level: {"nn": "gå tilbake eit nivå", "nb": "gå tilbake ett nivå",
                        "da": "gå et niveau tilbage", "en": "go back a level"},
    Action.undo: {"nn": "angre", "nb": "angre", "da": "fortryde", "en": "undo"},
    Action.new: {"nn": "starte ei ny turnering", "nb": "starte en ny turnering",
                 "da": "starte en ny turnering", "en": "start a new tournament"},
    Action.start: {"nn": "trekkje bord eller starte klokka",
                   "nb": "trekke bord eller starte klokken",
                   "da": "trække borde eller starte uret",
                   "en": "draw seats or start the clock"},
    Action.hand_for_hand: {"nn": "slå hand for hand på eller av",
                           "nb": "slå hånd for hånd på eller av",
                           "da": "slå hånd for hånd til eller fra",
                           "en": "turn hand for hand on or off"},
}


@dataclass(frozen=True)
class Say:
    """A message for the screen; translated when drawn, so a language switch applies."""

    key: str
    params: Mapping[str, object] = field(default_factory=dict)
    error: RulesError | StoreError | None = None
    #: A check-in pop-up or similar: shown big, for a few seconds.
    popup: bool = False

    def translate(self, lang: str = DEFAULT_LANGUAGE) -> str:
        if self.error is not None:
            return self.error.translate(lang)
        template = MESSAGES[self.key].get(lang) or MESSAGES[self.key]["en"]
        params = dict(self.params)
        if isinstance(params.get("what"), Mapping):
            what: Mapping[str, str] = params["what"]  # type: ignore[assignment]
            params["what"] = what.get(lang) or what["en"]
        if self.key == "already-out":
            params["place"] = format_place(int(str(params["place"])), lang)
        if self.key == "hold-to":
            action = Action(str(params["action"]))
            params["what"] = HOLD_FOR.get(action, {}).get(lang, action.value)
        return template.format(**params)
