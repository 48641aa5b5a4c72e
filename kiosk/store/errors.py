"""The store's errors and status-line notices, in every language.

Errors a TD may read are :class:`~rules.errors.RulesError` subclasses, so the
CLI prints them translated and exits 2. None of them ever carries a card
number: a refused payment card is named by its line, never by its digits.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import ClassVar, Final

from rules.errors import RulesError
from rules.i18n import DEFAULT_LANGUAGE
from rules.records import RecordMethods, record

__all__ = [
    "PAYMENT_CARD",
    "BackupFailed",
    "BackupNotAFile",
    "BackupOfDamagedStore",
    "BadCard",
    "CardInUse",
    "DiskFull",
    "DuplicatePlayer",
    "EmptyName",
    "EventConflict",
    "ForeignStore",
    "NoStore",
    "Notice",
    "PaymentCardRefused",
    "PlayerHasResults",
    "StoreError",
    "StoreLocked",
    "StoreNoPermission",
    "StoreReadOnly",
    "StoreTooNew",
    "StoreUnreadable",
    "StoreWriteFailed",
    "UnknownPlayer",
    "UnknownSeason",
    "UnknownTournament",
    "UnreadableFile",
]


class StoreError(RulesError):
    """Base of every refusal or failure from the event store."""

    messages = {
        "nn": "Feil i databasen",
        "nb": "Feil i databasen",
        "da": "Fejl i databasen",
        "en": "Store error",
    }


class StoreWriteFailed(StoreError, OSError):
    """Nothing of the failed write was kept; the caller's state stays as it was."""

    messages = {
        "nn": "Kunne ikkje lagre (lese-/skrivefeil på disken). Ingenting er endra.",
        "nb": "Kunne ikke lagre (lese-/skrivefeil på disken). Ingenting er endret.",
        "da": "Kunne ikke gemme (læse-/skrivefejl på disken). Intet er ændret.",
        "en": "Could not save (disk read/write error). Nothing was changed.",
    }


class DiskFull(StoreWriteFailed):
    """The data dir's file system has no room: nothing was changed and nothing is lost.

    Raised on a write that hit SQLITE_FULL, and at open when the disk has no
    room for SQLite's shared-memory file; the file is never set aside for it.
    """

    messages = {
        "nn": "Minnekortet er fullt: kunne ikkje lagre. Ingenting er endra eller tapt. "
              "Frigjer plass på kortet, så held det fram av seg sjølv.",
        "nb": "Minnekortet er fullt: kunne ikke lagre. Ingenting er endret eller tapt. "
              "Frigjør plass på kortet, så fortsetter det av seg selv.",
        "da": "Hukommelseskortet er fuldt: kunne ikke gemme. Intet er ændret eller tabt. "
              "Frigør plads på kortet, så fortsætter det af sig selv.",
        "en": "The memory card is full: could not save. Nothing was changed or lost. "
              "Free some space on the card and it carries on by itself.",
    }


class StoreReadOnly(StoreWriteFailed):
    """The database file or its file system refuses writes (EROFS, SQLITE_READONLY)."""

    messages = {
        "nn": "Databasen {path} kan berre lesast (skriveverna fil eller disk): kunne ikkje "
              "lagre. Ingenting er endra eller tapt.",
        "nb": "Databasen {path} kan bare leses (skrivebeskyttet fil eller disk): kunne ikke "
              "lagre. Ingenting er endret eller tapt.",
        "da": "Databasen {path} kan kun læses (skrivebeskyttet fil eller disk): kunne ikke "
              "gemme. Intet er ændret eller tabt.",
        "en": "The database {path} is read-only (a write-protected file or disk): could "
              "not save. Nothing was changed or lost.",
    }


class StoreNoPermission(StoreError, PermissionError):
    messages = {
        "nn": "Brukaren {user} har ikkje lov til å bruke databasen {path}. Ingenting er "
              "endra; gje brukaren løyve til fila, eller køyr som eigaren hennar.",
        "nb": "Brukeren {user} har ikke lov til å bruke databasen {path}. Ingenting er "
              "endret; gi brukeren tillatelse til filen, eller kjør som eieren.",
        "da": "Brugeren {user} må ikke bruge databasen {path}. Intet er ændret; giv "
              "brugeren adgang til filen, eller kør som dens ejer.",
        "en": "The user {user} may not use the database {path}. Nothing was changed; give "
              "the user access to the file, or run as its owner.",
    }


class ForeignStore(StoreError, ValueError):
    """A valid SQLite file that is not pubpoker's: refused, never migrated or moved."""

    messages = {
        "nn": "Fila {path} er ein SQLite-database frå eit anna program (tabellen "
              "«{table}» passar ikkje). Fila er ikkje endra. Vel ei anna datamappe med "
              "--data-dir eller data_dir under [device] i pubpoker.toml.",
        "nb": "Filen {path} er en SQLite-database fra et annet program (tabellen "
              "«{table}» passer ikke). Filen er ikke endret. Velg en annen datamappe med "
              "--data-dir eller data_dir under [device] i pubpoker.toml.",
        "da": "Filen {path} er en SQLite-database fra et andet program (tabellen "
              "«{table}» passer ikke). Filen er ikke ændret. Vælg en anden datamappe med "
              "--data-dir eller data_dir under [device] i pubpoker.toml.",
        "en": "The file {path} is an SQLite database from another program (the table "
              "'{table}' does not fit). The file was not changed. Choose another data "
              "directory with --data-dir or data_dir under [device] in pubpoker.toml.",
    }


class StoreUnreadable(StoreError, OSError):
    """SQLite reported an I/O error (not damage): the file is left where it is."""

    messages = {
        "nn": "Kunne ikkje lese databasen {path} (lese-/skrivefeil på disken). Fila er "
              "ikkje endra.",
        "nb": "Kunne ikke lese databasen {path} (lese-/skrivefeil på disken). Filen er "
              "ikke endret.",
        "da": "Kunne ikke læse databasen {path} (læse-/skrivefejl på disken). Filen er "
              "ikke ændret.",
        "en": "Could not read the database {path} (disk read/write error). The file was "
              "not changed.",
    }


class BackupFailed(StoreWriteFailed):
    messages = {
        "nn": "Tryggingskopien til {path} feila: {reason}",
        "nb": "Sikkerhetskopien til {path} feilet: {reason}",
        "da": "Sikkerhedskopien til {path} mislykkedes: {reason}",
        "en": "The backup to {path} failed: {reason}",
    }


class BackupNotAFile(BackupFailed):
    messages = {
        "nn": "Tryggingskopien til {path} feila: det er ikkje ei vanleg fil eller mappe; "
              "skriv namnet på ei ny fil",
        "nb": "Sikkerhetskopien til {path} feilet: det er ikke en vanlig fil eller mappe; "
              "skriv navnet på en ny fil",
        "da": "Sikkerhedskopien til {path} mislykkedes: det er ikke en almindelig fil eller "
              "mappe; skriv navnet på en ny fil",
        "en": "The backup to {path} failed: it is not an ordinary file or folder; give the "
              "name of a new file",
    }


class BackupOfDamagedStore(BackupFailed):
    messages = {
        "nn": "Tryggingskopien til {path} feila: databasen har skade inne i fila, så ingen "
              "kopi vart laga. Køyr «pubpoker doctor»; kiosken flyttar henne til side "
              "ved neste start",
        "nb": "Sikkerhetskopien til {path} feilet: databasen har skade inne i filen, så ingen "
              "kopi ble laget. Kjør «pubpoker doctor»; kiosken flytter den til side "
              "ved neste start",
        "da": "Sikkerhedskopien til {path} mislykkedes: databasen har skade inde i filen, så "
              "der blev ikke lavet nogen kopi. Kør «pubpoker doctor»; kiosken flytter "
              "den til side ved næste start",
        "en": "The backup to {path} failed: the database is damaged inside the file, so no "
              "copy was made. Run 'pubpoker doctor'; the kiosk sets it aside at its "
              "next start",
    }


class StoreLocked(StoreError, OSError):
    messages = {
        "nn": "Databasen er i bruk av eit anna program. Prøv igjen.",
        "nb": "Databasen er i bruk av et annet program. Prøv igjen.",
        "da": "Databasen bruges af et andet program. Prøv igen.",
        "en": "The database is busy in another program. Try again.",
    }


class StoreTooNew(StoreError, RuntimeError):
    messages = {
        "nn": "Databasen er frå ein nyare versjon (skjema {found}, denne les {known}). "
              "Oppdater programmet.",
        "nb": "Databasen er fra en nyere versjon (skjema {found}, denne leser {known}). "
              "Oppdater programmet.",
        "da": "Databasen er fra en nyere version (skema {found}, denne læser {known}). "
              "Opdatér programmet.",
        "en": "The database is from a newer version (schema {found}, this one reads "
              "{known}). Update the software.",
    }


class EventConflict(StoreError, ValueError):
    """Two different events claim one (device, seq): kept the first, reported the second."""

    messages = {
        "nn": "To ulike hendingar frå eining {device_id} har same nummer {seq}",
        "nb": "To ulike hendelser fra enhet {device_id} har samme nummer {seq}",
        "da": "To forskellige hændelser fra enhed {device_id} har samme nummer {seq}",
        "en": "Two different events from device {device_id} share number {seq}",
    }


#: What a payment card offered as a player card gets, wherever it is offered
#: (check-in on the wall or ``pubpoker checkin``, ``players add``, ``link-card``,
#: an import): one sentence, so the TD reads one answer for one card.
PAYMENT_CARD: Final[dict[str, str]] = {
    "nn": "Det ser ut som eit betalingskort – bruk spelarkortet. Betalingskort vert aldri "
          "lagra.",
    "nb": "Det ser ut som et betalingskort – bruk spillerkortet. Betalingskort blir aldri "
          "lagret.",
    "da": "Det ligner et betalingskort – brug spillerkortet. Betalingskort gemmes aldrig.",
    "en": "That looks like a payment card – use the player card. Payment cards are never "
          "stored.",
}


class PaymentCardRefused(StoreError, ValueError):
    """A bank card was offered as a player card. The number is never repeated."""

    messages = PAYMENT_CARD


class EmptyName(StoreError, ValueError):
    messages = {
        "nn": "Namnet kan ikkje vere tomt",
        "nb": "Navnet kan ikke være tomt",
        "da": "Navnet må ikke være tomt",
        "en": "The name cannot be empty",
    }


class DuplicatePlayer(StoreError, ValueError):
    messages = {
        "nn": "Det finst allereie ein spelar som heiter «{name}»",
        "nb": "Det finnes allerede en spiller som heter «{name}»",
        "da": "Der findes allerede en spiller ved navn «{name}»",
        "en": "There is already a player called '{name}'",
    }


class UnknownPlayer(StoreError, LookupError):
    messages = {
        "nn": "Ukjend spelar «{name}»",
        "nb": "Ukjent spiller «{name}»",
        "da": "Ukendt spiller «{name}»",
        "en": "Unknown player '{name}'",
    }


class PlayerHasResults(StoreError, ValueError):
    messages = {
        "nn": "{name} har resultat og kan ikkje fjernast (dei tel i tabellen)",
        "nb": "{name} har resultater og kan ikke fjernes (de teller i tabellen)",
        "da": "{name} har resultater og kan ikke fjernes (de tæller i stillingen)",
        "en": "{name} has results and cannot be removed (they count in the standings)",
    }


class CardInUse(StoreError, ValueError):
    messages = {
        "nn": "Kortet {uid} høyrer allereie til {owner}",
        "nb": "Kortet {uid} tilhører allerede {owner}",
        "da": "Kortet {uid} tilhører allerede {owner}",
        "en": "Card {uid} already belongs to {owner}",
    }


class BadCard(StoreError, ValueError):
    messages = {
        "nn": "«{uid}» er ikkje eit gyldig kortnummer",
        "nb": "«{uid}» er ikke et gyldig kortnummer",
        "da": "«{uid}» er ikke et gyldigt kortnummer",
        "en": "'{uid}' is not a valid card number",
    }


class NoStore(StoreError, FileNotFoundError):
    messages = {
        "nn": "Det finst ingen database i {path}. Bruk --data-dir for å peike på han.",
        "nb": "Det finnes ingen database i {path}. Bruk --data-dir for å peke på den.",
        "da": "Der er ingen database i {path}. Brug --data-dir til at pege på den.",
        "en": "There is no store at {path}. Use --data-dir to point to it.",
    }


class UnreadableFile(StoreError, OSError):
    messages = {
        "nn": "Kan ikkje bruke fila {path}: {reason}",
        "nb": "Kan ikke bruke filen {path}: {reason}",
        "da": "Kan ikke bruge filen {path}: {reason}",
        "en": "Cannot use the file {path}: {reason}",
    }


class UnknownTournament(StoreError, LookupError):
    messages = {
        "nn": "Ukjend turnering «{name}»",
        "nb": "Ukjent turnering «{name}»",
        "da": "Ukendt turnering «{name}»",
        "en": "Unknown tournament '{name}'",
    }


class UnknownSeason(StoreError, LookupError):
    messages = {
        "nn": "Ingen turneringar i sesongen «{season}»",
        "nb": "Ingen turneringer i sesongen «{season}»",
        "da": "Ingen turneringer i sæsonen «{season}»",
        "en": "No tournaments in season '{season}'",
    }


@record
class Notice(RecordMethods):
    """A message for the display's status line, translated when drawn.

    >>> Notice("clock-restored").translate("en")
    'Power cut: press pause or run «pubpoker clock resume»'
    """

    key: str
    params: Mapping[str, object] = field(default_factory=dict)

    CATALOGUE: ClassVar[Mapping[str, Mapping[str, str]]] = {
        "store-corrupt": {
            "nn": "Databasen var øydelagd og er flytta til {moved_to}. Starta på nytt med "
                  "tom database.",
            "nb": "Databasen var ødelagt og er flyttet til {moved_to}. Startet på nytt med "
                  "tom database.",
            "da": "Databasen var beskadiget og er flyttet til {moved_to}. Startede forfra "
                  "med en tom database.",
            "en": "The database was damaged and was moved to {moved_to}. Started again "
                  "with an empty store.",
        },
        "clock-restored": {
            "nn": "Straumbrot: trykk pause eller køyr «pubpoker clock resume»",
            "nb": "Strømbrudd: trykk pause eller kjør «pubpoker clock resume»",
            "da": "Strømsvigt: tryk pause eller kør «pubpoker clock resume»",
            "en": "Power cut: press pause or run «pubpoker clock resume»",
        },
        "disk-full": {
            "nn": "Minnekortet er fullt: nye trykk vert ikkje lagra før det er plass",
            "nb": "Minnekortet er fullt: nye trykk blir ikke lagret før det er plass",
            "da": "Hukommelseskortet er fuldt: nye tryk gemmes ikke, før der er plads",
            "en": "The memory card is full: new presses are not saved until there is room",
        },
        "disk-low": {
            "nn": "Lite plass på minnekortet ({free} MB att): frigjer plass",
            "nb": "Lite plass på minnekortet ({free} MB igjen): frigjør plass",
            "da": "Lidt plads på hukommelseskortet ({free} MB tilbage): frigør plads",
            "en": "Little room on the memory card ({free} MB left): free some space",
        },
        "unreadable-events": {
            "nn": "{count} hendingar frå ein nyare versjon vart ikkje lesne",
            "nb": "{count} hendelser fra en nyere versjon ble ikke lest",
            "da": "{count} hændelser fra en nyere version blev ikke læst",
            "en": "{count} events from a newer version were not read",
        },
    }

    def translate(self, lang: str = DEFAULT_LANGUAGE) -> str:
        texts = self.CATALOGUE[self.key]
        return (texts.get(lang) or texts["en"]).format(**self.params)
