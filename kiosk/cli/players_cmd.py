"""``pubpoker players``: the venue's players and their cards.

``add NAME [--card UID]``, ``list``, ``import players.csv``, ``link-card NAME
UID`` and ``rename NAME NEW_NAME``. A payment card is refused and never stored;
a CSV import keeps every good line and reports each bad one by its line number.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import Any, Final

from kiosk.cli import report
from kiosk.cli.acting import CardWords
from kiosk.cli.bounds import read_at_most
from kiosk.cli.help_words import help_text
from kiosk.cli.store_access import add_data_dir, open_cli_store
from kiosk.store.errors import UnreadableFile
from rules.errors import RulesError
from rules.i18n import DEFAULT_LANGUAGE, OsReason, count
from rules.names import AmbiguousName

__all__ = ["register"]

_TEXT: Final[dict[str, dict[str, str]]] = {
    "nn": {"removed": "Fjerna {name}", "unlinked-1": "Kortet kopla frå: {uids}",
           "unlinked-n": "Korta kopla frå: {uids}",
           "renamed": "{old} heiter no {name}",
           "added": "La til {name}", "linked": "Kortet {uid} høyrer no til {name}",
           "none": "Ingen spelarar enno", "name": "Namn", "cards": "Kort",
           "created": "Oppretta",
           "merged": "{name} er slått saman med {keep}: {nights} og {cards} høyrer no til {keep}",
           "no-similar": "Ingen namn er like nok til å vere same spelar to gonger",
           "similar": "Kanskje same spelar: {a} – {b}",
           "imported": "Importerte: {added}, {linked} fekk kort, {unchanged}, {errors}",
           "not-utf8": "ho er ikkje tekst i UTF-8; lagra ho som «CSV UTF-8» i reknearket",
           "field-too-long": "eitt felt er over 128 KiB; er det verkeleg ei CSV-fil med namn og "
           "kort?"},
    "nb": {"removed": "Fjernet {name}", "unlinked-1": "Kortet koblet fra: {uids}",
           "unlinked-n": "Kortene koblet fra: {uids}",
           "renamed": "{old} heter nå {name}",
           "added": "La til {name}", "linked": "Kortet {uid} tilhører nå {name}",
           "none": "Ingen spillere ennå", "name": "Navn", "cards": "Kort",
           "created": "Opprettet",
           "merged": "{name} er slått sammen med {keep}: {nights} og {cards} hører nå til {keep}",
           "no-similar": "Ingen navn er like nok til å være samme spiller to ganger",
           "similar": "Kanskje samme spiller: {a} – {b}",
           "imported": "Importerte: {added}, {linked} fikk kort, {unchanged}, {errors}",
           "not-utf8": "den er ikke tekst i UTF-8; lagre den som «CSV UTF-8» i regnearket",
           "field-too-long": "ett felt er over 128 KiB; er det virkelig en CSV-fil med navn og "
           "kort?"},
    "da": {"removed": "Fjernede {name}", "unlinked-1": "Kortet frakoblet: {uids}",
           "unlinked-n": "Kortene frakoblet: {uids}",
           "renamed": "{old} hedder nu {name}",
           "added": "Tilføjede {name}", "linked": "Kortet {uid} tilhører nu {name}",
           "none": "Ingen spillere endnu", "name": "Navn", "cards": "Kort",
           "created": "Oprettet",
           "merged": "{name} er lagt sammen med {keep}: {nights} og {cards} hører nu til {keep}",
           "no-similar": "Ingen navne ligner nok til at være samme spiller to gange",
           "similar": "Måske samme spiller: {a} – {b}",
           "imported": "Importerede: {added}, {linked} fik kort, {unchanged}, {errors}",
           "not-utf8": "den er ikke tekst i UTF-8; gem den som «CSV UTF-8» i regnearket",
           "field-too-long": "et felt er over 128 KiB; er det virkelig en CSV-fil med navne og "
           "kort?"},
    "en": {"removed": "Removed {name}", "unlinked-1": "Card unlinked: {uids}",
           "unlinked-n": "Cards unlinked: {uids}",
           "renamed": "{old} is now {name}",
           "added": "Added {name}", "linked": "Card {uid} now belongs to {name}",
           "none": "No players yet", "name": "Name", "cards": "Cards",
           "created": "Created",
           "merged": "{name} is merged into {keep}: {nights} and {cards} now belong to {keep}",
           "no-similar": "No names are alike enough to be one player twice",
           "similar": "Maybe one player: {a} – {b}",
           "imported": "Imported: {added}, {linked} given a card, {unchanged}, {errors}",
           "not-utf8": "it is not UTF-8 text; save it as \"CSV UTF-8\" in the spreadsheet",
           "field-too-long": "a field is over 128 KiB; is it really a CSV file of names and "
           "cards?"},
}


def _text(args: argparse.Namespace) -> dict[str, str]:
    return _TEXT.get(args.lang, _TEXT[DEFAULT_LANGUAGE])


def register(sub: Any, lang: str = DEFAULT_LANGUAGE) -> None:
    def words(key: str) -> str:
        return help_text(key, lang)

    parser = sub.add_parser("players", help=words("players"),
                            description=words("players.description"))
    cmds = parser.add_subparsers(dest="players_command", required=True, metavar="COMMAND")

    add = cmds.add_parser("add", help=words("players.add"))
    add.add_argument("name", metavar="NAME", help=words("player-name"))
    add.add_argument("--card", metavar="UID", nargs="+", action=CardWords,
                     help=words("players.card"))
    add_data_dir(add, lang)
    add.set_defaults(func=_add)

    lst = cmds.add_parser("list", help=words("players.list"))
    lst.add_argument("--format", choices=("table", "csv", "json"), default="table",
                     help=help_text("format", lang, default="table"))
    lst.add_argument("--similar", action="store_true", help=words("players.similar"))
    lst.add_argument("--machine-headers", action="store_true",
                     help=words("export.machine-headers"))
    report.add_json_option(lst, lang)
    add_data_dir(lst, lang)
    lst.set_defaults(func=_list)

    imp = cmds.add_parser("import", help=words("players.import"))
    imp.add_argument("file", metavar="FILE", type=Path, help=words("players.file"))
    add_data_dir(imp, lang)
    imp.set_defaults(func=_import)

    rename = cmds.add_parser("rename", help=words("players.rename"))
    rename.add_argument("name", metavar="NAME", help=words("player-name"))
    rename.add_argument("new_name", metavar="NEW_NAME", help=words("players.new-name"))
    add_data_dir(rename, lang)
    rename.set_defaults(func=_rename)

    remove = cmds.add_parser("remove", help=words("players.remove"))
    remove.add_argument("name", metavar="NAME", help=words("player-name"))
    add_data_dir(remove, lang)
    remove.set_defaults(func=_remove)

    merge = cmds.add_parser("merge", help=words("players.merge"),
                            description=words("players.merge.description"))
    merge.add_argument("keep", metavar="NAME", help=words("players.merge.keep"))
    merge.add_argument("merged", metavar="NAME", help=words("players.merge.merged"))
    add_data_dir(merge, lang)
    merge.set_defaults(func=_merge)

    link = cmds.add_parser("link-card", help=words("players.link-card"))
    link.add_argument("name", metavar="NAME", help=words("player-name"))
    link.add_argument("uid", metavar="UID", nargs="+", action=CardWords,
                      help=words("players.uid"))
    add_data_dir(link, lang)
    link.set_defaults(func=_link)


def _add(args: argparse.Namespace) -> int:
    with open_cli_store(args) as store:
        player = store.players.add(args.name, card=args.card)
    print(_text(args)["added"].format(name=player.name))
    return 0


def _rename(args: argparse.Namespace) -> int:
    """Rename in the venue's list and, if they play tonight, on every screen."""
    import random

    from kiosk.station import Station
    from kiosk.timebase import SharedClock
    from rules.commands import RenamePlayer

    with open_cli_store(args) as store:
        old = store.players.lookup(args.name)
        player = store.players.rename(old.id, args.new_name)
        station = Station(store, SharedClock(), rng=random.Random())
        station.join_local_time()
        if old.id in station.state.players:
            outcome = station.submit(RenamePlayer(old.id, player.name))
            if outcome.refusal is not None:
                raise outcome.refusal
    print(_text(args)["renamed"].format(old=old.name, name=player.name))
    return 0


def _link(args: argparse.Namespace) -> int:
    with open_cli_store(args) as store:
        from kiosk.store.players import clean_uid

        # The card first: a bank card is refused whoever it was meant for.
        uid = clean_uid(args.uid)
        player = store.players.link_card(store.players.lookup(args.name).id, uid)
    print(_text(args)["linked"].format(uid=uid, name=player.name))
    return 0


class PlaysTonight(RulesError, ValueError):
    messages = {
        "nn": "{name} er med i kveldens turnering og kan ikkje fjernast",
        "nb": "{name} er med i kveldens turnering og kan ikke fjernes",
        "da": "{name} er med i aftenens turnering og kan ikke fjernes",
        "en": "{name} is in tonight's tournament and cannot be removed",
    }


def _remove(args: argparse.Namespace) -> int:
    """Tidy the list (a typo, a double): never a player whose nights count."""
    text = _text(args)
    with open_cli_store(args) as store:
        player = store.players.lookup(args.name)
        tonight = store.current_tournament()
        if tonight is not None:
            folded = store.fold(tonight)
            try:
                playing = player.id in folded.state.players
            finally:
                folded.close()
            if playing:
                raise PlaysTonight(name=player.name)
        store.players.remove(player.id)
    print(text["removed"].format(name=player.name))
    if player.cards:
        key = "unlinked-1" if len(player.cards) == 1 else "unlinked-n"
        print(text[key].format(uids=", ".join(player.cards)))
    return 0


def _list(args: argparse.Namespace) -> int:
    text = _text(args)
    with open_cli_store(args, to_read=True) as store:
        players = store.players.list()
    if args.similar:
        return _similar(args, players)
    if getattr(args, "json", False):
        report.print_json(report.players_document(players))
    elif args.format == "json":
        # The bare list of --format json, kept as it was for the scripts that read it.
        json.dump([{"id": p.id, "name": p.name, "cards": list(p.cards), "created": p.created}
                   for p in players], sys.stdout, ensure_ascii=False, indent=2)
        print()
    elif args.format == "csv":
        writer = csv.writer(sys.stdout, lineterminator="\n")
        from kiosk.cli.export_cmd import headers

        # Header words an import reads back (namn, navn, kort: kiosk.store.players).
        words_of = headers(args) or {}
        writer.writerow((words_of.get("name", "name"), words_of.get("card", "card")))
        for p in players:
            for card in p.cards or ("",):
                writer.writerow((p.name, card))
    elif not players:
        print(text["none"])
    else:
        width = max(len(text["name"]), *(len(p.name) for p in players))
        print(f"{text['name']:<{width}}  {text['cards']}")
        for p in players:
            print(f"{p.name:<{width}}  {', '.join(p.cards)}")
    return 0


class MergeDidYouMean(AmbiguousName):
    messages = {
        "nn": "«{name}» er ikkje ein kjend spelar. Meinte du {names}?",
        "nb": "«{name}» er ikke en kjent spiller. Mente du {names}?",
        "da": "«{name}» er ikke en kendt spiller. Mente du {names}?",
        "en": "'{name}' is not a known player. Did you mean {names}?",
    }


class PlayedTogether(RulesError, ValueError):
    messages = {
        "nn": ("{keep} og {name} spelte begge i «{night}», så dei er to personar; "
               "ingenting er slått saman"),
        "nb": ("{keep} og {name} spilte begge i «{night}», så de er to personer; "
               "ingenting er slått sammen"),
        "da": ("{keep} og {name} spillede begge i «{night}», så de er to personer; "
               "intet er lagt sammen"),
        "en": ("{keep} and {name} both played in '{night}', so they are two people; "
               "nothing was merged"),
    }


class MergedPlaysTonight(RulesError, ValueError):
    messages = {
        "nn": ("{name} er med i kveldens turnering: behald {name} og slå {keep} saman inn i "
               "{name}: «pubpoker players merge \"{name}\" \"{keep}\"»"),
        "nb": ("{name} er med i kveldens turnering: behold {name} og slå {keep} sammen inn i "
               "{name}: «pubpoker players merge \"{name}\" \"{keep}\"»"),
        "da": ("{name} er med i aftenens turnering: behold {name} og læg {keep} sammen ind i "
               "{name}: «pubpoker players merge \"{name}\" \"{keep}\"»"),
        "en": ("{name} plays in tonight's tournament: keep {name} and merge {keep} into them: "
               "'pubpoker players merge \"{name}\" \"{keep}\"'"),
    }


def _known(store: Any, typed: str) -> Any:
    """The venue's player the TD means; "Did you mean …?" for a name near known ones."""
    typed = " ".join(typed.split())
    player = store.players.match(typed)  # several that start so: refused, listed
    if player is not None:
        return player
    near = store.players.checkin_match(typed).near
    if near:
        raise MergeDidYouMean(name=typed, names=tuple(name for _, name in near))
    from kiosk.store.errors import UnknownPlayer

    raise UnknownPlayer(name=typed)


def _merge(args: argparse.Namespace) -> int:
    """``players merge A B``: B is A from now on (their nights, cards and league
    points), as an event in tonight's log, so peers agree and ``undo`` takes it back."""
    from kiosk.cli.acting import run, station
    from kiosk.store.reconcile import reconcile
    from rules.commands import MergePlayers
    from rules.refusals import SamePlayer

    with station(args) as on:
        store = on.store
        keep, merged = _known(store, args.keep), _known(store, args.merged)
        if keep.id == merged.id:
            raise SamePlayer(name=keep.name)
        together = store.conn.execute(
            "SELECT t.name FROM results a JOIN results b ON a.tournament_id = b.tournament_id"
            " JOIN tournaments t ON t.id = a.tournament_id"
            " WHERE a.player_id = ? AND b.player_id = ? LIMIT 1", (keep.id, merged.id)).fetchone()
        if together is not None:
            raise PlayedTogether(keep=keep.name, name=merged.name, night=together[0])
        entry = on.state.players.get(merged.id) if on.tournament_id is not None else None
        if (entry is not None and entry.checked_in and not on.state.finished
                and keep.id not in on.state.players):
            # Tonight's seat is theirs: merged away, their card would check in the other.
            raise MergedPlaysTonight(name=merged.name, keep=keep.name)
        nights = store.conn.execute(
            "SELECT COUNT(DISTINCT tournament_id) FROM results WHERE player_id = ?",
            (merged.id,)).fetchone()[0]
        run(on, MergePlayers(keep.id, keep.name, merged.id, merged.name, merged.cards,
                             merged.created))
        reconcile(store.conn)
    print(_text(args)["merged"].format(
        name=merged.name, keep=keep.name, nights=count(int(nights), "night", args.lang),
        cards=count(len(merged.cards), "card", args.lang)))
    return 0


class SimilarIsText(RulesError, ValueError):
    messages = {
        "nn": "--similar skriv berre tekst; ta vekk --json og --format",
        "nb": "--similar skriver bare tekst; ta bort --json og --format",
        "da": "--similar skriver kun tekst; fjern --json og --format",
        "en": "--similar prints text only; leave out --json and --format",
    }


def _similar(args: argparse.Namespace, players: list[Any]) -> int:
    """``players list --similar``: the pairs check-in would have asked "Did you
    mean …?" of (N2), closest first, to find one person entered twice."""
    from rules.name_match import similar_pairs

    if getattr(args, "json", False) or args.format != "table":
        raise SimilarIsText()
    text = _text(args)
    pairs = similar_pairs((p.id, p.name) for p in players)
    if not pairs:
        print(text["no-similar"])
    for (_, a), (_, b) in pairs:
        print(text["similar"].format(a=a, b=b))
    return 0


def _import(args: argparse.Namespace) -> int:
    with open_cli_store(args) as store:
        try:
            text = read_at_most(args.file).decode("utf-8-sig")
        except OSError as err:
            raise UnreadableFile(path=str(args.file), reason=OsReason.of(err)) from None
        except UnicodeDecodeError:
            # A spreadsheet's plain "CSV" is the usual cause: it saves in the PC's code page.
            raise UnreadableFile(path=str(args.file), reason=_text(args)["not-utf8"]) from None
        try:
            report = store.players.import_csv(text)
        except csv.Error:  # a field over csv's 128 KiB: the import is rolled back
            raise UnreadableFile(path=str(args.file),
                                 reason=_text(args)["field-too-long"]) from None
    for error in report.errors:
        print(error.translate(args.lang), file=sys.stderr)
    lang = args.lang
    print(_text(args)["imported"].format(
        added=count(len(report.added), "new", lang), linked=len(report.cards),
        unchanged=count(report.unchanged, "unchanged", lang),
        errors=count(len(report.errors), "error", lang)))
    return 2 if report.errors else 0
