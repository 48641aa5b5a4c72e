"""``pubpoker.toml``: the operator's settings, read from the boot partition.

The pub's operator edits this one file on the SD card's boot partition (from
any laptop, since it is FAT), so a mistake in it must come back as a sentence
that names the key and says what is wrong, in the venue's language, never as
a traceback. :func:`load_config` and :func:`parse_config` return a frozen
:class:`Config` or raise a :class:`ConfigError` (a :class:`rules.errors.RulesError`,
so the CLI prints it translated and exits 2).

The schema, with defaults in brackets (``[venue] key`` is the only required key)::

    [device]
    role = "display"        # display | console | table, or a list   [display]
    name = "TV"             # shown in the peer list                 [hostname]
    table = 3               # 1..15, required when role includes table
    language = "nn"         # nn | nb | da | en                      [nn]
    data_dir = "/data/pubpoker"                                      [auto]
    [venue]
    key = "<64 hex chars>"  # the 32-byte venue key (HMAC for peer sync)
    closing = "01:00"       # HH:MM, the Sit & Go deadline           [01:00]
    [tournament]
    preset = "pubpoker"     # pubpoker | pf-pokerklub | sit-and-go   [pubpoker]
    house = "pubpoker"      # pubpoker | pf-pokerklub | dk-club      [pubpoker]
    name = "Fredagspoker {date}"  # also {weekday}, {month}         [Pubpoker {date}]
    seats_per_table = 10    # 2..11                                  [10]
    tables = 6              # 1..15                                  [6]
    resume_after_break = true                                        [true]
    [display]
    sound = true                                                     [true]
    fullscreen = true                                                [true]
    connector = "HDMI-A-1"  # the screen to wait for and show on    [the first connected]
    [buttons]               # action = BCM pin 2..27                 [none]
    pause = 17
    [reader]                # absent: no card reader
    url = "/dev/serial0"    # a pyserial URL; a wedge's input device [/dev/serial0]
    kind = "rdm6300"        # rdm6300 | pn532 | line | wedge         [rdm6300]
    [network]
    interface = "wlan0"     # the interface mDNS uses                [all]
    [viewer]                # the players' phone page (kiosk.viewer)
    enabled = true          # serve it                               [true on a display]
    port = 8080             # 1..65535                               [8080]
    qr = true               # its QR code on the wall's clock        [true]
    [wifi]                  # absent: leave the network as it is
    country = "NO"          # required with [wifi]
    ssid = "Pub"            # required with [wifi]
    psk = "secret"          # 8..63 characters; absent: an open network
"""

from __future__ import annotations

import datetime as dt
import os
import re
import socket
import string
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Final

from hardware.inputs import KEYBOARD_ONLY, Action
from kiosk.paths import CONFIG_PATH
from kiosk.role import Role
from rules.errors import RulesError
from rules.house import PROFILES
from rules.i18n import DEFAULT_LANGUAGE, LANGUAGES, OsReason
from rules.names import TOURNAMENT_NAME_MAX, forbidden_character
from rules.structure import PRESETS

__all__ = [
    "BUTTON_ACTIONS",
    "DEFAULT_PATH",
    "NAME_FIELDS",
    "READER_KINDS",
    "ButtonsConfig",
    "Config",
    "ConfigError",
    "ConfigSyntax",
    "DeviceConfig",
    "DisplayConfig",
    "NetworkConfig",
    "ReaderConfig",
    "Role",
    "TournamentConfig",
    "VenueConfig",
    "ViewerConfig",
    "WifiConfig",
    "check_name_pattern",
    "config_problems",
    "load_config",
    "parse_config",
    "read_config_text",
]

#: Where the appliance's unit reads it (the FAT boot partition on Raspberry Pi OS).
DEFAULT_PATH = CONFIG_PATH

#: What a GPIO button may be for: every action of the one vocabulary but the
#: keyboard's own (quitting, typing a name).
BUTTON_ACTIONS: tuple[str, ...] = tuple(a.value for a in Action if a not in KEYBOARD_ONLY)
READER_KINDS: tuple[str, ...] = ("rdm6300", "pn532", "line", "wedge")
#: BCM numbers of the header's GPIO pins; 0 and 1 are the HAT EEPROM's I2C.
PIN_RANGE = (2, 27)
TABLE_RANGE = (1, 15)
SEATS_RANGE = (2, 11)
#: A pubpoker.toml is a few KiB; reading more (``/dev/zero``, a disk image
#: copied to the wrong name) would only fill the Pi's memory.
CONFIG_MAX = 256 * 1024
#: No setting needs more: the longest are paths and pyserial URLs, and a path
#: on the Pi's ext4 /data is far shorter. A longer value is a paste gone wrong.
TEXT_MAX = 255
#: The peer list on the TV shows a device's name beside its role, and the mDNS
#: label carries it (kiosk.sync.discovery keeps 40 of it).
DEVICE_NAME_MAX = 40
PORT_RANGE = (1, 65535)
#: Where the phones' page is served unless ``[viewer] port`` says otherwise.
VIEWER_PORT = 8080



# --- errors -----------------------------------------------------------------


class _Words:
    """A parameter that reads differently per language (a type name, a list with "or")."""

    def __init__(self, by_lang: Mapping[str, str]) -> None:
        self.by_lang = dict(by_lang)

    def render(self, lang: str) -> str:
        return self.by_lang.get(lang) or self.by_lang["en"]

    def __str__(self) -> str:
        return self.render("en")


def _one_of(choices: Sequence[str]) -> _Words:
    """``a, b or c`` in each language."""
    words = {"nn": "eller", "nb": "eller", "da": "eller", "en": "or"}
    items = list(choices)
    if len(items) == 1:
        return _Words({lang: items[0] for lang in words})
    return _Words({
        lang: f"{', '.join(items[:-1])} {word} {items[-1]}" for lang, word in words.items()
    })


_TYPE_WORDS: dict[str, dict[str, str]] = {
    "int": {"nn": "eit heiltal", "nb": "et heltall", "da": "et heltal", "en": "a whole number"},
    "str": {"nn": "ein tekst i hermeteikn", "nb": "en tekst i anførselstegn",
            "da": "en tekst i anførselstegn", "en": "a text in quotes"},
    "bool": {"nn": "true eller false", "nb": "true eller false", "da": "true eller false",
             "en": "true or false"},
    "table": {"nn": "ein seksjon", "nb": "en seksjon", "da": "en sektion", "en": "a section"},
    "role": {"nn": "ein rolle eller ei liste med roller",
             "nb": "en rolle eller en liste med roller",
             "da": "en rolle eller en liste med roller", "en": "a role or a list of roles"},
}


class ConfigError(RulesError, ValueError):
    """A problem in ``pubpoker.toml``; the message names the key and the problem."""

    messages = {
        "nn": "Feil i pubpoker.toml: {key}",
        "nb": "Feil i pubpoker.toml: {key}",
        "da": "Fejl i pubpoker.toml: {key}",
        "en": "Error in pubpoker.toml: {key}",
    }

    #: The key a message is about when it does not name it as a parameter.
    about: ClassVar[str] = ""

    @property
    def key(self) -> str:
        """The dotted key (``venue.key``) or section the message is about."""
        return str(self.params.get("key", self.about))

    def translate(self, lang: str = DEFAULT_LANGUAGE) -> str:
        template = self.messages.get(lang) or self.messages["en"]
        # Our own words (_Words) are whole sentences; what the operator wrote is cut short.
        values = {
            name: value.render(lang) if isinstance(value, _Words)
            else self.render_param(name, value, lang)
            for name, value in self.params.items()
        }
        return template.format(**values)


class ConfigFileMissing(ConfigError):
    messages = {
        "nn": "Fann ikkje {path}: legg pubpoker.toml på den første partisjonen på minnekortet",
        "nb": "Fant ikke {path}: legg pubpoker.toml på den første partisjonen på minnekortet",
        "da": "Fandt ikke {path}: læg pubpoker.toml på den første partition på hukommelseskortet",
        "en": "{path} not found: put pubpoker.toml on the boot partition",
    }


class ConfigUnreadable(ConfigError):
    messages = {
        "nn": "Kan ikkje lese {path}: {reason}",
        "nb": "Kan ikke lese {path}: {reason}",
        "da": "Kan ikke læse {path}: {reason}",
        "en": "Cannot read {path}: {reason}",
    }


class ConfigTooBig(ConfigError):
    messages = {
        "nn": "{path} er for stor (over {limit} KiB) til å vere ein pubpoker.toml",
        "nb": "{path} er for stor (over {limit} KiB) til å være en pubpoker.toml",
        "da": "{path} er for stor (over {limit} KiB) til at være en pubpoker.toml",
        "en": "{path} is too big (over {limit} KiB) to be a pubpoker.toml",
    }


class ConfigTooDeep(ConfigError):
    messages = {
        "nn": "pubpoker.toml har lister eller tabellar i kvarandre så djupt at ho ikkje kan "
              "lesast; ingen innstilling treng meir enn eitt nivå",
        "nb": "pubpoker.toml har lister eller tabeller i hverandre så dypt at den ikke kan "
              "leses; ingen innstilling trenger mer enn ett nivå",
        "da": "pubpoker.toml har lister eller tabeller i hinanden så dybt, at den ikke kan "
              "læses; ingen indstilling kræver mere end ét niveau",
        "en": "pubpoker.toml nests lists or tables too deeply to be read; no setting needs "
              "more than one level",
    }


class ConfigNotText(ConfigError):
    messages = {
        "nn": "{path} er ikkje ei tekstfil i UTF-8; lagra ho som UTF-8 i ein tekstredigerar",
        "nb": "{path} er ikke en tekstfil i UTF-8; lagre den som UTF-8 i en tekstredigerer",
        "da": "{path} er ikke en tekstfil i UTF-8; gem den som UTF-8 i en teksteditor",
        "en": "{path} is not UTF-8 text; save it as UTF-8 in a text editor",
    }


class ConfigSyntax(ConfigError):
    messages = {
        "nn": "pubpoker.toml har ein skrivefeil på linje {line}, teikn {column}: {detail}",
        "nb": "pubpoker.toml har en skrivefeil på linje {line}, tegn {column}: {detail}",
        "da": "pubpoker.toml har en skrivefejl på linje {line}, tegn {column}: {detail}",
        "en": "pubpoker.toml has a syntax error on line {line}, column {column}: {detail}",
    }


class MissingKey(ConfigError, KeyError):
    messages = {
        "nn": "{key} manglar: {hint}",
        "nb": "{key} mangler: {hint}",
        "da": "{key} mangler: {hint}",
        "en": "{key} is missing: {hint}",
    }

    def __str__(self) -> str:  # KeyError would quote the message
        return self.translate("en")


class UnknownKey(ConfigError, KeyError):
    messages = {
        "nn": "{key} er ukjend i pubpoker.toml; sjå etter skrivefeil",
        "nb": "{key} er ukjent i pubpoker.toml; se etter skrivefeil",
        "da": "{key} er ukendt i pubpoker.toml; se efter stavefejl",
        "en": "{key} is not a setting in pubpoker.toml; check the spelling",
    }

    def __str__(self) -> str:
        return self.translate("en")


class UnknownKeyDidYouMean(UnknownKey):
    messages = {
        "nn": "{key} er ukjend i pubpoker.toml; meinte du {suggestion}?",
        "nb": "{key} er ukjent i pubpoker.toml; mente du {suggestion}?",
        "da": "{key} er ukendt i pubpoker.toml; mente du {suggestion}?",
        "en": "{key} is not a setting in pubpoker.toml; did you mean {suggestion}?",
    }


class WrongType(ConfigError, TypeError):
    messages = {
        "nn": "{key} må vere {expected}, ikkje {value}",
        "nb": "{key} må være {expected}, ikke {value}",
        "da": "{key} skal være {expected}, ikke {value}",
        "en": "{key} must be {expected}, not {value}",
    }


class UnknownChoice(ConfigError):
    messages = {
        "nn": "{key} «{value}» er ukjend; bruk {choices}",
        "nb": "{key} «{value}» er ukjent; bruk {choices}",
        "da": "{key} «{value}» er ukendt; brug {choices}",
        "en": "{key} “{value}” is unknown; use {choices}",
    }


class OutOfRange(ConfigError):
    messages = {
        "nn": "{key} = {value} er utanfor grensene; bruk eit tal frå {low} til {high}",
        "nb": "{key} = {value} er utenfor grensene; bruk et tall fra {low} til {high}",
        "da": "{key} = {value} er uden for grænserne; brug et tal fra {low} til {high}",
        "en": "{key} = {value} is out of range; use a number from {low} to {high}",
    }


class EmptyValue(ConfigError):
    messages = {
        "nn": "{key} er tom; skriv noko mellom hermeteikna eller fjern lina",
        "nb": "{key} er tom; skriv noe mellom anførselstegnene eller fjern linjen",
        "da": "{key} er tom; skriv noget mellem anførselstegnene eller fjern linjen",
        "en": "{key} is empty; write something between the quotes or remove the line",
    }


class BadVenueKey(ConfigError):
    about = "venue.key"
    messages = {
        "nn": "venue.key må vere 64 heksadesimale teikn (0-9, a-f), som er 32 byte; "
              "denne har {length} teikn",
        "nb": "venue.key må være 64 heksadesimale tegn (0-9, a-f), som er 32 byte; "
              "denne har {length} tegn",
        "da": "venue.key skal være 64 hexadecimale tegn (0-9, a-f), som er 32 byte; "
              "denne har {length} tegn",
        "en": "venue.key must be 64 hexadecimal characters (0-9, a-f), which is 32 bytes; "
              "this one has {length}",
    }


class BadVenueKeyCharacters(ConfigError):
    about = "venue.key"
    messages = {
        "nn": "venue.key kan berre ha teikna 0-9 og a-f; «{char}» høyrer ikkje med",
        "nb": "venue.key kan bare ha tegnene 0-9 og a-f; «{char}» hører ikke med",
        "da": "venue.key må kun have tegnene 0-9 og a-f; «{char}» hører ikke til",
        "en": "venue.key may only hold the characters 0-9 and a-f; “{char}” does not belong",
    }


class BadTime(ConfigError):
    messages = {
        "nn": "{key} «{value}» er ikkje eit klokkeslett; skriv TT:MM, til dømes 01:00",
        "nb": "{key} «{value}» er ikke et klokkeslett; skriv TT:MM, for eksempel 01:00",
        "da": "{key} «{value}» er ikke et klokkeslæt; skriv TT:MM, for eksempel 01:00",
        "en": "{key} “{value}” is not a time of day; write HH:MM, for example 01:00",
    }


class DuplicatePin(ConfigError):
    about = "[buttons]"
    messages = {
        "nn": "[buttons]: pin {pin} er brukt to gonger ({actions})",
        "nb": "[buttons]: pin {pin} er brukt to ganger ({actions})",
        "da": "[buttons]: pin {pin} er brugt to gange ({actions})",
        "en": "[buttons]: pin {pin} is used twice ({actions})",
    }


class TableTooHigh(ConfigError):
    about = "device.table"
    messages = {
        "nn": "device.table = {table} er høgare enn tournament.tables = {tables}",
        "nb": "device.table = {table} er høyere enn tournament.tables = {tables}",
        "da": "device.table = {table} er højere end tournament.tables = {tables}",
        "en": "device.table = {table} is higher than tournament.tables = {tables}",
    }


class TableWithoutTableRole(ConfigError):
    about = "device.table"
    messages = {
        "nn": "device.table er sett, men device.role har ikkje table; "
              "legg til table i rolla eller fjern device.table",
        "nb": "device.table er satt, men device.role har ikke table; "
              "legg til table i rollen eller fjern device.table",
        "da": "device.table er sat, men device.role har ikke table; "
              "tilføj table til rollen eller fjern device.table",
        "en": "device.table is set but device.role does not include table; "
              "add table to the role or remove device.table",
    }


class TooLong(ConfigError):
    messages = {
        "nn": "{key} «{value}» er for lang ({length} teikn); han kan ha høgst {limit}",
        "nb": "{key} «{value}» er for lang ({length} tegn); den kan ha høyst {limit}",
        "da": "{key} «{value}» er for lang ({length} tegn); den må højst have {limit}",
        "en": "{key} “{value}” is too long ({length} characters); it may have at most {limit}",
    }


class BadText(ConfigError):
    messages = {
        "nn": "{key} «{value}» er ikkje gyldig: {rule}",
        "nb": "{key} «{value}» er ikke gyldig: {rule}",
        "da": "{key} «{value}» er ikke gyldig: {rule}",
        "en": "{key} “{value}” is not valid: {rule}",
    }


_RULE_WORDS: dict[str, dict[str, str]] = {
    "country": {"nn": "bruk landkoden med to store bokstavar, til dømes NO eller DK",
                "nb": "bruk landkoden med to store bokstaver, for eksempel NO eller DK",
                "da": "brug landekoden med to store bogstaver, for eksempel DK eller NO",
                "en": "use the two-letter country code in capitals, for example NO or DK"},
    "ssid": {"nn": "eit nettverksnamn er 1 til 32 byte",
             "nb": "et nettverksnavn er 1 til 32 byte",
             "da": "et netværksnavn er 1 til 32 byte",
             "en": "a network name is 1 to 32 bytes"},
    "psk": {"nn": "eit Wi-Fi-passord er 8 til 63 teikn",
            "nb": "et Wi-Fi-passord er 8 til 63 tegn",
            "da": "en Wi-Fi-adgangskode er 8 til 63 tegn",
            "en": "a Wi-Fi password is 8 to 63 characters"},
    "connector": {"nn": "bruk namnet på ein skjermutgang, til dømes HDMI-A-1, DSI-1 eller "
                        "Composite-1",
                  "nb": "bruk navnet på en skjermutgang, for eksempel HDMI-A-1, DSI-1 eller "
                        "Composite-1",
                  "da": "brug navnet på en skærmudgang, for eksempel HDMI-A-1, DSI-1 eller "
                        "Composite-1",
                  "en": "use the name of a screen output, for example HDMI-A-1, DSI-1 or "
                        "Composite-1"},
    "interface": {"nn": "eit grensesnittnamn som wlan0 eller eth0",
                  "nb": "et grensesnittnavn som wlan0 eller eth0",
                  "da": "et interfacenavn som wlan0 eller eth0",
                  "en": "an interface name such as wlan0 or eth0"},
    "data_dir": {"nn": "bruk ein absolutt sti, til dømes /data/pubpoker",
                 "nb": "bruk en absolutt sti, for eksempel /data/pubpoker",
                 "da": "brug en absolut sti, for eksempel /data/pubpoker",
                 "en": "use an absolute path, for example /data/pubpoker"},
    "one_line": {"nn": "skriv det på éi linje utan styreteikn",
                 "nb": "skriv det på én linje uten kontrolltegn",
                 "da": "skriv det på én linje uden kontroltegn",
                 "en": "write it on one line without control characters"},
    "name_length": {"nn": f"eit turneringsnamn kan ha høgst {TOURNAMENT_NAME_MAX} teikn "
                          "når {date}, {weekday} og {month} er fylte inn",
                    "nb": f"et turneringsnavn kan ha høyst {TOURNAMENT_NAME_MAX} tegn "
                          "når {date}, {weekday} og {month} er fylt inn",
                    "da": f"et turneringsnavn må højst have {TOURNAMENT_NAME_MAX} tegn, "
                          "når {date}, {weekday} og {month} er udfyldt",
                    "en": f"a tournament name may have at most {TOURNAMENT_NAME_MAX} "
                          "characters once {date}, {weekday} and {month} are filled in"},
    "name": {"nn": "berre {date}, {weekday} og {month} kan stå i krøllparentesar",
             "nb": "bare {date}, {weekday} og {month} kan stå i krøllparenteser",
             "da": "kun {date}, {weekday} og {month} må stå i krøllede parenteser",
             "en": "only {date}, {weekday} and {month} may stand in curly braces"},
}

_HINTS: dict[str, dict[str, str]] = {
    "venue.key": {
        "nn": "lag ein med «pubpoker venue-key new» og lim han inn under [venue] "
              "på alle einingane i lokalet",
        "nb": "lag en med «pubpoker venue-key new» og lim den inn under [venue] "
              "på alle enhetene i lokalet",
        "da": "lav en med «pubpoker venue-key new» og indsæt den under [venue] "
              "på alle enheder i lokalet",
        "en": "make one with “pubpoker venue-key new” and paste it under [venue] "
              "on every device in the venue",
    },
    "device.table": {
        "nn": "ei bordeining (role = table) treng eit bordnummer frå 1 til 15",
        "nb": "en bordenhet (role = table) trenger et bordnummer fra 1 til 15",
        "da": "en bordenhed (role = table) skal have et bordnummer fra 1 til 15",
        "en": "a table device (role = table) needs a table number from 1 to 15",
    },
    "wifi.ssid": {
        "nn": "skriv namnet på Wi-Fi-nettet, eller fjern [wifi]",
        "nb": "skriv navnet på Wi-Fi-nettet, eller fjern [wifi]",
        "da": "skriv navnet på Wi-Fi-netværket, eller fjern [wifi]",
        "en": "write the Wi-Fi network's name, or remove [wifi]",
    },
    "wifi.country": {
        "nn": "Wi-Fi vert ikkje slått på utan landkode, til dømes country = \"NO\"",
        "nb": "Wi-Fi blir ikke slått på uten landkode, for eksempel country = \"NO\"",
        "da": "Wi-Fi bliver ikke slået til uden landekode, for eksempel country = \"DK\"",
        "en": "Wi-Fi stays off without a country code, for example country = \"NO\"",
    },
}


# --- the records ------------------------------------------------------------


@dataclass(frozen=True)
class DeviceConfig:
    roles: tuple[Role, ...] = (Role.DISPLAY,)
    name: str = ""
    table: int | None = None
    language: str = DEFAULT_LANGUAGE
    #: None: choose as :func:`kiosk.paths.data_dir` does.
    data_dir: Path | None = None

    def has_role(self, role: Role | str) -> bool:
        return Role(role) in self.roles


@dataclass(frozen=True)
class VenueConfig:
    #: The 32-byte key every frame and event is signed with.
    key: bytes
    closing: dt.time = dt.time(1, 0)

    def __repr__(self) -> str:  # keep the secret out of logs and tracebacks
        return f"VenueConfig(key=<{len(self.key)} bytes>, closing={self.closing!r})"


@dataclass(frozen=True)
class TournamentConfig:
    preset: str = "pubpoker"
    house: str = "pubpoker"
    #: May hold ``{date}``, ``{weekday}`` and ``{month}`` (filled in by :mod:`kiosk.tonight`
    #: in the room's language).
    name: str = "Pubpoker {date}"
    seats_per_table: int = 10
    tables: int = 6
    resume_after_break: bool = True



@dataclass(frozen=True)
class DisplayConfig:
    sound: bool = True
    fullscreen: bool = True
    #: The DRM connector to wait for and show on (``HDMI-A-1``, ``card1-DSI-1``);
    #: None: the first connected one, HDMI before DSI before the rest (kiosk.hdmi).
    connector: str | None = None


@dataclass(frozen=True)
class ButtonsConfig:
    #: (action, BCM pin) in file order.
    pins: tuple[tuple[str, int], ...] = ()

    def pin(self, action: str) -> int | None:
        return dict(self.pins).get(action)

    def as_dict(self) -> dict[str, int]:
        return dict(self.pins)


@dataclass(frozen=True)
class ReaderConfig:
    url: str = "/dev/serial0"
    kind: str = "rdm6300"


@dataclass(frozen=True)
class NetworkConfig:
    #: None: every interface.
    interface: str | None = None


@dataclass(frozen=True)
class ViewerConfig:
    #: Serve the players' phone page; the default is true on a display only.
    enabled: bool = False
    port: int = VIEWER_PORT
    #: Show the page's QR code on the wall's clock screen.
    qr: bool = True


@dataclass(frozen=True)
class WifiConfig:
    country: str
    ssid: str
    psk: str | None = None

    def __repr__(self) -> str:
        return f"WifiConfig(country={self.country!r}, ssid={self.ssid!r}, psk=<hidden>)"


@dataclass(frozen=True)
class Config:
    device: DeviceConfig
    venue: VenueConfig
    tournament: TournamentConfig = TournamentConfig()
    display: DisplayConfig = DisplayConfig()
    buttons: ButtonsConfig = ButtonsConfig()
    #: None: no card reader on this device.
    reader: ReaderConfig | None = None
    network: NetworkConfig = NetworkConfig()
    #: None: leave the network settings alone.
    wifi: WifiConfig | None = None
    viewer: ViewerConfig = ViewerConfig()

    @property
    def language(self) -> str:
        return self.device.language


# --- parsing ----------------------------------------------------------------

_SCHEMA: dict[str, tuple[str, ...]] = {
    "device": ("role", "name", "table", "language", "data_dir"),
    "venue": ("key", "closing"),
    "tournament": ("preset", "house", "name", "seats_per_table", "tables", "resume_after_break"),
    "display": ("sound", "fullscreen", "connector"),
    "buttons": BUTTON_ACTIONS,
    "reader": ("url", "kind"),
    "network": ("interface",),
    "wifi": ("country", "ssid", "psk"),
    "viewer": ("enabled", "port", "qr"),
}


def _show(value: object) -> str:
    """A value as the operator wrote it in TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, dict):
        return "[…]"
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value)


def _unknown(key: str, known: Sequence[str], prefix: str = "") -> UnknownKey:
    import difflib  # here: only a typo needs it, and every command on a Pi reads the file

    close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    shown = f"{prefix}{key}" if prefix else f"[{key}]"
    if close:
        suggestion = f"{prefix}{close[0]}" if prefix else f"[{close[0]}]"
        return UnknownKeyDidYouMean(key=shown, suggestion=suggestion)
    return UnknownKey(key=shown)


class _Section:
    """One ``[section]`` with typed getters that raise a ConfigError naming the key."""

    def __init__(self, name: str, data: Mapping[str, Any]) -> None:
        self.name = name
        self.data = data
        for key in data:
            if key not in _SCHEMA[name]:
                raise _unknown(key, _SCHEMA[name], prefix=f"{name}.")

    def dotted(self, key: str) -> str:
        return f"{self.name}.{key}"

    def _typed(self, key: str, kind: type, word: str) -> Any:
        value = self.data.get(key)
        if value is None:
            return None
        # bool is an int in Python but not in TOML: `table = true` is a mistake.
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise WrongType(key=self.dotted(key), expected=_Words(_TYPE_WORDS[word]),
                            value=_show(value))
        return value

    def text(self, key: str, default: str | None = None, limit: int = TEXT_MAX) -> str | None:
        value = self._typed(key, str, "str")
        if value is None:
            return default
        value = value.strip()
        if not value:
            raise EmptyValue(key=self.dotted(key))
        if len(value) > limit:
            raise TooLong(key=self.dotted(key), value=value, length=len(value), limit=limit)
        return str(value)

    def flag(self, key: str, default: bool) -> bool:
        value = self._typed(key, bool, "bool")
        return default if value is None else bool(value)

    def number(self, key: str, default: int | None, bounds: tuple[int, int]) -> int | None:
        value = self._typed(key, int, "int")
        if value is None:
            return default
        low, high = bounds
        if not low <= value <= high:
            raise OutOfRange(key=self.dotted(key), value=value, low=low, high=high)
        return int(value)

    def choice(self, key: str, default: str, choices: Sequence[str]) -> str:
        value = self.text(key, default)
        assert value is not None
        if value not in choices:
            raise UnknownChoice(key=self.dotted(key), value=value, choices=_one_of(choices))
        return value


def _section(doc: Mapping[str, Any], name: str) -> _Section | None:
    if name not in doc:
        return None
    value = doc[name]
    if not isinstance(value, dict):
        raise WrongType(key=f"[{name}]", expected=_Words(_TYPE_WORDS["table"]), value=_show(value))
    return _Section(name, value)


def _roles(section: _Section) -> tuple[Role, ...]:
    raw = section.data.get("role", Role.DISPLAY.value)
    items = [raw] if isinstance(raw, str) else raw
    if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
        raise WrongType(key="device.role", expected=_Words(_TYPE_WORDS["role"]), value=_show(raw))
    if not items:
        raise EmptyValue(key="device.role")
    roles: list[Role] = []
    for item in items:
        word = item.strip().lower()
        if word not in tuple(Role):
            raise UnknownChoice(key="device.role", value=item, choices=_one_of(tuple(Role)))
        if Role(word) not in roles:
            roles.append(Role(word))
    return tuple(roles)


def _device(section: _Section | None, hostname: str) -> DeviceConfig:
    s = section or _Section("device", {})
    roles = _roles(s)
    table = s.number("table", None, TABLE_RANGE)
    if Role.TABLE in roles and table is None:
        raise MissingKey(key="device.table", hint=_Words(_HINTS["device.table"]))
    if table is not None and Role.TABLE not in roles:
        raise TableWithoutTableRole()
    raw_dir = s.text("data_dir")
    if raw_dir is not None and not raw_dir.startswith("/"):
        raise BadText(key="device.data_dir", value=raw_dir, rule=_Words(_RULE_WORDS["data_dir"]))
    return DeviceConfig(
        roles=roles,
        name=s.text("name", hostname, limit=DEVICE_NAME_MAX) or hostname,
        table=table,
        language=s.choice("language", DEFAULT_LANGUAGE, LANGUAGES),
        data_dir=Path(raw_dir) if raw_dir else None,
    )


_HEX = re.compile(r"[0-9a-fA-F]*")


def _venue(section: _Section | None) -> VenueConfig:
    hint = _Words(_HINTS["venue.key"])
    if section is None:
        raise MissingKey(key="venue.key", hint=hint)
    key = section.text("key")
    if key is None:
        raise MissingKey(key="venue.key", hint=hint)
    bad = next((c for c in key if not _HEX.fullmatch(c)), None)
    if bad is not None:
        raise BadVenueKeyCharacters(char=bad)
    if len(key) != 64:
        raise BadVenueKey(length=len(key))
    closing_text = section.text("closing", "01:00") or "01:00"
    match = re.fullmatch(r"(\d{1,2}):(\d{2})", closing_text)
    if not match or int(match[1]) > 23 or int(match[2]) > 59:
        raise BadTime(key="venue.closing", value=closing_text)
    return VenueConfig(key=bytes.fromhex(key), closing=dt.time(int(match[1]), int(match[2])))


def _tournament(section: _Section | None) -> TournamentConfig:
    s = section or _Section("tournament", {})
    d = TournamentConfig()
    name = check_name_pattern(s.text("name", d.name) or d.name)
    return TournamentConfig(
        preset=s.choice("preset", d.preset, tuple(PRESETS)),
        house=s.choice("house", d.house, tuple(PROFILES)),
        name=name,
        seats_per_table=s.number("seats_per_table", d.seats_per_table, SEATS_RANGE)
        or d.seats_per_table,
        tables=s.number("tables", d.tables, TABLE_RANGE) or d.tables,
        resume_after_break=s.flag("resume_after_break", d.resume_after_break),
    )


#: What a tournament name pattern may fill in (:func:`kiosk.tonight.tonight`),
#: and the most characters each can become (29.11.2026; Wednesday; September).
NAME_FIELDS: Mapping[str, int] = {"date": 10, "weekday": 9, "month": 9}


def check_name_pattern(pattern: str, key: str = "tournament.name") -> str:
    """``pattern`` if it is a tournament name pattern that fills in safely, else a ConfigError.

    The CLI's ``--name`` is checked here too (``key="--name"``), so both ways
    to name a night refuse the same things, naming the fields they allow.
    Only bare ``{date}``, ``{weekday}`` and ``{month}`` are fields: an unknown field or an
    index (``{evil}``, ``{0}``) would not fill in, and a format spec
    (``{date:>999999999}``) would fill in a gigabyte. ``%`` is only a
    character: the pattern goes through :meth:`str.format`, never ``%``.

    >>> check_name_pattern("Fredagspoker {date} – 100% moro {{ }}")
    'Fredagspoker {date} – 100% moro {{ }}'
    >>> for bad in ("{evil}", "%s%n{0}", "{date:>99}", "{date!r}", "Poker {"):
    ...     try:
    ...         check_name_pattern(bad, key="--name")
    ...     except BadText as err:
    ...         print(err.translate("en")[:40])
    --name “{evil}” is not valid: only {date
    --name “%s%n{0}” is not valid: only {dat
    --name “{date:>99}” is not valid: only {
    --name “{date!r}” is not valid: only {da
    --name “Poker {” is not valid: only {dat
    """
    if not pattern.strip():
        raise EmptyValue(key=key)
    try:
        fields = [(name, spec, conversion)
                  for _, name, spec, conversion in string.Formatter().parse(pattern)
                  if name is not None]
    except ValueError:  # an unmatched brace
        fields = [("{", None, None)]
    if any(name not in NAME_FIELDS or spec or conversion for name, spec, conversion in fields):
        raise BadText(key=key, value=pattern, rule=_Words(_RULE_WORDS["name"]))
    if forbidden_character(pattern) is not None:
        raise BadText(key=key, value=pattern, rule=_Words(_RULE_WORDS["one_line"]))
    longest = pattern.format(**{name: "x" * width for name, width in NAME_FIELDS.items()})
    if len(" ".join(longest.split())) > TOURNAMENT_NAME_MAX:
        raise BadText(key=key, value=pattern, rule=_Words(_RULE_WORDS["name_length"]))
    return pattern


def _display(section: _Section | None) -> DisplayConfig:
    s = section or _Section("display", {})
    connector = s.text("connector")
    if connector is not None:
        # Imported here: the TV's module (and logging) for the one key that names it.
        from kiosk.hdmi import is_connector_name

        if not is_connector_name(connector):
            raise BadText(key="display.connector", value=connector,
                          rule=_Words(_RULE_WORDS["connector"]))
    return DisplayConfig(sound=s.flag("sound", True), fullscreen=s.flag("fullscreen", True),
                         connector=connector)


def _buttons(section: _Section | None) -> ButtonsConfig:
    if section is None:
        return ButtonsConfig()
    pins: list[tuple[str, int]] = []
    for action in section.data:
        pin = section.number(action, None, PIN_RANGE)
        assert pin is not None
        pins.append((action, pin))
    by_pin: dict[int, list[str]] = {}
    for action, pin in pins:
        by_pin.setdefault(pin, []).append(action)
    for pin, actions in by_pin.items():
        if len(actions) > 1:
            raise DuplicatePin(pin=pin, actions=", ".join(actions))
    return ButtonsConfig(tuple(pins))


def _reader(section: _Section | None) -> ReaderConfig | None:
    if section is None:
        return None
    d = ReaderConfig()
    return ReaderConfig(
        url=section.text("url", d.url) or d.url,
        kind=section.choice("kind", d.kind, READER_KINDS),
    )


def _network(section: _Section | None) -> NetworkConfig:
    s = section or _Section("network", {})
    interface = s.text("interface")
    if interface is not None and not re.fullmatch(r"[A-Za-z0-9_.:-]{1,15}", interface):
        raise BadText(key="network.interface", value=interface,
                      rule=_Words(_RULE_WORDS["interface"]))
    return NetworkConfig(interface=interface)


def _viewer(section: _Section | None, roles: Sequence[Role]) -> ViewerConfig:
    s = section or _Section("viewer", {})
    port = s.number("port", VIEWER_PORT, PORT_RANGE)
    assert port is not None
    # The phones follow the wall: only the display serves them unless told.
    return ViewerConfig(enabled=s.flag("enabled", Role.DISPLAY in roles), port=port,
                        qr=s.flag("qr", True))


def _wifi(section: _Section | None) -> WifiConfig | None:
    if section is None:
        return None
    country = section.text("country")
    if country is None:
        raise MissingKey(key="wifi.country", hint=_Words(_HINTS["wifi.country"]))
    if not re.fullmatch(r"[A-Z]{2}", country):
        raise BadText(key="wifi.country", value=country, rule=_Words(_RULE_WORDS["country"]))
    ssid = section.text("ssid")
    if ssid is None:
        raise MissingKey(key="wifi.ssid", hint=_Words(_HINTS["wifi.ssid"]))
    if len(ssid.encode()) > 32:
        raise BadText(key="wifi.ssid", value=ssid, rule=_Words(_RULE_WORDS["ssid"]))
    psk = section.data.get("psk")
    if psk is not None:
        section._typed("psk", str, "str")
        # Passwords keep their spaces; only the length rule applies (WPA2-PSK).
        if not 8 <= len(psk) <= 63:
            raise BadText(key="wifi.psk", value="…", rule=_Words(_RULE_WORDS["psk"]))
    return WifiConfig(country=country, ssid=ssid, psk=psk)


def parse_config(text: str, *, hostname: str | None = None) -> Config:
    """Validate the text of a ``pubpoker.toml``; raise :class:`ConfigError` on any problem.

    >>> cfg = parse_config('[venue]\\nkey = "' + "ab" * 32 + '"\\n', hostname="pi")
    >>> cfg.device.roles, cfg.device.name, cfg.venue.closing, len(cfg.venue.key)
    ((<Role.DISPLAY: 'display'>,), 'pi', datetime.time(1, 0), 32)
    >>> try:
    ...     parse_config('[device]\\nrole = "tv"')
    ... except ConfigError as err:
    ...     print(err.translate("nn"))
    device.role «tv» er ukjend; bruk display, console eller table
    """
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise _syntax_error(err, text) from None
    except RecursionError:  # tomllib recurses per nested [ or {
        raise ConfigTooDeep() from None
    return _config(doc, hostname)


def _config(doc: dict[str, Any], hostname: str | None) -> Config:
    for name in doc:
        if name not in _SCHEMA:
            raise _unknown(name, tuple(_SCHEMA))
    sections = {name: _section(doc, name) for name in _SCHEMA}
    device = _device(sections["device"], hostname if hostname is not None else _hostname())
    venue = _venue(sections["venue"])
    tournament = _tournament(sections["tournament"])
    if device.table is not None and device.table > tournament.tables:
        raise TableTooHigh(table=device.table, tables=tournament.tables)
    return Config(
        device=device,
        venue=venue,
        tournament=tournament,
        display=_display(sections["display"]),
        buttons=_buttons(sections["buttons"]),
        reader=_reader(sections["reader"]),
        network=_network(sections["network"]),
        wifi=_wifi(sections["wifi"]),
        viewer=_viewer(sections["viewer"], device.roles),
    )


def _syntax_error(err: tomllib.TOMLDecodeError, text: str) -> ConfigSyntax:
    message = str(err)
    lines = text.splitlines() or [""]
    where = re.search(r"\(at line (\d+), column (\d+)\)", message)
    if where:
        line, column = int(where[1]), int(where[2])
    else:  # "(at end of document)": an unclosed quote or bracket
        line, column = len(lines), len(lines[-1]) + 1
    detail = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", message)
    said = lines[line - 1] if 1 <= line <= len(lines) else ""
    headings = (_HEADING_LINE.match(before) for before in reversed(lines[:line - 1]))
    section = next((heading["name"] for heading in headings if heading), "")
    return ConfigSyntax(line=line, column=column,
                        detail=_toml_words(detail, said, section))


#: tomllib's English, by what it means, and the slip that usually causes it.
_TOML_SAYS: Final = (
    (r"Invalid value|Found invalid character|Invalid date or datetime|Invalid hex value",
     "value"),
    (r"Expected '\]\]?' at the end of (a table|an array) declaration", "heading"),
    (r"Cannot overwrite a value|Cannot declare .* twice|Duplicate inline table key"
     r"|Cannot redefine namespace|Cannot mutate immutable namespace", "twice"),
    (r"Unterminated string|Illegal character '\\n'|Illegal character '\\r'", "quote"),
    (r"Expected '=' after a key", "equals"),
    (r"Expected newline or end of document after a statement", "after"),
    (r"Unclosed array|Unclosed inline table|Expected '[\],}]'", "bracket"),
)
_TOML_WORDS: Final[Mapping[str, Mapping[str, str]]] = {
    "value": {"nn": "verdien kan ikkje lesast; tekst skal stå i hermeteikn: {example}",
              "nb": "verdien kan ikke leses; tekst skal stå i anførselstegn: {example}",
              "da": "værdien kan ikke læses; tekst skal stå i anførselstegn: {example}",
              "en": "the value cannot be read; text goes in quotes: {example}"},
    "heading": {"nn": "ei seksjonsoverskrift er eitt namn i hakeparentesar, til dømes "
                      "[tournament]",
                "nb": "en seksjonsoverskrift er ett navn i hakeparenteser, for eksempel "
                      "[tournament]",
                "da": "en sektionsoverskrift er ét navn i kantede parenteser, for eksempel "
                      "[tournament]",
                "en": "a section heading is one name in square brackets, for example "
                      "[tournament]"},
    "twice": {"nn": "{what} står to gonger; fjern den eine",
              "nb": "{what} står to ganger; fjern den ene",
              "da": "{what} står der to gange; fjern den ene",
              "en": "{what} is there twice; remove one of them"},
    "quote": {"nn": "eit hermeteikn manglar i slutten av teksten: {example}",
              "nb": "et anførselstegn mangler på slutten av teksten: {example}",
              "da": "et anførselstegn mangler i slutningen af teksten: {example}",
              "en": "a closing quote is missing at the end of the text: {example}"},
    "equals": {"nn": "ei innstilling er namn = verdi, til dømes {example}",
               "nb": "en innstilling er navn = verdi, for eksempel {example}",
               "da": "en indstilling er navn = værdi, for eksempel {example}",
               "en": "a setting is name = value, for example {example}"},
    "after": {"nn": "berre ein # kommentar kan stå etter verdien; tekst skal stå i "
                    "hermeteikn: {example}",
              "nb": "bare en # kommentar kan stå etter verdien; tekst skal stå i "
                    "anførselstegn: {example}",
              "da": "kun en # kommentar må stå efter værdien; tekst skal stå i "
                    "anførselstegn: {example}",
              "en": "only a # comment may follow the value; text goes in quotes: {example}"},
    "bracket": {"nn": "ei liste manglar ] eller ein tabell } på slutten",
                "nb": "en liste mangler ] eller en tabell } på slutten",
                "da": "en liste mangler ] eller en tabel } til sidst",
                "en": "a list is missing its ] or a table its } at the end"},
    "other": {"nn": "linja kan ikkje lesast; kvar linje er ein [seksjon], namn = verdi "
                    "eller ein # kommentar",
              "nb": "linjen kan ikke leses; hver linje er en [seksjon], navn = verdi "
                    "eller en # kommentar",
              "da": "linjen kan ikke læses; hver linje er en [sektion], navn = værdi "
                    "eller en # kommentar",
              "en": "the line cannot be read; each line is a [section], name = value "
                    "or a # comment"},
}
_SETTING_LINE: Final = re.compile(r"^\s*(?P<key>[\w.-]+)\s*(?:=\s*(?P<value>.*?))?\s*$")
_HEADING_LINE: Final = re.compile(r"^\s*\[+\s*(?P<name>[\w.-]+)")


def _toml_words(detail: str, line: str, section: str = "") -> _Words:
    """tomllib's ``detail`` about ``line`` in every language, with the usual slip's fix.

    A key is named as the other checks name it (``tournament.tables``) when its
    ``section`` is known: a bare ``tables`` or ``name`` reads as English in a
    Nynorsk sentence.

    >>> print(_toml_words("Invalid value", "name = Fredagspoker").render("nn"))
    verdien kan ikkje lesast; tekst skal stå i hermeteikn: name = "Fredagspoker"
    >>> print(_toml_words("Cannot overwrite a value", "tables = 4", "tournament").render("da"))
    tournament.tables står der to gange; fjern den ene
    >>> heading = "Expected ']' at the end of a table declaration"
    >>> print(_toml_words(heading, "[tournament").render("en"))
    a section heading is one name in square brackets, for example [tournament]
    """
    kind = next((kind for pattern, kind in _TOML_SAYS if re.match(pattern, detail)), "other")
    setting = _SETTING_LINE.match(line.split("#", 1)[0] if kind != "quote" else line)
    heading = _HEADING_LINE.match(line)
    key = setting["key"] if setting and "[" not in line else "name"
    value = (setting["value"] or "") if setting else ""
    value = value.replace('"', "").replace("'", "").strip() or "…"
    what = f"[{heading['name']}]" if heading else f"{section}.{key}" if section else key
    words = _TOML_WORDS[kind]
    return _Words({lang: text.format(example=f'{key} = "{value}"', what=what)
                   for lang, text in words.items()})


def config_problems(text: str, *, hostname: str | None = None
                    ) -> list[tuple[int | None, ConfigError]]:
    """Every problem in the text of a ``pubpoker.toml``, each with its line (None: no line).

    tomllib stops at the first slip, so each line it refuses is mended (a value
    put in quotes, a heading closed) or left out, and the rest read again;
    then each setting the checks refuse is left out and the rest checked
    again. ``pubpoker config check`` lists them all in one run.

    >>> text = "\\n".join(["[venue]", "name = Kro", "[device]", 'role = "tv"', "language = de"])
    >>> for line, err in config_problems(text):
    ...     print(line, type(err).__name__)
    2 ConfigSyntax
    5 ConfigSyntax
    2 UnknownKey
    4 UnknownChoice
    5 UnknownChoice
    1 MissingKey
    """
    lines = text.splitlines()
    problems: list[tuple[int | None, ConfigError]] = []
    mended: set[int] = set()
    doc: dict[str, Any] | None = None
    for _ in range(len(lines) + 1):
        try:
            doc = tomllib.loads("\n".join(lines))
            break
        except tomllib.TOMLDecodeError as err:
            syntax = _syntax_error(err, "\n".join(lines))
            number = int(syntax.params["line"])
            if number not in mended:  # a mended line that still fails is not said twice
                problems.append((number, syntax))
            if not 1 <= number <= len(lines) or not lines[number - 1].strip():
                break  # an unclosed quote or bracket at the end: nothing more to read
            # A key or section there twice: the second is left out; else mended once.
            twice = number in mended or "twice" in str(err) or "overwrite" in str(err)
            lines[number - 1] = "" if twice else _mend(lines[number - 1])
            mended.add(number)
        except RecursionError:
            return [*problems, (None, ConfigTooDeep())]
    if doc is None:
        return problems
    dropped: set[str] = set()
    stood_in: set[str] = set()
    for _ in range(64):
        try:
            _config(doc, hostname)
            break
        except ConfigError as err:
            if isinstance(err, MissingKey):
                # Said once (not when its wrong value was left out), then a stand-in
                # lets the checks go on: the TD hears of the sections after it too.
                if err.key not in dropped:
                    problems.append((_line_of(text.splitlines(), err.key), err))
                if err.key in stood_in or not _stand_in(doc, err.key):
                    break
                stood_in.add(err.key)
                continue
            if err.key in dropped:
                break
            problems.append((_line_of(text.splitlines(), err.key), err))
            if not _drop(doc, err.key):
                break
            dropped.add(err.key)
    return problems


#: A value each required setting may take, put in for a missing one so that
#: ``config check`` goes on to the rest of the file (never loaded as a config).
_STAND_INS: Final[Mapping[str, object]] = {
    "venue.key": "0" * 64, "device.table": 1, "wifi.country": "NO", "wifi.ssid": "pub"}


def _stand_in(doc: dict[str, Any], key: str) -> bool:
    """Put a stand-in for the missing ``key`` into ``doc``; False if there is none."""
    if key not in _STAND_INS:
        return False
    section, _, name = key.partition(".")
    table = doc.setdefault(section, {})
    if not isinstance(table, dict):
        return False
    table[name] = _STAND_INS[key]
    return True


def _mend(line: str) -> str:
    """``line`` as it was probably meant (a value in quotes, a heading closed), else nothing."""
    heading = _HEADING_LINE.match(line)
    if heading is not None and line.lstrip().startswith("["):
        return f"[{heading['name']}]"
    setting = _SETTING_LINE.match(line)
    if setting is not None and setting["value"]:
        value = setting["value"].split("#", 1)[0].replace('"', "").replace("'", "")
        value = value.replace("\\", "").strip()
        return f'{setting["key"]} = "{value}"'
    return ""


def _line_of(lines: Sequence[str], key: str) -> int | None:
    """The line (from 1) that sets ``key`` (``venue.key``), else the one heading its section."""
    section, _, name = key.strip("[]").partition(".")
    current, heads = "", None
    for number, line in enumerate(lines, 1):
        heading = _HEADING_LINE.match(line)
        if heading is not None and line.lstrip().startswith("["):
            current = heading["name"]
            if current == section:
                if not name or key.startswith("["):
                    return number
                heads = heads or number
            continue
        setting = _SETTING_LINE.match(line)
        if current == section and setting is not None and setting["key"] == name:
            return number
    return heads


def _drop(doc: dict[str, Any], key: str) -> bool:
    """Leave ``key`` out of ``doc`` so the rest can be checked; False if it is not there."""
    section, _, name = key.strip("[]").partition(".")
    if not name or key.startswith("["):
        return doc.pop(section, None) is not None
    table = doc.get(section)
    if isinstance(table, dict) and name in table:
        del table[name]
        return True
    return False


def _hostname() -> str:
    return socket.gethostname().split(".")[0] or "pubpoker"


def load_config(path: str | os.PathLike[str] = DEFAULT_PATH, *,
                hostname: str | None = None) -> Config:
    """Read and validate a ``pubpoker.toml`` file."""
    return parse_config(read_config_text(path), hostname=hostname)


def read_config_text(path: str | os.PathLike[str] = DEFAULT_PATH) -> str:
    """The text of a ``pubpoker.toml`` file, or a ConfigError saying why it cannot be read."""
    file = Path(path)
    try:
        with file.open("rb") as handle:
            raw = handle.read(CONFIG_MAX + 1)
    except FileNotFoundError:
        raise ConfigFileMissing(path=str(file)) from None
    except OSError as err:
        raise ConfigUnreadable(path=str(file), reason=OsReason.of(err)) from None
    if len(raw) > CONFIG_MAX:
        raise ConfigTooBig(path=str(file), limit=CONFIG_MAX // 1024)
    try:
        # FAT editors on Windows may add a byte-order mark.
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ConfigNotText(path=str(file)) from None
    return text
