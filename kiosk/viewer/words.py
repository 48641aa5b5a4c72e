"""The phone page's own words, in the venue's languages (GLOSSARY.md).

The night's words (levels, blinds, players left …) come from the wall's
catalogue (:mod:`kiosk.display.messages`) through the view models; these are
only what a phone shows and the wall does not. Each language has the same
keys and placeholders, which a test checks. The page fills ``{placeholders}``
itself, so they are sent as they are.
"""

from __future__ import annotations

from typing import Final

__all__ = ["WORDS"]

WORDS: Final[dict[str, dict[str, str]]] = {
    "nn": {
        "title": "Følg med på mobilen",
        "find_seat": "Finn plassen din",
        "seat_hint": "Skriv nokre bokstavar av namnet",
        "no_match": "Ingen med det namnet",
        "table_seat": "Bord {table}, sete {seat}",
        "move_to": "Flytt til bord {table}, sete {seat}",
        "not_seated": "Ikkje plassert enno",
        "out": "Slått ut – {place}",
        "busts": "Slått ut",
        "stale": "Ikkje oppdatert – ventar på sambandet",
        "connecting": "Koplar til …",
        "language": "Språk",
        "no_tournament": "Ingen turnering enno",
        "bb_ante": "BB-ante {ante}",
        "read_only": "Berre til å sjå på",
        "waiting_you": "Venteliste: {count} – du er nr. {place}",
    },
    "nb": {
        "title": "Følg med på mobilen",
        "find_seat": "Finn plassen din",
        "seat_hint": "Skriv noen bokstaver av navnet",
        "no_match": "Ingen med det navnet",
        "table_seat": "Bord {table}, sete {seat}",
        "move_to": "Flytt til bord {table}, sete {seat}",
        "not_seated": "Ikke plassert ennå",
        "out": "Slått ut – {place}",
        "busts": "Slått ut",
        "stale": "Ikke oppdatert – venter på forbindelsen",
        "connecting": "Kobler til …",
        "language": "Språk",
        "no_tournament": "Ingen turnering ennå",
        "bb_ante": "BB-ante {ante}",
        "read_only": "Bare til å se på",
        "waiting_you": "Venteliste: {count} – du er nr. {place}",
    },
    "da": {
        "title": "Følg med på mobilen",
        "find_seat": "Find din plads",
        "seat_hint": "Skriv nogle bogstaver af navnet",
        "no_match": "Ingen med det navn",
        "table_seat": "Bord {table}, sæde {seat}",
        "move_to": "Flyt til bord {table}, sæde {seat}",
        "not_seated": "Ikke placeret endnu",
        "out": "Slået ud – {place}",
        "busts": "Slået ud",
        "stale": "Ikke opdateret – venter på forbindelsen",
        "connecting": "Forbinder …",
        "language": "Sprog",
        "no_tournament": "Ingen turnering endnu",
        "bb_ante": "BB-ante {ante}",
        "read_only": "Kun til at se på",
        "waiting_you": "Venteliste: {count} – du er nr. {place}",
    },
    "en": {
        "title": "Follow on your phone",
        "find_seat": "Find your seat",
        "seat_hint": "Type a few letters of your name",
        "no_match": "No one by that name",
        "table_seat": "Table {table}, seat {seat}",
        "move_to": "Move to table {table}, seat {seat}",
        "not_seated": "Not seated yet",
        "out": "Eliminated – {place}",
        "busts": "Eliminated",
        "stale": "Not up to date – waiting for the connection",
        "connecting": "Connecting …",
        "language": "Language",
        "no_tournament": "No tournament yet",
        "bb_ante": "BB ante {ante}",
        "read_only": "Read only",
        "waiting_you": "Waiting list: {count} – you are number {place}",
    },
}
