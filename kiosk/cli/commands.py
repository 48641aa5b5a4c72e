"""Which module registers each ``pubpoker`` command, and its one line of help.

The CLI imports a command's module only when that command runs: importing
them all to build the parser cost most of a second per command (the store,
sync, the rules core). This table is what ``pubpoker --help`` lists and what
tells :func:`kiosk.cli.build_parser` which one module to import, so it must
name every command each ``*_cmd.py`` registers (a test builds the whole
parser and compares). The help here is what the top-level help shows.
"""

from __future__ import annotations

from typing import Final

__all__ = ["COMMANDS", "command_help", "module_of"]

#: command name -> (module under kiosk.cli, help in nn, nb, da, en), in the help's order.
COMMANDS: Final[dict[str, tuple[str, dict[str, str]]]] = {
    "backup": ("backup_cmd", {
        "nn": "kopier databasen til STI (trygt medan kiosken køyrer)",
        "nb": "kopier databasen til STI (trygt mens kiosken kjører)",
        "da": "kopiér databasen til STI (sikkert, mens kiosken kører)",
        "en": "copy the store to PATH (safe while the kiosk runs)"}),
    "config": ("config_cmd", {
        "nn": "fila pubpoker.toml til eininga",
        "nb": "filen pubpoker.toml til enheten",
        "da": "enhedens fil pubpoker.toml",
        "en": "the device's pubpoker.toml"}),
    "demo": ("demo_cmd", {
        "nn": "ein heil simulert kveld i høgt tempo på kioskskjermane",
        "nb": "en hel simulert kveld i høyt tempo på kioskskjermene",
        "da": "en hel simuleret aften i højt tempo på kioskskærmene",
        "en": "a whole simulated night in fast-forward on the kiosk screens"}),
    "doctor": ("doctor_cmd", {
        "nn": "sjekk disken til datamappa, reserven og databasen",
        "nb": "sjekk disken til datamappen, reserven og databasen",
        "da": "tjek datamappens disk, reserven og databasen",
        "en": "check the data dir's disk, its reserve and the store"}),
    "export": ("export_cmd", {
        "nn": "eksporter resultat eller tabell som CSV eller JSON",
        "nb": "eksporter resultater eller tabell som CSV eller JSON",
        "da": "eksportér resultater eller stilling som CSV eller JSON",
        "en": "export results or standings as CSV or JSON"}),
    "kiosk": ("kiosk_cmd", {
        "nn": "køyr kioskskjermen på denne eininga (sjølve apparatet)",
        "nb": "kjør kioskskjermen på denne enheten (selve apparatet)",
        "da": "kør kioskskærmen på denne enhed (selve apparatet)",
        "en": "run this device's kiosk screen (the appliance)"}),
    "players": ("players_cmd", {
        "nn": "spelarane på staden og korta deira",
        "nb": "spillerne på stedet og kortene deres",
        "da": "stedets spillere og deres kort",
        "en": "the venue's players and their cards"}),
    "points": ("points_cmd", {
        "nn": "skriv ut ligapoenga for kvar plassering",
        "nb": "skriv ut ligapoengene for hver plassering",
        "da": "skriv ligapointene for hver placering",
        "en": "print the league points for each finishing place"}),
    "results": ("results_cmd", {
        "nn": "resultata som er lagra i databasen",
        "nb": "resultatene som er lagret i databasen",
        "da": "resultaterne, der er gemt i databasen",
        "en": "tournament results stored in the store"}),
    "rules": ("rules_cmd", {
        "nn": "hjelp for golvet: minste høving, potter, oppgjer",
        "nb": "hjelp for gulvet: minste høyning, potter, oppgjør",
        "da": "hjælp til gulvet: mindste forhøjelse, potter, opgør",
        "en": "floor helper: minimum raise, pots, showdown"}),
    "standings": ("standings_cmd", {
        "nn": "ligatabellen for ein sesong (Q2)",
        "nb": "ligatabellen for en sesong (Q2)",
        "da": "en sæsons ligastilling (Q2)",
        "en": "a season's league standings (Q2)"}),
    "structure": ("structure_cmd", {
        "nn": "blindstrukturar",
        "nb": "blindstrukturer",
        "da": "blindstrukturer",
        "en": "blind structures"}),
    "move": ("table_cmd", {
        "nn": "flytt ein spelar til eit anna bord, eller stadfest ei flytting",
        "nb": "flytt en spiller til et annet bord, eller bekreft en flytting",
        "da": "flyt en spiller til et andet bord, eller bekræft en flytning",
        "en": "move a player to another table, or confirm a move"}),
    "table": ("table_cmd", {
        "nn": "borda",
        "nb": "bordene",
        "da": "bordene",
        "en": "the tables"}),
    "tournament": ("td_cmd", {
        "nn": "turneringa i kveld",
        "nb": "turneringen i kveld",
        "da": "aftenens turnering",
        "en": "tonight's tournament"}),
    "checkin": ("td_cmd", {
        "nn": "sjekk inn ein spelar med namn eller kort",
        "nb": "sjekk inn en spiller med navn eller kort",
        "da": "tjek en spiller ind med navn eller kort",
        "en": "check a player in by name or card"}),
    "waitlist": ("td_cmd", {
        "nn": "ventelista (F2): kven som ventar på ein plass",
        "nb": "ventelisten (F2): hvem som venter på en plass",
        "da": "ventelisten (F2): hvem der venter på en plads",
        "en": "the waiting list (F2): who waits for a seat"}),
    "seat": ("td_cmd", {
        "nn": "plassering ved borda",
        "nb": "plassering ved bordene",
        "da": "placering ved bordene",
        "en": "seating"}),
    "clock": ("td_cmd", {
        "nn": "styr klokka",
        "nb": "styr klokken",
        "da": "styr uret",
        "en": "run the clock"}),
    "hand-for-hand": ("td_cmd", {
        "nn": "hand for hand (C7): kvart bord trykkjer HAND FERDIG og ventar på dei andre",
        "nb": "hånd for hånd (C7): hvert bord trykker HÅND FERDIG og venter på de andre",
        "da": "hånd for hånd (C7): hvert bord trykker HÅND FÆRDIG og venter på de andre",
        "en": "hand-for-hand play (C7): every table presses HAND DONE and waits for the others"}),
    "bust": ("td_cmd", {
        "nn": "ein spelar er ute",
        "nb": "en spiller er ute",
        "da": "en spiller er ude",
        "en": "a player is out"}),
    "undo": ("undo_cmd", {
        "nn": "ta attende den siste handlinga og sei kva ho var",
        "nb": "ta tilbake den siste handlingen og si hva den var",
        "da": "fortryd den seneste handling og sig, hvad den var",
        "en": "take back the newest action and say what it was"}),
    "venue-key": ("venue_key_cmd", {
        "nn": "lag nøkkelen som lèt einingane på staden synkronisere",
        "nb": "lag nøkkelen som lar enhetene på stedet synkronisere",
        "da": "lav nøglen, der lader stedets enheder synkronisere",
        "en": "make the key that lets a venue's devices sync"}),
}


def module_of(command: str | None) -> str | None:
    """The full name of the module that registers ``command``, or None if none does.

    >>> module_of("checkin"), module_of("nosuch"), module_of(None)
    ('kiosk.cli.td_cmd', None, None)
    """
    found = COMMANDS.get(command or "")
    return None if found is None else f"kiosk.cli.{found[0]}"


def command_help(command: str, lang: str) -> str:
    """The command's line in the top-level help, in ``lang`` (English for an unknown code).

    >>> command_help("bust", "nb"), command_help("bust", "xx")
    ('en spiller er slått ut', 'a player is out')
    """
    from kiosk.cli.help_words import HELP  # a plain dict module, as this one

    # The help catalogue's line where it has one: the command's own help page says
    # the same, so the two cannot drift apart (this table's is the fallback).
    texts = HELP.get(command) or COMMANDS[command][1]
    return texts.get(lang) or texts["en"]
