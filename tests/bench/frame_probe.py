"""``python -m tests.bench.frame_probe kiosk ...``: ``pubpoker kiosk``, logging each frame shown.

For checkouts whose kiosk has no frame log of its own (before
``kiosk.display.framelog``): the latency benchmarks need to know from
outside when a frame reached the screen, and the status file
(``PUBPOKER_STATUS_FILE``) is the state, at most every 0.2 s, written before
the frame is drawn. This wrapper runs the ``pubpoker`` entry point
(:func:`kiosk.cli.main`) unchanged in this process, after wrapping
``pygame.display.flip`` and ``pygame.display.update`` so that, when either
returns, one line is appended to the file named by ``PUBPOKER_FRAME_LOG``,
the same line the kiosk's own log writes::

    <time.monotonic()> <flip|update> <rowid> <running>

``rowid`` is the highest store rowid folded into the state that frame was
drawn from (the loop draws on the thread that folds, so the state at the
flip is the state on the screen), or -1 before a tournament is open;
``running`` is the clock's state (1 or 0). A bench then knows when an event
it found in the store (by rowid) was first on the screen: the first line
with a rowid at or past it. The cost is one short line write per frame.

The benches use it only where the checkout has no ``kiosk/display/framelog.py``
(:func:`tests.bench.realproc.probe_needed`; ``PUBPOKER_BENCH_PROBE=1|0``
decides instead).
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

__all__ = ["ENV", "install"]

ENV = "PUBPOKER_FRAME_LOG"


def install(path: str) -> None:
    """Wrap the bootstrap (to find the app) and pygame's two ways to show a frame."""
    import pygame

    import kiosk.bootstrap as bootstrap_module

    apps: list[Any] = []
    real_bootstrap = bootstrap_module.bootstrap

    def bootstrap(*args: Any, **kwargs: Any) -> Any:
        app = real_bootstrap(*args, **kwargs)
        apps.append(app)
        return app

    bootstrap_module.bootstrap = bootstrap
    out = open(path, "a", buffering=1)  # noqa: SIM115 - open for the process's life

    def shown_state() -> tuple[int, int]:
        if not apps:
            return -1, 0
        station = apps[-1].station
        folded = getattr(station, "_folded", None)
        if folded is None:
            return -1, 0
        return int(folded.covered_rowid), int(bool(station.state.clock.running))

    def wrap(name: str) -> None:
        real = getattr(pygame.display, name)

        def show(*args: Any, **kwargs: Any) -> Any:
            result = real(*args, **kwargs)
            rowid, running = shown_state()
            out.write(f"{time.monotonic():.6f} {name} {rowid} {running}\n")
            return result

        setattr(pygame.display, name, show)

    wrap("flip")
    wrap("update")


def main() -> int:
    # Taken from the environment, so a kiosk that logs its frames itself does not
    # log them twice.
    path = os.environ.pop(ENV, None)
    if path:
        install(path)
    from kiosk.cli import main as pubpoker

    sys.argv[0] = "pubpoker"
    return int(pubpoker(sys.argv[1:]) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
