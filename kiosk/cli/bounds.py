"""The ranges the CLI's numeric options accept, and their translated refusals.

A number on the command line sizes something: a points table of N rows, a
window of W×H pixels, a tournament of T tables. Unchecked, a typo
(``--entrants 99999999999``) runs for minutes and eats the Pi's memory, or
reaches pygame as a window it cannot make. Each option is checked against a
range a pub could use before anything is built from it, and refused in one
translated sentence (exit 2, nothing done). Ranges that are tournament rules
live in the rules core or the config (seats per table, tables); this module
only holds the command line's own and the check.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Final

from rules.errors import RulesError

__all__ = [
    "CLOCK_ADJUST_MAX",
    "FILE_MAX",
    "FRAMES_MAX",
    "SIZE_MAX",
    "SIZE_MIN",
    "SPEED_MAX",
    "FileTooBig",
    "OptionOutOfRange",
    "SizeOutOfRange",
    "check_number",
    "check_size",
    "is_store_file",
    "read_at_most",
]

#: ``clock add``: three hours either way. The change stays inside the running
#: level anyway (rules.clock.adjust); more than a night is a typo.
CLOCK_ADJUST_MAX: Final = 3 * 3600
#: ``--size``: from the smallest window the screens are laid out for to 8K,
#: the largest mode a Pi 5 drives; SDL refuses larger surfaces with an error.
SIZE_MIN: Final = (320, 240)
SIZE_MAX: Final = (7680, 4320)
#: ``--speed``: a soak runs a night at 60×, a demo test at 2000×; at 10 000×
#: a five-hour night passes in two seconds, and far beyond it shared time
#: (speed × the monotonic clock) loses its precision or overflows.
SPEED_MAX: Final = 10_000.0
#: ``--frames``: a smoke test runs tens; ten million frames is days at 60 fps.
FRAMES_MAX: Final = 10_000_000


#: Files the CLI reads whole: a venue's players (a CSV line is ~30 bytes, so
#: this is tens of thousands of players) or a points table. ``/dev/zero`` or a
#: wrong file of gigabytes must not be read into the Pi's memory.
FILE_MAX: Final = 4 * 1024 * 1024


class FileTooBig(RulesError, ValueError):
    messages = {
        "nn": "{path} er for stor (over {limit} KiB); er det rett fil?",
        "nb": "{path} er for stor (over {limit} KiB); er det riktig fil?",
        "da": "{path} er for stor (over {limit} KiB); er det den rigtige fil?",
        "en": "{path} is too big (over {limit} KiB); is it the right file?",
    }


def read_at_most(path: Path, limit: int = FILE_MAX) -> bytes:
    """The bytes of ``path`` if there are at most ``limit`` of them, else a refusal.

    Raises :class:`OSError` as reading does (the caller names the file).

    >>> read_at_most(Path("/dev/zero"), 1024)
    Traceback (most recent call last):
    ...
    kiosk.cli.bounds.FileTooBig: /dev/zero is too big (over 1 KiB); is it the right file?
    """
    with path.open("rb") as file:
        data = file.read(limit + 1)
    if len(data) > limit:
        raise FileTooBig(path=str(path), limit=limit // 1024)
    return data


def is_store_file(store: Path, target: Path) -> bool:
    """Is ``target`` the store at ``store`` or one of SQLite's files beside it?

    A file written there (an export, a backup's ``os.replace``) would be the
    end of the night: the database or its WAL overwritten under a running kiosk.

    >>> is_store_file(Path("/data/pubpoker/pubpoker.db"), Path("/data/pubpoker/pubpoker.db-wal"))
    True
    >>> is_store_file(Path("/data/pubpoker/pubpoker.db"), Path("/media/usb/pubpoker.db"))
    False
    """
    try:
        own = {Path(f"{store}{suffix}").resolve() for suffix in ("", "-wal", "-shm", "-journal")}
        return target.resolve() in own
    except OSError:
        return False  # a path the file system refuses: writing there fails on its own


class OptionOutOfRange(RulesError, ValueError):
    messages = {
        "nn": "{option} {value} er utanfor grensene; bruk eit tal frå {low} til {high}",
        "nb": "{option} {value} er utenfor grensene; bruk et tall fra {low} til {high}",
        "da": "{option} {value} er uden for grænserne; brug et tal fra {low} til {high}",
        "en": "{option} {value} is out of range; use a number from {low} to {high}",
    }


class SizeOutOfRange(RulesError, ValueError):
    messages = {
        "nn": "--size {value} er utanfor grensene; bruk frå {low} til {high} pikslar",
        "nb": "--size {value} er utenfor grensene; bruk fra {low} til {high} piksler",
        "da": "--size {value} er uden for grænserne; brug fra {low} til {high} billedpunkter",
        "en": "--size {value} is out of range; use from {low} up to {high} pixels",
    }


def check_number(option: str, value: float, low: float, high: float) -> float:
    """``value`` if it is a finite number from ``low`` to ``high``, else a refusal.

    >>> check_number("--entrants", 54, 1, 10_000)
    54
    >>> try:
    ...     check_number("clock add", float("nan"), -10_800, 10_800)
    ... except OptionOutOfRange as err:
    ...     print(err.translate("nn"))
    clock add nan er utanfor grensene; bruk eit tal frå -10 800 til 10 800
    >>> try:
    ...     check_number("--seats", int("9" * 400), 2, 11)
    ... except OptionOutOfRange as err:
    ...     print(err.translate("en"))
    --seats 9999999999999999999999999999999999999999… is out of range; use a number from 2 to 11
    """
    # An int argparse read may be too big for a float: math.isfinite would overflow.
    finite = isinstance(value, int) or math.isfinite(value)
    if not (finite and low <= value <= high):
        # The value as typed (9999, not 9 999); the bounds as the language writes them.
        raise OptionOutOfRange(option=option, value=str(_shown(value)), low=_shown(low),
                               high=_shown(high))
    return value


def check_size(size: tuple[int, int]) -> tuple[int, int]:
    """A window size pygame can open and the screens are laid out for, else a refusal.

    >>> check_size((1920, 1080))
    (1920, 1080)
    >>> try:
    ...     check_size((99999, 99999))
    ... except SizeOutOfRange as err:
    ...     print(err.translate("en"))
    --size 99999x99999 is out of range; use from 320x240 up to 7680x4320 pixels
    """
    width, height = size
    if not (SIZE_MIN[0] <= width <= SIZE_MAX[0] and SIZE_MIN[1] <= height <= SIZE_MAX[1]):
        raise SizeOutOfRange(value=f"{width}x{height}", low="{}x{}".format(*SIZE_MIN),
                             high="{}x{}".format(*SIZE_MAX))
    return size


def _shown(value: float) -> int | str:
    """Whole numbers as ints (grouped per language by RulesError), the rest as typed."""
    if isinstance(value, int) or (math.isfinite(value) and value == int(value)
                                  and abs(value) < 1e15):
        return int(value)
    return repr(value)
