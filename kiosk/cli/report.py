"""What the TD's read commands answer, as plain data: the ``--json`` documents.

``tournament show``, ``tournament list``, ``players list``, ``standings`` and
``results show`` each build one document here; ``--json`` prints it and the
text output (:mod:`kiosk.cli.show_words`) is written from the same document,
so the two never disagree. The documents are described, field by field, by
the JSON Schemas in :mod:`kiosk.cli.json_schema` (and ``docs/cli-json.md``);
every one carries :data:`SCHEMA_VERSION`.

Only light modules are imported at the top (``players list`` has no use for
the clock's): a read command must start fast.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final

from kiosk.cli.help_words import help_text
from rules.i18n import DEFAULT_LANGUAGE

if TYPE_CHECKING:
    from kiosk.store.players import Player
    from kiosk.store.results import ResultRow, StandingRow
    from kiosk.store.tournaments import TournamentRow
    from rules.state import Tournament
    from rules.structure import Level

__all__ = [
    "SCHEMA_VERSION",
    "STATUSES",
    "add_json_option",
    "clock_document",
    "list_document",
    "players_document",
    "print_json",
    "results_document",
    "standings_document",
    "tournament_document",
]

#: Raised when a field is removed or changes meaning; adding a field keeps it.
SCHEMA_VERSION: Final = 1

#: A tournament's status: its phase while it is played, then ``closed``.
STATUSES: Final = ("check-in", "seated", "running", "finished", "closed")


def add_json_option(parser: argparse.ArgumentParser, lang: str = DEFAULT_LANGUAGE) -> None:
    """``--json`` on one read command, until the CLI's global ``--json`` covers it.

    Its default is SUPPRESS, not False: argparse copies a subcommand's defaults
    over the top parser's, so a False here would undo ``pubpoker --json tournament
    show``. Commands read it as ``getattr(args, "json", False)``.
    """
    parser.add_argument("--json", dest="json", action="store_true",
                        default=argparse.SUPPRESS,
                        help=help_text("json", lang))


def print_json(document: dict[str, Any]) -> None:
    json.dump(document, sys.stdout, ensure_ascii=False, indent=2)
    print()


def _blinds(level: Level) -> dict[str, Any]:
    return {"small_blind": level.small_blind, "big_blind": level.big_blind,
            "ante": level.ante, "ante_kind": level.ante_kind.value}


def clock_document(state: Tournament, now: float) -> dict[str, Any]:
    """The clock as it reads at shared time ``now`` (every field null before the start)."""
    from rules import clock as clocks
    from rules.structure import Level

    doc: dict[str, Any] = {
        "started": state.clock.started, "running": False, "waiting": False,
        "on_break": False, "level": None, "blinds": None, "seconds_left": None,
        "next_level": None, "seconds_to_break": None,
    }
    if state.config is None or not state.clock.started:
        return doc
    reading = clocks.read(state.config.structure, state.clock, now)
    period = reading.period
    next_level = reading.next_level
    doc.update(
        running=reading.running, waiting=reading.waiting, on_break=reading.on_break,
        level=reading.level_number,
        blinds=_blinds(period) if isinstance(period, Level) else None,
        seconds_left=None if reading.remaining is None else round(reading.remaining, 1),
        next_level=None if next_level is None else {
            "level": _number_of(state, reading.period_index, next_level), **_blinds(next_level)},
        seconds_to_break=None if reading.until_break is None else round(reading.until_break, 1),
    )
    return doc


def _number_of(state: Tournament, after: int, level: Level) -> int | None:
    assert state.config is not None
    periods = state.config.structure.periods
    index = next(i for i in range(after + 1, len(periods)) if periods[i] is level)
    return state.config.structure.level_number(index)


def tournament_document(state: Tournament, row: TournamentRow | None, now: float
                        ) -> dict[str, Any]:
    """``tournament show --json``: tonight as the TD sees it at ``now``."""
    from rules.waitlist import capacity

    assert state.config is not None
    players = state.players
    return {
        "schema_version": SCHEMA_VERSION,
        "id": None if row is None else row.id,
        "name": state.config.name,
        "date": None if row is None else row.date,
        "status": ("closed" if state.closed or (row is not None and row.status == "closed")
                   else state.phase.value),
        "entrants": state.entrants,
        "players_left": state.remaining,
        "clock": clock_document(state, now),
        "hand_for_hand": state.hand_for_hand,
        "tables": [
            {"number": number, "seats": [
                {"seat": seat, "player_id": pid, "name": players[pid].name}
                for seat, pid in sorted(table.seats.items())]}
            for number, table in sorted(state.tables.items())],
        "moves": [
            {"player_id": m.player_id, "name": players[m.player_id].name,
             "from": {"table": m.source.table, "seat": m.source.seat},
             "to": {"table": m.target.table, "seat": m.target.seat},
             "reason": m.reason.value}
            for m in state.moves.values()],
        "results": [{"place": e.place, "player_id": e.player_id, "name": e.name}
                    for e in state.results()],
        "capacity": capacity(state),
        "waiting": [{"place": n, "player_id": pid, "name": players[pid].name}
                    for n, pid in enumerate(state.waiting, start=1)],
    }


def list_document(rows: Iterable[TournamentRow], statuses: dict[str, str],
                  current: str | None, tonight: str | None = None) -> dict[str, Any]:
    """``tournament list --json``; ``statuses`` holds each row's status as it stands now.

    ``current`` is this device's, ``tonight`` the one every device shows (the
    log's pick, :func:`kiosk.tonight.choose`; this device's when none is open).
    """
    tonight = tonight or current
    return {
        "schema_version": SCHEMA_VERSION,
        "tournaments": [
            {"id": r.id, "name": r.name, "date": r.date, "preset": r.preset,
             "season": r.season, "status": statuses[r.id], "current": r.id == current,
             "tonight": r.id == tonight}
            for r in rows],
    }


def players_document(players: Sequence[Player]) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "players": [{"id": p.id, "name": p.name, "cards": list(p.cards), "created": p.created}
                    for p in players],
    }


def standings_document(season: str, rows: Sequence[StandingRow]) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "season": season,
        "standings": [{"rank": r.rank, "player_id": r.player_id, "name": r.name,
                       "points": r.points, "tournaments": r.tournaments,
                       "placings": list(r.placings)} for r in rows],
    }


def results_document(row: TournamentRow, status: str, rows: Sequence[ResultRow]
                     ) -> dict[str, Any]:
    """Every entrant has a row: placed once out, ``place`` null while still playing."""
    return {
        "schema_version": SCHEMA_VERSION,
        "tournament": {"id": row.id, "name": row.name, "date": row.date,
                       "season": row.season, "status": status},
        "entrants": len(rows),
        "results": [{"place": r.place, "player_id": r.player_id, "name": r.name,
                     "points": r.points, "knockouts": r.knockouts} for r in rows],
    }
