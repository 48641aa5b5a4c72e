"""What the controls say: messages in every language, translated when drawn.

A :class:`Say` is kept untranslated until the screen shows it, so a
language switch applies to what is already on the screen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from hardware.inputs import Action
from kiosk.store import StoreError
from rules.errors import RulesError
from rules.events import MoveProposed, Record
from rules.i18n import DEFAULT_LANGUAGE, format_place
from rules.values import MoveReason

__all__ = ["HOLD_FOR", "MESSAGES", "UNDONE", "Say", "undone_what"]


MESSAGES: Mapping[str, Mapping[str, str]] = {
    "checked-in": {"nn": "{name} → Bord {table}, sete {seat}",
                   "nb": "{name} → Bord {table}, sete {seat}",
                   "da": "{name} → Bord {table}, sæde {seat}",
                   "en": "{name} → Table {table}, seat {seat}"},
    "checked-in-waiting": {"nn": "{name} er sjekka inn", "nb": "{name} er sjekket inn",
                           "da": "{name} er tjekket ind", "en": "{name} is checked in"},
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
    "unknown-card": {"nn": "Ukjent kort", "nb": "Ukjent kort", "da": "Ukendt kort",
                     "en": "Unknown card"},
    "payment-card": {"nn": "Det er eit bankkort – bruk spelarkortet",
                     "nb": "Det er et bankkort – bruk spillerkortet",
                     "da": "Det er et betalingskort – brug spillerkortet",
                     "en": "That is a payment card – use the player card"},
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
    "undone": {"nn": "Angra: {what}", "nb": "Angret: {what}", "da": "Fortrudt: {what}",
                    "en": "Undone: {what}"},
}

#: What an undo took back, for "Angra: Ola Nordmann slått ut".
UNDONE: Mapping[str, Mapping[str, str]] = {
    "players-busted": {"nn": "{name} slått ut", "nb": "{name} slått ut",
                       "da": "{name} slået ud", "en": "{name} eliminated"},
    "player-checked-in": {"nn": "{name} sjekka inn", "nb": "{name} sjekket inn",
                          "da": "{name} tjekket ind", "en": "{name} checked in"},
    "player-registered": {"nn": "{name} sjekka inn", "nb": "{name} sjekket inn",
                          "da": "{name} tjekket ind", "en": "{name} checked in"},
    "seats-drawn": {"nn": "bordtrekkinga", "nb": "bordtrekningen", "da": "bordtrækningen",
                    "en": "the seat draw"},
    "move-confirmed": {"nn": "flyttinga av {name}", "nb": "flyttingen av {name}",
                       "da": "flytningen af {name}", "en": "the move of {name}"},
    "table-broken": {"nn": "oppbrytinga av bord {table}", "nb": "oppbrytingen av bord {table}",
                     "da": "opbrydningen af bord {table}", "en": "the break of table {table}"},
    "clock": {"nn": "klokka", "nb": "klokken", "da": "uret", "en": "the clock"},
    "hand": {"nn": "handa på bord {table}", "nb": "hånden på bord {table}",
             "da": "hånden på bord {table}", "en": "the hand at table {table}"},
    "player-renamed": {"nn": "namnebytet til {name}", "nb": "navnebyttet til {name}",
                       "da": "navneskiftet til {name}", "en": "the rename to {name}"},
    "player-absent": {"nn": "{name} borte", "nb": "{name} borte", "da": "{name} væk",
                      "en": "{name} away"},
    "player-returned": {"nn": "{name} tilbake", "nb": "{name} tilbake", "da": "{name} tilbage",
                        "en": "{name} back"},
    "sit-and-go-listed": {"nn": "{name} på Sit & Go-lista", "nb": "{name} på Sit & Go-listen",
                          "da": "{name} på Sit & Go-listen", "en": "{name} on the Sit & Go list"},
    "sit-and-go-unlisted": {"nn": "{name} av Sit & Go-lista", "nb": "{name} av Sit & Go-listen",
                            "da": "{name} af Sit & Go-listen",
                            "en": "{name} off the Sit & Go list"},
    "sit-and-go-started": {"nn": "starten av Sit & Go-en", "nb": "starten av Sit & Go-en",
                           "da": "starten af Sit & Go'en", "en": "the Sit & Go start"},
    "late-registration-closed": {"nn": "stenginga av sein påmelding",
                                 "nb": "stengingen av sen påmelding",
                                 "da": "lukningen af sen tilmelding",
                                 "en": "closing late registration"},
    "final-table-drawn": {"nn": "trekkinga til finalebordet", "nb": "trekningen til finalebordet",
                          "da": "trækningen til finalebordet", "en": "the final table draw"},
    "break-order-set": {"nn": "rekkjefølgja borda blir brotne opp i",
                        "nb": "rekkefølgen bordene brytes opp i",
                        "da": "rækkefølgen bordene brydes op i",
                        "en": "the order the tables break in"},
    "hand-for-hand-set": {"nn": "hand for hand", "nb": "hånd for hånd", "da": "hånd for hånd",
                          "en": "hand for hand"},
    # An event kind newer than these words: said as the log names it.
    "other": {"nn": "{kind}", "nb": "{kind}", "da": "{kind}", "en": "{kind}"},
}

#: Kinds said the same whatever the event holds.
_PLAIN_KINDS = frozenset({"seats-drawn", "sit-and-go-started", "late-registration-closed",
                          "final-table-drawn", "break-order-set", "hand-for-hand-set"})

_CLOCK_KINDS = frozenset({"clock-started", "clock-paused", "clock-resumed", "level-jumped",
                          "time-adjusted", "clock-restored"})


def undone_what(records: Sequence[Record], names: Mapping[str, str]) -> dict[str, str]:
    """What the records of one action were, in every language (names looked up first)."""
    events = [r.event for r in records]
    first = events[0]
    kind = first.kind.value
    params: dict[str, object] = {"kind": kind}
    key = "other"
    if kind == "players-busted":
        key = kind
        ids = [p for group in getattr(first, "groups", ()) for p in group]
        params["name"] = ", ".join(names.get(p, p) for p in ids)
    elif kind in ("move-proposed", "move-cancelled"):
        # The TD's own move (a whole table broken, or one player sent by hand).
        moves = [e.move for e in events if isinstance(e, MoveProposed)]
        broken = next((m.source.table for m in moves if m.reason is MoveReason.BREAK), None)
        if broken is not None:
            key, params["table"] = "table-broken", broken
        else:
            key = "move-confirmed"
            pid = moves[0].player_id if moves else str(getattr(first, "player_id", ""))
            params["name"] = names.get(pid, pid)
    elif kind in ("player-checked-in", "player-registered", "move-confirmed", "player-renamed",
                  "player-absent", "player-returned", "sit-and-go-listed",
                  "sit-and-go-unlisted"):
        key = kind
        pid = str(getattr(first, "player_id", ""))
        params["name"] = names.get(pid, pid)
    elif kind in _PLAIN_KINDS:
        key = kind
    elif kind in _CLOCK_KINDS:
        key = "clock"
    elif kind in ("hand-started", "hand-finished", "button-drawn", "clock-called"):
        key = "hand"
        params["table"] = getattr(first, "table", "")
    return {lang: template.format(**params) for lang, template in UNDONE[key].items()}

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
