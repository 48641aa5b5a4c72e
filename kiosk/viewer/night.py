"""The night as the phones see it: one JSON document, from the wall's view models.

Pure: the state, shared time and the season's standings in, a dict out. It
is what the wall shows, in every language at once (a phone switches without
asking again), plus the clock's numbers so the phone counts down itself:
``remaining`` and ``until_break`` at shared time ``now``, and whether the
clock runs. Nothing in it is secret: names, tables, seats and places are on
the wall already; card UIDs, player and device ids and the venue key are not
read here at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from kiosk.display.messages import text
from kiosk.display.viewmodels import clock_view, results_view, standings_view, waiting_lines
from kiosk.viewer.words import WORDS
from rules import clock as clocks
from rules.i18n import LANGUAGES, format_int
from rules.state import Tournament
from rules.structure import AnteKind, Level

__all__ = ["SCHEMA", "night_json"]

#: Bumped when a field changes meaning; the page shows what it knows.
SCHEMA: Final = 1

StandingsRows = tuple[str, Sequence[tuple[int, str, int]]]


def _pages(view: Any, make: Any) -> list[dict[str, str]]:
    """Every row of a paged results view (the wall turns pages; a phone scrolls)."""
    rows = []
    for page in range(view.pages):
        rows += [{"place": r.place_text, "name": r.name, "points": r.points_text}
                 for r in make(page).rows]
    return rows


def _bb_ante(line: str, level: Level | None, lang: str) -> str:
    """The glossary's "BB-ante" where the level's ante is posted by the big blind."""
    if level is None or not level.ante or level.ante_kind is not AnteKind.BIG_BLIND:
        return line
    plain = text("ante", lang, ante=format_int(level.ante, lang))
    return line.replace(plain, WORDS[lang]["bb_ante"].format(ante=format_int(level.ante, lang)))


def _words(state: Tournament, now: float, lang: str, standings: StandingsRows,
           reading: clocks.ClockReading) -> dict[str, Any]:
    view = clock_view(state, now, lang)
    level = reading.period if isinstance(reading.period, Level) else None
    blinds = " – ".join(p for p in (f"{view.blinds_label} {view.blinds_text}".strip(),
                                    _bb_ante(view.ante_text, level, lang)) if p)
    results = results_view(state, now, lang, page=0)
    season, rows = standings
    table = standings_view(season, rows, now, lang, page=0)
    return {
        "name": view.name,
        "level": view.level_text,
        "blinds": blinds,
        "next": _bb_ante(view.next_line, reading.next_level, lang),
        "until_break_label": view.until_break_label,
        "players_label": view.players_label,
        "players": view.players_text,
        "average_label": view.average_label,
        "average": view.average_text,
        "badges": list(view.badges),
        "paused": view.paused_text,
        "results": text("results", lang),
        "winner_label": results.winner_label,
        "winner": results.winner_name,
        "points_label": results.points_label or text("points", lang),
        "placed": _pages(results, lambda p: results_view(state, now, lang, page=p)),
        "standings_title": table.title if season else "",
        "standings": _pages(table, lambda p: standings_view(season, rows, now, lang, page=p)),
        "table": text("table", lang, table="{table}"),
        # "Venteliste: 3" (F2); empty while nobody waits.
        "waiting": next(iter(waiting_lines(state, lang)), ""),
        "language_name": text("language_name", lang),
        **WORDS[lang],
    }


def _seats(state: Tournament) -> list[dict[str, Any]]:
    """Who sits where, and where a pending move sends them: for "find my seat"."""
    seats = []
    for entry in sorted(state.players.values(), key=lambda e: e.name.casefold()):
        if not entry.checked_in:
            continue
        move = state.moves.get(entry.player_id)
        seats.append({
            "name": entry.name,
            "table": entry.seat.table if entry.seat else None,
            "seat": entry.seat.seat if entry.seat else None,
            "place": entry.place,
            "move": None if move is None else [move.target.table, move.target.seat],
        })
    return seats


def night_json(state: Tournament, now: float, *, lang: str, speed: float = 1.0,
               standings: StandingsRows = ("", ())) -> dict[str, Any]:
    """The page's document at shared time ``now``; ``lang`` is the venue's.

    >>> night_json(Tournament(), 10.0, lang="nn")["tournament"]
    False
    """
    doc: dict[str, Any] = {"v": SCHEMA, "lang": lang, "langs": list(LANGUAGES), "now": now,
                           "speed": speed, "tournament": state.config is not None,
                           "words": {code: dict(WORDS[code]) for code in LANGUAGES}}
    if state.config is None:
        return doc
    reading = clocks.read(state.config.structure, state.clock, now)
    doc.update(
        clock={"remaining": reading.remaining, "until_break": reading.until_break,
               "running": state.clock.running, "on_break": reading.on_break,
               "hand_for_hand": state.hand_for_hand, "period": reading.period_index},
        remaining=state.remaining, entrants=state.entrants, finished=state.finished,
        seats=_seats(state),
        # Who waits for a seat (F2), in order: "find my seat" gives a waiting
        # player their place on the list ("you are number 2").
        waiting=[state.players[p].name for p in state.waiting if p in state.players],
        words={code: _words(state, now, code, standings, reading) for code in LANGUAGES},
    )
    return doc
