"""A gpiozero pin factory over libgpiod v2: the kernel's GPIO character device.

Why ours: Debian ships ``python3-gpiozero`` 1.6.2, whose ``lgpio`` factory
imports the ``lgpio`` module, and Debian has no ``python3-lgpio`` (PyPI's
lgpio has no aarch64 wheel past CPython 3.12). Debian 13 does ship
``python3-libgpiod`` 2.x (``import gpiod``), which talks to
``/dev/gpiochipN`` on every Pi from the Zero 2 W to the Pi 5. This module
is the small factory between the two, registered under gpiozero's
``gpiozero_pin_factories`` entry point as ``gpiod``, so the unit sets
``GPIOZERO_PIN_FACTORY=gpiod``. It keeps to what gpiozero 1.6.2 and 2.0
have in common (``LocalPiFactory``/``LocalPiPin``; a pin is built from a
GPIO number in 1.6 and from a pin info in 2.0).

What it does:

* one line request per pin (input by default, as gpiozero expects), the
  pull set as the line's bias (``up``, ``down``, ``floating``);
* edges: one thread of the factory's own (``gpiod-edges``) waits on every
  watched request's descriptor and hands each edge to the pin's
  ``when_changed`` with the kernel's timestamp as ticks (``CLOCK_MONOTONIC``,
  the clock of ``LocalPiFactory.ticks``); gpiozero then calls
  ``when_pressed``/``when_released``. The thread starts with the first watched
  pin and ends when the last one stops being watched or is closed;
* ``bounce`` is stored, never applied: the panel asks for none
  (``bounce_time=None``) and debounces in :mod:`hardware.debounce`, where a
  press counts on its *first* edge and the timing is tested with a clock
  moved by hand. The kernel's debounce period would hold that first edge
  back, and two debouncers in a row are harder to reason about than one;
* output (``set_value``) for completeness; no PWM.

The chip is the one whose label is the Pi's 40-pin header
(:data:`HEADER_LABELS`), else ``/dev/gpiochip0``; with none at all the factory
raises :class:`~hardware.errors.NoGpio` ("no GPIO: buttons off, the keyboard
still works"). Line offsets on those chips are the BCM GPIO numbers.

Tested here without a kernel chip (this host has none, not even gpio-sim):
``tests/hardware/test_gpiod_factory.py`` drives the factory through a fake of
the ``gpiod`` module whose requests keep edges in a queue behind a real pipe
descriptor. That proves our logic (configuration asked for, edges to
callbacks, values, release, the thread's life), not the kernel's behaviour
nor libgpiod's; those need a real chip (gpio-sim in a VM, or a Pi).
"""

from __future__ import annotations

import contextlib
import glob
import importlib
import logging
import os
import re
import selectors
import threading
from collections.abc import Iterable
from typing import Any

from gpiozero.exc import (  # type: ignore[import-untyped]
    PinInvalidBounce,
    PinInvalidFunction,
    PinInvalidPull,
    PinPWMUnsupported,
    PinSetInput,
)
from gpiozero.pins.local import (  # type: ignore[import-untyped]
    LocalPiFactory,
    LocalPiPin,
)

from hardware.errors import NoGpio

__all__ = ["HEADER_LABELS", "GpiodFactory", "GpiodPin", "find_chip", "gpio_chips"]

log = logging.getLogger(__name__)

#: Labels of the chips behind the Pi's 40-pin header: the Pi 4/400/CM4, the
#: earlier Pis and Zeros, and the Pi 5's RP1.
HEADER_LABELS = ("pinctrl-bcm2711", "pinctrl-bcm2835", "pinctrl-rp1")

_PULLS = {"up": "PULL_UP", "down": "PULL_DOWN", "floating": "DISABLED"}
_EDGES = {"both": "BOTH", "rising": "RISING", "falling": "FALLING", "none": "NONE"}


def _load_gpiod() -> Any:
    """The ``gpiod`` module (libgpiod v2 bindings), imported only when used."""
    module = importlib.import_module("gpiod")
    if not hasattr(module, "request_lines"):  # the v1 API (Debian 12's 1.6.3)
        raise ImportError("gpiod is the libgpiod v1 API; the gpiod pin factory needs v2")
    return module


def gpio_chips(dev: str = "/dev") -> list[str]:
    """The GPIO character devices under ``dev``, in number order (no gpiod needed)."""

    def number(path: str) -> int:
        match = re.search(r"(\d+)$", path)
        return int(match.group(1)) if match else -1

    return sorted(glob.glob(os.path.join(dev, "gpiochip*")), key=number)


def find_chip(gpiod: Any = None, dev: str = "/dev") -> tuple[str, str]:
    """``(path, label)`` of the chip behind the Pi's header, else of gpiochip0.

    Raises :class:`~hardware.errors.NoGpio` when there is no chip at all.
    A chip that cannot be opened (no permission) is passed over for its label.
    """
    gpiod = _load_gpiod() if gpiod is None else gpiod
    labels: dict[str, str] = {}
    for path in gpio_chips(dev):
        try:
            if not gpiod.is_gpiochip_device(path):
                continue
            with gpiod.Chip(path) as chip:
                labels[path] = str(chip.get_info().label)
        except OSError as err:
            log.debug("%s: %s", path, err)
            labels.setdefault(path, "")
    for path, label in labels.items():
        if label in HEADER_LABELS:
            return path, label
    first = os.path.join(dev, "gpiochip0")
    if first in labels:
        return first, labels[first]
    if labels:
        path = next(iter(labels))
        return path, labels[path]
    raise NoGpio()


class GpiodFactory(LocalPiFactory):  # type: ignore[misc]
    """gpiozero's pins on a libgpiod v2 chip (see the module doc).

    ``chip``: a ``/dev/gpiochipN`` path (default: :func:`find_chip`).
    ``gpiod``: the bindings module (tests pass a fake). ``revision``: the Pi's
    revision code, which gpiozero's pin names need (default: read from the
    device tree, as gpiozero's own factories do).
    """

    def __init__(self, chip: str | None = None, *, gpiod: Any = None,
                 revision: int | None = None, dev: str = "/dev") -> None:
        super().__init__()
        # gpiozero 1.6's LocalPiFactory hands every local factory one shared
        # pins dict, MockFactory's included: a pin another factory made must
        # never come back as one of ours.
        self.pins: dict[Any, Any] = {}
        self.gpiod: Any = _load_gpiod() if gpiod is None else gpiod
        if chip is None:
            chip, self.label = find_chip(self.gpiod, dev)
        else:
            self.label = ""
        self.chip: str = chip
        self._revision = revision
        self.pin_class = GpiodPin
        self._lock = threading.Lock()
        #: Held while the edge thread reads a request and while a pin releases
        #: one: libgpiod frees a released request, which must not be mid-read.
        self.io_lock = threading.Lock()
        self._watched: dict[int, GpiodPin] = {}  # request fd -> pin
        self._generation = 0  # counts changes to _watched
        self._thread: threading.Thread | None = None
        self._wake_w = -1  # the thread owns (and closes) the read end

    def _get_revision(self) -> int:
        if self._revision is not None:
            return self._revision
        return int(super()._get_revision())

    def close(self) -> None:
        super().close()  # closes every pin, which stops the thread
        self._stop_thread()

    # --- the edge thread ------------------------------------------------

    @property
    def edge_thread(self) -> threading.Thread | None:
        """The thread delivering edges, while any pin is watched."""
        return self._thread

    def _watch(self, pin: GpiodPin, fd: int) -> None:
        with self._lock:
            self._watched[fd] = pin
            self._generation += 1
            if self._thread is None:
                wake_r, self._wake_w = os.pipe()
                os.set_blocking(wake_r, False)
                self._thread = threading.Thread(
                    target=self._run, args=(wake_r,), name="gpiod-edges", daemon=True)
                self._thread.start()
            else:
                os.write(self._wake_w, b"w")
        log.debug("watching %r (fd %d)", pin, fd)

    def _unwatch(self, pin: GpiodPin) -> None:
        with self._lock:
            for fd in [fd for fd, p in self._watched.items() if p is pin]:
                del self._watched[fd]
            self._generation += 1
            empty = not self._watched
            if not empty and self._wake_w >= 0:
                os.write(self._wake_w, b"w")
        if empty:
            self._stop_thread()

    def _stop_thread(self) -> None:
        with self._lock:
            thread, self._thread = self._thread, None
            wake_w, self._wake_w = self._wake_w, -1
        if thread is None:
            return
        os.close(wake_w)  # the thread sees end-of-file on its wake pipe and returns
        if thread is not threading.current_thread():  # a callback may close its own pin
            thread.join(timeout=2.0)
            if thread.is_alive():
                log.warning("gpiod edge thread still in a callback after 2 s; left to end")

    def _run(self, wake_r: int) -> None:
        # A fresh selector whenever the watched set changes: a released
        # request's descriptor number may come back for another request, and a
        # registration made for the old one would not see the new one's edges.
        try:
            generation = -1
            selector: selectors.BaseSelector | None = None
            watched: dict[int, GpiodPin] = {}
            try:
                while True:
                    with self._lock:
                        if generation != self._generation:
                            generation, watched = self._generation, dict(self._watched)
                            if selector is not None:
                                selector.close()
                            selector = selectors.DefaultSelector()
                            selector.register(wake_r, selectors.EVENT_READ)
                            for fd in watched:
                                selector.register(fd, selectors.EVENT_READ)
                    assert selector is not None
                    for key, _ in selector.select():
                        if key.fd == wake_r:
                            if not self._drain(wake_r):
                                return
                        elif key.fd in watched:
                            watched[key.fd]._read_edges()
            finally:
                if selector is not None:
                    selector.close()
        except Exception:
            log.exception("gpiod edge thread stopped")
        finally:
            os.close(wake_r)

    @staticmethod
    def _drain(fd: int) -> bool:
        """Empty the wake pipe; False once its writer is closed (stop)."""
        try:
            return bool(os.read(fd, 4096))
        except BlockingIOError:
            return True


class GpiodPin(LocalPiPin):  # type: ignore[misc]
    """One BCM GPIO on the factory's chip, held as a libgpiod line request."""

    def __init__(self, factory: GpiodFactory, spec: Any) -> None:
        # gpiozero 1.6 passes the GPIO number, 2.0 a PinInfo named "GPIOn".
        number = spec if isinstance(spec, int) else int(str(spec.name)[4:])
        super().__init__(factory, spec)
        self.offset: int = number
        self._gpiod = factory.gpiod
        self._request: Any = None
        self._function = "input"
        self._pull = "floating"
        self._edges = "both"
        self._bounce: float | None = None
        self._output = 0
        self._watching = False
        self._ensure_request()

    # --- the line request -------------------------------------------------

    def _settings(self) -> Any:
        gpiod = self._gpiod
        line = gpiod.line
        if self._function == "output":
            return gpiod.LineSettings(
                direction=line.Direction.OUTPUT,
                output_value=line.Value.ACTIVE if self._output else line.Value.INACTIVE)
        edges = _EDGES[self._edges] if self._watching else "NONE"
        return gpiod.LineSettings(direction=line.Direction.INPUT,
                                  bias=getattr(line.Bias, _PULLS[self._pull]),
                                  edge_detection=getattr(line.Edge, edges))

    def _ensure_request(self) -> Any:
        if self._request is None:
            self._request = self._gpiod.request_lines(
                self.factory.chip, consumer="pubpoker",
                config={self.offset: self._settings()})
        return self._request

    def _reconfigure(self) -> None:
        if self._request is None:
            self._ensure_request()
        else:
            self._request.reconfigure_lines({self.offset: self._settings()})

    def close(self) -> None:
        """Stop watching and give the line back to the kernel (reopened if used again)."""
        with self._when_changed_lock:
            # A device made on this pin later starts afresh, its callback included
            # (gpiozero keeps the pin object and only enables edges for a new one).
            self._when_changed = None
            self._stop_watching()
        with self.factory.io_lock:
            request, self._request = self._request, None
            if request is not None:
                with contextlib.suppress(Exception):
                    request.release()
        self._function, self._pull, self._edges, self._bounce = "input", "floating", "both", None

    # --- gpiozero's pin interface ---------------------------------------

    def _get_function(self) -> str:
        return self._function

    def _set_function(self, value: str) -> None:
        if value not in ("input", "output"):
            raise PinInvalidFunction(f'invalid function "{value}" for pin {self!r}')
        if value != self._function:
            if value == "output":
                self._stop_watching()
            self._function = value
            self._reconfigure()

    def _get_state(self) -> int:
        if self._function == "output":
            return self._output
        value = self._ensure_request().get_value(self.offset)
        return 1 if value == self._gpiod.line.Value.ACTIVE else 0

    def _set_state(self, value: Any) -> None:
        if self._function != "output":
            raise PinSetInput(f"cannot set state of pin {self!r}")
        self._output = 1 if value else 0
        line = self._gpiod.line
        self._ensure_request().set_value(
            self.offset, line.Value.ACTIVE if self._output else line.Value.INACTIVE)

    def _get_pull(self) -> str:
        return self._pull

    def _set_pull(self, value: str) -> None:
        if value not in _PULLS:
            raise PinInvalidPull(f'invalid pull "{value}" for pin {self!r}')
        if self._function != "input":
            # gpiozero's PinFixedPull is for fixed resistors; this is the same refusal.
            raise PinInvalidPull(f"cannot set pull on non-input pin {self!r}")
        self._pull = value
        self._reconfigure()

    def _get_bounce(self) -> float | None:
        return self._bounce

    def _set_bounce(self, value: float | None) -> None:
        # Stored, not applied: hardware/debounce.py debounces (see the module doc).
        if value is not None and value < 0:
            raise PinInvalidBounce("bounce must be 0 or greater")
        self._bounce = value

    def _get_edges(self) -> str:
        return self._edges

    def _set_edges(self, value: str) -> None:
        if value not in _EDGES:
            raise PinInvalidFunction(f'invalid edges "{value}" for pin {self!r}')
        self._edges = value
        if self._watching:
            self._reconfigure()

    def _get_frequency(self) -> None:
        return None

    def _set_frequency(self, value: float | None) -> None:
        if value is not None:
            raise PinPWMUnsupported(f"PWM is not supported on pin {self!r}")

    def _enable_event_detect(self) -> None:
        if self._function != "input" or self._watching:
            return
        self._watching = True
        self._reconfigure()
        self.factory._watch(self, int(self._ensure_request().fd))

    def _disable_event_detect(self) -> None:
        self._stop_watching()

    def _stop_watching(self) -> None:
        if not self._watching:
            return
        self._watching = False
        self.factory._unwatch(self)
        if self._request is not None:
            with contextlib.suppress(Exception):
                self._reconfigure()

    # --- on the factory's edge thread ---------------------------------------

    def _read_edges(self) -> None:
        """Hand every pending edge to ``when_changed``: 1 after a rising edge, 0 after a falling."""
        try:
            with self.factory.io_lock:
                request = self._request
                if request is None:  # closed since the thread looked
                    return
                events: Iterable[Any] = request.read_edge_events()
        except Exception:
            # Its descriptor would stay readable and the thread spin: stop watching.
            log.exception("%r: edges cannot be read; this button is off", self)
            self._watching = False
            self.factory._unwatch(self)
            return
        rising = self._gpiod.EdgeEvent.Type.RISING_EDGE
        for event in events:
            # gpiozero's own _call_when_changed would take the callback's lock
            # or clear it from this thread; a dead or cleared callback is skipped.
            target = self._when_changed
            method = None if target is None else target()
            if method is None:
                return
            try:
                method(event.timestamp_ns / 1e9, 1 if event.event_type == rising else 0)
            except Exception:
                log.exception("%r: when_changed failed", self)
