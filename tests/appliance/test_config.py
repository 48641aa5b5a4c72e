"""pubpoker.toml validation: every mistake is one plain sentence naming the key."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.config import (
    BUTTON_ACTIONS,
    Config,
    ConfigError,
    Role,
    load_config,
    parse_config,
)
from rules.errors import RulesError
from rules.i18n import LANGUAGES

KEY = "0123456789abcdef" * 4
VENUE = f'[venue]\nkey = "{KEY}"\n'
EXAMPLE = Path(__file__).resolve().parents[2] / "provisioning" / "pubpoker.example.toml"


def error(text: str) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        parse_config(text, hostname="pi")
    err = caught.value
    assert isinstance(err, RulesError)
    # Every language has a message and none is a traceback or a repr.
    for lang in LANGUAGES:
        message = err.translate(lang)
        assert message and "Traceback" not in message
        assert "{key}" not in message and "{value}" not in message
    return err


def test_minimal_config_has_the_documented_defaults() -> None:
    cfg = parse_config(VENUE, hostname="bar-pi")
    assert isinstance(cfg, Config)
    assert cfg.device.roles == (Role.DISPLAY,)
    assert cfg.device.name == "bar-pi"
    assert cfg.device.language == "nn"
    assert cfg.device.table is None and cfg.device.data_dir is None
    assert cfg.venue.key == bytes.fromhex(KEY) and len(cfg.venue.key) == 32
    assert cfg.venue.closing == dt.time(1, 0)
    assert cfg.tournament.preset == "pubpoker" and cfg.tournament.seats_per_table == 10
    assert cfg.display.sound and cfg.display.fullscreen
    assert cfg.buttons.pins == () and cfg.reader is None and cfg.wifi is None
    assert cfg.network.interface is None
    assert cfg.display.connector is None  # the first connected screen
    assert KEY not in repr(cfg)  # the venue key stays out of logs


def test_full_config_parses_into_frozen_records() -> None:
    text = VENUE + """
closing = "02:30"
[device]
role = ["display", "table", "display"]
name = "TV"
table = 3
language = "da"
data_dir = "/data/pubpoker"
[tournament]
preset = "pf-pokerklub"
house = "dk-club"
name = "Fredagspoker {date}"
seats_per_table = 9
tables = 4
resume_after_break = false
[display]
sound = false
connector = "HDMI-A-2"
[buttons]
pause = 17
undo = 27
[reader]
url = "loop://"
kind = "line"
[network]
interface = "wlan0"
[wifi]
country = "NO"
ssid = "Pub"
psk = "secret-password"
"""
    cfg = parse_config(text, hostname="pi")
    assert cfg.device.roles == (Role.DISPLAY, Role.TABLE)
    assert cfg.device.has_role("table") and cfg.device.table == 3
    assert cfg.device.data_dir == Path("/data/pubpoker")
    assert cfg.venue.closing == dt.time(2, 30)
    assert cfg.tournament.name == "Fredagspoker {date}"
    assert cfg.buttons.as_dict() == {"pause": 17, "undo": 27} and cfg.buttons.pin("undo") == 27
    assert cfg.reader is not None and cfg.reader.kind == "line"
    assert cfg.network.interface == "wlan0"
    assert cfg.display.connector == "HDMI-A-2" and not cfg.display.sound
    assert cfg.wifi is not None and cfg.wifi.ssid == "Pub" and "secret" not in repr(cfg)
    assert cfg.language == "da"
    with pytest.raises(AttributeError):
        cfg.device.name = "x"  # type: ignore[misc]


def test_missing_venue_key() -> None:
    err = error('[device]\nrole = "display"\n')
    assert err.key == "venue.key"
    assert err.translate("nn").startswith("venue.key manglar: ")
    assert err.translate("nb").startswith("venue.key mangler: ")
    assert "pubpoker venue-key new" in err.translate("en")


def test_bad_role() -> None:
    err = error(VENUE + '[device]\nrole = "tv"\n')
    assert err.translate("nn") == "device.role «tv» er ukjend; bruk display, console eller table"
    assert err.translate("en") == "device.role “tv” is unknown; use display, console or table"


def test_pin_used_twice() -> None:
    err = error(VENUE + "[buttons]\npause = 17\nnext_level = 27\nundo = 17\n")
    assert err.translate("nn") == "[buttons]: pin 17 er brukt to gonger (pause, undo)"
    assert err.translate("en") == "[buttons]: pin 17 is used twice (pause, undo)"


def test_unknown_language() -> None:
    err = error(VENUE + '[device]\nlanguage = "de"\n')
    assert err.translate("nn") == "device.language «de» er ukjend; bruk nn, nb, da eller en"


def test_bad_toml_syntax_gives_the_line_number() -> None:
    err = error(VENUE + '[device]\nrole = "display"\nlanguage "nn"\n')
    assert "linje 5" in err.translate("nn")
    assert err.translate("en").startswith("pubpoker.toml has a syntax error on line 5")


def test_unclosed_quote_at_end_of_file() -> None:
    assert "line 2" in str(error('[venue]\nkey = "abc'))


def test_table_role_without_table_number() -> None:
    err = error(VENUE + '[device]\nrole = ["console", "table"]\n')
    assert err.key == "device.table"
    assert err.translate("nn").startswith("device.table manglar: ")
    assert "1 to 15" in err.translate("en")


def test_venue_key_of_the_wrong_length() -> None:
    err = error('[venue]\nkey = "abcd"\n')
    assert err.translate("en") == (
        "venue.key must be 64 hexadecimal characters (0-9, a-f), which is 32 bytes; "
        "this one has 4"
    )
    assert "venue.key" in err.translate("nn") and "64" in err.translate("nn")


def test_venue_key_with_a_non_hex_character() -> None:
    assert "«g»" in error(f'[venue]\nkey = "{"g" + KEY[1:]}"\n').translate("nb")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[device]\nlanguge = "nn"\n', "device.languge is not a setting in pubpoker.toml; "
                                      "did you mean device.language?"),
        ("[devise]\n", "[devise] is not a setting in pubpoker.toml; did you mean [device]?"),
        ("[buttons]\nfrobnicate = 4\n", "buttons.frobnicate is not a setting in pubpoker.toml; "
                                       "check the spelling"),
        ('[tournament]\ntables = "6"\n', 'tournament.tables must be a whole number, not "6"'),
        ("[tournament]\ntables = 16\n", "tournament.tables = 16 is out of range; "
                                       "use a number from 1 to 15"),
        ("[tournament]\nseats_per_table = 1\n", "tournament.seats_per_table = 1 is out of range; "
                                               "use a number from 2 to 11"),
        ("[buttons]\npause = 40\n", "buttons.pause = 40 is out of range; "
                                   "use a number from 2 to 27"),
        ('[tournament]\npreset = "turbo"\n', "tournament.preset “turbo” is unknown; "
                                            "use pubpoker, pf-pokerklub or sit-and-go"),
        ('[tournament]\nhouse = "x"\n', "tournament.house “x” is unknown; "
                                       "use pubpoker, pf-pokerklub or dk-club"),
        ('[reader]\nkind = "nfc"\n',
         "reader.kind “nfc” is unknown; use rdm6300, pn532, line or wedge"),
        ("[display]\nsound = 1\n", "display.sound must be true or false, not 1"),
        ("[device]\ntable = true\n", "device.table must be a whole number, not true"),
        ('[device]\nname = "  "\n', "device.name is empty; write something between the "
                                    "quotes or remove the line"),
        ("[device]\nrole = []\n", "device.role is empty; write something between the "
                                  "quotes or remove the line"),
        ("[device]\ntable = 2\n", "device.table is set but device.role does not include "
                                  "table; add table to the role or remove device.table"),
        ('[device]\nrole = "table"\ntable = 9\n[tournament]\ntables = 6\n',
         "device.table = 9 is higher than tournament.tables = 6"),
        ('[device]\ndata_dir = "data"\n', "device.data_dir “data” is not valid: "
                                          "use an absolute path, for example /data/pubpoker"),
        ('[venue]\nclosing = "25:00"\n', "venue.closing “25:00” is not a time of day; "
                                         "write HH:MM, for example 01:00"),
        ('[wifi]\nssid = "Pub"\n', "wifi.country is missing: Wi-Fi stays off without a "
                                   'country code, for example country = "NO"'),
        ('[wifi]\ncountry = "no"\nssid = "Pub"\n', "wifi.country “no” is not valid: use the "
                                                  "two-letter country code in capitals, "
                                                  "for example NO or DK"),
        ('[wifi]\ncountry = "NO"\nssid = "Pub"\npsk = "short"\n',
         "wifi.psk “…” is not valid: a Wi-Fi password is 8 to 63 characters"),
        ('[tournament]\nname = "Poker {when}"\n', "tournament.name “Poker {when}” is not "
                                                  "valid: only {date}, {weekday} and {month} "
                                                  "may stand in curly braces"),
        ('[tournament]\nname = "Poker {"\n', "tournament.name “Poker {” is not "
                                              "valid: only {date}, {weekday} and {month} "
                                              "may stand in curly braces"),
        ("device = 3\n", "[device] must be a section, not 3"),
        ('[display]\nconnector = "HDMI0"\n', "display.connector “HDMI0” is not valid: use "
                                             "the name of a screen output, for example "
                                             "HDMI-A-1, DSI-1 or Composite-1"),
        ('[display]\nconnector = "card1-Writeback-1"\n', "display.connector "
                                                        "“card1-Writeback-1” is not valid: use "
                                                        "the name of a screen output, for "
                                                        "example HDMI-A-1, DSI-1 or "
                                                        "Composite-1"),
        ("[display]\nconnector = 1\n", "display.connector must be a text in quotes, not 1"),
        ('[display]\nconector = "HDMI-A-1"\n', "display.conector is not a setting in "
                                               "pubpoker.toml; did you mean display.connector?"),
    ],
)
def test_each_mistake_names_the_key(text: str, expected: str) -> None:
    # [venue] last so the mistake under test is the first one found.
    doc = text if text.startswith("[venue]") else text + "\n" + VENUE
    if "[venue]" in text:
        doc = text.replace("[venue]\n", VENUE, 1)
    assert error(doc).translate("en") == expected


@pytest.mark.parametrize("name", ["HDMI-A-1", "card1-HDMI-A-1", "DSI-1", "Composite-1",
                                  "Virtual-1", "card0-DP-2"])
def test_display_connector_with_or_without_the_card(name: str) -> None:
    cfg = parse_config(VENUE + f'[display]\nconnector = " {name} "\n', hostname="pi")
    assert cfg.display.connector == name


def test_display_connector_error_in_every_language() -> None:
    err = error(VENUE + '[display]\nconnector = "HDMI 1"\n')
    assert err.key == "display.connector"
    assert err.translate("nn") == ("display.connector «HDMI 1» er ikkje gyldig: bruk namnet på "
                                   "ein skjermutgang, til dømes HDMI-A-1, DSI-1 eller "
                                   "Composite-1")


def test_the_example_documents_the_connector_commented_out() -> None:
    text = EXAMPLE.read_text()
    assert '# connector = "HDMI-A-1"' in text
    enabled = text.replace('# key = "', 'key = "').replace('# connector = "', 'connector = "')
    assert parse_config(enabled, hostname="pi").display.connector == "HDMI-A-1"


def test_tournament_name_placeholders() -> None:
    text = VENUE + '[tournament]\nname = "{weekday}spoker {date}"\n'
    assert parse_config(text, hostname="pi").tournament.name == "{weekday}spoker {date}"


def test_every_button_action_is_accepted() -> None:
    pins = "\n".join(f"{a} = {i + 2}" for i, a in enumerate(BUTTON_ACTIONS))
    cfg = parse_config(VENUE + "[buttons]\n" + pins, hostname="pi")
    assert len(cfg.buttons.pins) == len(BUTTON_ACTIONS)
    # The config takes exactly the actions the button panel knows, but the keyboard's own.
    from hardware.inputs import KEYBOARD_ONLY, Action

    assert set(BUTTON_ACTIONS) == {a.value for a in Action if a not in KEYBOARD_ONLY}
    assert "language" in BUTTON_ACTIONS and "quit" not in BUTTON_ACTIONS


def test_error_classes_have_every_language() -> None:
    def all_subclasses(cls: type[ConfigError]) -> list[type[ConfigError]]:
        subs = cls.__subclasses__()
        return [cls, *[s for sub in subs for s in all_subclasses(sub)]]

    for cls in all_subclasses(ConfigError):
        assert cls.missing_languages() == (), cls


def test_load_config_reads_a_file_with_a_bom(tmp_path: Path) -> None:
    path = tmp_path / "pubpoker.toml"
    path.write_bytes(b"\xef\xbb\xbf" + VENUE.encode())
    assert load_config(path, hostname="pi").venue.key == bytes.fromhex(KEY)


def test_load_config_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path / "nope.toml")
    assert "nope.toml" in caught.value.translate("nn")


def test_shipped_example_only_lacks_the_venue_key() -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(EXAMPLE)
    assert caught.value.key == "venue.key"
    text = EXAMPLE.read_text().replace('# key = "', 'key = "')
    assert parse_config(text, hostname="pi").device.roles == (Role.DISPLAY,)


def test_cli_config_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.toml"
    good.write_text(VENUE)
    assert main(["config", "check", str(good)]) == 0
    assert capsys.readouterr().out.strip() == "OK"

    bad = tmp_path / "bad.toml"
    bad.write_text(VENUE + '[device]\nrole = "tv"\n')
    assert main(["--lang", "nn", "config", "check", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == (
        "Linje 4: device.role «tv» er ukjend; bruk display, console eller table")
    assert "Traceback" not in captured.err
