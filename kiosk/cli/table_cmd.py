"""The TD moves players by hand: ``pubpoker move`` and ``pubpoker table break``.

``move PLAYER --to TABLE[:SEAT]`` sends a player to another table, to the
seat given or else the worst free seat there (S2); ``--now`` when they have
already sat down. ``move confirm PLAYER`` says a moved player has sat down
(also a move balancing proposed). ``table break N`` breaks a table: its
players are drawn into the emptiest tables left (S3), with their chips (S4),
and the TV shows every move until it is confirmed. Each is one action, so
``pubpoker undo`` takes it back whole.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from rules.errors import RulesError

if TYPE_CHECKING:
    from rules.events import Record
    from rules.state import Tournament

__all__ = ["register"]

WORDS: Final[Mapping[str, Mapping[str, str]]] = {
    "nn": {"next": "Bord {table} blir det neste som blir brote opp",
           "move": "{name}: bord {from_table}, sete {from_seat} → bord {table}, sete {seat}",
           "cancelled": "{name}: blir sitjande ved bord {table}, sete {seat}",
           "moved": "{name} sit no ved bord {table}, sete {seat}",
           "broken": "Bord {table} er brote opp",
           "confirm": "Stadfest når spelaren sit: pubpoker move confirm NAMN",
           "check": "Knappen ved bord {table} er ukjend: sjå til at sete {seat} ikkje er "
                    "lille blind"},
    "nb": {"next": "Bord {table} blir det neste som brytes opp",
           "move": "{name}: bord {from_table}, sete {from_seat} → bord {table}, sete {seat}",
           "cancelled": "{name}: blir sittende ved bord {table}, sete {seat}",
           "moved": "{name} sitter nå ved bord {table}, sete {seat}",
           "broken": "Bord {table} er brutt opp",
           "confirm": "Bekreft når spilleren sitter: pubpoker move confirm NAVN",
           "check": "Knappen ved bord {table} er ukjent: se til at sete {seat} ikke er "
                    "lille blind"},
    "da": {"next": "Bord {table} bliver det næste, der brydes op",
           "move": "{name}: bord {from_table}, sæde {from_seat} → bord {table}, sæde {seat}",
           "cancelled": "{name}: bliver siddende ved bord {table}, sæde {seat}",
           "moved": "{name} sidder nu ved bord {table}, sæde {seat}",
           "broken": "Bord {table} er brudt op",
           "confirm": "Bekræft når spilleren sidder: pubpoker move confirm NAVN",
           "check": "Knappen ved bord {table} er ukendt: se efter, at sæde {seat} ikke er lille "
                    "blind"},
    "en": {"next": "Table {table} is the next to break",
           "move": "{name}: table {from_table}, seat {from_seat} → table {table}, seat {seat}",
           "cancelled": "{name}: stays at table {table}, seat {seat}",
           "moved": "{name} now sits at table {table}, seat {seat}",
           "broken": "Table {table} is broken",
           "confirm": "Confirm when the player sits: pubpoker move confirm NAME",
           "check": "The button at table {table} is unknown: check that seat {seat} is not the "
                    "small blind"},
}


class BadTarget(RulesError, ValueError):
    messages = {
        "nn": "«{value}» er ikkje eit bord: skriv BORD eller BORD:SETE, t.d. 2 eller 2:5",
        "nb": "«{value}» er ikke et bord: skriv BORD eller BORD:SETE, f.eks. 2 eller 2:5",
        "da": "«{value}» er ikke et bord: skriv BORD eller BORD:SÆDE, f.eks. 2 eller 2:5",
        "en": "'{value}' is not a table: write TABLE or TABLE:SEAT, e.g. 2 or 2:5",
    }


class WhoToMove(RulesError, ValueError):
    messages = {
        "nn": "Kven skal flyttast? pubpoker move NAMN --to BORD[:SETE], "
              "eller pubpoker move confirm NAMN",
        "nb": "Hvem skal flyttes? pubpoker move NAVN --to BORD[:SETE], "
              "eller pubpoker move confirm NAVN",
        "da": "Hvem skal flyttes? pubpoker move NAVN --to BORD[:SÆDE], "
              "eller pubpoker move confirm NAVN",
        "en": "Who moves? pubpoker move NAME --to TABLE[:SEAT], or pubpoker move confirm NAME",
    }


def register(sub: Any, lang: str = "nn") -> None:
    from kiosk.cli.help_format import metavar
    from kiosk.cli.help_words import help_text
    from kiosk.cli.store_access import add_data_dir

    def words(key: str, **params: object) -> str:
        return help_text(key, lang, **params)

    player, target = metavar("PLAYER", lang), metavar("TABLE[:SEAT]", lang)
    move = sub.add_parser(
        "move", help=words("move"),
        usage=f"pubpoker move {player} --to {target} [--now]\n"
              f"       pubpoker move confirm {player}",
        description=words("move.description"))
    move.add_argument("words", nargs="+", metavar="PLAYER",
                      help=words("move.player", player=player))
    move.add_argument("--to", metavar="TABLE[:SEAT]", help=words("move.to"))
    move.add_argument("--now", action="store_true", help=words("move.now"))
    add_data_dir(move, lang)
    move.set_defaults(func=_move)

    table = sub.add_parser("table", help=words("table"))
    actions = table.add_subparsers(dest="action", required=True, metavar="ACTION")
    broken = actions.add_parser("break", help=words("table.break"))
    broken.add_argument("number", type=int, metavar="N", help=words("table.number"))
    broken.add_argument("--next", action="store_true", help=words("table.next"))
    add_data_dir(broken, lang)
    broken.set_defaults(func=_break)


def _target(value: str) -> tuple[int, int | None]:
    table, colon, seat = value.strip().partition(":")
    try:
        number = int(table)
        place = int(seat) if colon else None
    except ValueError:
        raise BadTarget(value=value) from None
    if number < 1 or (place is not None and place < 1) or number > 10_000:
        raise BadTarget(value=value)
    return number, place


def _move(args: argparse.Namespace) -> int:
    words: Sequence[str] = args.words
    # A name typed without quotes (move Per Olsen --to 2) is its words joined.
    if args.to is None and len(words) >= 2 and words[0] == "confirm":
        return _confirm(args, " ".join(words[1:]))
    if args.to is None:
        raise WhoToMove()
    table, seat = _target(args.to)

    from kiosk.cli.acting import run, station, tournament_player
    from rules.commands import MovePlayer

    with station(args) as on:
        player = tournament_player(on.state, " ".join(words))
        records = run(on, MovePlayer(player, table, seat, seated=args.now))
        _report(args.lang, on.state, records, before=None)
    return 0


def _confirm(args: argparse.Namespace, name: str) -> int:
    from kiosk.cli.acting import run, station, tournament_player
    from rules.commands import ConfirmMove

    with station(args) as on:
        player = _moving_player(on.state, name) or tournament_player(on.state, name)
        run(on, ConfirmMove(player))
        entry = on.state.players[player]
        assert entry.seat is not None
        print(WORDS[args.lang]["moved"].format(name=entry.name, table=entry.seat.table,
                                               seat=entry.seat.seat))
    return 0


def _moving_player(state: Tournament, typed: str) -> str | None:
    """The one player with a move waiting whom ``typed`` names ("Per" when only Per
    Olsen is moving, though Per Hansen plays too); None if no moving player fits,
    and the whole field is asked (which refuses as it says)."""
    from rules.names import AmbiguousPlayer, pick_by_name

    if typed in state.moves:
        return typed
    return pick_by_name(typed, [(p, state.players[p].name) for p in state.moves],
                        ambiguous=AmbiguousPlayer)


def _break(args: argparse.Namespace) -> int:
    from kiosk.cli.acting import run, station
    from rules.commands import BreakTable, SetBreakOrder
    from rules.refusals import UnknownTable

    with station(args) as on:
        if not args.next:
            records = run(on, BreakTable(args.number))
            _report(args.lang, on.state, records, before=args.number)
            return 0
        if args.number not in on.state.tables:
            raise UnknownTable(table=args.number)
        order = (args.number, *(t for t in on.state.break_order if t != args.number))
        run(on, SetBreakOrder(order))
        print(WORDS[args.lang]["next"].format(table=args.number))
    return 0


def _report(lang: str, state: Tournament, records: Sequence[Record], *,
            before: int | None) -> None:
    """Each move the action made (and each walk it called off), then what to do next."""
    from rules.events import MoveCancelled, MoveConfirmed, MoveProposed

    words = WORDS[lang]
    if before is not None:
        print(words["broken"].format(table=before))
    proposed = {r.event.move.player_id for r in records if isinstance(r.event, MoveProposed)}
    confirmed = {r.event.player_id for r in records if isinstance(r.event, MoveConfirmed)}
    unsure: list[tuple[int, int]] = []
    for record in records:
        event = record.event
        if isinstance(event, MoveProposed):
            move = event.move
            print(words["move"].format(
                name=state.players[move.player_id].name, from_table=move.source.table,
                from_seat=move.source.seat, table=move.target.table, seat=move.target.seat))
            if not move.position_known:
                unsure.append((move.target.table, move.target.seat))
        elif isinstance(event, MoveCancelled) and event.player_id not in proposed:
            entry = state.players[event.player_id]
            if entry.seat is not None:
                print(words["cancelled"].format(name=entry.name, table=entry.seat.table,
                                                seat=entry.seat.seat))
    for table, seat in unsure:
        print(words["check"].format(table=table, seat=seat))
    if proposed - confirmed:
        print(words["confirm"])
