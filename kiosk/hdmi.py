"""Wait for the pub TV before opening the display.

Under KMSDRM, SDL picks a mode when the window opens. If the TV was off or
on another input at boot, the HDMI connector reports no modes and SDL either
fails or opens a tiny fallback mode that it keeps after the TV comes on. So
the kiosk waits until a connector under ``/sys/class/drm`` says
``connected`` and lists at least one mode. After ``timeout`` it raises
:class:`NoDisplay`; the app exits non-zero and systemd starts it again a
little later, which also picks up a TV switched on at any time.

On a laptop (any SDL video driver but kmsdrm) there is nothing to wait for:
see :func:`should_wait`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path

__all__ = [
    "DRM_ROOT",
    "NoDisplay",
    "connected_hdmi",
    "should_wait",
    "wait_for_hdmi",
]

DRM_ROOT = Path("/sys/class/drm")


class NoDisplay(RuntimeError):
    """No HDMI connector came up with modes before the timeout."""

    def __init__(self, root: Path, timeout: float) -> None:
        self.root = root
        self.timeout = timeout
        super().__init__(
            f"no connected HDMI display with modes under {root} after {timeout:g} s"
        )


def should_wait(env: Mapping[str, str] | None = None) -> bool:
    """True when the display goes straight to the HDMI port (SDL's kmsdrm driver).

    >>> should_wait({"SDL_VIDEODRIVER": "kmsdrm"}), should_wait({"SDL_VIDEODRIVER": "KMSDRM"})
    (True, True)
    >>> should_wait({}), should_wait({"SDL_VIDEODRIVER": "x11"})
    (False, False)
    """
    environ = os.environ if env is None else env
    return environ.get("SDL_VIDEODRIVER", "").strip().lower() == "kmsdrm"


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        # Connectors come and go with hotplug; a vanished file is "not yet".
        return ""


def connected_hdmi(root: str | os.PathLike[str] = DRM_ROOT) -> str | None:
    """The first HDMI connector (``card*-HDMI-A-*``) that is connected and has modes."""
    base = Path(root)
    for connector in sorted(base.glob("card*-HDMI-A-*")):
        if _read(connector / "status").strip() != "connected":
            continue
        if _read(connector / "modes").strip():
            return connector.name
    return None


def wait_for_hdmi(
    root: str | os.PathLike[str] = DRM_ROOT,
    timeout: float = 60.0,
    poll: float = 0.5,
    *,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> str:
    """Block until an HDMI connector is ready; return its name (``card1-HDMI-A-1``).

    Raises :class:`NoDisplay` once ``timeout`` seconds have passed without one.
    """
    base = Path(root)
    deadline = clock() + timeout
    while True:
        name = connected_hdmi(base)
        if name is not None:
            return name
        remaining = deadline - clock()
        if remaining <= 0:
            raise NoDisplay(base, timeout)
        sleep(min(poll, remaining))
