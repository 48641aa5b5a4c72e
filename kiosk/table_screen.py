"""The small screen on a table device, and the TV's hand-for-hand status.

The view models are pure (state and ``now`` in, strings out); the renderer
draws one on any small surface, such as a 480×320 panel at the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pygame

from kiosk.display.layout import BLACK, GREY, WHITE, YELLOW, Frame, draw_text
from rules.clock_call import ClockCall
from rules.events import Record
from rules.i18n import DEFAULT_LANGUAGE
from rules.state import Tournament

__all__ = ["HandForHandView", "TableScreenView", "clock_call_line", "hand_for_hand_view",
           "render_table_screen", "table_screen_view"]

#: The glossary's words for a called clock, with the seconds left.
CLOCK_CALL: Mapping[str, str] = {
    "nn": "Klokke på bord {table}: {s}", "nb": "Klokke på bord {table}: {s}",
    "da": "Klokken på bord {table}: {s}", "en": "Clock on table {table}: {s}",
}

WORDS: Mapping[str, Mapping[str, str]] = {
    "nn": {"table": "Bord {n}", "to": "Flytt hit: {name} (frå bord {table})",
           "from": "Flytt: {name} → bord {table}, sete {seat}", "undo": "Angre ({s} s)",
           "clock": "Klokke: {s}", "playing": "Spelar framleis: {tables}",
           "next": "Neste hand!", "empty": "ledig", "last": "Sist: {what}"},
    "nb": {"table": "Bord {n}", "to": "Flytt hit: {name} (fra bord {table})",
           "from": "Flytt: {name} → bord {table}, sete {seat}", "undo": "Angre ({s} s)",
           "clock": "Klokke: {s}", "playing": "Spiller fortsatt: {tables}",
           "next": "Neste hånd!", "empty": "ledig", "last": "Sist: {what}"},
    "da": {"table": "Bord {n}", "to": "Flyt hertil: {name} (fra bord {table})",
           "from": "Flyt: {name} → bord {table}, sæde {seat}", "undo": "Fortryd ({s} s)",
           "clock": "Klokken: {s}", "playing": "Spiller stadig: {tables}",
           "next": "Næste hånd!", "empty": "ledig", "last": "Sidst: {what}"},
    "en": {"table": "Table {n}", "to": "Moving here: {name} (from table {table})",
           "from": "Move: {name} → table {table}, seat {seat}", "undo": "Undo ({s} s)",
           "clock": "Clock: {s}", "playing": "Still playing: {tables}",
           "next": "Next hand!", "empty": "free", "last": "Last: {what}"},
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


@dataclass(frozen=True)
class TableScreenView:
    title: str
    seats: tuple[SeatMark, ...]
    moves: tuple[str, ...]
    clock: str
    last_action: str
    undo: str


def table_screen_view(state: Tournament, table: int, now: float,
                      lang: str = DEFAULT_LANGUAGE, *, last: Record | None = None,
                      undo_window: float = 10.0, seats_per_table: int = 10
                      ) -> TableScreenView:
    """What the table's own screen shows at ``now``.

    >>> from tests.rules.tournament_kit import Night
    >>> night = Night().started(12)
    >>> view = table_screen_view(night.state, 1, 0.0, "en")
    >>> view.title, len([s for s in view.seats if s.name])
    ('Table 1', 6)
    """
    w = WORDS[lang]
    here = state.tables.get(table)
    seats_taken = dict(here.seats) if here is not None else {}
    position = here.button if here is not None else None
    marks = []
    for seat in range(1, seats_per_table + 1):
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
                              here is not None and seat in here.sitting_out))
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
    return TableScreenView(w["table"].format(n=table), tuple(marks), tuple(moves), clock,
                           last_text, undo)


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


def render_table_screen(surface: pygame.Surface, view: TableScreenView) -> None:
    """Seat map on the left, moves and the last action on the right."""
    surface.fill(BLACK)
    frame = Frame(surface)
    draw_text(surface, view.title, frame.box(0.02, 0.14, 0.03, 0.6), bold=True)
    if view.clock:
        draw_text(surface, view.clock, frame.box(0.02, 0.14, 0.6, 0.97), colour=YELLOW,
                  bold=True, align="right")
    rows = len(view.seats) or 1
    for index, mark in enumerate(view.seats):
        top = 0.16 + 0.66 * index / rows
        box = frame.box(top, top + 0.66 / rows, 0.03, 0.55)
        label = f"{mark.seat:>2} {mark.role:<4} {mark.name or '·'}"
        if mark.sitting_out:
            label += " (…)"
        colour = WHITE if mark.name else GREY
        draw_text(surface, label, box, colour=YELLOW if mark.role else colour,
                  size=max(10, box.height - 4))
    for index, line in enumerate(view.moves[:4]):
        top = 0.18 + index * 0.12
        draw_text(surface, line, frame.box(top, top + 0.11, 0.57, 0.97), colour=YELLOW)
    draw_text(surface, view.last_action, frame.box(0.84, 0.97, 0.03, 0.6), colour=GREY)
    if view.undo:
        draw_text(surface, view.undo, frame.box(0.84, 0.97, 0.6, 0.97), align="right")
