"""Why the tournament refuses a command or an event, in the venue's words."""

from __future__ import annotations

from rules.errors import RulesError

__all__ = [
    "AlreadyCheckedIn",
    "AlreadyCreated",
    "BothPlaying",
    "CannotReenter",
    "CloseNotUndoable",
    "DuplicateName",
    "DuplicatePlayer",
    "LateRegistrationClosedError",
    "MoveNotProposed",
    "MoveNotValid",
    "NamedTwice",
    "NoOneLeftToWin",
    "NoTournament",
    "NotEnoughPlayers",
    "NotHandForHand",
    "NotSeated",
    "NothingToUndo",
    "PlayerAlreadyOut",
    "SamePlayer",
    "SeatTaken",
    "SeatingNotValid",
    "SeatsAlreadyDrawn",
    "SeatsNotDrawn",
    "SitAndGoNotValid",
    "TournamentClosedError",
    "TournamentFinished",
    "TournamentNotClosed",
    "UndoWindowPassed",
    "UnknownPlayer",
    "UnknownTable",
    "WinnerOfPotOut",
    "WrongTable",
]


class NoTournament(RulesError, LookupError):
    messages = {
        "nn": "Det finst inga turnering å gjere dette i",
        "nb": "Det finnes ingen turnering å gjøre dette i",
        "da": "Der er ingen turnering at gøre dette i",
        "en": "There is no tournament to do this in",
    }


class AlreadyCreated(RulesError, ValueError):
    messages = {
        "nn": "Turneringa er allereie oppretta",
        "nb": "Turneringen er allerede opprettet",
        "da": "Turneringen er allerede oprettet",
        "en": "The tournament already exists",
    }


class UnknownPlayer(RulesError, LookupError):
    messages = {
        "nn": "Ukjend spelar: {player}",
        "nb": "Ukjent spiller: {player}",
        "da": "Ukendt spiller: {player}",
        "en": "Unknown player: {player}",
    }


class DuplicatePlayer(RulesError, ValueError):
    messages = {
        "nn": "{player} er allereie påmeld",
        "nb": "{player} er allerede påmeldt",
        "da": "{player} er allerede tilmeldt",
        "en": "{player} is already registered",
    }


class SamePlayer(RulesError, ValueError):
    messages = {
        "nn": "«{name}» og «{name}» er same spelar; ingenting å slå saman",
        "nb": "«{name}» og «{name}» er samme spiller; ingenting å slå sammen",
        "da": "«{name}» og «{name}» er samme spiller; intet at lægge sammen",
        "en": "'{name}' and '{name}' are the same player; nothing to merge",
    }


class BothPlaying(RulesError, ValueError):
    messages = {
        "nn": ("{keep} og {name} er begge med i kveldens turnering, så dei er to personar; "
               "ingenting er slått saman"),
        "nb": ("{keep} og {name} er begge med i kveldens turnering, så de er to personer; "
               "ingenting er slått sammen"),
        "da": ("{keep} og {name} er begge med i aftenens turnering, så de er to personer; "
               "intet er lagt sammen"),
        "en": ("{keep} and {name} both play in tonight's tournament, so they are two people; "
               "nothing was merged"),
    }


class DuplicateName(RulesError, ValueError):
    messages = {
        "nn": "Det finst alt ein spelar som heiter «{name}»",
        "nb": "Det finnes allerede en spiller som heter «{name}»",
        "da": "Der er allerede en spiller, der hedder «{name}»",
        "en": "There is already a player called '{name}'",
    }


class CannotReenter(RulesError, ValueError):
    messages = {
        "nn": "{player} er slått ut og kan ikkje kome inn att (freezeout)",
        "nb": "{player} er slått ut og kan ikke komme inn igjen (freezeout)",
        "da": "{player} er slået ud og kan ikke komme ind igen (freezeout)",
        "en": "{player} is eliminated and cannot re-enter (freezeout)",
    }


class AlreadyCheckedIn(RulesError, ValueError):
    messages = {
        "nn": "{player} er allereie sjekka inn",
        "nb": "{player} er allerede sjekket inn",
        "da": "{player} er allerede tjekket ind",
        "en": "{player} is already checked in",
    }


class LateRegistrationClosedError(RulesError, ValueError):
    messages = {
        "nn": "Sein påmelding er stengd",
        "nb": "Sen påmelding er stengt",
        "da": "Sen tilmelding er lukket",
        "en": "Late registration is closed",
    }


class TournamentClosedError(RulesError, ValueError):
    messages = {
        "nn": ("Turneringa er avslutta, og resultata står: opne ho att med "
               "«pubpoker tournament reopen --yes» for å endre noko"),
        "nb": ("Turneringen er avsluttet, og resultatene står: åpne den igjen med "
               "«pubpoker tournament reopen --yes» for å endre noe"),
        "da": ("Turneringen er afsluttet, og resultaterne står fast: åbn den igen med "
               "«pubpoker tournament reopen --yes» for at ændre noget"),
        "en": ("The tournament is closed and its results stand: reopen it with "
               "'pubpoker tournament reopen --yes' to change anything"),
    }


class CloseNotUndoable(RulesError, ValueError):
    messages = {
        "nn": ("Ei avslutting vert ikkje angra: turneringa er opna att med "
               "«pubpoker tournament reopen --yes», og den opninga kan angrast"),
        "nb": ("En avslutning angres ikke: turneringen er åpnet igjen med "
               "«pubpoker tournament reopen --yes», og den åpningen kan angres"),
        "da": ("En afslutning fortrydes ikke: turneringen er åbnet igen med "
               "«pubpoker tournament reopen --yes», og den åbning kan fortrydes"),
        "en": ("A close is not undone: the tournament was reopened with "
               "'pubpoker tournament reopen --yes', and that reopen can be undone"),
    }


class TournamentNotClosed(RulesError, ValueError):
    messages = {
        "nn": "Turneringa er ikkje avslutta",
        "nb": "Turneringen er ikke avsluttet",
        "da": "Turneringen er ikke afsluttet",
        "en": "The tournament is not closed",
    }


class TournamentFinished(RulesError, ValueError):
    messages = {
        "nn": "Turneringa er ferdig",
        "nb": "Turneringen er ferdig",
        "da": "Turneringen er slut",
        "en": "The tournament is over",
    }


class SeatsNotDrawn(RulesError, ValueError):
    messages = {
        "nn": "Bordplasseringa er ikkje trekt enno",
        "nb": "Bordplasseringen er ikke trukket ennå",
        "da": "Bordplaceringen er ikke trukket endnu",
        "en": "The seats have not been drawn yet",
    }


class SeatsAlreadyDrawn(RulesError, ValueError):
    messages = {
        "nn": "Bordplasseringa er allereie trekt",
        "nb": "Bordplasseringen er allerede trukket",
        "da": "Bordplaceringen er allerede trukket",
        "en": "The seats have already been drawn",
    }


class NotEnoughPlayers(RulesError, ValueError):
    messages = {
        "nn": "For få spelarar sjekka inn ({count}); minst {needed} trengst",
        "nb": "For få spillere sjekket inn ({count}); minst {needed} trengs",
        "da": "For få spillere tjekket ind ({count}); mindst {needed} kræves",
        "en": "Too few players checked in ({count}); at least {needed} needed",
    }


class PlayerAlreadyOut(RulesError, ValueError):
    messages = {
        "nn": "{player} er allereie slått ut",
        "nb": "{player} er allerede slått ut",
        "da": "{player} er allerede slået ud",
        "en": "{player} is already eliminated",
    }


class NamedTwice(RulesError, ValueError):
    """One player named twice among one hand's busts."""

    messages = {
        "nn": "{player} er nemnd to gonger i same hand",
        "nb": "{player} er nevnt to ganger i samme hånd",
        "da": "{player} er nævnt to gange i samme hånd",
        "en": "{player} is named twice in one hand",
    }


class NoOneLeftToWin(RulesError, ValueError):
    """F4: every player left named out in one hand; one of them wins instead."""

    messages = {
        "nn": "Alle dei {left} spelarane som er att kan ikkje gå ut i same hand: "
              "ein av dei vinn turneringa",
        "nb": "Alle de {left} spillerne som er igjen kan ikke gå ut i samme hånd: "
              "en av dem vinner turneringen",
        "da": "Alle de {left} spillere, der er tilbage, kan ikke gå ud i samme hånd: "
              "en af dem vinder turneringen",
        "en": "All {left} players left cannot be out in one hand: one of them wins "
              "the tournament",
    }


class WinnerOfPotOut(RulesError, ValueError):
    """The player who won the pot is among those it put out."""

    messages = {
        "nn": "{player} kan ikkje både vinne potten og gå ut på den",
        "nb": "{player} kan ikke både vinne potten og gå ut på den",
        "da": "{player} kan ikke både vinde puljen og gå ud på den",
        "en": "{player} cannot both win the pot and be out on it",
    }


class NotSeated(RulesError, ValueError):
    messages = {
        "nn": "{player} er ikkje i spel",
        "nb": "{player} er ikke med i spillet",
        "da": "{player} er ikke med i spillet",
        "en": "{player} is not in play",
    }


class WrongTable(RulesError, ValueError):
    messages = {
        "nn": "{player} sit ikkje ved bord {table}",
        "nb": "{player} sitter ikke ved bord {table}",
        "da": "{player} sidder ikke ved bord {table}",
        "en": "{player} is not at table {table}",
    }


class UnknownTable(RulesError, LookupError):
    messages = {
        "nn": "Bord {table} er ikkje i bruk",
        "nb": "Bord {table} er ikke i bruk",
        "da": "Bord {table} er ikke i brug",
        "en": "Table {table} is not in use",
    }


class SeatTaken(RulesError, ValueError):
    messages = {
        "nn": "Bord {table}, sete {seat} er ikkje ledig",
        "nb": "Bord {table}, sete {seat} er ikke ledig",
        "da": "Bord {table}, sæde {seat} er ikke ledigt",
        "en": "Table {table}, seat {seat} is not free",
    }


class SeatingNotValid(RulesError, ValueError):
    messages = {
        "nn": "Bordplasseringa stemmer ikkje: {reason}",
        "nb": "Bordplasseringen stemmer ikke: {reason}",
        "da": "Bordplaceringen passer ikke: {reason}",
        "en": "The seating does not fit: {reason}",
    }


class MoveNotProposed(RulesError, LookupError):
    messages = {
        "nn": "Ingen flytting av {player} ventar",
        "nb": "Ingen flytting av {player} venter",
        "da": "Ingen flytning af {player} venter",
        "en": "No move of {player} is pending",
    }


class MoveNotValid(RulesError, ValueError):
    messages = {
        "nn": "Flyttinga av {player} går ikkje: {reason}",
        "nb": "Flyttingen av {player} går ikke: {reason}",
        "da": "Flytningen af {player} kan ikke lade sig gøre: {reason}",
        "en": "The move of {player} is not possible: {reason}",
    }


class NotHandForHand(RulesError, ValueError):
    messages = {
        "nn": "Det blir ikkje spela hand for hand no",
        "nb": "Det spilles ikke hånd for hånd nå",
        "da": "Der spilles ikke hånd for hånd nu",
        "en": "Hand-for-hand play is not on",
    }


class SitAndGoNotValid(RulesError, ValueError):
    messages = {
        "nn": "Sit & Go: {reason}",
        "nb": "Sit & Go: {reason}",
        "da": "Sit & Go: {reason}",
        "en": "Sit & Go: {reason}",
    }


class NothingToUndo(RulesError, LookupError):
    messages = {
        "nn": "Ingenting å angre",
        "nb": "Ingenting å angre",
        "da": "Intet at fortryde",
        "en": "Nothing to undo",
    }


class UndoWindowPassed(RulesError, ValueError):
    messages = {
        "nn": "For seint å angre her; be turneringsleiaren",
        "nb": "For sent å angre her; spør turneringslederen",
        "da": "For sent at fortryde her; spørg turneringslederen",
        "en": "Too late to undo here; ask the TD",
    }
