"""The words of ``pubpoker --help``, in every language: key → {nn, nb, da, en}.

Each ``*_cmd.py`` takes its ``help=`` and ``description=`` from :data:`HELP`
in the language the command line asked for (``register(sub, lang)``);
:mod:`kiosk.cli.help_format` takes argparse's own words (``usage:``,
``options``) and the placeholders of values (``NAME``) from :data:`ARGPARSE`
and :data:`METAVARS`. A plain module of dicts: every command imports it, so
it must stay cheap to import.
"""

from __future__ import annotations

from typing import Final

__all__ = ["ARGPARSE", "HELP", "METAVARS", "help_text"]

HELP: Final[dict[str, dict[str, str]]] = {
    # The top parser and what every command shares.
    "pubpoker": {
        "nn": "Køyr pubpokerturneringar frå ein Raspberry Pi.",
        "nb": "Kjør pubpokerturneringer fra en Raspberry Pi.",
        "da": "Kør pubpokerturneringer fra en Raspberry Pi.",
        "en": "Run pub poker tournaments from a Raspberry Pi."},
    "lang": {
        "nn": "språket i meldingane (standard: nn, eller $PUBPOKER_LANG)",
        "nb": "språket i meldingene (standard: nn, eller $PUBPOKER_LANG)",
        "da": "sproget i beskederne (standard: nn, eller $PUBPOKER_LANG)",
        "en": "language of messages (default: nn, or $PUBPOKER_LANG)"},
    "data-dir": {
        "nn": "der databasen ligg (standard: $PUBPOKER_DATA_DIR, /data/pubpoker på Pi-en, "
              "elles ~/.local/share/pubpoker)",
        "nb": "der databasen ligger (standard: $PUBPOKER_DATA_DIR, /data/pubpoker på Pi-en, "
              "ellers ~/.local/share/pubpoker)",
        "da": "hvor databasen ligger (standard: $PUBPOKER_DATA_DIR, /data/pubpoker på Pi'en, "
              "ellers ~/.local/share/pubpoker)",
        "en": "where the store lives (default: $PUBPOKER_DATA_DIR, /data/pubpoker on the Pi, "
              "else ~/.local/share/pubpoker)"},
    "frames": {
        "nn": "stopp etter så mange bilete (rundar i løkka)",
        "nb": "stopp etter så mange bilder (runder i løkken)",
        "da": "stop efter så mange billeder (runder i løkken)",
        "en": "stop after this many frames (loop iterations)"},
    "screenshot": {
        "nn": "lagra det siste biletet som PNG", "nb": "lagre det siste bildet som PNG",
        "da": "gem det sidste billede som PNG", "en": "save the last frame as a PNG"},
    "format": {
        "nn": "utdataformat (standard: {default})", "nb": "utdataformat (standard: {default})",
        "da": "outputformat (standard: {default})", "en": "output format (default: {default})"},
    # backup
    "backup": {
        "nn": "kopier databasen til STI (trygt medan kiosken køyrer)",
        "nb": "kopier databasen til STI (trygt mens kiosken kjører)",
        "da": "kopiér databasen til STI (sikkert, mens kiosken kører)",
        "en": "copy the store to PATH (safe while the kiosk runs)"},
    "backup.description": {
        "nn": "Kopier databasen med SQLite sin tryggingskopi-funksjon, medan kiosken køyrer.",
        "nb": "Kopier databasen med SQLites funksjon for sikkerhetskopi, mens kiosken kjører.",
        "da": "Kopiér databasen med SQLites funktion til sikkerhedskopi, mens kiosken kører.",
        "en": "Copy the store with SQLite's online backup API."},
    "backup.path": {
        "nn": "fila å skrive, eller ei mappe å leggje pubpoker.db i",
        "nb": "filen som skal skrives, eller en mappe å legge pubpoker.db i",
        "da": "filen, der skal skrives, eller en mappe at lægge pubpoker.db i",
        "en": "target file, or a directory to put pubpoker.db in"},
    # config
    "config": {
        "nn": "pubpoker.toml på eininga", "nb": "pubpoker.toml på enheten",
        "da": "pubpoker.toml på enheden", "en": "the device's pubpoker.toml"},
    "config.check": {
        "nn": "sjekk ei pubpoker.toml", "nb": "sjekk en pubpoker.toml",
        "da": "kontrollér en pubpoker.toml", "en": "validate a pubpoker.toml"},
    "config.check.path": {
        "nn": "fila (standard: {path})", "nb": "filen (standard: {path})",
        "da": "filen (standard: {path})", "en": "the file (default: {path})"},
    # demo
    "demo": {
        "nn": "ein heil simulert kveld i snøggspoling på kioskskjermane",
        "nb": "en hel simulert kveld i hurtigspoling på kioskskjermene",
        "da": "en hel simuleret aften i hurtig fremspoling på kioskskærmene",
        "en": "a whole simulated night in fast-forward on the kiosk screens"},
    "demo.speed": {
        "nn": "kor mange gonger snøggare den felles tida går (standard 30)",
        "nb": "hvor mange ganger raskere den felles tiden går (standard 30)",
        "da": "hvor mange gange hurtigere den fælles tid går (standard 30)",
        "en": "fast-forward factor for shared time (default 30)"},
    "demo.seed": {
        "nn": "frø for namn, sete og kort: same frø, same kveld",
        "nb": "frø for navn, seter og kort: samme frø, samme kveld",
        "da": "frø til navne, sæder og kort: samme frø, samme aften",
        "en": "seed for names, seats and cards: the same seed, the same night"},
    "demo.size": {
        "nn": "storleiken på vindauget, BREIDDxHØGD (standard 1280x720)",
        "nb": "størrelsen på vinduet, BREDDExHØYDE (standard 1280x720)",
        "da": "vinduets størrelse, BREDDExHØJDE (standard 1280x720)",
        "en": "window size, WIDTHxHEIGHT (default 1280x720)"},
    "demo.fullscreen": {
        "nn": "fyll heile skjermen", "nb": "fyll hele skjermen", "da": "fyld hele skærmen",
        "en": "fill the whole screen"},
    "demo.data-dir": {
        "nn": "ta vare på kvelden i denne datamappa (standard: ei ny mellombels mappe)",
        "nb": "ta vare på kvelden i denne datamappen (standard: en ny midlertidig mappe)",
        "da": "gem aftenen i denne datamappe (standard: en ny midlertidig mappe)",
        "en": "keep the night in this data dir (default: a fresh temporary one)"},
    "demo.no-sound": {
        "nn": "utan lyd", "nb": "uten lyd", "da": "uden lyd", "en": "no chimes"},
    "demo.headless": {
        "nn": "teikn med SDL sine tomme drivarar, utan vindauge",
        "nb": "tegn med SDLs tomme drivere, uten vindu",
        "da": "tegn med SDLs tomme drivere, uden vindue",
        "en": "render with SDL's dummy drivers, without a window"},
    "demo.viewer-port": {
        "nn": "serv sida for spelarane sine mobilar på denne porten (0: ikkje; standard 8080 "
              "med vindauge, ingen utan)",
        "nb": "server siden for spillernes mobiler på denne porten (0: ikke; standard 8080 "
              "med vindu, ingen uten)",
        "da": "server siden til spillernes mobiler på denne port (0: ikke; standard 8080 "
              "med vindue, ingen uden)",
        "en": "serve the players' phone page on this port (0: not at all; default 8080 "
              "with a window, none without)"},
    "demo.until-finished": {
        "nn": "stopp når kvelden har ein vinnar (utan vindauge: på falsk tid, snøgt)",
        "nb": "stopp når kvelden har en vinner (uten vindu: på falsk tid, raskt)",
        "da": "stop, når aftenen har en vinder (uden vindue: på falsk tid, hurtigt)",
        "en": "stop when the night has a winner (headless: on fake time, fast)"},
    # doctor
    "doctor": {
        "nn": "sjekk disken til datamappa, reserven og databasen",
        "nb": "sjekk disken til datamappen, reserven og databasen",
        "da": "kontrollér datamappens disk, reserven og databasen",
        "en": "check the data dir's disk, its reserve and the store"},
    "doctor.description": {
        "nn": "Syner ledig plass, om disken tek imot skriving, reserven og tilstanden til "
              "databasen. Endrar ingenting. Avsluttar med status 1 om noko er gale.",
        "nb": "Viser ledig plass, om disken tar imot skriving, reserven og tilstanden til "
              "databasen. Endrer ingenting. Avslutter med status 1 hvis noe er galt.",
        "da": "Viser ledig plads, om disken kan skrives til, reserven og databasens "
              "tilstand. Ændrer intet. Afslutter med status 1, hvis noget er galt.",
        "en": "Report free space, whether the disk takes writes, the reserve and the "
              "store's health. Changes nothing. Exit status 1 if something is wrong."},
    "doctor.json": {
        "nn": "skriv rapporten som JSON", "nb": "skriv rapporten som JSON",
        "da": "skriv rapporten som JSON", "en": "print the report as JSON"},
    # export
    "export": {
        "nn": "eksporter resultat eller sesongpoeng som CSV eller JSON",
        "nb": "eksporter resultater eller sesongpoeng som CSV eller JSON",
        "da": "eksportér resultater eller sæsonpoint som CSV eller JSON",
        "en": "export results or standings as CSV or JSON"},
    "export.description": {
        "nn": "Eksporter resultata til ei turnering eller poenga i ein sesong.",
        "nb": "Eksporter resultatene til en turnering eller poengene i en sesong.",
        "da": "Eksportér en turnerings resultater eller en sæsons point.",
        "en": "Export results or season standings."},
    "export.results": {
        "nn": "plasseringar, poeng og utslag i ei turnering",
        "nb": "plasseringer, poeng og utslag i en turnering",
        "da": "placeringer, point og udslagninger i en turnering",
        "en": "a tournament's places, points and knockouts"},
    "tournament-id": {
        "nn": "namnet eller kjenneteiknet til turneringa",
        "nb": "navnet eller id-en til turneringen", "da": "turneringens navn eller id",
        "en": "tournament id or name"},
    "export.standings": {
        "nn": "poengtabellen i ein sesong (Q2)", "nb": "poengtabellen i en sesong (Q2)",
        "da": "en sæsons pointtabel (Q2)", "en": "a season's league standings (Q2)"},
    "export.season": {
        "nn": "namnet på sesongen, til dømes 2025", "nb": "navnet på sesongen, for eksempel 2025",
        "da": "sæsonens navn, for eksempel 2025", "en": "season name, e.g. 2025"},
    "export.output": {
        "nn": "skriv til denne fila i staden for standard ut",
        "nb": "skriv til denne filen i stedet for standard ut",
        "da": "skriv til denne fil i stedet for standard ud",
        "en": "write to this file instead of standard output"},
    "export.machine-headers": {
        "nn": "CSV-overskrifter som faste engelske nøklar, for skript",
        "nb": "CSV-overskrifter som faste engelske nøkler, for skript",
        "da": "CSV-overskrifter som faste engelske nøgler, til programmer",
        "en": "CSV headers as the stable English keys (place, name …) for scripts"},
    # kiosk
    "kiosk": {
        "nn": "køyr kioskskjermen på denne eininga (apparatet)",
        "nb": "kjør kioskskjermen på denne enheten (apparatet)",
        "da": "kør kioskskærmen på denne enhed (apparatet)",
        "en": "run this device's kiosk screen (the appliance)"},
    "kiosk.config": {
        "nn": "pubpoker.toml til eininga", "nb": "pubpoker.toml til enheten",
        "da": "enhedens pubpoker.toml", "en": "the device's pubpoker.toml"},
    "kiosk.role": {
        "nn": "display, console eller table (går framfor oppsettet; standard display)",
        "nb": "display, console eller table (går foran oppsettet; standard display)",
        "da": "display, console eller table (går forud for opsætningen; standard display)",
        "en": "display, console or table (overrides the config; default display)"},
    "kiosk.data-dir": {
        "nn": "der databasen ligg (går framfor oppsettet)",
        "nb": "der databasen ligger (går foran oppsettet)",
        "da": "hvor databasen ligger (går forud for opsætningen)",
        "en": "where the store lives (overrides the config)"},
    "kiosk.size": {
        "nn": "eit vindauge av denne storleiken i staden for heile skjermen",
        "nb": "et vindu av denne størrelsen i stedet for hele skjermen",
        "da": "et vindue i denne størrelse i stedet for hele skærmen",
        "en": "a window of this size instead of fullscreen"},
    "kiosk.headless": {
        "nn": "teikn med SDL sine tomme drivarar (røyktestar)",
        "nb": "tegn med SDLs tomme drivere (røyktester)",
        "da": "tegn med SDLs tomme drivere (røgtests)",
        "en": "render with SDL's dummy drivers (smoke tests)"},
    "kiosk.speed": {
        "nn": "snøggspoling: den felles tida går så mange gonger snøggare enn vanleg tid "
              "(lange testar; standard 1). Alle einingane ein kveld må køyre like snøgt",
        "nb": "hurtigspoling: den felles tiden går så mange ganger raskere enn vanlig tid "
              "(lange tester; standard 1). Alle enhetene en kveld må kjøre like raskt",
        "da": "hurtig fremspoling: den fælles tid går så mange gange hurtigere end "
              "almindelig tid (lange tests; standard 1). Alle enheder en aften skal køre "
              "lige hurtigt",
        "en": "fast-forward: shared time runs this many times faster than real time (soak "
              "tests; default 1). Every device of one night must run at the same speed"},
    "kiosk.viewer-port": {
        "nn": "serv sida for spelarane sine mobilar på denne porten (0: ikkje i det heile; "
              "standard frå [viewer] i pubpoker.toml)",
        "nb": "server siden for spillernes mobiler på denne porten (0: ikke i det hele tatt; "
              "standard fra [viewer] i pubpoker.toml)",
        "da": "server siden til spillernes mobiler på denne port (0: slet ikke; "
              "standard fra [viewer] i pubpoker.toml)",
        "en": "serve the players' phone page on this port (0: not at all; "
              "default from [viewer] in pubpoker.toml)"},
    # players
    "players": {
        "nn": "spelarane i lokalet og korta deira", "nb": "spillerne i lokalet og kortene deres",
        "da": "stedets spillere og deres kort", "en": "the venue's players and their cards"},
    "players.description": {
        "nn": "Legg til, vis og importer spelarar; kople kort til dei.",
        "nb": "Legg til, vis og importer spillere; koble kort til dem.",
        "da": "Tilføj, vis og importér spillere; tilknyt kort til dem.",
        "en": "Add, list and import players; link cards to them."},
    "players.add": {
        "nn": "legg til ein spelar", "nb": "legg til en spiller", "da": "tilføj en spiller",
        "en": "add a player"},
    "player-name": {
        "nn": "namnet på spelaren", "nb": "navnet på spilleren", "da": "spillerens navn",
        "en": "the player's name"},
    "players.card": {
        "nn": "kortet til spelaren (UID-en til RFID-brikka)",
        "nb": "kortet til spilleren (UID-en til RFID-brikken)",
        "da": "spillerens kort (RFID-brikkens UID)",
        "en": "the player's card (RFID tag UID)"},
    "players.list": {
        "nn": "vis spelarane og korta deira", "nb": "vis spillerne og kortene deres",
        "da": "vis spillerne og deres kort", "en": "list the players and their cards"},
    "players.merge": {
        "nn": "slå saman to spelarar som er same person", "nb": "slå sammen to spillere som er "
        "samme person", "da": "læg to spillere sammen, der er samme person",
        "en": "merge two players who are one person"},
    "players.merge.description": {
        "nn": ("Den andre spelaren blir den første: kveldane, korta og ligapoenga deira. "
               "Skrive i loggen til kvelden, så alle einingane er samde, og «pubpoker undo» "
               "tek det attende."),
        "nb": ("Den andre spilleren blir den første: kveldene, kortene og ligapoengene deres. "
               "Skrevet i loggen til kvelden, så alle enhetene er enige, og «pubpoker undo» "
               "tar det tilbake."),
        "da": ("Den anden spiller bliver den første: aftenerne, kortene og ligapointene. "
               "Skrevet i aftenens log, så alle enheder er enige, og «pubpoker undo» "
               "tager det tilbage."),
        "en": ("The second player becomes the first: their nights, cards and league points. "
               "Written to tonight's log, so every device agrees, and 'pubpoker undo' "
               "takes it back.")},
    "players.merge.keep": {
        "nn": "spelaren som blir verande", "nb": "spilleren som blir stående",
        "da": "spilleren, der bliver", "en": "the player who stays"},
    "players.merge.merged": {
        "nn": "spelaren som blir slått saman inn i den første",
        "nb": "spilleren som slås sammen inn i den første",
        "da": "spilleren, der lægges sammen ind i den første",
        "en": "the player merged into the first"},
    "players.similar": {
        "nn": "vis berre par av namn som kan vere same person to gonger (éin eller to "
              "bokstavar skil, aksentar, eller starten av eit anna namn)",
        "nb": "vis bare par av navn som kan være samme person to ganger (én eller to "
              "bokstaver skiller, aksenter, eller starten av et annet navn)",
        "da": "vis kun par af navne, der kan være samme person to gange (et eller to "
              "bogstaver til forskel, accenter, eller starten af et andet navn)",
        "en": "show only pairs of names that may be one person twice (one or two letters "
              "apart, accents, or the start of another name)"},
    "players.import": {
        "nn": "importer spelarar frå ei CSV-fil (namn,kort)",
        "nb": "importer spillere fra en CSV-fil (navn,kort)",
        "da": "importér spillere fra en CSV-fil (navn,kort)",
        "en": "import players from a CSV file (name,card)"},
    "players.file": {
        "nn": "CSV-fila", "nb": "CSV-filen", "da": "CSV-filen", "en": "the CSV file"},
    "players.rename": {
        "nn": "gje ein spelar (ein gjest) sitt eige namn",
        "nb": "gi en spiller (en gjest) sitt eget navn",
        "da": "giv en spiller (en gæst) sit eget navn",
        "en": "give a player (a guest) their own name"},
    "players.new-name": {
        "nn": "det nye namnet", "nb": "det nye navnet", "da": "det nye navn",
        "en": "the new name"},
    "players.link-card": {
        "nn": "gje ein spelar eit kort", "nb": "gi en spiller et kort",
        "da": "giv en spiller et kort", "en": "give a player a card"},
    "players.uid": {
        "nn": "UID-en til kortet", "nb": "UID-en til kortet", "da": "kortets UID",
        "en": "the card's UID"},
    # points
    "points": {
        "nn": "skriv ut ligapoenga for kvar plassering",
        "nb": "skriv ut ligapoengene for hver plassering",
        "da": "udskriv ligapointene for hver placering",
        "en": "print the league points for each finishing place"},
    "points.description": {
        "nn": "Skriv ut poengtabellen til ligaen for eit tal påmelde.",
        "nb": "Skriv ut poengtabellen til ligaen for et antall påmeldte.",
        "da": "Udskriv ligaens pointtabel for et antal tilmeldte.",
        "en": "Print the league points table for a number of entrants."},
    "points.entrants": {
        "nn": "talet på påmelde", "nb": "antall påmeldte", "da": "antal tilmeldte",
        "en": "number of entrants"},
    "points.scheme": {
        "nn": "poengskala (standard: pf-pokerklub)", "nb": "poengskala (standard: pf-pokerklub)",
        "da": "pointskala (standard: pf-pokerklub)", "en": "points scheme (default: pf-pokerklub)"},
    "points.table": {
        "nn": "poengtabell i JSON for --scheme table, til dømes {example}",
        "nb": "poengtabell i JSON for --scheme table, for eksempel {example}",
        "da": "pointtabel i JSON til --scheme table, for eksempel {example}",
        "en": "JSON points table for --scheme table, e.g. {example}"},
    # results
    "results": {
        "nn": "turneringsresultata i databasen", "nb": "turneringsresultatene i databasen",
        "da": "turneringsresultaterne i databasen", "en": "tournament results stored in the store"},
    "results.recompute": {
        "nn": "rekn ut loggen til ei turnering på nytt og skriv resultat og sesongpoeng om att",
        "nb": "regn ut loggen til en turnering på nytt og skriv resultater og sesongpoeng på nytt",
        "da": "genberegn en turnerings log og skriv resultater og sæsonpoint igen",
        "en": "refold a tournament's log and rewrite its results and standings"},
    "results.recompute.description": {
        "nn": "Rekn ut heile loggen på nytt med dagens reglar; skriv om att resultata, "
              "poenga i sesongen og eksportfilene til ein avslutta kveld.",
        "nb": "Regn ut hele loggen på nytt med dagens regler; skriv resultatene, poengene "
              "i sesongen og eksportfilene til en avsluttet kveld på nytt.",
        "da": "Genberegn hele loggen med dagens regler; skriv resultaterne, sæsonens point "
              "og eksportfilerne for en afsluttet aften igen.",
        "en": "Refold the whole log with today's rules; rewrite results, the season's "
              "standings and a closed night's export files."},
    "results.all": {
        "nn": "alle turneringane i databasen", "nb": "alle turneringene i databasen",
        "da": "alle turneringer i databasen", "en": "every tournament in the store"},
    # rules (the floor helper)
    "rules": {
        "nn": "golvhjelp: minste høgning, pottar, showdown",
        "nb": "gulvhjelp: minste høyning, potter, showdown",
        "da": "gulvhjælp: mindste forhøjelse, potter, showdown",
        "en": "floor helper: minimum raise, pots, showdown"},
    "rules.min-raise": {
        "nn": "den minste høgninga for neste spelar",
        "nb": "den minste høyningen for neste spiller",
        "da": "den mindste forhøjelse for næste spiller",
        "en": "the smallest raise-to for the next player"},
    "rules.players": {
        "nn": "spelarar som har fått kort (standard 9)", "nb": "spillere som har fått kort "
        "(standard 9)", "da": "spillere, der har fået kort (standard 9)",
        "en": "players dealt in (default 9)"},
    "rules.stack": {
        "nn": "stacken til kvar spelar med --players (standard: djup)",
        "nb": "stacken til hver spiller med --players (standard: dyp)",
        "da": "hver spillers stack med --players (standard: dyb)",
        "en": "every player's stack with --players (default: deep)"},
    "rules.stacks": {
        "nn": "stackar per sete i staden, til dømes \"1:5000,2:1400\"",
        "nb": "stacker per sete i stedet, for eksempel \"1:5000,2:1400\"",
        "da": "stacks per sæde i stedet, for eksempel \"1:5000,2:1400\"",
        "en": "stacks per seat instead, e.g. \"1:5000,2:1400\""},
    "rules.button": {
        "nn": "setet med dealerknappen (standard: det høgaste setet)",
        "nb": "setet med dealerknappen (standard: det høyeste setet)",
        "da": "sædet med dealerknappen (standard: det højeste sæde)",
        "en": "the button seat (default: the highest seat)"},
    "rules.pots": {
        "nn": "hovudpott og sidepottar, og kven som vinn dei",
        "nb": "hovedpott og sidepotter, og hvem som vinner dem",
        "da": "hovedpot og sidepotter, og hvem der vinder dem",
        "en": "main and side pots, and who wins them"},
    "rules.contributions": {
        "nn": "sjetongar kvart sete la inn, til dømes \"1:5000,2:1400,3:8000\"",
        "nb": "sjetonger hvert sete la inn, for eksempel \"1:5000,2:1400,3:8000\"",
        "da": "jetoner hvert sæde satsede, for eksempel \"1:5000,2:1400,3:8000\"",
        "en": "chips each seat put in, e.g. \"1:5000,2:1400,3:8000\""},
    "rules.stacks-start": {
        "nn": "stackane då handa starta, med --actions",
        "nb": "stackene da hånden startet, med --actions",
        "da": "stacks ved håndens start, med --actions",
        "en": "stacks at the start of the hand, with --actions"},
    "rules.folded": {
        "nn": "sete som har kasta, med --contributions, til dømes \"2\" eller \"2,5\"",
        "nb": "seter som har kastet, med --contributions, for eksempel \"2\" eller \"2,5\"",
        "da": "sæder, der har smidt, med --contributions, for eksempel \"2\" eller \"2,5\"",
        "en": "folded seats with --contributions, e.g. \"2\" or \"2,5\""},
    "rules.button-pots": {
        "nn": "setet med dealerknappen (blindar, restsjetongar)",
        "nb": "setet med dealerknappen (blinds, restsjetonger)",
        "da": "sædet med dealerknappen (blinds, overskydende jetoner)",
        "en": "the button seat (blinds, odd chips)"},
    "rules.showdown": {
        "nn": "ranger hendene som er viste og namngje vinnarane",
        "nb": "ranger hendene som er vist og navngi vinnerne",
        "da": "rangér de viste hænder og nævn vinderne",
        "en": "rank the hands shown and name the winners"},
    "rules.button-showdown": {
        "nn": "setet med dealerknappen (rekkjefølgje ved likt, restsjetongar)",
        "nb": "setet med dealerknappen (rekkefølge ved likt, restsjetonger)",
        "da": "sædet med dealerknappen (rækkefølge ved lighed, overskydende jetoner)",
        "en": "the button seat (order of ties, odd chips)"},
    "rules.pot": {
        "nn": "potten som skal delast, i sjetongar", "nb": "potten som skal deles, i sjetonger",
        "da": "potten, der skal deles, i jetoner", "en": "the pot to split, in chips"},
    "rules.board": {
        "nn": "korta på bordet, til dømes \"Ah Kh 7c 2d 2s\"",
        "nb": "kortene på bordet, for eksempel \"Ah Kh 7c 2d 2s\"",
        "da": "kortene på bordet, for eksempel \"Ah Kh 7c 2d 2s\"",
        "en": "board cards, e.g. \"Ah Kh 7c 2d 2s\""},
    "rules.hands": {
        "nn": "holkorta som er viste per sete, til dømes \"1:AsAd,2:KcKd\" (\"3:\" = kasta)",
        "nb": "hullkortene som er vist per sete, for eksempel \"1:AsAd,2:KcKd\" "
              "(\"3:\" = kastet)",
        "da": "de viste hulkort per sæde, for eksempel \"1:AsAd,2:KcKd\" (\"3:\" = smidt)",
        "en": "hole cards shown per seat, e.g. \"1:AsAd,2:KcKd\" (\"3:\" = mucked)"},
    "rules.game": {
        "nn": "holdem (standard) eller omaha", "nb": "holdem (standard) eller omaha",
        "da": "holdem (standard) eller omaha", "en": "holdem (default) or omaha"},
    "rules.hilo": {
        "nn": "Høg/Låg, 8 eller lågare", "nb": "Høy/Lav, 8 eller lavere",
        "da": "Høj/Lav, 8 eller lavere", "en": "Hi/Lo 8-or-better"},
    "rules.chip": {
        "nn": "minste sjetong i spel, for restsjetongar (standard 1)",
        "nb": "minste sjetong i spill, for restsjetonger (standard 1)",
        "da": "mindste jeton i spil, til overskydende jetoner (standard 1)",
        "en": "smallest chip in play, for odd chips (default 1)"},
    "rules.blinds": {
        "nn": "small blind/big blind, til dømes \"100/200\" (eller \"800/1600/100\")",
        "nb": "small blind/big blind, for eksempel \"100/200\" (eller \"800/1600/100\")",
        "da": "small blind/big blind, for eksempel \"100/200\" (eller \"800/1600/100\")",
        "en": "small/big blind, e.g. \"100/200\" (or \"800/1600/100\")"},
    "rules.ante": {
        "nn": "ante per spelar (eller BB-ante med --bb-ante)",
        "nb": "ante per spiller (eller BB-ante med --bb-ante)",
        "da": "ante per spiller (eller BB-ante med --bb-ante)",
        "en": "ante per player (or the big-blind ante with --bb-ante)"},
    "rules.bb-ante": {
        "nn": "big blind betaler anten", "nb": "big blind betaler anten",
        "da": "big blind betaler anten", "en": "the big blind pays the ante"},
    "rules.actions": {
        "nn": "handlingane i tur, til dømes \"raise 500, raise 1200, call\"",
        "nb": "handlingene i tur, for eksempel \"raise 500, raise 1200, call\"",
        "da": "handlingerne i tur, for eksempel \"raise 500, raise 1200, call\"",
        "en": "the actions in turn, e.g. \"raise 500, raise 1200, call\""},
    "rules.limit": {
        "nn": "innsatsform (standard no-limit)", "nb": "innsatsform (standard no-limit)",
        "da": "indsatsform (standard no-limit)", "en": "betting structure (default no-limit)"},
    "rules.house": {
        "nn": "husreglar (standard pubpoker)", "nb": "husregler (standard pubpoker)",
        "da": "husregler (standard pubpoker)", "en": "house-rule profile (default pubpoker)"},
    # structure
    "structure": {
        "nn": "blindstrukturar", "nb": "blindstrukturer", "da": "blindstrukturer",
        "en": "blind structures"},
    "structure.show": {
        "nn": "skriv ut ein ferdig struktur", "nb": "skriv ut en ferdig struktur",
        "da": "udskriv en færdig struktur", "en": "print a structure preset"},
    "structure.name": {
        "nn": "strukturen", "nb": "strukturen", "da": "strukturen", "en": "the preset"},
    # the TD's commands
    "tournament": {
        "nn": "kveldens turnering", "nb": "kveldens turnering", "da": "aftenens turnering",
        "en": "tonight's tournament"},
    "tournament.new": {
        "nn": "start kveldens turnering (innsjekken opnar)",
        "nb": "start kveldens turnering (innsjekken åpner)",
        "da": "start aftenens turnering (indtjekningen åbner)",
        "en": "start tonight's tournament (check-in opens)"},
    "tournament.name": {
        "nn": "namnemønster, til dømes \"Fredagspoker {date}\"",
        "nb": "navnemønster, for eksempel \"Fredagspoker {date}\"",
        "da": "navnemønster, for eksempel \"Fredagspoker {date}\"",
        "en": "name pattern, e.g. \"Fredagspoker {date}\""},
    "tournament.preset": {
        "nn": "blindstrukturen", "nb": "blindstrukturen", "da": "blindstrukturen",
        "en": "the blind structure"},
    "tournament.house": {
        "nn": "husreglane", "nb": "husreglene", "da": "husreglerne", "en": "the house rules"},
    "tournament.seats": {
        "nn": "sete per bord", "nb": "seter per bord", "da": "sæder per bord",
        "en": "seats per table"},
    "tournament.tables": {
        "nn": "talet på bord", "nb": "antall bord", "da": "antal borde",
        "en": "tables available"},
    "tournament.capacity": {
        "nn": "kor mange som kan spele på ein gong; fleire står på ventelista (F2)",
        "nb": "hvor mange som kan spille samtidig; flere står på ventelisten (F2)",
        "da": "hvor mange der kan spille på én gang; flere står på ventelisten (F2)",
        "en": "how many can play at once; more wait on the waiting list (F2)"},
    "tournament.list": {
        "nn": "alle turneringane i databasen", "nb": "alle turneringene i databasen",
        "da": "alle turneringer i databasen", "en": "every tournament in the store"},
    "tournament.show": {
        "nn": "turneringa no: klokke, bord, flyttingar",
        "nb": "turneringen nå: klokke, bord, flyttinger",
        "da": "turneringen nu: ur, borde, flytninger",
        "en": "the current tournament: clock, tables, moves"},
    "tournament.close": {
        "nn": "lagra resultat og poeng, skriv eksportfiler",
        "nb": "lagre resultater og poeng, skriv eksportfiler",
        "da": "gem resultater og point, skriv eksportfiler",
        "en": "record results and points, write exports"},
    "tournament.force": {
        "nn": "avslutt før turneringa er ferdig", "nb": "avslutt før turneringen er ferdig",
        "da": "afslut, før turneringen er slut", "en": "close before it is over"},
    "tournament.reopen": {
        "nn": "opne ei avslutta turnering att for å rette ho (kan angrast)",
        "nb": "åpne en avsluttet turnering igjen for å rette den (kan angres)",
        "da": "åbn en afsluttet turnering igen for at rette den (kan fortrydes)",
        "en": "open a closed tournament again to correct it (can be undone)"},
    "tournament.new.yes": {
        "nn": "ja, start ei ny sjølv om ei turnering er i gang",
        "nb": "ja, start en ny selv om en turnering er i gang",
        "da": "ja, start en ny, selv om en turnering er i gang",
        "en": "yes, start a new one even though a tournament is running"},
    "tournament.switch": {
        "nn": "gjer ei anna open turnering til kveldens på alle einingane",
        "nb": "gjør en annen åpen turnering til kveldens på alle enhetene",
        "da": "gør en anden åben turnering til aftenens på alle enhederne",
        "en": "make another open tournament tonight's on every device"},
    "tournament.yes": {
        "nn": "ja, opne ho att", "nb": "ja, åpne den igjen", "da": "ja, åbn den igen",
        "en": "yes, reopen it"},
    "checkin": {
        "nn": "sjekk inn ein spelar med namn eller kort",
        "nb": "sjekk inn en spiller med navn eller kort",
        "da": "tjek en spiller ind med navn eller kort",
        "en": "check a player in by name or card"},
    "checkin.name": {
        "nn": "namnet på ein kjend spelar (store og små bokstavar tel ikkje)",
        "nb": "navnet på en kjent spiller (store og små bokstaver teller ikke)",
        "da": "navnet på en kendt spiller (store og små bogstaver tæller ikke)",
        "en": "a known player's name (case does not matter)"},
    "checkin.new": {
        "nn": "legg til ein ny spelar med dette namnet (N2)",
        "nb": "legg til en ny spiller med dette navnet (N2)",
        "da": "tilføj en ny spiller med dette navn (N2)",
        "en": "add a new player with this name (N2)"},
    "checkin.card": {
        "nn": "UID-en til kortet", "nb": "UID-en til kortet", "da": "kortets UID",
        "en": "the card UID"},
    "waitlist": {
        "nn": "ventelista (F2)", "nb": "ventelisten (F2)", "da": "ventelisten (F2)",
        "en": "the waiting list (F2)"},
    "waitlist.remove": {
        "nn": "ta ein spelar av ventelista", "nb": "ta en spiller av ventelisten",
        "da": "tag en spiller af ventelisten", "en": "take a player off the waiting list"},
    "waitlist.name": {
        "nn": "namnet på spelaren som ventar", "nb": "navnet på spilleren som venter",
        "da": "navnet på spilleren, der venter", "en": "the waiting player's name"},
    "seat": {
        "nn": "bordplassering", "nb": "bordplassering", "da": "bordplacering",
        "en": "seating"},
    "seat.draw": {
        "nn": "trekk bordplasseringa (S1)", "nb": "trekk bordplasseringen (S1)",
        "da": "træk bordplaceringen (S1)", "en": "draw the seats (S1)"},
    "clock": {
        "nn": "styr klokka", "nb": "styr klokken", "da": "styr uret", "en": "run the clock"},
    "clock.start": {
        "nn": "start nivå 1", "nb": "start nivå 1", "da": "start niveau 1",
        "en": "start level 1"},
    "clock.pause": {
        "nn": "stopp klokka", "nb": "stopp klokken", "da": "stop uret", "en": "pause"},
    "clock.resume": {
        "nn": "start klokka att", "nb": "start klokken igjen", "da": "start uret igen",
        "en": "resume"},
    "clock.next": {
        "nn": "neste nivå", "nb": "neste nivå", "da": "næste niveau", "en": "next level"},
    "clock.prev": {
        "nn": "førre nivå", "nb": "forrige nivå", "da": "forrige niveau",
        "en": "previous level"},
    "clock.add": {
        "nn": "legg til (eller med minus, trekk frå) sekund",
        "nb": "legg til (eller med minus, trekk fra) sekunder",
        "da": "læg sekunder til (eller med minus, træk fra)",
        "en": "add (or with a minus, remove) seconds"},
    "clock.seconds": {
        "nn": "sekund, til dømes 60 eller -30", "nb": "sekunder, for eksempel 60 eller -30",
        "da": "sekunder, for eksempel 60 eller -30", "en": "seconds, e.g. 60 or -30"},
    "hand-for-hand": {
        "nn": "hand for hand (C7): kvart bord trykkjer FERDIG og ventar på dei andre",
        "nb": "hånd for hånd (C7): hvert bord trykker FERDIG og venter på de andre",
        "da": "hånd for hånd (C7): hvert bord trykker FÆRDIG og venter på de andre",
        "en": "hand-for-hand play (C7): every table presses HAND DONE and waits for the "
              "others"},
    "hand-for-hand.state": {
        "nn": "på (on) eller av (off)", "nb": "på (on) eller av (off)",
        "da": "til (on) eller fra (off)", "en": "on or off"},
    "bust": {
        "nn": "ein spelar er slått ut", "nb": "en spiller er slått ut",
        "da": "en spiller er slået ud", "en": "a player is out"},
    "bust.name": {
        "nn": "namnet på spelaren (med --same-hand: eitt namn per spelar, namn med "
              "mellomrom i hermeteikn)",
        "nb": "navnet på spilleren (med --same-hand: ett navn per spiller, navn med "
              "mellomrom i anførselstegn)",
        "da": "spillerens navn (med --same-hand: ét navn per spiller, navne med "
              "mellemrum i anførselstegn)",
        "en": "the player's name (with --same-hand: one name per player, names with "
              "spaces in quotes)"},
    "bust.same-hand": {
        "nn": "fleire spelarar ute i same hand (F3): den som starta handa med flest "
              "sjetongar (--stacks) får den beste plassen, like stackar deler plass; utan "
              "--stacks gjeld rekkjefølgja namna står i, beste plass først",
        "nb": "flere spillere ute i samme hånd (F3): den som startet hånden med flest "
              "sjetonger (--stacks) får den beste plassen, like stacker deler plass; uten "
              "--stacks gjelder rekkefølgen navnene står i, beste plass først",
        "da": "flere spillere ude i samme hånd (F3): den, der startede hånden med flest "
              "jetoner (--stacks), får den bedste plads, lige stacks deler plads; uden "
              "--stacks gælder navnenes rækkefølge, bedste plads først",
        "en": "several players out in one hand (F3): who started the hand with more chips "
              "(--stacks) finishes higher, equal stacks share a place; without --stacks "
              "the order of the names counts, best place first"},
    "bust.stacks": {
        "nn": "sjetongane kvar spelar hadde før handa, i same rekkjefølgje som namna",
        "nb": "sjetongene hver spiller hadde før hånden, i samme rekkefølge som navnene",
        "da": "jetonerne hver spiller havde før hånden, i samme rækkefølge som navnene",
        "en": "the chips each player had before the hand, in the order of the names"},
    "move": {
        "nn": "flytt ein spelar til eit anna bord, eller stadfest ei flytting",
        "nb": "flytt en spiller til et annet bord, eller bekreft en flytting",
        "da": "flyt en spiller til et andet bord, eller bekræft en flytning",
        "en": "move a player to another table, or confirm a move"},
    "move.description": {
        "nn": "Send ein spelar til eit anna bord (det dårlegaste ledige setet der om ikkje "
              "eit sete er gjeve), eller stadfest at ein flytta spelar har sett seg.",
        "nb": "Send en spiller til et annet bord (det dårligste ledige setet der hvis ikke "
              "et sete er oppgitt), eller bekreft at en flyttet spiller har satt seg.",
        "da": "Send en spiller til et andet bord (det dårligste ledige sæde der, medmindre "
              "et sæde er angivet), eller bekræft, at en flyttet spiller har sat sig.",
        "en": "Send a player to another table (the worst free seat there unless a seat is "
              "given), or confirm that a moved player has sat down."},
    "move.player": {
        "nn": "namnet på spelaren (eller byrjinga av det); `confirm {player}` stadfestar",
        "nb": "navnet på spilleren (eller begynnelsen av det); `confirm {player}` bekrefter",
        "da": "spillerens navn (eller begyndelsen af det); `confirm {player}` bekræfter",
        "en": "the player's name (or its start); confirm {player} to confirm"},
    "move.to": {
        "nn": "kvar spelaren skal", "nb": "hvor spilleren skal", "da": "hvor spilleren skal hen",
        "en": "where the player goes"},
    "move.now": {
        "nn": "spelaren har alt sett seg", "nb": "spilleren har allerede satt seg",
        "da": "spilleren har allerede sat sig", "en": "the player has already sat down"},
    "table": {
        "nn": "borda", "nb": "bordene", "da": "bordene", "en": "the tables"},
    "table.break": {
        "nn": "bryt eit bord: spelarane flyttar (S3)", "nb": "bryt et bord: spillerne flytter (S3)",
        "da": "nedlæg et bord: spillerne flytter (S3)",
        "en": "break a table: its players move (S3)"},
    "table.number": {
        "nn": "nummeret på bordet", "nb": "nummeret på bordet", "da": "bordets nummer",
        "en": "the table's number"},
    "table.next": {
        "nn": "bryt det først når spelarane får plass (rekkjefølgja for bordbrot)",
        "nb": "bryt det først når spillerne får plass (rekkefølgen for bordbrudd)",
        "da": "nedlæg det først, når spillerne kan få plads (rækkefølgen for nedlæggelse)",
        "en": "break it first when the players fit (the break order)"},
    "undo": {
        "nn": "angre den siste handlinga og sei kva ho var",
        "nb": "angre den siste handlingen og si hva den var",
        "da": "fortryd den seneste handling og sig, hvad den var",
        "en": "take back the newest action and say what it was"},
    "standings.season": {
        "nn": "namnet på sesongen, til dømes 2026 (standard: sesongen til turneringa no)",
        "nb": "navnet på sesongen, for eksempel 2026 (standard: sesongen til turneringen nå)",
        "da": "sæsonens navn, for eksempel 2026 (standard: den aktuelle turnerings sæson)",
        "en": "season name, e.g. 2026 (default: the current tournament's)"},
    "json": {
        "nn": "skriv ut eit JSON-dokument (docs/cli-json.md)",
        "nb": "skriv ut et JSON-dokument (docs/cli-json.md)",
        "da": "udskriv et JSON-dokument (docs/cli-json.md)",
        "en": "print a JSON document (docs/cli-json.md)"},
    "results.show": {
        "nn": "plasseringar og poeng i ei turnering (standard: kveldens)",
        "nb": "plasseringer og poeng i en turnering (standard: kveldens)",
        "da": "placeringer og point i en turnering (standard: aftenens)",
        "en": "a tournament's places and points (default: tonight's)"},
    "players.remove": {
        "nn": "ta ein spelar utan resultat av lista",
        "nb": "ta en spiller uten resultater av listen",
        "da": "fjern en spiller uden resultater fra listen",
        "en": "take a player without results off the list"},
    # venue-key
    "venue-key": {
        "nn": "lag nøkkelen som lèt einingane i eit lokale synkronisere",
        "nb": "lag nøkkelen som lar enhetene i et lokale synkronisere",
        "da": "lav nøglen, der lader et steds enheder synkronisere",
        "en": "make the key that lets a venue's devices sync"},
    "venue-key.new": {
        "nn": "lag ein lokalnøkkel; skriv han ut heksadesimalt og som QR-kode til neste eining",
        "nb": "lag en lokalnøkkel; skriv den ut heksadesimalt og som QR-kode til neste enhet",
        "da": "lav en stednøgle; udskriv den hexadecimalt og som QR-kode til næste enhed",
        "en": "generate a venue key; print it as hex and as a QR code for the next device"},
    "venue-key.no-qr": {
        "nn": "skriv berre ut nøkkelen", "nb": "skriv bare ut nøkkelen",
        "da": "udskriv kun nøglen", "en": "print only the hex key"},
}

#: argparse's own words (Python 3.11), as the help formatter shows them.
ARGPARSE: Final[dict[str, dict[str, str]]] = {
    "usage: ": {"nn": "bruk: ", "nb": "bruk: ", "da": "brug: ", "en": "usage: "},
    "positional arguments": {"nn": "argument", "nb": "argumenter", "da": "argumenter",
                             "en": "positional arguments"},
    "options": {"nn": "val", "nb": "valg", "da": "tilvalg", "en": "options"},
    "show this help message and exit": {
        "nn": "vis denne hjelpeteksten og avslutt", "nb": "vis denne hjelpeteksten og avslutt",
        "da": "vis denne hjælpetekst og afslut", "en": "show this help message and exit"},
    "show program's version number and exit": {
        "nn": "vis versjonsnummeret og avslutt", "nb": "vis versjonsnummeret og avslutt",
        "da": "vis versionsnummeret og afslut",
        "en": "show program's version number and exit"},
}

#: The placeholder of a value in the usage line, by its English name: the option's
#: name in capitals (``--seats SEATS``) or the metavar a command gives (``NAME``).
METAVARS: Final[dict[str, dict[str, str]]] = {
    "COMMAND": {"nn": "KOMMANDO", "nb": "KOMMANDO", "da": "KOMMANDO"},
    "ACTION": {"nn": "HANDLING", "nb": "HANDLING", "da": "HANDLING"},
    "WHAT": {"nn": "KVA", "nb": "HVA", "da": "HVAD"},
    "PATH": {"nn": "STI", "nb": "STI", "da": "STI"},
    "DIR": {"nn": "MAPPE", "nb": "MAPPE", "da": "MAPPE"},
    "DATA_DIR": {"nn": "MAPPE", "nb": "MAPPE", "da": "MAPPE"},
    "FILE": {"nn": "FIL", "nb": "FIL", "da": "FIL"},
    "CONFIG": {"nn": "FIL", "nb": "FIL", "da": "FIL"},
    "SCREENSHOT": {"nn": "FIL", "nb": "FIL", "da": "FIL"},
    "NAME": {"nn": "NAMN", "nb": "NAVN", "da": "NAVN"},
    "NEW_NAME": {"nn": "NYTT_NAMN", "nb": "NYTT_NAVN", "da": "NYT_NAVN"},
    "TOURNAMENT": {"nn": "TURNERING", "nb": "TURNERING", "da": "TURNERING"},
    "PLAYER": {"nn": "SPELAR", "nb": "SPILLER", "da": "SPILLER"},
    "TABLE[:SEAT]": {"nn": "BORD[:SETE]", "nb": "BORD[:SETE]", "da": "BORD[:SÆDE]"},
    "SEASON": {"nn": "SESONG", "nb": "SESONG", "da": "SÆSON"},
    "ROLE": {"nn": "ROLLE", "nb": "ROLLE", "da": "ROLLE"},
    "SIZE": {"nn": "STORLEIK", "nb": "STØRRELSE", "da": "STØRRELSE"},
    "SPEED": {"nn": "FART", "nb": "FART", "da": "FART"},
    "SEED": {"nn": "FRØ", "nb": "FRØ", "da": "FRØ"},
    "FRAMES": {"nn": "TAL", "nb": "ANTALL", "da": "ANTAL"},
    "ENTRANTS": {"nn": "TAL", "nb": "ANTALL", "da": "ANTAL"},
    "PLAYERS": {"nn": "TAL", "nb": "ANTALL", "da": "ANTAL"},
    "SEATS": {"nn": "TAL", "nb": "ANTALL", "da": "ANTAL"},
    "CAPACITY": {"nn": "TAL", "nb": "ANTALL", "da": "ANTAL"},
    "TABLES": {"nn": "TAL", "nb": "ANTALL", "da": "ANTAL"},
    "STATE": {"nn": "TILSTAND", "nb": "TILSTAND", "da": "TILSTAND"},
    "SECONDS": {"nn": "SEKUND", "nb": "SEKUNDER", "da": "SEKUNDER"},
    "CARD": {"nn": "UID", "nb": "UID", "da": "UID"},
    "BOARD": {"nn": "KORT", "nb": "KORT", "da": "KORT"},
    "HANDS": {"nn": "HENDER", "nb": "HENDER", "da": "HÆNDER"},
    "CHIP": {"nn": "SJETONG", "nb": "SJETONG", "da": "JETON"},
    "BLINDS": {"nn": "BLINDAR", "nb": "BLINDS", "da": "BLINDS"},
    "ACTIONS": {"nn": "HANDLINGAR", "nb": "HANDLINGER", "da": "HANDLINGER"},
    "STACKS": {"nn": "STACKAR", "nb": "STACKER", "da": "STACKS"},
    "BUTTON": {"nn": "SETE", "nb": "SETE", "da": "SÆDE"},
    "CONTRIBUTIONS": {"nn": "INNSATSAR", "nb": "INNSATSER", "da": "INDSATSER"},
    "FOLDED": {"nn": "SETE", "nb": "SETER", "da": "SÆDER"},
    "POT": {"nn": "POTT", "nb": "POTT", "da": "POT"},
}


def help_text(key: str, lang: str, **params: object) -> str:
    """The help text ``key`` in ``lang`` (English when the language is unknown).

    >>> help_text("clock.next", "da"), help_text("config.check.path", "en", path="x.toml")
    ('næste niveau', 'the file (default: x.toml)')
    """
    texts = HELP[key]
    text = texts.get(lang) or texts["en"]
    return text.format(**params) if params else text
