"""pubpoker-firstboot: apply pubpoker.toml's host name, Wi-Fi and time role before the network.

Run by ``pubpoker-firstboot.service`` on every boot with the system's own
python, isolated (``/usr/bin/python3 -I -B /opt/pubpoker/lib/firstboot.py``),
so it needs nothing but the standard library: a broken or half-upgraded
venv cannot stop a Pi from getting its name and Wi-Fi. It does its work only
when the file changed since it last ran (a SHA-256 stamp in
``/var/lib/pubpoker``); with a read-only root the stamp vanishes at reboot
and the settings are simply written again into the RAM overlay.

* The host name follows the role, so every device can find the display
  without being told its name: ``pubpoker-display``, ``pubpoker-console``,
  ``pubpoker-table-3``. chrony on the others asks ``pubpoker-display.local``.
* chrony's part follows the role too: the display serves the venue's time,
  the others follow it (the same file provision.sh writes, so a card moved
  from a display to a table is right after one boot).
* ``[wifi]`` becomes a NetworkManager keyfile (read when NetworkManager
  starts, which is after this unit) and the regulatory country is set, which
  Raspberry Pi OS needs before it unblocks the radio.

It must never hold up the boot: every command it runs gets
:data:`COMMAND_TIMEOUT` seconds and all of them :data:`BUDGET`; one that
fails or times out is logged and the rest go on, and the stamp is then left
unwritten so the next boot tries again. Files are replaced atomically, so
systemd's backstop (a kill at ``TimeoutStartSec``) leaves each one old or new.

A file that does not validate changes nothing: the kiosk shows the error,
translated. Only the keys used here are checked, by the same rules as
``kiosk/config.py`` (a test holds the two to agreement).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

STAMP = Path("var/lib/pubpoker/firstboot.sha256")
KEYFILE = Path("etc/NetworkManager/system-connections/pubpoker-wifi.nmconnection")
CHRONY = Path("etc/chrony/conf.d/pubpoker.conf")
DISPLAY_HOST = "pubpoker-display"
#: Seconds for one command (raspi-config, iw...); slow under emulation, instant on a Pi.
COMMAND_TIMEOUT = 10.0
#: Seconds for all commands together; the unit's TimeoutStartSec is the backstop above it.
BUDGET = 30.0
ROLES = ("display", "console", "table")
TABLE_RANGE = (1, 15)

#: The keys of the sections read here, as kiosk/config.py knows them: a typo
#: (``pks`` for ``psk``) must not write an open network's keyfile.
KNOWN = {"device": ("role", "name", "table", "language", "data_dir"),
         "wifi": ("country", "ssid", "psk")}

#: Runs a command with a timeout; returns None when it worked, else why not.
Runner = Callable[[Sequence[str], float], str | None]


def say(text: str) -> None:
    print(f"pubpoker-firstboot: {text}", flush=True)


def warn(text: str) -> None:
    print(f"pubpoker-firstboot: {text}", file=sys.stderr, flush=True)


# --- the settings it applies ---------------------------------------------------------


class Invalid(ValueError):
    """A key this script uses is wrong; the message names it (the journal is English)."""


@dataclass(frozen=True)
class Wifi:
    country: str
    ssid: str
    psk: str | None = None


@dataclass(frozen=True)
class Settings:
    roles: tuple[str, ...] = ("display",)
    table: int | None = None
    wifi: Wifi | None = None


def _text(section: Mapping[str, Any], name: str, key: str) -> str | None:
    value = section.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise Invalid(f"{name}.{key} must be a text in quotes")
    if not value.strip():
        raise Invalid(f"{name}.{key} is empty")
    return value.strip()


def _section(doc: Mapping[str, Any], name: str) -> Mapping[str, Any] | None:
    value = doc.get(name)
    if value is None:
        return None
    if not isinstance(value, dict):
        raise Invalid(f"[{name}] must be a section")
    for key in value:
        if key not in KNOWN[name]:
            raise Invalid(f"{name}.{key} is not a setting in pubpoker.toml")
    return value


def read_settings(raw: bytes) -> Settings:
    """The role, table and Wi-Fi of a ``pubpoker.toml``; :class:`Invalid` if they are wrong.

    >>> read_settings(b'[device]\\nrole = ["console", "table"]\\ntable = 4\\n')
    Settings(roles=('console', 'table'), table=4, wifi=None)
    >>> try:
    ...     read_settings(b'[device]\\nrole = "tv"\\n')
    ... except Invalid as err:
    ...     print(err)
    device.role "tv" is unknown; use display, console or table
    """
    try:
        # FAT editors on Windows may add a byte-order mark.
        doc = tomllib.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise Invalid("the file is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as err:
        raise Invalid(f"syntax error: {err}") from None
    device = _section(doc, "device") or {}
    raw_roles = device.get("role", "display")
    items = [raw_roles] if isinstance(raw_roles, str) else raw_roles
    if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
        raise Invalid("device.role must be a role or a list of roles")
    if not items:
        raise Invalid("device.role is empty")
    roles: list[str] = []
    for item in items:
        word = item.strip().lower()
        if word not in ROLES:
            raise Invalid(f'device.role "{item}" is unknown; use display, console or table')
        if word not in roles:
            roles.append(word)
    table = device.get("table")
    if table is not None:
        if not isinstance(table, int) or isinstance(table, bool):
            raise Invalid("device.table must be a whole number")
        low, high = TABLE_RANGE
        if not low <= table <= high:
            raise Invalid(f"device.table = {table} is out of range; use {low} to {high}")
    if "table" in roles and table is None:
        raise Invalid("device.table is missing: a table device needs its number")
    if table is not None and "table" not in roles:
        raise Invalid("device.table is set but device.role does not include table")
    return Settings(roles=tuple(roles), table=table, wifi=_wifi(_section(doc, "wifi")))


def _wifi(section: Mapping[str, Any] | None) -> Wifi | None:
    if section is None:
        return None
    country = _text(section, "wifi", "country")
    if country is None:
        raise Invalid("wifi.country is missing")
    if not re.fullmatch(r"[A-Z]{2}", country):
        raise Invalid(f'wifi.country "{country}" is not a two-letter code in capitals')
    ssid = _text(section, "wifi", "ssid")
    if ssid is None:
        raise Invalid("wifi.ssid is missing")
    if len(ssid.encode()) > 32:
        raise Invalid("wifi.ssid is longer than 32 bytes")
    psk = section.get("psk")
    if psk is not None:
        if not isinstance(psk, str):
            raise Invalid("wifi.psk must be a text in quotes")
        # Passwords keep their spaces; only the length rule applies (WPA2-PSK).
        if not 8 <= len(psk) <= 63:
            raise Invalid("wifi.psk must be 8 to 63 characters")
    return Wifi(country=country, ssid=ssid, psk=psk)


def hostname_for(settings: Settings) -> str:
    """The host name a device gets from its role (the display wins when it has several)."""
    if "display" in settings.roles:
        return DISPLAY_HOST
    if "console" in settings.roles:
        return "pubpoker-console"
    return f"pubpoker-table-{settings.table}"


def nm_keyfile(wifi: Wifi) -> str:
    """A NetworkManager keyfile for the venue's Wi-Fi; the uuid is stable per SSID."""
    conn_uuid = uuid.uuid5(uuid.NAMESPACE_DNS, f"pubpoker-wifi.{wifi.ssid}")
    lines = [
        "[connection]",
        "id=pubpoker-wifi",
        f"uuid={conn_uuid}",
        "type=wifi",
        "autoconnect=true",
        "",
        "[wifi]",
        "mode=infrastructure",
        f"ssid={wifi.ssid}",
        # Power saving delays peer-sync packets by hundreds of milliseconds.
        "powersave=2",
        "",
    ]
    if wifi.psk is not None:
        lines += ["[wifi-security]", "key-mgmt=wpa-psk", f"psk={wifi.psk}", ""]
    lines += ["[ipv4]", "method=auto", "", "[ipv6]", "method=auto", ""]
    return "\n".join(lines)


def chrony_conf(settings: Settings, existing: str = "") -> str:
    """chrony's part for the role, as provision.sh writes it.

    A display serves the venue's time; the others follow the display host
    named in the file already there (provision.sh's ``--display-host``).
    """
    if "display" in settings.roles:
        return ("# pubpoker (provision.sh): this display serves time to the venue's devices.\n"
                "# Keep serving from its own clock when the internet is away.\n"
                "local stratum 10\n"
                "# Any device on the LAN may ask.\n"
                "allow\n")
    named = re.search(r"^server\s+(\S+)\.local\b", existing, re.M)
    host = named[1] if named else DISPLAY_HOST
    return ("# pubpoker (provision.sh): follow the venue's display.\n"
            f"server {host}.local iburst prefer\n")


# --- doing it --------------------------------------------------------------------------


def _write(path: Path, text: str, mode: int = 0o644) -> bool:
    """Replace ``path`` atomically if its text differs; True when it was written."""
    with contextlib.suppress(OSError, UnicodeDecodeError):
        if path.read_text() == text:
            return False
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    return True


def _hosts(hosts: Path, name: str) -> str:
    try:
        lines = hosts.read_text().splitlines()
    except FileNotFoundError:
        lines = ["127.0.0.1\tlocalhost"]
    kept = [line for line in lines if not line.startswith("127.0.1.1")]
    return "\n".join([*kept, f"127.0.1.1\t{name}"]) + "\n"


def run_command(command: Sequence[str], timeout: float) -> str | None:
    """Run ``command`` for at most ``timeout`` seconds; None if it exited 0, else why not.

    A command that is not installed (raspi-config on plain Debian) is not a
    failure. On a timeout its whole process group is killed, helpers too.
    """
    if shutil.which(command[0]) is None:
        say(f"{command[0]} is not installed; skipped")
        return None
    try:
        # Its own session, so a timeout can kill what it started as well.
        proc = subprocess.Popen(list(command), stdin=subprocess.DEVNULL,
                                start_new_session=True)
    except OSError as err:
        return f"could not start: {err.strerror or err}"
    try:
        code = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        return f"timed out after {round(timeout, 1):g} s"
    return None if code == 0 else f"exited with status {code}"


@dataclass
class Report:
    """What one run did; ``failed`` empty means the stamp was written."""

    done: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    unchanged: bool = False


def apply(config_path: Path, root: Path = Path("/"), run: Runner | None = None, *,
          timeout: float = COMMAND_TIMEOUT, budget: float = BUDGET,
          clock: Callable[[], float] = time.monotonic) -> Report:
    """Apply the file's settings under ``root``; ``run`` runs the commands (None: none).

    Raises :class:`Invalid` (nothing changed) when the keys it uses are wrong.
    """
    report = Report()
    raw = config_path.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    stamp = root / STAMP
    with contextlib.suppress(OSError):
        if stamp.read_text().strip() == digest:
            report.unchanged = True
            return report
    settings = read_settings(raw)
    deadline = clock() + budget

    def step(what: str, action: Callable[[], bool], *, tell: bool = True) -> None:
        try:
            if action() and tell:
                report.done.append(what)
        except OSError as err:
            report.failed.append(f"{what}: {err.strerror or err}")

    def command(*argv: str) -> None:
        if run is None:
            return
        left = deadline - clock()
        if left <= 0:
            report.failed.append(f"{argv[0]}: not run, the {budget:g} s for commands are used up")
            return
        why = run(argv, min(timeout, left))
        if why is not None:
            report.failed.append(f"{' '.join(argv)}: {why}")

    name = hostname_for(settings)
    step(f"hostname {name}", lambda: _write(root / "etc/hostname", name + "\n"))
    step("hosts", lambda: _write(root / "etc/hosts", _hosts(root / "etc/hosts", name)),
         tell=False)
    command("hostname", name)
    chrony = root / CHRONY
    if chrony.parent.parent.is_dir():  # chrony is installed
        def time_role() -> bool:
            try:
                existing = chrony.read_text()
            except FileNotFoundError:
                existing = ""
            return _write(chrony, chrony_conf(settings, existing))

        step("chrony serves the venue's time" if "display" in settings.roles
             else "chrony follows the display", time_role)
    keyfile = root / KEYFILE
    wifi = settings.wifi
    if wifi is not None:
        # Secrets: readable by root only, as NetworkManager insists.
        step(f"wifi {wifi.ssid}", lambda: _write(keyfile, nm_keyfile(wifi), 0o600))
        command("raspi-config", "nonint", "do_wifi_country", wifi.country)
        command("iw", "reg", "set", wifi.country)
        command("rfkill", "unblock", "wifi")
    elif keyfile.exists():
        def forget() -> bool:
            keyfile.unlink()
            return True

        step("wifi removed", forget)
    if not report.failed:
        step("stamp", lambda: _write(stamp, digest + "\n"), tell=False)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pubpoker-firstboot")
    parser.add_argument("config", nargs="?", default="/boot/firmware/pubpoker.toml")
    parser.add_argument("--root", default="/", help="apply under this directory "
                        "(then no commands run, unless --run-commands)")
    parser.add_argument("--timeout", type=float, default=COMMAND_TIMEOUT,
                        help="seconds for each command")
    parser.add_argument("--budget", type=float, default=BUDGET,
                        help="seconds for all commands together")
    # For tests: run the commands under a --root too (with stubs first on PATH).
    parser.add_argument("--run-commands", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    root = Path(args.root)
    live = root.resolve() == Path("/") or args.run_commands
    try:
        report = apply(Path(args.config), root, run_command if live else None,
                       timeout=args.timeout, budget=args.budget)
    except Invalid as err:
        # The kiosk shows the whole file's problem, translated, on the TV.
        warn(f"{args.config}: {err}; nothing changed")
        return 0
    except OSError as err:
        warn(f"{args.config}: {err.strerror or err}; nothing changed")
        return 0
    if report.unchanged:
        say(f"{args.config} unchanged since it was applied; nothing to do")
    for line in report.done:
        say(line)
    for line in report.failed:
        warn(f"failed: {line}")
    if report.failed:
        warn("the settings will be applied again at the next boot")
    # Never fail the unit for a setting: the boot goes on, and the log says what.
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
