"""pubpoker-firstboot: apply pubpoker.toml's host name and Wi-Fi before the network starts.

Run by ``pubpoker-firstboot.service`` on every boot with the kiosk's venv
python (``/opt/pubpoker/venv/bin/python /opt/pubpoker/lib/firstboot.py``).
It does its work only when the file changed since it last ran (a SHA-256
stamp in ``/var/lib/pubpoker``); with a read-only root the stamp vanishes at
reboot and the settings are simply written again into the RAM overlay.

* The host name follows the role, so every device can find the display
  without being told its name: ``pubpoker-display``, ``pubpoker-console``,
  ``pubpoker-table-3``. chrony on the others asks ``pubpoker-display.local``.
* ``[wifi]`` becomes a NetworkManager keyfile (read when NetworkManager
  starts, which is after this unit) and the regulatory country is set, which
  Raspberry Pi OS needs before it unblocks the radio.

A config that does not validate changes nothing: the kiosk shows the error.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import sys
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path

from kiosk.config import Config, ConfigError, Role, WifiConfig, load_config

STAMP = Path("var/lib/pubpoker/firstboot.sha256")
KEYFILE = Path("etc/NetworkManager/system-connections/pubpoker-wifi.nmconnection")

Runner = Callable[[Sequence[str]], object]


def hostname_for(config: Config) -> str:
    """The host name a device gets from its role (the display wins when it has several)."""
    device = config.device
    if device.has_role(Role.DISPLAY):
        return "pubpoker-display"
    if device.has_role(Role.CONSOLE):
        return "pubpoker-console"
    return f"pubpoker-table-{device.table}"


def nm_keyfile(wifi: WifiConfig) -> str:
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


def _write(path: Path, text: str, mode: int = 0o644) -> bool:
    if path.exists() and path.read_text() == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(mode)
    return True


def _set_hosts(hosts: Path, name: str) -> None:
    lines = hosts.read_text().splitlines() if hosts.exists() else ["127.0.0.1\tlocalhost"]
    kept = [line for line in lines if not line.startswith("127.0.1.1")]
    _write(hosts, "\n".join([*kept, f"127.0.1.1\t{name}"]) + "\n")


def _run(command: Sequence[str]) -> object:
    if shutil.which(command[0]) is None:
        return None
    return subprocess.run(list(command), check=False)


def apply(config_path: Path, root: Path = Path("/"), run: Runner = _run) -> list[str]:
    """Apply the file's settings under ``root``; return what was done."""
    done: list[str] = []
    raw = config_path.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    stamp = root / STAMP
    if stamp.exists() and stamp.read_text().strip() == digest:
        return done
    config = load_config(config_path)
    name = hostname_for(config)
    if _write(root / "etc/hostname", name + "\n"):
        done.append(f"hostname {name}")
    _set_hosts(root / "etc/hosts", name)
    if root == Path("/"):
        run(["hostname", name])
    keyfile = root / KEYFILE
    if config.wifi is not None:
        # Secrets: readable by root only, as NetworkManager insists.
        if _write(keyfile, nm_keyfile(config.wifi), 0o600):
            done.append(f"wifi {config.wifi.ssid}")
        if root == Path("/"):
            run(["raspi-config", "nonint", "do_wifi_country", config.wifi.country])
            run(["iw", "reg", "set", config.wifi.country])
            run(["rfkill", "unblock", "wifi"])
    elif keyfile.exists():
        keyfile.unlink()
        done.append("wifi removed")
    _write(stamp, digest + "\n")
    return done


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pubpoker-firstboot")
    parser.add_argument("config", nargs="?", default="/boot/firmware/pubpoker.toml")
    parser.add_argument("--root", default="/", help="apply under this directory")
    args = parser.parse_args(argv)
    try:
        for line in apply(Path(args.config), Path(args.root)):
            print(f"pubpoker-firstboot: {line}")
    except ConfigError as err:
        # Journal in English; the kiosk shows it translated on the TV.
        print(f"pubpoker-firstboot: {args.config}: {err}; nothing changed", file=sys.stderr)
        return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
