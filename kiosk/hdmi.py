"""Find the screen before opening the display, and wait for it when there is none.

Under KMSDRM, SDL looks for screens once, when the video system starts, and
picks a mode when the window opens. If the TV was off or on another input at
boot, its connector reports no modes and SDL either fails or keeps a tiny
fallback mode after the TV comes on. So the kiosk waits until a connector
under ``/sys/class/drm`` says ``connected`` and lists at least one mode, for
as long as that takes, and only then starts SDL's video.

Every kind of output counts, not only HDMI: a Pi's DSI panel or composite
output, and a VM's ``Virtual`` one. When several are ready, HDMI-A wins,
then DSI, then the rest; ``[display] connector`` in ``pubpoker.toml`` pins
one (``HDMI-A-1``, with or without the ``card1-`` prefix). The entries that
are not outputs are skipped: the ``cardN`` device itself, ``renderD*``
nodes, and Writeback connectors (the compositor's capture path, never a
screen).

On a laptop (any SDL video driver but kmsdrm) there is nothing to wait for:
see :func:`wait_root`. Tests point ``$PUBPOKER_DRM_ROOT`` at a fake tree,
which also makes the kiosk wait under SDL's dummy driver.
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "DRM_ROOT",
    "ROOT_ENV",
    "Connector",
    "card_number",
    "connected_display",
    "connectors",
    "describe",
    "display_index",
    "is_connector_name",
    "wait_for_display",
    "wait_root",
]

log = logging.getLogger(__name__)

DRM_ROOT = Path("/sys/class/drm")
#: A fake ``/sys/class/drm`` for tests; setting it also makes the kiosk wait
#: whatever the SDL video driver.
ROOT_ENV = "PUBPOKER_DRM_ROOT"

# card1-HDMI-A-1: the card, the connector type (which may hold dashes), its number.
_NAME = re.compile(r"card(\d+)-(([A-Za-z][A-Za-z0-9]*(?:-[A-Za-z][A-Za-z0-9]*)*)-(\d+))")
_PIN = re.compile(r"(?:card\d+-)?[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z][A-Za-z0-9]*)*-\d+")
#: Preferred connector types, best first; every other type comes after them.
_PREFERRED = ("HDMI-A", "DSI")


def is_connector_name(text: str) -> bool:
    """True for a name ``[display] connector`` may pin: an output, not Writeback.

    >>> [is_connector_name(n) for n in ("HDMI-A-1", "card1-DSI-1", "Virtual-1")]
    [True, True, True]
    >>> [is_connector_name(n) for n in ("HDMI", "card1", "Writeback-1", "hdmi 1")]
    [False, False, False, False]
    """
    if not _PIN.fullmatch(text):
        return False
    return not re.sub(r"^card\d+-", "", text).lower().startswith("writeback")


@dataclass(frozen=True)
class Connector:
    """One output as sysfs shows it now."""

    #: The sysfs name, ``card1-HDMI-A-1``.
    name: str
    card: int
    #: The connector type, ``HDMI-A``, ``DSI``, ``Composite``, ``Virtual``...
    kind: str
    number: int
    #: ``connected``, ``disconnected``, ``unknown``, or "" if unreadable.
    status: str
    modes: tuple[str, ...]
    #: The kernel's id (sysfs ``connector_id``, Linux 6.0+), which orders SDL's displays.
    connector_id: int | None = None

    @property
    def short(self) -> str:
        """The name without its card: ``HDMI-A-1``."""
        return f"{self.kind}-{self.number}"

    @property
    def ready(self) -> bool:
        """Connected and reporting a mode: a screen SDL can open."""
        return self.status == "connected" and bool(self.modes)

    def matches(self, pinned: str) -> bool:
        """Whether ``[display] connector`` names this one (``HDMI-A-1`` or ``card1-HDMI-A-1``).

        >>> c = Connector("card1-HDMI-A-1", 1, "HDMI-A", 1, "connected", ("1920x1080",))
        >>> c.matches("HDMI-A-1"), c.matches("card1-hdmi-a-1"), c.matches("card0-HDMI-A-1")
        (True, True, False)
        """
        wanted = pinned.strip().lower()
        return wanted in (self.name.lower(), self.short.lower())

    def _rank(self) -> tuple[int, int, str, int]:
        kind = self.kind if self.kind in _PREFERRED else ""
        preferred = _PREFERRED.index(kind) if kind else len(_PREFERRED)
        return preferred, self.card, self.kind, self.number


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        # Connectors come and go with hotplug; a vanished file is "not yet".
        return ""


def _connector(entry: Path) -> Connector | None:
    match = _NAME.fullmatch(entry.name)
    if match is None or not entry.is_dir():
        return None  # "card1", "renderD128", "version"
    kind = match[3]
    if kind.lower().startswith("writeback"):
        return None
    raw_id = _read(entry / "connector_id").strip()
    return Connector(
        name=entry.name, card=int(match[1]), kind=kind, number=int(match[4]),
        status=_read(entry / "status").strip(),
        modes=tuple(line.strip() for line in _read(entry / "modes").splitlines()
                    if line.strip()),
        connector_id=int(raw_id) if raw_id.isdigit() else None,
    )


def connectors(root: str | os.PathLike[str] = DRM_ROOT) -> list[Connector]:
    """Every output under ``root``, best first (HDMI-A, DSI, then the others)."""
    try:
        entries = list(Path(root).iterdir())
    except OSError:
        return []  # no DRM driver loaded (yet): nothing to show on
    found = [c for c in (_connector(e) for e in entries) if c is not None]
    return sorted(found, key=Connector._rank)


def connected_display(root: str | os.PathLike[str] = DRM_ROOT,
                      connector: str | None = None) -> str | None:
    """The best connector that is connected and has modes (only ``connector`` if pinned)."""
    for found in connectors(root):
        if found.ready and (connector is None or found.matches(connector)):
            return found.name
    return None


def describe(found: Sequence[Connector], root: str | os.PathLike[str] = DRM_ROOT) -> str:
    """What the wait saw, for the log and ``systemctl status``.

    >>> describe([Connector("card1-HDMI-A-1", 1, "HDMI-A", 1, "disconnected", ()),
    ...           Connector("card1-DSI-1", 1, "DSI", 1, "connected", ())])
    'card1-HDMI-A-1 disconnected, card1-DSI-1 connected without modes'
    >>> describe([], "/sys/class/drm")
    'no connectors under /sys/class/drm'
    """
    if not found:
        return f"no connectors under {root}"
    parts = []
    for c in found:
        if c.status == "connected" and not c.modes:
            parts.append(f"{c.name} connected without modes")
        else:
            parts.append(f"{c.name} {c.status or 'unreadable'}")
    return ", ".join(parts)


def card_number(name: str) -> int | None:
    """The DRM card of a connector, as in ``/dev/dri/cardN``.

    >>> card_number("card1-HDMI-A-1"), card_number("HDMI-A-1")
    (1, None)
    """
    match = _NAME.fullmatch(name)
    return int(match[1]) if match else None


def display_index(root: str | os.PathLike[str], name: str) -> int:
    """SDL's display number for connector ``name``, as its KMSDRM driver counts them.

    SDL makes one display per connected connector with modes, in the kernel's
    connector order, which sysfs shows as ``connector_id``. Without those ids
    (a kernel before 6.0) the order is unknown and SDL's first display is used.
    """
    found = [c for c in connectors(root) if c.ready]
    chosen = next((c for c in found if c.name == name), None)
    if chosen is None:
        return 0
    same_card = [c for c in found if c.card == chosen.card]
    if any(c.connector_id is None for c in same_card):
        return 0
    ordered = sorted(same_card, key=lambda c: c.connector_id or 0)
    return ordered.index(chosen)


def wait_for_display(
    root: str | os.PathLike[str] = DRM_ROOT,
    *,
    connector: str | None = None,
    poll: float = 0.5,
    idle: Callable[[float], None] = time.sleep,
    on_change: Callable[[str], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> str:
    """Return the connector to show on (``card1-HDMI-A-1``) once one is ready.

    It never gives up: a TV switched on at any time is found. Between looks
    it calls ``idle(poll)``, where the kiosk does the work that needs no
    screen (peer sync, the clock's checkpoint, the watchdog). It logs once
    that it waits, with what it saw, and again only when that changes;
    ``on_change`` gets the same text (the kiosk's ``STATUS=``).
    """
    base = Path(root)
    started = clock()
    seen: str | None = None
    while True:
        found = connectors(base)
        for candidate in found:
            if candidate.ready and (connector is None or candidate.matches(connector)):
                if seen is not None:
                    log.warning("display %s is ready after %.0f s; opening it",
                                candidate.name, clock() - started)
                return candidate.name
        what = describe(found, base)
        if what != seen:
            seen = what
            wanted = (f"display {connector} (pinned by [display] connector)" if connector
                      else "a display")
            log.warning("waiting for %s: %s", wanted, what)
            if on_change is not None:
                on_change(what)
        idle(poll)


def wait_root(env: Mapping[str, str] | None = None, *, headless: bool = False) -> Path | None:
    """Where to look for a screen before opening the display, or None to open at once.

    >>> wait_root({"SDL_VIDEODRIVER": "kmsdrm"}), wait_root({"SDL_VIDEODRIVER": "KMSDRM"})
    (PosixPath('/sys/class/drm'), PosixPath('/sys/class/drm'))
    >>> wait_root({}), wait_root({"SDL_VIDEODRIVER": "x11"})
    (None, None)
    >>> wait_root({"SDL_VIDEODRIVER": "kmsdrm"}, headless=True) is None
    True
    >>> wait_root({"SDL_VIDEODRIVER": "dummy", "PUBPOKER_DRM_ROOT": "/tmp/drm"}, headless=True)
    PosixPath('/tmp/drm')
    """
    environ = os.environ if env is None else env
    fake = environ.get(ROOT_ENV, "")
    if fake:
        return Path(fake)
    if headless:
        return None  # --headless renders with the dummy driver: no screen to wait for
    if environ.get("SDL_VIDEODRIVER", "").strip().lower() == "kmsdrm":
        return DRM_ROOT
    return None
