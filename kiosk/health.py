"""The health part of the display's status line: power and SD card.

Two faults explain most "the kiosk went strange" calls from a pub:

* **Under-voltage.** A phone charger instead of the Pi's supply browns the
  board out under load. The kernel's ``rpi_volt`` hwmon driver latches
  ``in0_lcrit_alarm`` when it happens. We read sysfs rather than run
  ``vcgencmd get_throttled``: that needs the ``video`` group and the
  firmware mailbox, is missing on plain Debian, and forking from the draw
  loop every few seconds is not free on a Pi Zero.
* **File system errors.** ext4 counts the errors it found on each mounted
  file system in ``/sys/fs/ext4/<dev>/errors_count``. A non-zero count on
  the SD card means it is failing, and the event log lives there.

Both roots are parameters so tests use a fake tree.
"""

from __future__ import annotations

import os
from pathlib import Path

from rules.i18n import DEFAULT_LANGUAGE
from rules.records import RecordMethods, record

__all__ = [
    "EXT4_ROOT", "HWMON_ROOT", "Health", "check", "ext4_errors", "status_messages",
    "under_voltage",
]

HWMON_ROOT = Path("/sys/class/hwmon")
EXT4_ROOT = Path("/sys/fs/ext4")

_MESSAGES: dict[str, dict[str, str]] = {
    "under_voltage": {
        "nn": "For låg straum: bruk Pi-straumforsyninga",
        "nb": "For lav strøm: bruk Pi-strømforsyningen",
        "da": "For lav spænding: brug Pi-strømforsyningen",
        "en": "Under-voltage: use the Pi power supply",
    },
    "ext4_errors": {
        "nn": "Feil på minnekortet ({devices}): byt kortet",
        "nb": "Feil på minnekortet ({devices}): bytt kortet",
        "da": "Fejl på hukommelseskortet ({devices}): skift kortet",
        "en": "SD card errors ({devices}): replace the card",
    },
}


def _read_int(path: Path) -> int:
    try:
        return int(path.read_text().strip() or "0")
    except (OSError, ValueError):
        return 0


def _entries(root: str | os.PathLike[str], pattern: str) -> list[Path]:
    # Listing a directory takes a descriptor; a process that has none to spare
    # (or a /sys that went away) reports nothing rather than stop the wall.
    try:
        return sorted(Path(root).glob(pattern))
    except OSError:
        return []


def under_voltage(root: str | os.PathLike[str] = HWMON_ROOT) -> bool:
    """True when the ``rpi_volt`` sensor has latched its low-voltage alarm."""
    for hwmon in _entries(root, "hwmon*"):
        try:
            name = (hwmon / "name").read_text().strip()
        except OSError:
            continue
        if name == "rpi_volt" and _read_int(hwmon / "in0_lcrit_alarm") == 1:
            return True
    return False


def ext4_errors(root: str | os.PathLike[str] = EXT4_ROOT) -> dict[str, int]:
    """Each ext4 device with a non-zero error count, by device name."""
    found: dict[str, int] = {}
    for device in _entries(root, "*"):
        count = _read_int(device / "errors_count")
        if count > 0:
            found[device.name] = count
    return found


@record
class Health(RecordMethods):
    under_voltage: bool = False
    ext4_errors: tuple[tuple[str, int], ...] = ()

    @property
    def ok(self) -> bool:
        return not self.under_voltage and not self.ext4_errors

    def messages(self, lang: str = DEFAULT_LANGUAGE) -> tuple[str, ...]:
        """Short translated lines for the status line; empty when all is well.

        >>> Health().messages()
        ()
        >>> Health(True, (("mmcblk0p2", 3),)).messages("en")
        ('Under-voltage: use the Pi power supply', 'SD card errors (mmcblk0p2): replace the card')
        """
        out: list[str] = []
        if self.under_voltage:
            out.append(_text("under_voltage", lang))
        if self.ext4_errors:
            devices = ", ".join(name for name, _ in self.ext4_errors)
            out.append(_text("ext4_errors", lang).format(devices=devices))
        return tuple(out)


def _text(key: str, lang: str) -> str:
    catalogue = _MESSAGES[key]
    return catalogue.get(lang) or catalogue["en"]


def check(
    hwmon_root: str | os.PathLike[str] = HWMON_ROOT,
    ext4_root: str | os.PathLike[str] = EXT4_ROOT,
) -> Health:
    """Read both sources once (cheap: a few small sysfs files)."""
    return Health(
        under_voltage=under_voltage(hwmon_root),
        ext4_errors=tuple(ext4_errors(ext4_root).items()),
    )


def status_messages(
    lang: str = DEFAULT_LANGUAGE,
    hwmon_root: str | os.PathLike[str] = HWMON_ROOT,
    ext4_root: str | os.PathLike[str] = EXT4_ROOT,
) -> tuple[str, ...]:
    """The status line's health texts in ``lang``; empty when all is well."""
    return check(hwmon_root, ext4_root).messages(lang)
