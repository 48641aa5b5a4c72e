"""The small screen on a table device, and the TV's hand-for-hand status.

The view models are pure (state, ``now`` and what the device's controls are
waiting for in; strings out). :mod:`kiosk.table_device` draws one on the
device's panel (800×480 or 480×320) and feeds it from the running kiosk.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from kiosk.display.messages import text
from kiosk.display.viewmodels import clock_view
from rules.clock_call import ClockCall
from rules.events import Record
from rules.i18n import DEFAULT_LANGUAGE
from rules.state import Tournament

__all__ = ["HandForHandView", "PromptStep", "SeatMark", "TableScreenView", "clock_call_line",
           "hand_for_hand_view", "table_screen_view"]

#: The glossary's words for a called clock, with the seconds left.
CLOCK_CALL: Mapping[str, str] = {
    "nn": "Klokke på bord {table}: {s}", "nb": "Klokke på bord {table}: {s}",
    "da": "Klokken på bord {table}: {s}", "en": "Clock on table {table}: {s}",
}

WORDS: Mapping[str, Mapping[str, str]] = {
    "nn": {"table": "Bord {n}", "to": "Flytt hit: {name} (frå bord {table})",
           "from": "Flytt: {name} → bord {table}, sete {seat}", "undo": "Angre ({s} s)",
           "clock": "Klokke: {s}", "playing": "Spelar framleis: {tables}",
           "next": "Neste hand!", "empty": "ledig", "last": "Sist: {what}",
           "idle": "UT → sete → OK: slå ut ein spelar",
           "bust": "UT → Vel sete med ◀ ▶ eller vis kortet", "bust-card": "UT → Vis kortet",
           "seat": "Sete {seat}: {name}", "confirm": "OK for å stadfeste",
           "h4h": "Hand for hand: trykk FERDIG når handa er ferdig",
           "h4h-wait": "Hand for hand: ventar på bord {tables}",
           "unconfirmed": "Tida er ikkje stadfesta – ventar på ei anna eining",
           "no-table": "Ingen spelarar ved bordet"},
    "nb": {"table": "Bord {n}", "to": "Flytt hit: {name} (fra bord {table})",
           "from": "Flytt: {name} → bord {table}, sete {seat}", "undo": "Angre ({s} s)",
           "clock": "Klokke: {s}", "playing": "Spiller fortsatt: {tables}",
           "next": "Neste hånd!", "empty": "ledig", "last": "Sist: {what}",
           "idle": "UT → sete → OK: slå ut en spiller",
           "bust": "UT → Velg sete med ◀ ▶ eller vis kortet", "bust-card": "UT → Vis kortet",
           "seat": "Sete {seat}: {name}", "confirm": "OK for å bekrefte",
           "h4h": "Hånd for hånd: trykk FERDIG når hånden er ferdig",
           "h4h-wait": "Hånd for hånd: venter på bord {tables}",
           "unconfirmed": "Tiden er ikke bekreftet – venter på en annen enhet",
           "no-table": "Ingen spillere ved bordet"},
    "da": {"table": "Bord {n}", "to": "Flyt hertil: {name} (fra bord {table})",
           "from": "Flyt: {name} → bord {table}, sæde {seat}", "undo": "Fortryd ({s} s)",
           "clock": "Klokken: {s}", "playing": "Spiller stadig: {tables}",
           "next": "Næste hånd!", "empty": "ledig", "last": "Sidst: {what}",
           "idle": "UD → sæde → OK: slå en spiller ud",
           "bust": "UD → Vælg sæde med ◀ ▶ eller vis kortet", "bust-card": "UD → Vis kortet",
           "seat": "Sæde {seat}: {name}", "confirm": "OK for at bekræfte",
           "h4h": "Hånd for hånd: tryk FÆRDIG når hånden er færdig",
           "h4h-wait": "Hånd for hånd: venter på bord {tables}",
           "unconfirmed": "Tiden er ikke bekræftet – venter på en anden enhed",
           "no-table": "Ingen spillere ved bordet"},
    "en": {"table": "Table {n}", "to": "Moving here: {name} (from table {table})",
           "from": "Move: {name} → table {table}, seat {seat}", "undo": "Undo ({s} s)",
           "clock": "Clock: {s}", "playing": "Still playing: {tables}",
           "next": "Next hand!", "empty": "free", "last": "Last: {what}",
           "idle": "BUST → seat → OK: eliminate a player",
           "bust": "BUST → Pick the seat with ◀ ▶ or tap the card",
           "bust-card": "BUST → Tap the card",
           "seat": "Seat {seat}: {name}", "confirm": "OK to confirm",
           "h4h": "Hand for hand: press HAND DONE when the hand is over",
           "h4h-wait": "Hand for hand: waiting for table {tables}",
           "unconfirmed": "Time not confirmed – waiting for another device",
           "no-table": "No players at this table"},
}

#: What a table device's last action was, in the venue's words.
ACTIONS: Mapping[str, Mapping[str, str]] = {
    "players-busted": {"nn": "slått ut", "nb": "slått ut", "da": "slået ud",
                       "en": "eliminated"},
    "hand-started": {"nn": "ny hand", "nb": "ny hånd", "da": "ny hånd", "en": "new hand"},
    "button-drawn": {"nn": "dealerknapp trekt", "nb": "dealerknapp trukket",
                     "da": "dealerknap trukket", "en": "button drawn"},
    "move-confirmed": {"nn": "flytting stadfesta", "nb": "flytting bekreftet",
                       "da": "flytning bekræftet", "en": "move confirmed"},
    "clock-called": {"nn": "klokke", "nb": "klokke", "da": "klokken", "en": "clock called"},
    "hand-finished": {"nn": "hand ferdig", "nb": "hånd ferdig", "da": "hånd færdig",
                      "en": "hand done"},
}


@dataclass(frozen=True)
class SeatMark:
    seat: int
    name: str
    #: "D", "SB", "BB" or "" — text, so it does not rest on colour.
    role: str
    sitting_out: bool
    #: The seat BUST → ◀ ▶ has chosen, waiting for OK.
    chosen: bool = False


@dataclass(frozen=True)
class PromptStep:
    """Where the table's buttons are: what BUST → seat → OK waits for now.

    ``busting`` once BUST was pressed; ``seat`` once ◀ ▶ chose one;
    ``seat_buttons`` whether the device has ◀ ▶ at all (else: the card).
    """

    busting: bool = False
    seat: int | None = None
    seat_buttons: bool = True


@dataclass(frozen=True)
class TableScreenView:
    title: str
    seats: tuple[SeatMark, ...]
    moves: tuple[str, ...]
    #: The called clock's countdown ("Klokke: 23"), or "".
    clock: str
    last_action: str
    undo: str
    #: The tournament clock, smaller than on the wall: "12:34".
    digits: str = ""
    #: "Nivå 5 · 200 / 400 · Ante 400", or "Pause", or why there is no clock.
    level_line: str = ""
    paused: bool = False
    paused_text: str = ""
    #: "Tida er ikkje stadfesta …" until a peer has given this device the time.
    unconfirmed: str = ""
    #: The buttons' prompt: one or two lines (the chosen seat, then "OK …").
    prompt: tuple[str, ...] = ()
    #: True while the prompt is a step of BUST → seat → OK (drawn boxed).
    prompt_active: bool = False
    #: What the controls said last ("Kari er slått ut", a refusal), for a few seconds.
    said: str = ""
    #: An empty seat's word ("ledig").
    empty_text: str = ""


def _seats(state: Tournament, table: int, seats_per_table: int, chosen: int | None
           ) -> tuple[SeatMark, ...]:
    here = state.tables.get(table)
    seats_taken = dict(here.seats) if here is not None else {}
    position = here.button if here is not None else None
    marks = []
    for seat in range(1, max(seats_per_table, max(seats_taken, default=0)) + 1):
        player = seats_taken.get(seat)
        role = ""
        if position is not None:
            if seat == position.button:
                role = "D"
            if seat == position.small_blind:
                role = "D/SB" if role else "SB"
            elif seat == position.big_blind:
                role = "BB"
        marks.append(SeatMark(seat, state.players[player].name if player else "", role,
                              here is not None and seat in here.sitting_out,
                              chosen=seat == chosen and player is not None))
    return tuple(marks)


def _prompt(state: Tournament, table: int, step: PromptStep | None, lang: str
            ) -> tuple[tuple[str, ...], bool]:
    w = WORDS[lang]
    here = state.tables.get(table)
    if step is not None and step.busting:
        player = here.seats.get(step.seat) if here is not None and step.seat else None
        if player is not None:
            name = state.players[player].name
            return (w["seat"].format(seat=step.seat, name=name), w["confirm"]), True
        return (w["bust" if step.seat_buttons else "bust-card"],), True
    if state.hand_for_hand and here is not None:
        if not here.hand_done:
            return (w["h4h"],), False
        playing = state.tables_still_playing()
        if not playing:
            return (w["next"],), False
        return (w["h4h-wait"].format(tables=", ".join(str(n) for n in playing)),), False
    return (w["idle"],), False


def table_screen_view(state: Tournament, table: int, now: float,
                      lang: str = DEFAULT_LANGUAGE, *, last: Record | None = None,
                      undo_window: float = 10.0, seats_per_table: int | None = None,
                      step: PromptStep | None = None, time_confirmed: bool = True,
                      said: str = "") -> TableScreenView:
    """What the table's own screen shows at ``now``.

    ``step`` is what the device's buttons wait for, ``time_confirmed`` whether
    a peer has given it the time yet, ``said`` the controls' last message.

    >>> from tests.rules.tournament_kit import Night
    >>> night = Night().started(12)
    >>> view = table_screen_view(night.state, 1, 0.0, "en")
    >>> view.title, len([s for s in view.seats if s.name]), view.prompt
    ('Table 1', 6, ('BUST → seat → OK: eliminate a player',))
    >>> seat = min(night.state.tables[1].seats)
    >>> busting = table_screen_view(night.state, 1, 0.0, "nn", step=PromptStep(True, seat))
    >>> busting.prompt[1], busting.prompt_active, [s.seat for s in busting.seats if s.chosen]
    ('OK for å stadfeste', True, [1])
    """
    w = WORDS[lang]
    if seats_per_table is None:
        seats_per_table = state.config.house.seats_per_table if state.config else 10
    here = state.tables.get(table)
    marks = _seats(state, table, seats_per_table, step.seat if step and step.busting else None)
    moves = []
    for move in state.moves.values():
        name = state.players[move.player_id].name
        if move.target.table == table:
            moves.append(w["to"].format(name=name, table=move.source.table))
        elif move.source.table == table:
            moves.append(w["from"].format(name=name, table=move.target.table,
                                          seat=move.target.seat))
    clock = ""
    if here is not None and here.clock_called_at is not None:
        call = ClockCall(table=table, seat=here.clock_called_seat or 0,
                         started_at=here.clock_called_at)
        left = call.remaining(now)
        if left > 0:
            clock = w["clock"].format(s=int(-(-left // 1)))
    last_text, undo = "", ""
    if last is not None:
        what = ACTIONS.get(last.event.kind.value, {}).get(lang, last.event.kind.value)
        last_text = w["last"].format(what=what)
        left = undo_window - (now - last.event.at)
        if left > 0:
            undo = w["undo"].format(s=int(-(-left // 1)))
    digits, level_line, paused, paused_text = "", text("not_started", lang), False, ""
    if state.config is not None:
        wall = clock_view(state, now, lang)
        digits, paused, paused_text = wall.digits, wall.paused, wall.paused_text
        level_line = " · ".join(p for p in (wall.level_text, wall.blinds_text, wall.ante_text)
                                if p)
    prompt, active = _prompt(state, table, step, lang)
    if here is None and state.tables:
        # Seated elsewhere, or the table was broken up: nothing to bust here.
        prompt, active = (w["no-table"],), False
    return TableScreenView(w["table"].format(n=table), marks, tuple(moves), clock,
                           last_text, undo, digits=digits, level_line=level_line,
                           paused=paused, paused_text=paused_text,
                           unconfirmed="" if time_confirmed else w["unconfirmed"],
                           prompt=prompt, prompt_active=active, said=said,
                           empty_text=w["empty"])


def clock_call_line(state: Tournament, now: float, lang: str = DEFAULT_LANGUAGE) -> str:
    """C5 on the TV: every running clock call with its countdown, or "".

    >>> from tests.rules.tournament_kit import Night
    >>> from rules.commands import CallClock
    >>> night = Night().started(12)
    >>> _ = night.do(CallClock(2), at=100.0)
    >>> clock_call_line(night.state, 112.0, "nn"), clock_call_line(night.state, 131.0, "nn")
    ('Klokke på bord 2: 18', '')
    """
    lines = []
    for number, table in sorted(state.tables.items()):
        if table.clock_called_at is None:
            continue
        left = ClockCall(table=number, seat=table.clock_called_seat or 0,
                         started_at=table.clock_called_at).remaining(now)
        if left > 0:
            lines.append(CLOCK_CALL[lang].format(table=number, s=int(-(-left // 1))))
    return " · ".join(lines)


@dataclass(frozen=True)
class HandForHandView:
    """The TV's line in hand-for-hand play: who is still playing, or deal on."""

    active: bool
    text: str
    all_done: bool


def hand_for_hand_view(state: Tournament, lang: str = DEFAULT_LANGUAGE) -> HandForHandView:
    if not state.hand_for_hand:
        return HandForHandView(False, "", False)
    playing = state.tables_still_playing()
    if not playing:
        return HandForHandView(True, WORDS[lang]["next"], True)
    tables = ", ".join(str(n) for n in playing)
    return HandForHandView(True, WORDS[lang]["playing"].format(tables=tables), False)
