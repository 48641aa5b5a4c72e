"""The read commands' text, in every language, written from the ``--json`` documents.

:mod:`kiosk.cli.report` builds one document per answer; the functions here
turn it into the lines a TD reads, in the venue's words (GLOSSARY.md): "Nivå
4: 200/400, 20:00 att", "Klokka er stoppa", "2 bord" / "2 borde". Counts go
through :func:`rules.i18n.count`, so plurals are each language's own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from rules.errors import RulesError
from rules.i18n import DEFAULT_LANGUAGE, count, format_int, format_place, format_time

__all__ = ["WORDS", "NoTournamentYet", "clock_line", "counted_column", "list_lines",
           "results_lines", "show_lines", "standings_lines", "status_word", "words"]

WORDS: Final[Mapping[str, Mapping[str, str]]] = {
    "nn": {"check-in": "innsjekk", "seated": "plassert", "running": "i gang",
           "finished": "ferdig", "closed": "avslutta", "status": "Fase",
           "entrants": "Påmelde", "left": "Spelarar att", "level": "Nivå {n}",
           "break": "Pause", "time_left": "{time} att", "ante": "ante {ante}",
           "bb_ante": "BB-ante {ante}", "not_started": "Klokka er ikkje starta",
           "clock_running": "Klokka går", "clock_paused": "Klokka er stoppa",
           "waiting": "Pausen er over: klokka ventar på turneringsleiaren",
           "next_level": "Neste nivå", "to_break": "Til pause", "last_level": "siste nivå",
           "hfh": "Hand for hand", "on": "på", "off": "av",
           "no_moves": "Ingen flyttingar ventar", "moves_waiting": "{moves} ventar",
           "move": "Flytt", "table": "Bord {n}", "results": "Resultat",
           "waitlist": "Venteliste", "capacity": "Plassar",
           "none": "Ingen turneringar enno", "season": "Sesong {season}",
           "still_in": "framleis med", "winner": "Vinnar", "no_results": "Ingen resultat enno"},
    "nb": {"check-in": "innsjekk", "seated": "plassert", "running": "i gang",
           "finished": "ferdig", "closed": "avsluttet", "status": "Fase",
           "entrants": "Påmeldte", "left": "Spillere igjen", "level": "Nivå {n}",
           "break": "Pause", "time_left": "{time} igjen", "ante": "ante {ante}",
           "bb_ante": "BB-ante {ante}", "not_started": "Klokken er ikke startet",
           "clock_running": "Klokken går", "clock_paused": "Klokken er stoppet",
           "waiting": "Pausen er over: klokken venter på turneringslederen",
           "next_level": "Neste nivå", "to_break": "Til pause", "last_level": "siste nivå",
           "hfh": "Hånd for hånd", "on": "på", "off": "av",
           "no_moves": "Ingen flyttinger venter", "moves_waiting": "{moves} venter",
           "move": "Flytt", "table": "Bord {n}", "results": "Resultater",
           "waitlist": "Venteliste", "capacity": "Plasser",
           "none": "Ingen turneringer ennå", "season": "Sesong {season}",
           "still_in": "fortsatt med", "winner": "Vinner", "no_results": "Ingen resultater ennå"},
    "da": {"check-in": "indtjekning", "seated": "placeret", "running": "i gang",
           "finished": "færdig", "closed": "afsluttet", "status": "Fase",
           "entrants": "Tilmeldte", "left": "Spillere tilbage", "level": "Niveau {n}",
           "break": "Pause", "time_left": "{time} tilbage", "ante": "ante {ante}",
           "bb_ante": "BB-ante {ante}", "not_started": "Uret er ikke startet",
           "clock_running": "Uret kører", "clock_paused": "Uret er stoppet",
           "waiting": "Pausen er slut: uret venter på turneringslederen",
           "next_level": "Næste niveau", "to_break": "Til pause", "last_level": "sidste niveau",
           "hfh": "Hånd for hånd", "on": "til", "off": "fra",
           "no_moves": "Ingen flytninger venter", "moves_waiting": "{moves} venter",
           "move": "Flyt", "table": "Bord {n}", "results": "Resultater",
           "waitlist": "Venteliste", "capacity": "Pladser",
           "none": "Ingen turneringer endnu", "season": "Sæson {season}",
           "still_in": "stadig med", "winner": "Vinder", "no_results": "Ingen resultater endnu"},
    "en": {"check-in": "check-in", "seated": "seated", "running": "running",
           "finished": "finished", "closed": "closed", "status": "Status",
           "entrants": "Entrants", "left": "Players left", "level": "Level {n}",
           "break": "Break", "time_left": "{time} left", "ante": "ante {ante}",
           "bb_ante": "BB ante {ante}", "not_started": "The clock has not been started",
           "clock_running": "Clock running", "clock_paused": "Clock paused",
           "waiting": "The break is over: the clock waits for the tournament director",
           "next_level": "Next level", "to_break": "Until break", "last_level": "last level",
           "hfh": "Hand for hand", "on": "on", "off": "off",
           "no_moves": "No moves pending", "moves_waiting": "{moves} pending",
           "move": "Move", "table": "Table {n}", "results": "Results",
           "waitlist": "Waiting list", "capacity": "Places",
           "none": "No tournaments yet", "season": "Season {season}",
           "still_in": "still in", "winner": "Winner", "no_results": "No results yet"},
}


class NoTournamentYet(RulesError, LookupError):
    """``results show`` or ``standings`` in a store without a tournament."""

    messages = {lang: w["none"] for lang, w in WORDS.items()}


def words(lang: str) -> Mapping[str, str]:
    return WORDS.get(lang) or WORDS[DEFAULT_LANGUAGE]


def status_word(status: str, lang: str) -> str:
    """A tournament's status (:data:`kiosk.cli.report.STATUSES`) as the TD reads it.

    >>> status_word("running", "nn"), status_word("closed", "da"), status_word("seated", "en")
    ('i gang', 'afsluttet', 'seated')
    """
    return words(lang)[status]


def _blinds(blinds: Mapping[str, Any], lang: str) -> str:
    w = words(lang)
    text = f"{format_int(blinds['small_blind'], lang)}/{format_int(blinds['big_blind'], lang)}"
    if blinds["ante"]:
        key = "bb_ante" if blinds["ante_kind"] == "big-blind" else "ante"
        text += ", " + w[key].format(ante=format_int(blinds["ante"], lang))
    return text


def clock_line(clock: Mapping[str, Any], lang: str, *, state: bool = True) -> str:
    """The clock in one line: "Nivå 4: 200/400, 20:00 att", and whether it is stopped.

    >>> c = {"started": True, "running": False, "waiting": False, "on_break": False,
    ...      "level": 4, "blinds": {"small_blind": 200, "big_blind": 400, "ante": 0,
    ...      "ante_kind": "per-player"}, "seconds_left": 1200.0}
    >>> clock_line(c, "nn")
    'Nivå 4: 200/400, 20:00 att – Klokka er stoppa'
    >>> clock_line({**c, "running": True, "level": None, "on_break": True}, "da")
    'Pause, 20:00 tilbage'
    >>> clock_line({**c, "running": True, "waiting": True, "on_break": True,
    ...             "seconds_left": 0.0}, "en")
    'Break, 00:00 left – The break is over: the clock waits for the tournament director'
    >>> clock_line({**c, "running": True, "seconds_left": None}, "nb", state=False)
    'Nivå 4: 200/400 (siste nivå)'
    """
    w = words(lang)
    if not clock["started"]:
        return w["not_started"]
    if clock["on_break"] or clock["blinds"] is None:
        text = w["break"]
    else:
        text = w["level"].format(n=clock["level"]) + ": " + _blinds(clock["blinds"], lang)
    if clock["seconds_left"] is None:
        text += f" ({w['last_level']})"
    else:
        text += ", " + w["time_left"].format(time=format_time(clock["seconds_left"]))
    if state and clock["waiting"]:
        text += f" – {w['waiting']}"
    elif state and not clock["running"]:
        text += f" – {w['clock_paused']}"
    return text


def show_lines(doc: Mapping[str, Any], lang: str) -> list[str]:
    """``tournament show``: status, counts, clock, hand for hand, moves, tables, results."""
    w = words(lang)
    clock = doc["clock"]
    if doc["status"] in ("finished", "closed"):
        return _result_lines(doc, lang)
    lines = [doc["name"], f"  {w['status']}: {status_word(doc['status'], lang)}",
             f"  {w['entrants']}: {format_int(doc['entrants'], lang)}   "
             f"{w['left']}: {format_int(doc['players_left'], lang)}   "
             f"{count(len(doc['tables']), 'table', lang)}",
             f"  {clock_line(clock, lang, state=False)}"]
    if clock["started"]:
        running = (w["waiting"] if clock["waiting"] else
                   w["clock_running"] if clock["running"] else w["clock_paused"])
        lines.append(f"  {running}")
    if clock["next_level"] is not None:
        lines.append(f"  {w['next_level']}: {_blinds(clock['next_level'], lang)}")
    if clock["seconds_to_break"] is not None:
        lines.append(f"  {w['to_break']}: {format_time(clock['seconds_to_break'])}")
    lines.append(f"  {w['hfh']}: {w['on'] if doc['hand_for_hand'] else w['off']}")
    moves = doc["moves"]
    lines.append("  " + (w["moves_waiting"].format(moves=count(len(moves), "move", lang))
                         if moves else w["no_moves"]))
    for table in doc["tables"]:
        names = ", ".join(f"{s['seat']}: {s['name']}" for s in table["seats"])
        lines.append(f"  {w['table'].format(n=table['number'])} — {names}")
    for move in moves:
        lines.append(f"  {w['move']}: {move['name']} {move['from']['table']}/"
                     f"{move['from']['seat']} → {move['to']['table']}/{move['to']['seat']}")
    waiting = doc.get("waiting") or []
    if waiting:
        # F2, as the phone says it: "Venteliste: 3" and who, first in line first.
        names = ", ".join(f"{p['place']}. {p['name']}" for p in waiting)
        lines.append(f"  {w['waitlist']}: {format_int(len(waiting), lang)} — {names}")
    if doc["results"]:
        lines.append(f"  {w['results']}:")
        lines.extend(f"    {format_place(r['place'], lang):>10}  {r['name']}"
                     for r in doc["results"][:20])
    return lines


def _result_lines(doc: Mapping[str, Any], lang: str) -> list[str]:
    """A finished (or closed) night: its result, not a clock that has nothing left to time."""
    w = words(lang)
    results = doc["results"]
    lines = [doc["name"], f"  {w['status']}: {status_word(doc['status'], lang)}",
             f"  {w['entrants']}: {format_int(doc['entrants'], lang)}"]
    lines.extend(f"  {w['winner']}: {r['name']}" for r in results if r["place"] == 1)
    if results:
        lines.append(f"  {w['results']}:")
        lines.extend(f"    {format_place(r['place'], lang):>10}  {r['name']}" for r in results)
    return lines


def list_lines(doc: Mapping[str, Any], lang: str) -> list[str]:
    """``tournament list``: ``*`` marks tonight's; the status in the TD's language."""
    rows = doc["tournaments"]
    if not rows:
        return [words(lang)["none"]]
    width = max(len(status_word(r["status"], lang)) for r in rows)
    return [f"{'*' if r.get('tonight', r['current']) else ' '} {r['id']}  {r['date']}  "
            f"{status_word(r['status'], lang):<{width}}  {r['name']}" for r in rows]


def standings_lines(doc: Mapping[str, Any], lang: str) -> list[str]:
    rows = doc["standings"]
    lines = [words(lang)["season"].format(season=doc["season"])]
    width = max((len(r["name"]) for r in rows), default=0)
    points = counted_column([r["points"] for r in rows], "point", lang)
    lines.extend(f"  {r['rank']:>3}. {r['name']:<{width}}  {shown}  "
                 f"{count(r['tournaments'], 'tournament', lang)}"
                 for r, shown in zip(rows, points, strict=True))
    return lines


def counted_column(numbers: Sequence[int], noun: str, lang: str) -> list[str]:
    """Counts with their noun as one column: the numbers right-aligned, the nouns after them.

    Right-aligning the whole "4 points" would push "1 point" one place out of line.

    >>> counted_column([12, 4, 1], "point", "en")
    ['12 points', ' 4 points', ' 1 point ']
    """
    digits = [format_int(n, lang) for n in numbers]
    wide = max((len(d) for d in digits), default=0)
    cells = [f"{d:>{wide}} {count(n, noun, lang)[len(d) + 1:]}"
             for d, n in zip(digits, numbers, strict=True)]
    cell_width = max((len(c) for c in cells), default=0)
    return [c.ljust(cell_width) for c in cells]


def results_lines(doc: Mapping[str, Any], lang: str) -> list[str]:
    w = words(lang)
    t = doc["tournament"]
    lines = [f"{t['name']}  ({status_word(t['status'], lang)})",
             f"  {w['entrants']}: {format_int(doc['entrants'], lang)}"]
    if not doc["results"]:
        return [*lines, f"  {w['no_results']}"]
    width = max(len(r["name"]) for r in doc["results"])
    for r in doc["results"]:
        place = w["still_in"] if r["place"] is None else format_place(r["place"], lang)
        lines.append(f"  {place:>10}  {r['name']:<{width}}  {count(r['points'], 'point', lang)}")
    return lines
