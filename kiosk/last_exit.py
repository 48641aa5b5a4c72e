"""Why the kiosk last stopped, shown on the wall after systemd starts it again.

A kiosk that dies (a flood of connections exhausting its descriptors, a bug)
is restarted by systemd for as long as it keeps dying
(``StartLimitIntervalSec=0`` in the unit). Restarted, it would look as if
nothing had happened, and the TD would never learn why the TV went black
for ten seconds. So the dying process writes one line, and the next start
shows it on the status line for :data:`SHOW_FOR` seconds.

Nothing here may fail the kiosk: a full or read-only card loses the line,
not the night.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

from rules.i18n import shorten

__all__ = ["FILE", "SHOW_FOR", "record", "restarted_source", "take"]

FILE: Final = "last-exit.json"
#: Seconds the reason stays on the status line after the restart.
SHOW_FOR: Final = 600.0

_MESSAGES: Final = {
    "nn": "Kiosken starta på nytt etter ein feil: {reason}",
    "nb": "Kiosken startet på nytt etter en feil: {reason}",
    "da": "Kiosken startede forfra efter en fejl: {reason}",
    "en": "The kiosk restarted after an error: {reason}",
}


def record(data_dir: str | os.PathLike[str], error: BaseException) -> None:
    """Keep why this process is dying, for the next start (never raises)."""
    path = Path(data_dir) / FILE
    line = json.dumps({"at": time.time(), "error": f"{type(error).__name__}: {error}"})
    with contextlib.suppress(OSError):
        temp = path.with_suffix(".tmp")
        temp.write_text(line + "\n", encoding="utf-8")
        os.replace(temp, path)


def take(data_dir: str | os.PathLike[str]) -> str | None:
    """Why the last process died, once: the record is removed as it is read."""
    path = Path(data_dir) / FILE
    try:
        raw = path.read_text(encoding="utf-8")[:4096]
    except OSError:
        return None
    with contextlib.suppress(OSError):
        path.unlink()
    try:
        error = json.loads(raw)["error"]
    except (ValueError, KeyError, TypeError):
        return "?"
    return shorten(str(error), 80)


def restarted_source(reason: str | None, monotonic: Callable[[], float],
                     show_for: float = SHOW_FOR) -> Callable[[str], Sequence[str]]:
    """A status-line source saying why the kiosk restarted, for ``show_for`` seconds.

    >>> now = [0.0]
    >>> source = restarted_source("OSError: [Errno 24] Too many open files", lambda: now[0])
    >>> source("en")
    ('The kiosk restarted after an error: OSError: [Errno 24] Too many open files',)
    >>> now[0] = SHOW_FOR + 1; source("nn")
    ()
    """
    until = monotonic() + show_for

    def messages(lang: str) -> Sequence[str]:
        if reason is None or monotonic() > until:
            return ()
        return (_MESSAGES.get(lang, _MESSAGES["en"]).format(reason=reason),)

    return messages
