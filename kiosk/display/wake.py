"""How the kiosk loop sleeps: on its own wake-up sources, never in SDL's timed wait.

``pygame.event.wait(timeout)`` looks idle from inside, but on the drivers the
appliance uses (KMSDRM on the Pi, dummy in tests and headless) SDL has no
real wait and polls its queue every millisecond underneath: about 860
wake-ups a second for a clock that changes once a second. So the loop blocks
in ``select()`` instead, on

- a :class:`Waker`, a pipe that any thread writes a byte to when it queues an
  input (a button, a card read, a peer's records);
- any other readable source it is given (the store's change signal);
- the timeout to the next moment the picture must change.

SDL's own queue only has something in it when a keyboard or a window system
feeds it. :func:`sdl_poll_interval` says how often to look there between
deadlines: never under the dummy driver, every 30 ms in a desktop window,
and on KMSDRM only while a keyboard is plugged in (``/proc/bus/input``).
"""

from __future__ import annotations

import contextlib
import os
import queue
import select
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final, Protocol

__all__ = ["DESKTOP_POLL", "KEYBOARD_POLL", "InputQueue", "Readable", "Sleeper", "Waker",
           "keyboard_attached", "sdl_poll_interval", "sleep_until_woken"]

#: Seconds between looks at SDL's queue in a desktop window (keys, expose, close).
DESKTOP_POLL: Final = 0.03
#: The same on a console framebuffer while a USB keyboard is plugged in.
KEYBOARD_POLL: Final = 0.04
#: ``EV=`` bitmasks with EV_KEY (bit 1) and EV_REP (bit 20): keyboards, not buttons.
_EV_KEY, _EV_REP = 1 << 1, 1 << 20


class Readable(Protocol):
    def fileno(self) -> int: ...


class Waker:
    """A self-pipe: ``wake()`` from any thread makes :func:`sleep_until_woken` return."""

    def __init__(self) -> None:
        self._read, self._write = os.pipe()
        os.set_blocking(self._read, False)
        os.set_blocking(self._write, False)

    def fileno(self) -> int:
        return self._read

    def wake(self) -> None:
        # A full pipe already holds a wake-up; dropping one more loses nothing.
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._write, b"!")

    def drain(self) -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            while os.read(self._read, 4096):
                pass

    def close(self) -> None:
        for fd in (self._read, self._write):
            with contextlib.suppress(OSError):
                os.close(fd)


def sleep_until_woken(timeout: float, sources: Sequence[Readable]) -> list[Readable]:
    """Block up to ``timeout`` seconds until one of ``sources`` is readable; which ones.

    >>> w = Waker(); w.wake(); sleep_until_woken(5.0, [w]) == [w]
    True
    >>> w.drain(); sleep_until_woken(0.0, [w])
    []
    """
    try:
        ready, _, _ = select.select(list(sources), [], [], max(0.0, timeout))
    except InterruptedError:  # pragma: no cover - PEP 475 retries select itself
        return []
    return list(ready)


def keyboard_attached(devices: Path = Path("/proc/bus/input/devices")) -> bool:
    """A keyboard among the kernel's input devices (a USB keyboard, a wedge reader).

    GPIO buttons are not input devices; a device reporting keys with
    autorepeat (EV_REP) is a keyboard.
    """
    try:
        text = devices.read_text(encoding="ascii", errors="replace")
    except OSError:
        return False
    for block in text.split("\n\n"):
        for line in block.splitlines():
            if line.startswith("B: EV="):
                with contextlib.suppress(ValueError):
                    bits = int(line[6:].strip(), 16)
                    if bits & _EV_KEY and bits & _EV_REP and "kbd" in block:
                        return True
    return False


def sdl_poll_interval(driver: str, keyboard: Callable[[], bool] = keyboard_attached
                      ) -> float | None:
    """Seconds between looks at SDL's queue for ``driver``; None: only at wake-ups.

    >>> sdl_poll_interval("dummy") is None
    True
    >>> sdl_poll_interval("x11")
    0.03
    >>> sdl_poll_interval("KMSDRM", keyboard=lambda: False) is None
    True
    """
    name = driver.lower()
    if name in ("dummy", "offscreen"):
        return None
    if name == "kmsdrm":
        return KEYBOARD_POLL if keyboard() else None
    return DESKTOP_POLL


class InputQueue(queue.Queue[Any]):
    """The loop's input queue; a put from any thread wakes the sleeping loop at once."""

    def __init__(self) -> None:
        super().__init__()
        self.waker = Waker()

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        super().put(item, block, timeout)
        self.waker.wake()

    def wake(self) -> None:
        """Wake the loop with nothing queued: look again (a button's edge)."""
        self.waker.wake()


class Sleeper:
    """The loop's sleep: on its wake-up sources, looking at SDL's queue only as often
    as something can feed it (:func:`sdl_poll_interval`); SDL's events it finds on the
    way are kept for :meth:`take_events`."""

    def __init__(self) -> None:
        self._events: list[Any] = []
        self._poll: float | None = None
        self._checked_at = 0.0

    def sleep(self, seconds: float, sources: Sequence[Readable]) -> None:
        if self._look():
            return  # a key or window event is already waiting
        interval = self._interval()
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            ready = sleep_until_woken(left if interval is None else min(left, interval),
                                      sources)
            # A source's drain may say there was nothing for the loop after all
            # (False: the kiosk's own commit seen by the store's watcher).
            woken = [getattr(source, "drain", lambda: None)() is not False for source in ready]
            if any(woken) or time.monotonic() >= end or (interval and self._look()):
                return

    def take_events(self) -> list[Any]:
        """SDL's events, those found while sleeping first."""
        self._look()
        events, self._events = self._events, []
        return events

    def _look(self) -> bool:
        import pygame

        if pygame.display.get_init():
            self._events.extend(pygame.event.get())
        return bool(self._events)

    def _interval(self) -> float | None:
        import pygame

        if time.monotonic() >= self._checked_at:  # a keyboard may come or go
            self._checked_at = time.monotonic() + 10.0
            self._poll = sdl_poll_interval(
                pygame.display.get_driver() if pygame.display.get_init() else "dummy")
        return self._poll
