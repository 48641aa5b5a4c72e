"""The TD's commands for a terminal (SSH or a laptop): the same events as the buttons.

``pubpoker tournament new|list|show|close|reopen|switch`` (N3: kiosk/tonight_switch.py),
``pubpoker checkin``,
``pubpoker seat draw``, ``pubpoker clock ...``, ``pubpoker hand-for-hand on|off``,
``pubpoker bust`` (``move``, ``table break``: table_cmd.py; ``undo``: undo_cmd.py).
Each opens this device's store, acts through the
:class:`~kiosk.station.Station` command path and exits; a running kiosk on
the same device folds the new events in on its next tick.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import random
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from kiosk.cli import report
from kiosk.cli.acting import CardWords, NameWords
from kiosk.cli.bounds import CLOCK_ADJUST_MAX, check_number
from kiosk.cli.help_words import help_text
from kiosk.cli.store_access import add_data_dir, open_cli_store, store_path
from kiosk.station import Station
from kiosk.store import CardMatch, RefusedCard, Store
from kiosk.store.errors import PAYMENT_CARD
from kiosk.store.snapshot import CLI_SNAPSHOT_AFTER
from kiosk.timebase import SharedClock
from rules.errors import RulesError

if TYPE_CHECKING:
    from rules.commands import Command
from rules.house import PROFILES
from rules.i18n import DEFAULT_LANGUAGE, Counted, count, format_place
from rules.names import AmbiguousName
from rules.structure import PRESETS

WORDS: Mapping[str, Mapping[str, str]] = {
    "nn": {"new-player": "Ny spelar lagd til: {name}",
           "known-player": "{name} er alt ein kjend spelar; ingen ny spelar er lagd til",
           "created": "Oppretta: {name}", "none": "Inga turnering er i gang",
           "won": "{name} har vunne turneringa",
           "added": "La til {added} av {asked}: {period} har no heile lengda si ({length})",
           "taken": "Tok {taken} av {asked}: det var resten av {period}",
           "level_n": "nivå {n}", "the_break": "pausen",
           "seated": "{name} → bord {table}, sete {seat}", "in": "{name} er sjekka inn",
           "waits": ("Alle plassane er tekne: {name} står på ventelista. "
                     "Venteliste: du er nr. {place}"),
           "admitted": "{name} frå ventelista → bord {table}, sete {seat}",
           "unwaitlisted": "{name} er teken av ventelista",
           "drawn": "Bordplasseringa er trekt: {tables}", "out": "{name}: {place}",
           "out_tied": "{name}: {place} (delt)",
           "moved": "{name} sit no ved bord {table}, sete {seat}", "done": "OK",
           "closed": "Turneringa er avslutta. Resultat: {files}",
           "reopened": ("Turneringa er opna att og kan endrast; eksportfilene er fjerna "
                        "til ho vert avslutta att med «pubpoker tournament close»")},
    "nb": {"new-player": "Ny spiller lagt til: {name}",
           "known-player": "{name} er allerede en kjent spiller; ingen ny spiller er lagt til",
           "created": "Opprettet: {name}", "none": "Ingen turnering er i gang",
           "won": "{name} har vunnet turneringen",
           "added": "La til {added} av {asked}: {period} har nå hele lengden sin ({length})",
           "taken": "Tok {taken} av {asked}: det var resten av {period}",
           "level_n": "nivå {n}", "the_break": "pausen",
           "seated": "{name} → bord {table}, sete {seat}", "in": "{name} er sjekket inn",
           "waits": ("Alle plassene er tatt: {name} står på ventelisten. "
                     "Venteliste: du er nr. {place}"),
           "admitted": "{name} fra ventelisten → bord {table}, sete {seat}",
           "unwaitlisted": "{name} er tatt av ventelisten",
           "drawn": "Bordplasseringen er trukket: {tables}", "out": "{name}: {place}",
           "out_tied": "{name}: {place} (delt)",
           "moved": "{name} sitter nå ved bord {table}, sete {seat}", "done": "OK",
           "closed": "Turneringen er avsluttet. Resultater: {files}",
           "reopened": ("Turneringen er åpnet igjen og kan endres; eksportfilene er fjernet "
                        "til den avsluttes igjen med «pubpoker tournament close»")},
    "da": {"new-player": "Ny spiller tilføjet: {name}",
           "known-player": "{name} er allerede en kendt spiller; ingen ny spiller er tilføjet",
           "created": "Oprettet: {name}", "none": "Ingen turnering er i gang",
           "won": "{name} har vundet turneringen",
           "added": "Lagde {added} af {asked} til: {period} har nu hele sin længde ({length})",
           "taken": "Tog {taken} af {asked}: det var resten af {period}",
           "level_n": "niveau {n}", "the_break": "pausen",
           "seated": "{name} → bord {table}, sæde {seat}", "in": "{name} er tjekket ind",
           "waits": ("Alle pladser er optaget: {name} står på ventelisten. "
                     "Venteliste: du er nr. {place}"),
           "admitted": "{name} fra ventelisten → bord {table}, sæde {seat}",
           "unwaitlisted": "{name} er taget af ventelisten",
           "drawn": "Bordplaceringen er trukket: {tables}", "out": "{name}: {place}",
           "out_tied": "{name}: {place} (delt)",
           "moved": "{name} sidder nu ved bord {table}, sæde {seat}", "done": "OK",
           "closed": "Turneringen er afsluttet. Resultater: {files}",
           "reopened": ("Turneringen er åbnet igen og kan ændres; eksportfilerne er fjernet, "
                        "til den afsluttes igen med «pubpoker tournament close»")},
    "en": {"new-player": "New player added: {name}",
           "known-player": "{name} is already a known player; no new player was added",
           "created": "Created: {name}", "none": "No tournament is running",
           "won": "{name} has won the tournament",
           "added": "Added {added} of {asked}: {period} is back at its full length ({length})",
           "taken": "Took {taken} of {asked}: that was the rest of {period}",
           "level_n": "level {n}", "the_break": "the break",
           "seated": "{name} → table {table}, seat {seat}", "in": "{name} is checked in",
           "waits": ("Every place is taken: {name} is on the waiting list. "
                     "Waiting list: you are number {place}"),
           "admitted": "{name} from the waiting list → table {table}, seat {seat}",
           "unwaitlisted": "{name} is off the waiting list",
           "drawn": "Seats drawn: {tables}", "out": "{name}: {place}",
           "out_tied": "{name}: {place} (tied)",
           "moved": "{name} now sits at table {table}, seat {seat}", "done": "OK",
           "closed": "The tournament is closed. Results: {files}",
           "reopened": ("The tournament is open again and can be changed; the export files "
                        "are removed until it is closed again with 'pubpoker tournament close'")},
}


class NoTournamentRunning(RulesError, LookupError):
    messages = {k: v["none"] for k, v in WORDS.items()}


class CardNotKnown(RulesError, LookupError):
    messages = {
        "nn": "Ukjend kort {uid}: kople det til med «pubpoker players link-card NAMN {uid}»",
        "nb": "Ukjent kort {uid}: koble det til med «pubpoker players link-card NAVN {uid}»",
        "da": "Ukendt kort {uid}: tilknyt det med «pubpoker players link-card NAVN {uid}»",
        "en": "Unknown card {uid}: link it with 'pubpoker players link-card NAME {uid}'",
    }


class PaymentCard(RulesError, ValueError):
    # The same sentence as a link-card's refusal: one card, one answer.
    messages = PAYMENT_CARD


class NotFinished(RulesError, ValueError):
    messages = {
        "nn": "Turneringa er ikkje ferdig ({left} att); bruk --force for å avslutte",
        "nb": "Turneringen er ikke ferdig ({left} igjen); bruk --force for å avslutte",
        "da": "Turneringen er ikke slut ({left} tilbage); brug --force for at afslutte",
        "en": "The tournament is not over ({left} left); use --force to close it",
    }


class ReopenNeedsYes(RulesError, ValueError):
    messages = {
        "nn": ("Legg til --yes for å opne den avslutta turneringa att: då kan resultata "
               "endrast og angrast til ho vert avslutta på nytt"),
        "nb": ("Legg til --yes for å åpne den avsluttede turneringen igjen: da kan resultatene "
               "endres og angres til den avsluttes på nytt"),
        "da": ("Tilføj --yes for at åbne den afsluttede turnering igen: så kan resultaterne "
               "ændres og fortrydes, til den afsluttes på ny"),
        "en": ("Add --yes to reopen the closed tournament: its results can then be changed "
               "and undone until it is closed again"),
    }


class LevelAtFullLength(RulesError, ValueError):
    messages = {
        "nn": ("Nivå {level} har heile lengda si att ({length}): «pubpoker clock add» gjev berre "
               "attende tid som har gått; ingenting er lagt til"),
        "nb": ("Nivå {level} har hele lengden sin igjen ({length}): «pubpoker clock add» gir bare "
               "tilbake tid som har gått; ingenting er lagt til"),
        "da": ("Niveau {level} har hele sin længde tilbage ({length}): «pubpoker clock add» "
               "giver kun tid tilbage, der er gået; intet er lagt til"),
        "en": ("Level {level} is at its full length ({length}): 'pubpoker clock add' only "
               "gives back time that has run; nothing was added"),
    }


class BreakAtFullLength(RulesError, ValueError):
    messages = {
        "nn": ("Pausen har heile lengda si att ({length}): «pubpoker clock add» gjev berre "
               "attende tid som har gått; ingenting er lagt til"),
        "nb": ("Pausen har hele lengden sin igjen ({length}): «pubpoker clock add» gir bare "
               "tilbake tid som har gått; ingenting er lagt til"),
        "da": ("Pausen har hele sin længde tilbage ({length}): «pubpoker clock add» "
               "giver kun tid tilbage, der er gået; intet er lagt til"),
        "en": ("The break is at its full length ({length}): 'pubpoker clock add' only "
               "gives back time that has run; nothing was added"),
    }


#: ``bust --stacks``: a starting stack a pub could have (F5 starts at 10 000).
STACK_MAX = 100_000_000


class StacksNeedSameHand(RulesError, ValueError):
    messages = {
        "nn": "--stacks høyrer til --same-hand: fleire spelarar ute i same hand",
        "nb": "--stacks hører til --same-hand: flere spillere ute i samme hånd",
        "da": "--stacks hører til --same-hand: flere spillere ude i samme hånd",
        "en": "--stacks goes with --same-hand: several players out in one hand",
    }


class StacksDoNotMatch(RulesError, ValueError):
    messages = {
        "nn": ("{names} men {stacks}: gje ein stack (sjetongane før handa) per "
               "spelar, i same rekkjefølgje som namna; ingen er slått ut"),
        "nb": ("{names} men {stacks}: oppgi én stack (sjetongene før hånden) per "
               "spiller, i samme rekkefølge som navnene; ingen er slått ut"),
        "da": ("{names} men {stacks}: giv én stack (jetonerne før hånden) per "
               "spiller, i samme rækkefølge som navnene; ingen er slået ud"),
        "en": ("{names} but {stacks}: give one stack (the chips before the hand) "
               "per player, in the order of the names; no one is out"),
    }


class SameHandNamesQuoted(RulesError, LookupError):
    messages = {
        "nn": ("Ingen spelar heiter «{name}»; med --same-hand er kvart ord ein spelar, så skriv "
               "namn med mellomrom i hermeteikn: «pubpoker bust \"Ola Nordmann\" Kari "
               "--same-hand»; ingen er slått ut"),
        "nb": ("Ingen spiller heter «{name}»; med --same-hand er hvert ord en spiller, så skriv "
               "navn med mellomrom i anførselstegn: «pubpoker bust \"Ola Nordmann\" Kari "
               "--same-hand»; ingen er slått ut"),
        "da": ("Ingen spiller hedder »{name}«; med --same-hand er hvert ord en spiller, så skriv "
               "navne med mellemrum i anførselstegn: «pubpoker bust \"Ola Nordmann\" Kari "
               "--same-hand»; ingen er slået ud"),
        "en": ("No player is called '{name}'; with --same-hand each word is a player, so put "
               "names with spaces in quotes: 'pubpoker bust \"Ola Nordmann\" Kari "
               "--same-hand'; no one is out"),
    }


class NameOrCardNeeded(RulesError, ValueError):
    messages = {
        "nn": "Skriv namnet til spelaren eller --card UID",
        "nb": "Skriv navnet til spilleren eller --card UID",
        "da": "Skriv spillerens navn eller --card UID",
        "en": "Give the player's name or --card UID",
    }


class SeveralNames(RulesError, ValueError):
    messages = {
        "nn": ("Ingen spelar heiter «{name}», men «{word}» er eit kjent namn: sjekk inn "
               "éin spelar om gongen, eller legg til ein ny spelar med namnet i hermeteikn: "
               "«pubpoker checkin --new \"{name}\"»"),
        "nb": ("Ingen spiller heter «{name}», men «{word}» er et kjent navn: sjekk inn "
               "én spiller om gangen, eller legg til en ny spiller med navnet i anførselstegn: "
               "«pubpoker checkin --new \"{name}\"»"),
        "da": ("Ingen spiller hedder »{name}«, men »{word}« er et kendt navn: tjek én "
               "spiller ind ad gangen, eller tilføj en ny spiller med navnet i anførselstegn: "
               "«pubpoker checkin --new \"{name}\"»"),
        "en": ("No player is called '{name}', but '{word}' is a known name: check in one "
               "player at a time, or add a new player with the name in quotes: "
               "'pubpoker checkin --new \"{name}\"'"),
    }


class NotAKnownPlayer(RulesError, LookupError):
    """N2: a name nobody has is not made a player without ``--new``."""

    messages = {
        "nn": ("«{name}» er ikkje ein kjend spelar. Er det ein ny spelar: "
               "«pubpoker checkin --new \"{name}\"»"),
        "nb": ("«{name}» er ikke en kjent spiller. Er det en ny spiller: "
               "«pubpoker checkin --new \"{name}\"»"),
        "da": ("«{name}» er ikke en kendt spiller. Er det en ny spiller: "
               "«pubpoker checkin --new \"{name}\"»"),
        "en": ("'{name}' is not a known player. If it is a new player: "
               "'pubpoker checkin --new \"{name}\"'"),
    }


class DidYouMean(AmbiguousName):
    """N2: a name near a known one ("Per Hanssen") asks before a second record is made."""

    messages = {
        "nn": ("«{name}» er ikkje ein kjend spelar. Meinte du {names}? Er det ein ny "
               "spelar: «pubpoker checkin --new \"{name}\"»"),
        "nb": ("«{name}» er ikke en kjent spiller. Mente du {names}? Er det en ny "
               "spiller: «pubpoker checkin --new \"{name}\"»"),
        "da": ("«{name}» er ikke en kendt spiller. Mente du {names}? Er det en ny "
               "spiller: «pubpoker checkin --new \"{name}\"»"),
        "en": ("'{name}' is not a known player. Did you mean {names}? If it is a new "
               "player: 'pubpoker checkin --new \"{name}\"'"),
    }


@contextmanager
def _station(args: argparse.Namespace, *, to_read: bool = False) -> Iterator[Station]:
    """The night's station; ``to_read`` for a command that only reads, which
    works on a full disk too (the store opened as it is, no snapshot saved)."""
    store = open_cli_store(args, to_read=to_read)
    station = Station(store, SharedClock(), rng=random.Random())
    try:
        station.join_local_time()
        yield station
    finally:
        if store.refusal is not None:
            store.close()
        else:
            station.close(snapshot_after=CLI_SNAPSHOT_AFTER)


def _say(args: argparse.Namespace, key: str, **params: object) -> None:
    print(WORDS[args.lang][key].format(**params))


def _run(station: Station, command: Command) -> None:
    if station.tournament_id is None:
        raise NoTournamentRunning()
    outcome = station.submit(command)
    if outcome.refusal is not None:
        raise outcome.refusal


def _player(station: Station, name: str) -> str:
    from kiosk.cli.acting import tournament_player

    return tournament_player(station.state, name)


# --- tournament ---------------------------------------------------------------------------

def _new(args: argparse.Namespace) -> int:
    from kiosk.config import SEATS_RANGE, TABLE_RANGE, TournamentConfig, check_name_pattern
    from kiosk.tonight import tonight

    base = TournamentConfig()
    # Checked as the config checks them, before the store is opened.
    name = check_name_pattern(args.name, key="--name") if args.name else base.name
    seats = base.seats_per_table if args.seats is None else int(
        check_number("--seats", args.seats, *SEATS_RANGE))
    tables = base.tables if args.tables is None else int(
        check_number("--tables", args.tables, *TABLE_RANGE))
    config = TournamentConfig(
        preset=args.preset or base.preset, house=args.house or base.house,
        name=name, seats_per_table=seats, tables=tables)
    capacity = None if args.capacity is None else int(
        check_number("--capacity", args.capacity, 2, tables * seats))
    from kiosk.tonight_switch import left_behind, refuse_replacing

    with _station(args) as station:
        # N3: a running night is not replaced by one slip; asked twice (--yes).
        replaced = refuse_replacing(station, args.yes)
        created = tonight(config, dt.date.today(), args.lang)
        if capacity is not None:
            created = dataclasses.replace(created, capacity=capacity)
        outcome = station.create(created)
        if outcome.refusal is not None:
            raise outcome.refusal
        _say(args, "created", name=station.state.config.name if station.state.config else "")
        if replaced is not None:
            print(left_behind(*replaced, station.now(), args.lang))
    return 0


def _switch(args: argparse.Namespace) -> int:
    from kiosk.cli.acting import station as opened
    from kiosk.tonight_switch import WORDS, choose, describe, find_night

    with opened(args) as station:
        choose(station, find_night(station.store, args.tournament))
        what = describe(station.state, station.now(), args.lang)
    print((WORDS.get(args.lang) or WORDS["en"])["switched"].format(what=what))
    return 0


def _list(args: argparse.Namespace) -> int:
    from kiosk.cli import show_words
    from kiosk.tonight import Tonight

    store = open_cli_store(args, to_read=True)
    try:
        current = store.current_tournament()
        with Tonight(store) as picker:
            tonight_ = picker.pick()
        rows = store.tournaments()
        # The stored status is only refreshed when results are recorded (a
        # running night still says "created"), so an open night's is folded.
        statuses = {r.id: r.status if r.status == "closed" else
                    store.fold(r.id).state.phase.value for r in rows}
        doc = report.list_document(rows, statuses, current, tonight_)
    finally:
        store.close()
    if getattr(args, "json", False):
        report.print_json(doc)
    else:
        print("\n".join(show_words.list_lines(doc, args.lang)))
    return 0


def _show(args: argparse.Namespace) -> int:
    from kiosk.cli import show_words

    with _station(args, to_read=True) as station:
        state = station.state
        if state.config is None or station.tournament_id is None:
            raise NoTournamentRunning()
        row = next((r for r in station.store.tournaments()
                    if r.id == station.tournament_id), None)
        doc = report.tournament_document(state, row, station.now())
    if getattr(args, "json", False):
        report.print_json(doc)
    else:
        print("\n".join(show_words.show_lines(doc, args.lang)))
    return 0


def _close(args: argparse.Namespace) -> int:
    with _station(args) as station:
        state = station.state
        tid = station.tournament_id
        if tid is None or state.config is None:
            raise NoTournamentRunning()
        # N1: the close is an event, so every device refuses changes after it;
        # closing a closed night again only writes its files again.
        if not state.closed:
            if not state.finished and not args.force:
                raise NotFinished(left=Counted(state.remaining, "player"))
            from rules.commands import CloseTournament

            _run(station, CloseTournament())
        store: Store = station.store
        files = store.close_tournament(tid, station.state, store_path(args).parent / "exports")
        _say(args, "closed", files=", ".join(str(f) for f in files))
    return 0


def _reopen(args: argparse.Namespace) -> int:
    # Asked twice (N1): the command, then --yes.
    if not args.yes:
        raise ReopenNeedsYes()
    with _station(args) as station:
        from rules.commands import ReopenTournament

        _run(station, ReopenTournament())
        tid = station.tournament_id
        assert tid is not None  # _run refuses without one
        station.store.reopen_tournament(tid, station.state, store_path(args).parent / "exports")
        _say(args, "reopened")
    return 0


# --- the night ------------------------------------------------------------------------------

def _checkin(args: argparse.Namespace) -> int:
    with _station(args) as station:
        players = station.store.players
        said: str | None = None
        if args.card:
            found = players.lookup_card(args.card)
            if isinstance(found, RefusedCard):
                raise PaymentCard()
            if not isinstance(found, CardMatch):
                raise CardNotKnown(uid=args.card.strip())
            player = found.player
        elif args.name:
            player, said = _known_or_new(args, players)
        else:
            raise NameOrCardNeeded()
        from rules.commands import CheckIn

        _run(station, CheckIn(player.id, player.name, player.cards))
        if said is not None:
            _say(args, said, name=player.name)
        from rules.waitlist import place

        waiting = place(station.state, player.id)
        seat = station.state.players[player.id].seat
        if waiting is not None:
            _say(args, "waits", name=player.name, place=waiting)
        elif seat is None:
            _say(args, "in", name=player.name)
        else:
            _say(args, "seated", name=player.name, table=seat.table, seat=seat.seat)
    return 0


def _known_or_new(args: argparse.Namespace, players: Any) -> tuple[Any, str | None]:
    """The player a typed name is (N2), and what to say of them once checked in:
    the same name in any case, spacing or accents, or an id. A new player only
    with ``--new``; otherwise a name near a known one asks "Did you mean …?"
    and any other is refused."""
    typed = " ".join(str(args.name).split())
    match = players.checkin_match(typed)
    if match.exact is not None:
        # --new with a known name: a second record of one person is what N2
        # forbids, so it is that player, and the answer says no one was added.
        return players.get(match.exact), "known-player" if args.new else None
    if args.new:
        return players.add(typed), "new-player"
    if getattr(args, "name_words", 1) > 1:
        _refuse_several(players, typed)
    if match.near:
        raise DidYouMean(name=typed, names=tuple(name for _, name in match.near))
    raise NotAKnownPlayer(name=typed)


def _refuse_several(players: Any, typed: str) -> None:
    """Words typed without quotes make one new player's name, unless a word is
    itself a known player's name: then the TD may have meant several players."""
    for word in typed.split():
        if players.checkin_match(word).exact is not None:
            raise SeveralNames(name=typed, word=word)


def _waitlist_remove(args: argparse.Namespace) -> int:
    with _station(args) as station:
        from rules.commands import RemoveFromWaitingList

        state = station.state
        # Looked for among the waiting first: "Kari" is the Kari who waits.
        pid = _waiting_player(state, args.name) or _player(station, args.name)
        _run(station, RemoveFromWaitingList(pid))
        _say(args, "unwaitlisted", name=station.state.players[pid].name)
    return 0


def _waiting_player(state: Any, typed: str) -> str | None:
    from kiosk.cli.acting import tournament_player
    from rules.errors import RulesError

    waiting = dataclasses.replace(state, players={p: state.players[p] for p in state.waiting})
    try:
        return tournament_player(waiting, typed)
    except RulesError:
        return None


def _seat_draw(args: argparse.Namespace) -> int:
    with _station(args) as station:
        from rules.commands import DrawSeats

        _run(station, DrawSeats())
        _say(args, "drawn", tables=count(len(station.state.tables), "table", args.lang))
    return 0


def _clock_command(action: str, seconds: float) -> Command:
    # Imported here: the rules' commands are a fifth of tournament show's start-up.
    from rules import commands

    if action == "add":
        return commands.AdjustTime(seconds)
    made: Mapping[str, Command] = {
        "start": commands.StartClock(), "pause": commands.PauseClock(),
        "resume": commands.ResumeClock(), "next": commands.NextLevel(),
        "prev": commands.PreviousLevel(),
    }
    return made[action]


def _clock(args: argparse.Namespace) -> int:
    if args.action == "add":
        check_number("clock add", args.seconds, -CLOCK_ADJUST_MAX, CLOCK_ADJUST_MAX)
    with _station(args) as station:
        seconds = getattr(args, "seconds", 0.0)
        said = _clock_add_limit(station, seconds, args.lang) if args.action == "add" else None
        _run(station, _clock_command(args.action, seconds))
        from kiosk.cli import show_words

        clock = report.clock_document(station.state, station.now())
    if said:
        print(said)
    print(show_words.clock_line(clock, args.lang))
    return 0


#: Less than this is "nothing" to add or take (the clock runs on between reading and acting).
_NOTHING = 0.5


def _clock_add_limit(station: Station, seconds: float, lang: str) -> str | None:
    """What ``clock add`` cannot do: the rules keep the change inside the current
    period (:func:`rules.clock.adjust`), so adding never makes a level longer than
    its length and taking never ends more than it. Nothing to add is refused;
    a change cut short is done and said (issue 44)."""
    from rules import clock as clocks
    from rules.i18n import format_time

    state = station.state
    if state.config is None or not state.clock.started or state.closed or state.finished:
        return None  # the rules refuse it, in their words (a closed night's is N1's)
    reading = clocks.read(state.config.structure, state.clock, station.now())
    number = reading.level_number
    w = WORDS[lang]
    period = w["the_break"] if number is None else w["level_n"].format(n=number)
    if seconds > 0:
        added = min(seconds, reading.elapsed_in_period)
        length = format_time(round(reading.elapsed_in_period + (reading.remaining or 0.0)))
        if added < _NOTHING:
            if number is None:
                raise BreakAtFullLength(length=length)
            raise LevelAtFullLength(level=number, length=length)
        if seconds - added >= _NOTHING:
            return w["added"].format(added=format_time(round(added)), asked=format_time(seconds),
                                     period=period, length=length)
    elif seconds < 0 and reading.remaining is not None and -seconds - reading.remaining >= _NOTHING:
        return w["taken"].format(taken=format_time(round(reading.remaining)),
                                 asked=format_time(-seconds), period=period)
    return None


def _hand_for_hand(args: argparse.Namespace) -> int:
    with _station(args) as station:
        from rules.commands import SetHandForHand

        _run(station, SetHandForHand(args.state == "on"))
        from kiosk.cli.show_words import words

        w = words(args.lang)
        # What is now so, in the words tournament show uses ("Hand for hand: på").
        print(f"{w['hfh']}: {w['on'] if station.state.hand_for_hand else w['off']}")
    return 0


def _bust(args: argparse.Namespace) -> int:
    stacks: list[int] | None = args.stacks
    if stacks is not None and not args.same_hand:
        raise StacksNeedSameHand()
    with _station(args) as station:
        if args.same_hand:
            # F3: each word is one player here (quote a name of several words).
            typed: list[str] = list(args.name_each)
            players = [_same_hand_player(station, name, typed) for name in typed]
            if stacks is not None and len(stacks) != len(players):
                raise StacksDoNotMatch(names=Counted(len(players), "player"),
                                       stacks=Counted(len(stacks), "stack"))
            for stack in stacks or ():
                check_number("--stacks", stack, 1, STACK_MAX)
        else:
            players = [_player(station, args.name)]
        from rules.commands import BustPlayers

        start = dict(zip(players, stacks, strict=True)) if stacks is not None else None
        waiting = list(station.state.waiting)
        _run(station, BustPlayers(tuple(players), start_stacks=start))
        state = station.state
        # Best placed first, as the results list them (F3: a tie shares its place).
        out = sorted((state.players[p] for p in players), key=lambda e: e.place or 0)
        places = [e.place for e in out]
        for entry in out:
            place = format_place(entry.place or 0, args.lang)
            tied = len(out) > 1 and places.count(entry.place) > 1
            _say(args, "out_tied" if tied else "out", name=entry.name, place=place)
        # F2: the freed seats went to the first on the waiting list.
        for pid in (p for p in waiting if p not in state.waiting):
            admitted = state.players[pid]
            if admitted.seat is not None:
                _say(args, "admitted", name=admitted.name, table=admitted.seat.table,
                     seat=admitted.seat.seat)
        if state.finished:
            # The last bust ends the night: its answer names the winner too.
            for winner in (e for e in state.results() if e.place == 1):
                _say(args, "won", name=winner.name)
    return 0


def _same_hand_player(station: Station, name: str, typed: list[str]) -> str:
    """A player of ``bust --same-hand``, where each word is one: an unknown word
    that belongs to a name typed without quotes says to quote it."""
    from rules.refusals import UnknownPlayer

    try:
        return _player(station, name)
    except UnknownPlayer:
        if len(typed) > 1:
            raise SameHandNamesQuoted(name=name) from None
        raise


def register(sub: Any, lang: str = DEFAULT_LANGUAGE) -> None:
    def words(key: str) -> str:
        return help_text(key, lang)

    tournament = sub.add_parser("tournament", help=words("tournament"))
    actions = tournament.add_subparsers(dest="action", required=True, metavar="ACTION")
    new = actions.add_parser("new", help=words("tournament.new"))
    new.add_argument("--name", help=words("tournament.name"))
    new.add_argument("--preset", choices=sorted(PRESETS), help=words("tournament.preset"))
    new.add_argument("--house", choices=sorted(PROFILES), help=words("tournament.house"))
    new.add_argument("--seats", type=int, help=words("tournament.seats"))
    new.add_argument("--tables", type=int, help=words("tournament.tables"))
    new.add_argument("--capacity", type=int, help=words("tournament.capacity"))
    new.add_argument("--yes", action="store_true", help=words("tournament.new.yes"))
    new.set_defaults(func=_new)
    listing = actions.add_parser("list", help=words("tournament.list"))
    listing.set_defaults(func=_list)
    report.add_json_option(listing, lang)
    show = actions.add_parser("show", help=words("tournament.show"))
    show.set_defaults(func=_show)
    report.add_json_option(show, lang)
    close = actions.add_parser("close", help=words("tournament.close"))
    close.add_argument("--force", action="store_true", help=words("tournament.force"))
    close.set_defaults(func=_close)
    reopen = actions.add_parser("reopen", help=words("tournament.reopen"))
    reopen.add_argument("--yes", action="store_true", help=words("tournament.yes"))
    reopen.set_defaults(func=_reopen)
    switch = actions.add_parser("switch", help=words("tournament.switch"))
    switch.add_argument("tournament", metavar="TOURNAMENT", help=words("tournament-id"))
    switch.set_defaults(func=_switch)
    for parser in (new, listing, show, close, reopen, switch):
        add_data_dir(parser, lang)

    checkin = sub.add_parser("checkin", help=words("checkin"))
    checkin.add_argument("name", nargs="*", action=NameWords, default=None,
                         help=words("checkin.name"))
    checkin.add_argument("--card", nargs="+", action=CardWords, help=words("checkin.card"))
    checkin.add_argument("--new", action="store_true", help=words("checkin.new"))
    checkin.set_defaults(func=_checkin)
    waitlist = sub.add_parser("waitlist", help=words("waitlist"))
    waitlist_actions = waitlist.add_subparsers(dest="action", required=True, metavar="ACTION")
    remove = waitlist_actions.add_parser("remove", help=words("waitlist.remove"))
    remove.add_argument("name", nargs="+", action=NameWords, help=words("waitlist.name"))
    remove.set_defaults(func=_waitlist_remove)
    seat = sub.add_parser("seat", help=words("seat"))
    seat_actions = seat.add_subparsers(dest="action", required=True, metavar="ACTION")
    draw = seat_actions.add_parser("draw", help=words("seat.draw"))
    draw.set_defaults(func=_seat_draw)
    clock = sub.add_parser("clock", help=words("clock"))
    clock_actions = clock.add_subparsers(dest="action", required=True, metavar="ACTION")
    clock_parsers = []
    for name in ("start", "pause", "resume", "next", "prev"):
        p = clock_actions.add_parser(name, help=words(f"clock.{name}"))
        p.set_defaults(func=_clock)
        clock_parsers.append(p)
    add = clock_actions.add_parser("add", help=words("clock.add"))
    add.add_argument("seconds", type=float, help=words("clock.seconds"))
    add.set_defaults(func=_clock)
    hfh = sub.add_parser("hand-for-hand", help=words("hand-for-hand"))
    hfh.add_argument("state", choices=("on", "off"), help=words("hand-for-hand.state"))
    hfh.set_defaults(func=_hand_for_hand)
    bust = sub.add_parser("bust", help=words("bust"))
    bust.add_argument("name", nargs="+", action=NameWords, help=words("bust.name"))
    bust.add_argument("--same-hand", action="store_true", help=words("bust.same-hand"))
    bust.add_argument("--stacks", nargs="+", type=int, metavar="STACKS",
                      help=words("bust.stacks"))
    bust.set_defaults(func=_bust)
    # ``move`` and ``table break`` are table_cmd.py's, ``undo`` undo_cmd.py's.
    for parser in (checkin, remove, draw, *clock_parsers, add, hfh, bust):
        add_data_dir(parser, lang)
