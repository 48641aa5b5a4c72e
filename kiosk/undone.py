"""What an undo took back, in every language: "Angra: Ola Nordmann slått ut".

Said by the TD's UNDO button (:mod:`kiosk.controls.undo`, through
:mod:`kiosk.controls.messages`) and by ``pubpoker undo``; kept out of the
controls package so the command line does not load the button dispatch.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.events import MoveProposed, Record
from rules.values import MoveReason

__all__ = ["UNDONE", "UNDONE_LINE", "UNDONE_NOW", "UNDONE_TITLE", "undone_what"]

#: The line an undo is reported in (the command line's answer).
UNDONE_LINE: Mapping[str, str] = {"nn": "Angra: {what}", "nb": "Angret: {what}",
                                  "da": "Fortrudt: {what}", "en": "Undone: {what}"}
#: What the night is after an undo (``pubpoker undo``'s answer goes on with it):
#: the clock as ``clock`` prints it, and the players still in, or checked in.
UNDONE_NOW: Mapping[str, Mapping[str, str]] = {
    "nn": {"left": "{clock}; {players} att", "in": "{clock}; {players} sjekka inn"},
    "nb": {"left": "{clock}; {players} igjen", "in": "{clock}; {players} sjekket inn"},
    "da": {"left": "{clock}; {players} tilbage", "in": "{clock}; {players} tjekket ind"},
    "en": {"left": "{clock}; {players} left", "in": "{clock}; {players} checked in"},
}
#: The wall's pop-up heading, over what was taken back.
UNDONE_TITLE: Mapping[str, str] = {"nn": "Angra", "nb": "Angret", "da": "Fortrudt",
                                   "en": "Undone"}

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
    # A table device's records, said as its buttons say them (the demo's tables
    # deal all night, so "the hand" alone did not say which press was taken back).
    "hand-started": {"nn": "ny hand på bord {table}", "nb": "ny hånd på bord {table}",
                     "da": "ny hånd på bord {table}", "en": "the new hand at table {table}"},
    "hand-finished": {"nn": "hand ferdig på bord {table}", "nb": "hånd ferdig på bord {table}",
                      "da": "hånd færdig på bord {table}",
                      "en": "hand done at table {table}"},
    "button-drawn": {"nn": "dealerknappen på bord {table}", "nb": "dealerknappen på bord {table}",
                     "da": "dealerknappen på bord {table}",
                     "en": "the dealer button at table {table}"},
    "clock-called": {"nn": "klokke på bord {table}", "nb": "klokke på bord {table}",
                     "da": "klokken på bord {table}", "en": "the clock call at table {table}"},
    "player-renamed": {"nn": "namnebytet til {name}", "nb": "navnebyttet til {name}",
                       "da": "navneskiftet til {name}", "en": "the rename to {name}"},
    "players-merged": {"nn": "samanslåinga av {name} med {keep}",
                       "nb": "sammenslåingen av {name} med {keep}",
                       "da": "sammenlægningen af {name} med {keep}",
                       "en": "the merge of {name} into {keep}"},
    "player-absent": {"nn": "{name} borte", "nb": "{name} borte", "da": "{name} væk",
                      "en": "{name} away"},
    "player-returned": {"nn": "{name} tilbake", "nb": "{name} tilbake", "da": "{name} tilbage",
                        "en": "{name} back"},
    "sit-and-go-listed": {"nn": "{name} på Sit & Go-lista", "nb": "{name} på Sit & Go-listen",
                          "da": "{name} på Sit & Go-listen", "en": "{name} on the Sit & Go list"},
    "sit-and-go-unlisted": {"nn": "{name} av Sit & Go-lista", "nb": "{name} av Sit & Go-listen",
                            "da": "{name} af Sit & Go-listen",
                            "en": "{name} off the Sit & Go list"},
    "player-waitlisted": {"nn": "{name} på ventelista", "nb": "{name} på ventelisten",
                          "da": "{name} på ventelisten", "en": "{name} on the waiting list"},
    "player-unwaitlisted": {"nn": "{name} av ventelista", "nb": "{name} av ventelisten",
                            "da": "{name} af ventelisten", "en": "{name} off the waiting list"},
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
    # N1: undoing a reopen closes the night again (a close itself is never undone).
    "tournament-reopened": {"nn": "opninga av turneringa (ho er avslutta att)",
                            "nb": "åpningen av turneringen (den er avsluttet igjen)",
                            "da": "genåbningen af turneringen (den er afsluttet igen)",
                            "en": "the reopen (the tournament is closed again)"},
    # An event kind newer than these words: said as the log names it.
    "other": {"nn": "{kind}", "nb": "{kind}", "da": "{kind}", "en": "{kind}"},
}

#: Kinds said the same whatever the event holds.
_PLAIN_KINDS = frozenset({"seats-drawn", "sit-and-go-started", "late-registration-closed",
                          "final-table-drawn", "break-order-set", "hand-for-hand-set",
                          "tournament-reopened"})

_CLOCK_KINDS = frozenset({"clock-started", "clock-paused", "clock-resumed", "level-jumped",
                          "time-adjusted", "clock-restored"})


def undone_what(records: Sequence[Record], names: Mapping[str, str]) -> dict[str, str]:
    """What the records of one action were, in every language (names looked up first)."""
    events = [r.event for r in records]
    # A walk-in put on the waiting list: registered first, but it is the wait undone.
    first = next((e for e in events if e.kind.value == "player-waitlisted"), events[0])
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
                  "sit-and-go-unlisted", "player-waitlisted", "player-unwaitlisted"):
        key = kind
        pid = str(getattr(first, "player_id", ""))
        params["name"] = names.get(pid, pid)
    elif kind == "players-merged":
        key = kind
        params["name"], params["keep"] = getattr(first, "name", ""), getattr(first, "keep_name", "")
    elif kind in _PLAIN_KINDS:
        key = kind
    elif kind in _CLOCK_KINDS:
        key = "clock"
    elif kind in ("hand-started", "hand-finished", "button-drawn", "clock-called"):
        key = kind
        params["table"] = getattr(first, "table", "")
    return {lang: template.format(**params) for lang, template in UNDONE[key].items()}
