"""``pubpoker doctor [--data-dir DIR] [--json]``: is this device's storage fit for a night?

It reports the free space of the data dir's disk (bytes and per cent),
whether that disk takes writes, the reserve (:mod:`kiosk.store.space`), the
store's health: opened read-only, ``quick_check``, schema version, event
and player counts; and, when the kiosk noted any (:mod:`kiosk.pause_ledger`),
how often its listeners waited for file descriptors. Then the buttons' side:
the pin factory gpiozero would use (``GPIOZERO_PIN_FACTORY``, as the unit sets
it, or gpiozero's own choice) and whether it is installed, and the GPIO chip
found (``/dev/gpiochip*``). No chip is not a problem: a laptop has none, and the
kiosk then runs on the keyboard. Exit status 0 when all is well, 1 when
something is wrong; it changes nothing, so it is safe beside the running kiosk.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, Final

from kiosk.cli.help_words import help_text
from kiosk.cli.store_access import add_data_dir, store_path
from kiosk.store.doctor import Report, examine
from rules.i18n import DEFAULT_LANGUAGE, OsReason, count, format_int

__all__ = ["GpioReport", "examine_gpio", "register"]

#: The module each known pin factory imports, which must be installed for it to work.
_BINDINGS: Final = {"gpiod": "gpiod", "lgpio": "lgpio", "rpigpio": "RPi.GPIO",
                    "pigpio": "pigpio"}


@dataclass(frozen=True)
class GpioReport:
    """The buttons' side of the device, as ``pubpoker doctor`` tells it."""

    #: ``GPIOZERO_PIN_FACTORY``; None: gpiozero picks among what is installed.
    factory: str | None
    #: The named factory is registered with gpiozero and its bindings import.
    installed: bool | None
    #: The ``/dev/gpiochip*`` devices, and the one the gpiod factory would open.
    chips: tuple[str, ...]
    chip: str | None
    label: str | None


def _factory_installed(name: str) -> bool:
    registered = {ep.name for ep in entry_points(group="gpiozero_pin_factories")}
    if name not in registered and name.lower() not in registered:
        return False
    module = _BINDINGS.get(name.lower())
    if module is None:
        return True
    try:
        bindings = importlib.import_module(module)
    except Exception:  # not there, or a broken build
        return False
    # Debian 12's python3-libgpiod is the v1 API, which our factory cannot use.
    return module != "gpiod" or hasattr(bindings, "request_lines")


def examine_gpio(env: Mapping[str, str] | None = None, dev: str = "/dev") -> GpioReport:
    """The pin factory gpiozero would use, and the GPIO chip, looked at without opening a line."""
    from hardware.errors import NoGpio
    from hardware.gpiod_factory import find_chip, gpio_chips

    name = (os.environ if env is None else env).get("GPIOZERO_PIN_FACTORY") or None
    chips = tuple(gpio_chips(dev))
    chip = label = None
    if chips:
        chip, label = chips[0], None
        try:
            gpiod = importlib.import_module("gpiod")
            if hasattr(gpiod, "request_lines"):
                chip, label = find_chip(gpiod, dev)
        except (ImportError, NoGpio):
            pass
    return GpioReport(factory=name, installed=None if name is None else _factory_installed(name),
                      chips=chips, chip=chip, label=label or None)


def render_gpio(gpio: GpioReport, lang: str) -> list[str]:
    """The two lines about the buttons: the pin factory, then the chip."""
    texts = _TEXT.get(lang, _TEXT[DEFAULT_LANGUAGE])
    var = "$GPIOZERO_PIN_FACTORY"
    if gpio.factory is None:
        lines = [texts["gpio-default"].format(var=var)]
    else:
        key = "gpio-factory" if gpio.installed else "gpio-factory-missing"
        lines = [texts[key].format(name=gpio.factory, var=var)]
    if gpio.chip is None:
        lines.append(texts["gpio-none"])
    else:
        lines.append(texts["gpio-chip"].format(
            path=gpio.chip, label="" if gpio.label is None else f" ({gpio.label})"))
    return lines

_TEXT: Final[dict[str, dict[str, str]]] = {
    "nn": {
        "dir": "Datamappe: {path}",
        "space": "Ledig plass: {free} byte av {total} ({percent} %)",
        "no-dir": "Datamappa finst ikkje eller kan ikkje lesast",
        "fs-rw": "Filsystem: skrivbart",
        "fs-ro": "Filsystem: skriveverna",
        "fs-no": "Filsystem: kan ikkje skrive i mappa",
        "reserve": "Reserve: {bytes} byte ({name})",
        "reserve-none": "Reserve: ingen ({name} vert laga når det er plass)",
        "store-ok": "Database: i orden (skjema {version}, {events}, {players})",
        "store-missing": "Database: finst ikkje ({path})",
        "store-damaged": "Database: øydelagd ({why}); kiosken flyttar henne til side "
                         "ved neste start",
        "damage-not-sqlite": "fila er ikkje ein SQLite-database",
        "damage-inside": "SQLite fann skade inne i fila; «pubpoker doctor --json» gjev "
                         "SQLite sine eigne ord",
        "store-error": "Database: {why}",
        "pauses": "Tilkoplingar venta på ledige fildeskriptorar sidan kiosken starta "
                  "({since}): {peers} gonger for andre einingar, {phones} for telefonar "
                  "(sist {last})",
        "gpio-factory": "GPIO-drivar: «{name}» ({var})",
        "gpio-factory-missing": "GPIO-drivar: «{name}» ({var}), "
                                "men han er ikkje installert",
        "gpio-default": "GPIO-drivar: gpiozero vel sjølv ({var} er ikkje sett)",
        "gpio-chip": "GPIO-brikke: {path}{label}",
        "gpio-none": "GPIO-brikke: ingen; knappane er av, tastaturet verkar framleis",
        "healthy": "Alt i orden.",
        "viewer": "Mobilsida: ikkje oppe på port {port} sidan {since}: {reason}",
        "viewer-port-p": "Mobilsida er ikkje oppe",
        "problems": "Problem: {list}",
        "disk-full": "Minnekortet er fullt",
        "disk-low": "Lite plass på minnekortet",
        "read-only": "Disken er skriveverna",
        "not-writable": "Kan ikkje skrive i datamappa",
        "no-data-dir": "Inga datamappe",
        "store-missing-p": "Ingen database",
        "store-damaged-p": "Databasen er øydelagd",
        "store-foreign-p": "Databasen er frå eit anna program",
        "store-unreadable-p": "Databasen kan ikkje lesast",
    },
    "nb": {
        "dir": "Datamappe: {path}",
        "space": "Ledig plass: {free} byte av {total} ({percent} %)",
        "no-dir": "Datamappen finnes ikke eller kan ikke leses",
        "fs-rw": "Filsystem: skrivbart",
        "fs-ro": "Filsystem: skrivebeskyttet",
        "fs-no": "Filsystem: kan ikke skrive i mappen",
        "reserve": "Reserve: {bytes} byte ({name})",
        "reserve-none": "Reserve: ingen ({name} lages når det er plass)",
        "store-ok": "Database: i orden (skjema {version}, {events}, {players})",
        "store-missing": "Database: finnes ikke ({path})",
        "store-damaged": "Database: ødelagt ({why}); kiosken flytter den til side "
                         "ved neste start",
        "damage-not-sqlite": "filen er ikke en SQLite-database",
        "damage-inside": "SQLite fant skade inne i filen; «pubpoker doctor --json» gir "
                         "SQLites egne ord",
        "store-error": "Database: {why}",
        "pauses": "Tilkoblinger ventet på ledige fildeskriptorer siden kiosken startet "
                  "({since}): {peers} ganger for andre enheter, {phones} for telefoner "
                  "(sist {last})",
        "gpio-factory": "GPIO-driver: «{name}» ({var})",
        "gpio-factory-missing": "GPIO-driver: «{name}» ({var}), "
                                "men den er ikke installert",
        "gpio-default": "GPIO-driver: gpiozero velger selv ({var} er ikke satt)",
        "gpio-chip": "GPIO-brikke: {path}{label}",
        "gpio-none": "GPIO-brikke: ingen; knappene er av, tastaturet virker fortsatt",
        "healthy": "Alt i orden.",
        "viewer": "Mobilsiden: ikke oppe på port {port} siden {since}: {reason}",
        "viewer-port-p": "Mobilsiden er ikke oppe",
        "problems": "Problem: {list}",
        "disk-full": "Minnekortet er fullt",
        "disk-low": "Lite plass på minnekortet",
        "read-only": "Disken er skrivebeskyttet",
        "not-writable": "Kan ikke skrive i datamappen",
        "no-data-dir": "Ingen datamappe",
        "store-missing-p": "Ingen database",
        "store-damaged-p": "Databasen er ødelagt",
        "store-foreign-p": "Databasen er fra et annet program",
        "store-unreadable-p": "Databasen kan ikke leses",
    },
    "da": {
        "dir": "Datamappe: {path}",
        "space": "Ledig plads: {free} byte af {total} ({percent} %)",
        "no-dir": "Datamappen findes ikke eller kan ikke læses",
        "fs-rw": "Filsystem: skrivbart",
        "fs-ro": "Filsystem: skrivebeskyttet",
        "fs-no": "Filsystem: kan ikke skrive i mappen",
        "reserve": "Reserve: {bytes} byte ({name})",
        "reserve-none": "Reserve: ingen ({name} oprettes, når der er plads)",
        "store-ok": "Database: i orden (skema {version}, {events}, {players})",
        "store-missing": "Database: findes ikke ({path})",
        "store-damaged": "Database: beskadiget ({why}); kiosken flytter den til side "
                         "ved næste start",
        "damage-not-sqlite": "filen er ikke en SQLite-database",
        "damage-inside": "SQLite fandt skade inde i filen; «pubpoker doctor --json» giver "
                         "SQLites egne ord",
        "store-error": "Database: {why}",
        "pauses": "Forbindelser ventede på ledige fildeskriptorer siden kiosken startede "
                  "({since}): {peers} gange for andre enheder, {phones} for telefoner "
                  "(senest {last})",
        "gpio-factory": "GPIO-driver: «{name}» ({var})",
        "gpio-factory-missing": "GPIO-driver: «{name}» ({var}), "
                                "men den er ikke installeret",
        "gpio-default": "GPIO-driver: gpiozero vælger selv ({var} er ikke sat)",
        "gpio-chip": "GPIO-chip: {path}{label}",
        "gpio-none": "GPIO-chip: ingen; knapperne er slået fra, tastaturet virker stadig",
        "healthy": "Alt i orden.",
        "viewer": "Mobilsiden: kører ikke på port {port} siden {since}: {reason}",
        "viewer-port-p": "Mobilsiden kører ikke",
        "problems": "Problemer: {list}",
        "disk-full": "Hukommelseskortet er fuldt",
        "disk-low": "Lidt plads på hukommelseskortet",
        "read-only": "Disken er skrivebeskyttet",
        "not-writable": "Kan ikke skrive i datamappen",
        "no-data-dir": "Ingen datamappe",
        "store-missing-p": "Ingen database",
        "store-damaged-p": "Databasen er beskadiget",
        "store-foreign-p": "Databasen er fra et andet program",
        "store-unreadable-p": "Databasen kan ikke læses",
    },
    "en": {
        "dir": "Data directory: {path}",
        "space": "Free space: {free} bytes of {total} ({percent} %)",
        "no-dir": "The data directory does not exist or cannot be read",
        "fs-rw": "File system: writable",
        "fs-ro": "File system: read-only",
        "fs-no": "File system: cannot write in the directory",
        "reserve": "Reserve: {bytes} bytes ({name})",
        "reserve-none": "Reserve: none ({name} is made when there is room)",
        "store-ok": "Database: healthy (schema {version}, {events}, {players})",
        "store-missing": "Database: missing ({path})",
        "store-damaged": "Database: damaged ({why}); the kiosk sets it aside at its "
                         "next start",
        "damage-not-sqlite": "the file is not an SQLite database",
        "damage-inside": "SQLite found damage inside the file; 'pubpoker doctor --json' "
                         "gives SQLite's own words",
        "store-error": "Database: {why}",
        "pauses": "Connections waited for free file descriptors since the kiosk started "
                  "({since}): {peers} times for other devices, {phones} for phones "
                  "(last {last})",
        "gpio-factory": "GPIO pin factory: '{name}' ({var})",
        "gpio-factory-missing": "GPIO pin factory: '{name}' ({var}), "
                                "but it is not installed",
        "gpio-default": "GPIO pin factory: gpiozero's choice ({var} is not set)",
        "gpio-chip": "GPIO chip: {path}{label}",
        "gpio-none": "GPIO chip: none; buttons off, the keyboard still works",
        "healthy": "All is well.",
        "viewer": "Phones' page: not served on port {port} since {since}: {reason}",
        "viewer-port-p": "The phones' page is not served",
        "problems": "Problems: {list}",
        "disk-full": "The memory card is full",
        "disk-low": "Little room on the memory card",
        "read-only": "The disk is read-only",
        "not-writable": "Cannot write in the data directory",
        "no-data-dir": "No data directory",
        "store-missing-p": "No database",
        "store-damaged-p": "The database is damaged",
        "store-foreign-p": "The database is from another program",
        "store-unreadable-p": "The database cannot be read",
    },
}


def register(sub: Any, lang: str = DEFAULT_LANGUAGE) -> None:
    parser = sub.add_parser("doctor", help=help_text("doctor", lang),
                            description=help_text("doctor.description", lang))
    add_data_dir(parser, lang)
    parser.add_argument("--json", action="store_true", help=help_text("doctor.json", lang))
    parser.set_defaults(func=_doctor)


def _percent(value: float, lang: str) -> str:
    text = f"{value:.1f}"
    return text if lang == "en" else text.replace(".", ",")


def _problem(key: str, texts: dict[str, str]) -> str:
    return texts.get(f"{key}-p") or texts[key]


def render(report: Report, lang: str, gpio: GpioReport | None = None) -> str:
    texts = _TEXT.get(lang, _TEXT[DEFAULT_LANGUAGE])
    lines = [texts["dir"].format(path=report.data_dir)]
    disk, store = report.disk, report.store
    if disk.space is None:
        lines.append(texts["no-dir"])
    else:
        lines.append(texts["space"].format(
            free=format_int(disk.space.free, lang), total=format_int(disk.space.total, lang),
            percent=_percent(disk.space.percent_free, lang)))
        lines.append(texts["fs-ro"] if disk.space.read_only
                     else texts["fs-rw"] if disk.writable else texts["fs-no"])
    name = "pubpoker.reserve"
    lines.append(texts["reserve"].format(bytes=format_int(disk.reserve_bytes, lang), name=name)
                 if disk.reserve_bytes else texts["reserve-none"].format(name=name))
    if not store.exists:
        lines.append(texts["store-missing"].format(path=store.path))
    elif store.damage is not None:
        why = texts["damage-not-sqlite" if store.not_sqlite else "damage-inside"]
        lines.append(texts["store-damaged"].format(why=why))
    elif store.error is not None:
        lines.append(texts["store-error"].format(why=store.error.translate(lang)))
    else:
        lines.append(texts["store-ok"].format(
            version=store.schema_version, events=count(store.events or 0, "event", lang),
            players=count(store.players or 0, "player", lang)))
    pauses = store.listener_pauses
    if pauses and (pauses["peers"] or pauses["phones"]):
        lines.append(texts["pauses"].format(
            since=pauses["since"], last=pauses["last"],
            peers=format_int(pauses["peers"], lang), phones=format_int(pauses["phones"], lang)))
    viewer = store.viewer_not_served
    if viewer is not None:
        reason = OsReason(viewer["errno"], viewer["errno"]).render(lang)
        lines.append(texts["viewer"].format(port=viewer["port"], since=viewer["since"],
                                            reason=reason))
    if gpio is not None:
        lines.extend(render_gpio(gpio, lang))
    problems = report.problems
    lines.append(texts["healthy"] if not problems else texts["problems"].format(
        list="; ".join(_problem(p, texts) for p in problems)))
    return "\n".join(lines) + "\n"


def as_json(report: Report, lang: str, gpio: GpioReport | None = None) -> str:
    disk, store, space = report.disk, report.store, report.disk.space
    data: dict[str, Any] = {
        "data_dir": str(report.data_dir),
        "healthy": report.healthy,
        "problems": list(report.problems),
        "space": None if space is None else {
            "free_bytes": space.free, "total_bytes": space.total,
            "free_percent": round(space.percent_free, 2),
            "low_threshold_bytes": space.low_threshold, "low": disk.low, "full": disk.full},
        "file_system": {"read_only": bool(space and space.read_only),
                        "writable": disk.writable},
        "reserve": {"path": str(report.data_dir / "pubpoker.reserve"),
                    "present": disk.reserve_bytes > 0, "bytes": disk.reserve_bytes},
        "store": {"path": str(store.path), "exists": store.exists, "healthy": store.ok,
                  "quick_check": None if not store.exists or store.error is not None
                  else ("ok" if store.damage is None else store.damage),
                  "schema_version": store.schema_version, "events": store.events,
                  "players": store.players,
                  "error": None if store.error is None else store.error.translate(lang),
                  "error_code": None if store.error is None else store.error.code,
                  "listener_pauses": store.listener_pauses,
                  "viewer_not_served": store.viewer_not_served},
    }
    if gpio is not None:
        data["gpio"] = {"pin_factory": gpio.factory, "pin_factory_installed": gpio.installed,
                        "chips": list(gpio.chips), "chip": gpio.chip, "label": gpio.label}
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def _doctor(args: argparse.Namespace) -> int:
    report = examine(store_path(args).parent)
    print((as_json if args.json else render)(report, args.lang, examine_gpio()), end="")
    return 0 if report.healthy else 1
