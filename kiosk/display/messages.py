"""The words on the wall screens, in the venue's languages.

Every string a screen shows comes from here, so the screens hold no text of
their own. The words are the venue's (``GLOSSARY.md``): Nynorsk is the
default, and each language has exactly the same keys and the same
``{placeholders}``, which a test checks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from string import Formatter
from typing import Final

from rules.i18n import DEFAULT_LANGUAGE, LANGUAGES, format_place

__all__ = ["MESSAGES", "Phrase", "Place", "UnknownMessage", "placeholders", "text"]


class UnknownMessage(KeyError):
    """A screen asked for a key or a language the catalogue does not have."""


_NN: Final = {
    "level": "Nivå {number}",
    "blinds": "Blindar",
    "blinds_value": "{small} / {big}",
    "ante": "Ante {ante}",
    "break": "Pause",
    "meal_break": "Matpause",
    "paused": "Klokka er stoppa",
    "not_started": "Klokka er ikkje starta",
    "power_cut": "Klokka stoppa etter straumbrot – trykk pause",
    "next_level": "Neste nivå",
    "last_level": "Siste nivå",
    "until_break": "Til pause",
    "after_break": "Etter pausen",
    "players_left": "Spelarar att",
    "entrants": "Påmelde",
    "players_value": "{remaining} / {entrants}",
    "average_stack": "Snittstack",
    "chips_in_play": "Sjetongar i spel",
    "table": "Bord {table}",
    "seat": "Sete {seat}",
    "seating": "Bordplassering",
    "seat_finder": "Finn plassen din {letters}",
    "dealer_button": "Dealerknapp",
    "button_mark": "D",
    "move": "Flytt",
    "move_line": "{name}: bord {from_table}, sete {from_seat} → bord {to_table}, sete {to_seat}",
    "no_moves": "Ingen flyttingar",
    "final_table": "Finalebord",
    "colour_up": "Fargebyte",
    "colour_up_notice": "Fargebyte: {chips} blir tekne ut",
    "and": "og",
    "hand_for_hand": "Hand for hand",
    "winner": "Vinnar",
    "results": "Resultat",
    "standings": "Sesongpoeng {season}",
    "points": "Poeng",
    "no_results": "Ingen er slått ut enno",
    "page": "Side {page} av {pages}",
    "no_time": "--:--",
    "checked_in": "Sjekka inn",
    "checked_in_seat": "→ Bord {table}, sete {seat}",
    "bust_line": "{name} — {place}",
    "new_card": "Nytt kort",
    "new_card_hint": "Kort {uid} høyrer ikkje til nokon spelar",
    "quit_confirm": "Avslutte?",
    "quit_hint": "Trykk q eller y ein gong til",
    "nothing_to_undo": "Ingenting å angre",
    "undone": "Angra",
    "refused": "Ikkje gjort",
    "final_table_drawn": "Klokka står til alle har sett seg",
    "hand_for_hand_on": "Vent på alle bord før neste hand",
    "language_name": "Nynorsk",
    "status": "Rolle: {role} · Einingar: {peers}",
    "label_value": "{label}: {value}",
}

_NB: Final = {
    "level": "Nivå {number}",
    "blinds": "Blinds",
    "blinds_value": "{small} / {big}",
    "ante": "Ante {ante}",
    "break": "Pause",
    "meal_break": "Matpause",
    "paused": "Klokken er stoppet",
    "not_started": "Klokken er ikke startet",
    "power_cut": "Klokken stoppet etter strømbrudd – trykk pause",
    "next_level": "Neste nivå",
    "last_level": "Siste nivå",
    "until_break": "Til pause",
    "after_break": "Etter pausen",
    "players_left": "Spillere igjen",
    "entrants": "Påmeldte",
    "players_value": "{remaining} / {entrants}",
    "average_stack": "Snittstack",
    "chips_in_play": "Sjetonger i spill",
    "table": "Bord {table}",
    "seat": "Sete {seat}",
    "seating": "Bordplassering",
    "seat_finder": "Finn plassen din {letters}",
    "dealer_button": "Dealerknapp",
    "button_mark": "D",
    "move": "Flytt",
    "move_line": "{name}: bord {from_table}, sete {from_seat} → bord {to_table}, sete {to_seat}",
    "no_moves": "Ingen flyttinger",
    "final_table": "Finalebord",
    "colour_up": "Fargebytte",
    "colour_up_notice": "Fargebytte: {chips} tas ut",
    "and": "og",
    "hand_for_hand": "Hånd for hånd",
    "winner": "Vinner",
    "results": "Resultater",
    "standings": "Sesongpoeng {season}",
    "points": "Poeng",
    "no_results": "Ingen er slått ut ennå",
    "page": "Side {page} av {pages}",
    "no_time": "--:--",
    "checked_in": "Sjekket inn",
    "checked_in_seat": "→ Bord {table}, sete {seat}",
    "bust_line": "{name} — {place}",
    "new_card": "Nytt kort",
    "new_card_hint": "Kort {uid} tilhører ingen spiller",
    "quit_confirm": "Avslutte?",
    "quit_hint": "Trykk q eller y én gang til",
    "nothing_to_undo": "Ingenting å angre",
    "undone": "Angret",
    "refused": "Ikke gjort",
    "final_table_drawn": "Klokken står til alle har satt seg",
    "hand_for_hand_on": "Vent på alle bord før neste hånd",
    "language_name": "Bokmål",
    "status": "Rolle: {role} · Enheter: {peers}",
    "label_value": "{label}: {value}",
}

_DA: Final = {
    "level": "Niveau {number}",
    "blinds": "Blinds",
    "blinds_value": "{small} / {big}",
    "ante": "Ante {ante}",
    "break": "Pause",
    "meal_break": "Spisepause",
    "paused": "Uret er stoppet",
    "not_started": "Uret er ikke startet",
    "power_cut": "Uret stoppede efter strømsvigt – tryk pause",
    "next_level": "Næste niveau",
    "last_level": "Sidste niveau",
    "until_break": "Til pause",
    "after_break": "Efter pausen",
    "players_left": "Spillere tilbage",
    "entrants": "Tilmeldte",
    "players_value": "{remaining} / {entrants}",
    "average_stack": "Gns. stack",
    "chips_in_play": "Jetoner i spil",
    "table": "Bord {table}",
    "seat": "Sæde {seat}",
    "seating": "Bordplacering",
    "seat_finder": "Find din plads {letters}",
    "dealer_button": "Dealerknap",
    "button_mark": "D",
    "move": "Flyt",
    "move_line": "{name}: bord {from_table}, sæde {from_seat} → bord {to_table}, sæde {to_seat}",
    "no_moves": "Ingen flytninger",
    "final_table": "Finalebord",
    "colour_up": "Farveskift",
    "colour_up_notice": "Farveskift: {chips} tages ud",
    "and": "og",
    "hand_for_hand": "Hånd for hånd",
    "winner": "Vinder",
    "results": "Resultater",
    "standings": "Sæsonpoint {season}",
    "points": "Point",
    "no_results": "Ingen er slået ud endnu",
    "page": "Side {page} af {pages}",
    "no_time": "--:--",
    "checked_in": "Tjekket ind",
    "checked_in_seat": "→ Bord {table}, sæde {seat}",
    "bust_line": "{name} — {place}",
    "new_card": "Nyt kort",
    "new_card_hint": "Kort {uid} tilhører ingen spiller",
    "quit_confirm": "Afslut?",
    "quit_hint": "Tryk q eller y en gang til",
    "nothing_to_undo": "Intet at fortryde",
    "undone": "Fortrudt",
    "refused": "Ikke udført",
    "final_table_drawn": "Uret står, til alle har sat sig",
    "hand_for_hand_on": "Vent på alle borde før næste hånd",
    "language_name": "Dansk",
    "status": "Rolle: {role} · Enheder: {peers}",
    "label_value": "{label}: {value}",
}

_EN: Final = {
    "level": "Level {number}",
    "blinds": "Blinds",
    "blinds_value": "{small} / {big}",
    "ante": "Ante {ante}",
    "break": "Break",
    "meal_break": "Meal break",
    "paused": "Clock paused",
    "not_started": "The clock has not been started",
    "power_cut": "Clock stopped after a power cut – press pause",
    "next_level": "Next level",
    "last_level": "Last level",
    "until_break": "Until break",
    "after_break": "After the break",
    "players_left": "Players left",
    "entrants": "Entrants",
    "players_value": "{remaining} / {entrants}",
    "average_stack": "Average stack",
    "chips_in_play": "Chips in play",
    "table": "Table {table}",
    "seat": "Seat {seat}",
    "seating": "Seating",
    "seat_finder": "Find your seat {letters}",
    "dealer_button": "Dealer button",
    "button_mark": "D",
    "move": "Move",
    "move_line": "{name}: table {from_table}, seat {from_seat} → table {to_table}, seat {to_seat}",
    "no_moves": "No moves",
    "final_table": "Final table",
    "colour_up": "Colour-up",
    "colour_up_notice": "Colour-up: the {chips} chips are removed",
    "and": "and",
    "hand_for_hand": "Hand for hand",
    "winner": "Winner",
    "results": "Results",
    "standings": "Season standings {season}",
    "points": "Points",
    "no_results": "Nobody is out yet",
    "page": "Page {page} of {pages}",
    "no_time": "--:--",
    "checked_in": "Checked in",
    "checked_in_seat": "→ Table {table}, seat {seat}",
    "bust_line": "{name} — {place}",
    "new_card": "New card",
    "new_card_hint": "Card {uid} belongs to no player",
    "quit_confirm": "Quit?",
    "quit_hint": "Press q or y once more",
    "nothing_to_undo": "Nothing to undo",
    "undone": "Undone",
    "refused": "Not done",
    "final_table_drawn": "The clock waits until everyone is seated",
    "hand_for_hand_on": "Wait for every table before the next hand",
    "language_name": "English",
    "status": "Role: {role} · Peers: {peers}",
    "label_value": "{label}: {value}",
}

#: Language → key → template.
# The night on the appliance (issue 9): check-in, the TD's help, the break's end.
_NIGHT: Final = {
    "nn": {"check_in_title": "Innsjekk", "check_in_count": "{count} / {seats} sete",
           "check_in_count_open": "{count} sjekka inn",
           "check_in_empty": "Vis spelarkortet ditt for å sjekke inn",
           "check_in_hint": "Hald START inne for å trekkje bord",
           "break_over": "Pausen er over – trykk start",
           "help_title": "Knappane", "name_prompt": "Namn:",
           "sng_title": "Venteliste – Sit & Go", "sng_deadline": "Siste start {time}",
           "sng_clock": "Sit & Go: nivå {level} – {digits}"},
    "nb": {"check_in_title": "Innsjekk", "check_in_count": "{count} / {seats} seter",
           "check_in_count_open": "{count} sjekket inn",
           "check_in_empty": "Vis spillerkortet ditt for å sjekke inn",
           "check_in_hint": "Hold START inne for å trekke bord",
           "break_over": "Pausen er over – trykk start",
           "help_title": "Knappene", "name_prompt": "Navn:",
           "sng_title": "Venteliste – Sit & Go", "sng_deadline": "Siste start {time}",
           "sng_clock": "Sit & Go: nivå {level} – {digits}"},
    "da": {"check_in_title": "Indtjekning", "check_in_count": "{count} / {seats} sæder",
           "check_in_count_open": "{count} tjekket ind",
           "check_in_empty": "Vis dit spillerkort for at tjekke ind",
           "check_in_hint": "Hold START inde for at trække borde",
           "break_over": "Pausen er slut – tryk start",
           "help_title": "Knapperne", "name_prompt": "Navn:",
           "sng_title": "Venteliste – Sit & Go", "sng_deadline": "Sidste start {time}",
           "sng_clock": "Sit & Go: niveau {level} – {digits}"},
    "en": {"check_in_title": "Check-in", "check_in_count": "{count} / {seats} seats",
           "check_in_count_open": "{count} checked in",
           "check_in_empty": "Show your player card to check in",
           "check_in_hint": "Hold START to draw the seats",
           "break_over": "The break is over – press start",
           "help_title": "The buttons", "name_prompt": "Name:",
           "sng_title": "Waiting list – Sit & Go", "sng_deadline": "Last start {time}",
           "sng_clock": "Sit & Go: level {level} – {digits}"},
}
# The right words (issue 19): a big-blind ante is not everyone's ante (GLOSSARY
# "big-blind ante"), and the line before a break names the break.
_WORDS19: Final = {
    "nn": {"bb_ante": "BB-ante {ante}", "next": "Neste", "break_minutes": "{name} {minutes} min"},
    "nb": {"bb_ante": "BB-ante {ante}", "next": "Neste", "break_minutes": "{name} {minutes} min"},
    "da": {"bb_ante": "BB-ante {ante}", "next": "Næste", "break_minutes": "{name} {minutes} min"},
    "en": {"bb_ante": "BB ante {ante}", "next": "Next", "break_minutes": "{name} {minutes} min"},
}
# The waiting list (F2, issue 45): its length and order, and who came in from it.
_WAITLIST: Final = {
    "nn": {"waiting_count": "Venteliste: {count}",
           "admitted_seat": "frå ventelista → Bord {table}, sete {seat}"},
    "nb": {"waiting_count": "Venteliste: {count}",
           "admitted_seat": "fra ventelisten → Bord {table}, sete {seat}"},
    "da": {"waiting_count": "Venteliste: {count}",
           "admitted_seat": "fra ventelisten → Bord {table}, sæde {seat}"},
    "en": {"waiting_count": "Waiting list: {count}",
           "admitted_seat": "from the waiting list → Table {table}, seat {seat}"},
}
# A pending move, the same everywhere (issue 49): the seating row's suffix, and
# the moves screen's line ends in the same words.
_MOVES: Final = {
    "nn": {"move_pending": "→ bord {table}, sete {seat}"},
    "nb": {"move_pending": "→ bord {table}, sete {seat}"},
    "da": {"move_pending": "→ bord {table}, sæde {seat}"},
    "en": {"move_pending": "→ table {table}, seat {seat}"},
}
for _lang, _words in (*_NIGHT.items(), *_WORDS19.items(), *_WAITLIST.items(),
                      *_MOVES.items()):
    {"nn": _NN, "nb": _NB, "da": _DA, "en": _EN}[_lang].update(_words)

MESSAGES: Final[dict[str, dict[str, str]]] = {"nn": _NN, "nb": _NB, "da": _DA, "en": _EN}

assert tuple(MESSAGES) == LANGUAGES


def placeholders(template: str) -> frozenset[str]:
    """The ``{names}`` a template needs.

    >>> sorted(placeholders("{small} / {big}"))
    ['big', 'small']
    """
    return frozenset(name for _, name, _, _ in Formatter().parse(template) if name)


def text(key: str, lang: str = DEFAULT_LANGUAGE, /, **params: object) -> str:
    """The screen text for ``key`` in ``lang``, with its placeholders filled.

    >>> text("level", "nn", number=3), text("level", "da", number=3)
    ('Nivå 3', 'Niveau 3')
    >>> text("paused", "en")
    'Clock paused'
    """
    try:
        template = MESSAGES[lang][key]
    except KeyError:
        raise UnknownMessage(f"no message {key!r} in language {lang!r}") from None
    return template.format(**params)


@dataclass(frozen=True)
class Place:
    """A finishing place, said as each language says it ("37. plass", "37th")."""

    place: int

    def translate(self, lang: str = DEFAULT_LANGUAGE, /) -> str:
        return format_place(self.place, lang)


@dataclass(frozen=True)
class Phrase:
    """A screen text kept as its key and params, and said in the language asked for.

    A pop-up or the ticker holds a phrase, not its text, so a language switch
    says it again in the new language. A param that can be translated (a
    :class:`Place`, a controls message) is translated too; a mapping of
    language → text gives its own language's.

    >>> busted = Phrase("bust_line", {"name": "Kari", "place": Place(37)})
    >>> busted.translate("nn"), busted.translate("en")
    ('Kari — 37. plass', 'Kari — 37th')
    """

    key: str
    params: Mapping[str, object] = field(default_factory=dict)

    def translate(self, lang: str = DEFAULT_LANGUAGE, /) -> str:
        return text(self.key, lang, **{name: _in(value, lang)
                                       for name, value in self.params.items()})


def _in(value: object, lang: str) -> object:
    translate = getattr(value, "translate", None)
    if callable(translate) and not isinstance(value, str):
        return translate(lang)
    if isinstance(value, Mapping):
        return value.get(lang, value.get("en", ""))
    return value
