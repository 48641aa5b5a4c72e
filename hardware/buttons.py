"""The button panel: gpiozero buttons in, input messages on a queue out.

Each button sits between a GPIO pin and GND with the Pi's internal pull-up,
so a press is a falling edge. gpiozero's own debouncing is off
(``bounce_time=None``): every edge goes to :class:`~hardware.debounce.Debouncer`,
whose timing we can test (``MockPin`` ignores ``bounce_time`` anyway).

gpiozero calls ``when_pressed``/``when_released`` on its own thread (lgpio's
callback thread, or the ``gpiod-edges`` thread of
:mod:`hardware.gpiod_factory`, on the Pi); those callbacks only feed the debouncer, under a
lock, and the debouncer's messages only go on the queue. Long presses, repeats
and releases that fall due while no edge arrives come out of :meth:`poll`.
After :meth:`ButtonPanel.start` the panel calls it itself, on a thread of its
own that sleeps until the debouncer's next deadline (or, with none, until an
edge), so nobody has to poll it and a panel at rest costs no CPU. Without
``start`` the owner calls :meth:`poll`: tests on a hand-moved clock, which a
thread waiting in real seconds cannot follow.

On the Pi set ``GPIOZERO_PIN_FACTORY=lgpio`` (Raspberry Pi OS) or ``gpiod``
(Debian 13's libgpiod v2; see ``hardware/README.md``); tests pass
``pin_factory=MockFactory()``.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Mapping
from functools import partial
from queue import Full, Queue
from types import TracebackType
from typing import Any

from gpiozero import Button  # type: ignore[import-untyped]
from gpiozero.exc import BadPinFactory  # type: ignore[import-untyped]

from hardware.debounce import Debouncer, Timing
from hardware.errors import NoPinFactory, PinInUse
from hardware.inputs import MINUTE_ACTIONS, Action, Input

__all__ = ["ButtonPanel", "check_pins"]

log = logging.getLogger(__name__)


def _button(pin: int, pin_factory: Any) -> Any:
    """A gpiozero button with the pull-up, bounce left to our debouncer.

    A factory that cannot load (the unit names lgpio where only Raspberry Pi
    OS has it) is our translated refusal, not a traceback about a module.
    """
    try:
        return Button(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
    except (ImportError, BadPinFactory) as err:
        if pin_factory is not None:
            raise
        name = os.environ.get("GPIOZERO_PIN_FACTORY") or "default"
        raise NoPinFactory(name=name) from err


def check_pins(pin_map: Mapping[Action, int]) -> None:
    """Refuse a wiring table that gives one pin to two buttons.

    >>> try:
    ...     check_pins({Action.pause: 17, Action.undo: 17})
    ... except PinInUse as err:
    ...     print(err.translate("nn"))
    GPIO 17 er brukt av både «pause» og «undo»; kvar knapp treng sin eigen pinne
    """
    seen: dict[int, Action] = {}
    for action, pin in pin_map.items():
        if pin in seen:
            raise PinInUse(pin=pin, first=str(seen[pin]), second=str(action))
        seen[pin] = action


class ButtonPanel:
    """One gpiozero ``Button`` per action, feeding one debouncer.

    ``auto_repeat`` makes the minute buttons step while held (see
    :mod:`hardware.debounce`). Either :meth:`start` the panel's own thread, or
    call :meth:`poll` by :meth:`next_deadline`; :meth:`close` when done.
    """

    def __init__(
        self,
        pin_map: Mapping[Action, int],
        queue: Queue[Input],
        *,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
        long_press: float = 1.5,
        debounce: float = 0.03,
        auto_repeat: bool = False,
        chord: float = 3.0,
    ) -> None:
        check_pins(pin_map)
        #: Called on gpiozero's thread after every edge (must be thread-safe).
        self.on_edge: Callable[[], None] | None = None
        self._queue = queue
        self._lock = threading.Lock()
        # Shares the lock: an edge notifies under the lock it fed the debouncer
        # with, so the push thread cannot miss it between reading the deadline
        # and going to sleep.
        self._changed = threading.Condition(self._lock)
        self._clock = clock
        self._pusher: threading.Thread | None = None
        self._closed = False
        timing = Timing(debounce=debounce, long_press=long_press, chord=chord)
        repeat = MINUTE_ACTIONS & pin_map.keys() if auto_repeat else frozenset()
        self._debouncer = Debouncer(pin_map, clock=clock, timing=timing, repeat=repeat)
        self.pins: dict[Action, int] = dict(pin_map)
        self._buttons: list[Any] = []
        try:
            for action, pin in pin_map.items():
                button = _button(pin, pin_factory)
                self._buttons.append(button)
                button.when_pressed = partial(self._edge, action, True)
                button.when_released = partial(self._edge, action, False)
        except BaseException:
            self.close()
            raise

    def poll(self, now: float | None = None) -> None:
        """Put on the queue whatever fell due by ``now`` (default: the clock)."""
        with self._lock:
            messages = self._debouncer.tick(now)
        self._put(messages)

    def next_deadline(self) -> float | None:
        """When :meth:`poll` next has something to emit, if anything is pending."""
        with self._lock:
            return self._debouncer.next_deadline()

    def start(self) -> None:
        """Push: from now on the panel polls itself, on its own thread. Idempotent.

        The thread reads the panel's clock and waits in real seconds, so start
        a panel only on a clock that moves by itself.
        """
        with self._lock:
            if self._closed:
                raise RuntimeError("the button panel is closed")
            if self._pusher is not None:
                return
            self._pusher = threading.Thread(target=self._push, name="button-panel",
                                            daemon=True)
            self._pusher.start()

    def is_held(self, action: Action) -> bool:
        """The debounced state of one button."""
        with self._lock:
            return self._debouncer.is_held(action)

    def close(self) -> None:
        """Stop the push thread and release the pins (gpiozero stops each button's
        hold thread). Idempotent."""
        with self._lock:
            self._closed = True
            self._changed.notify_all()
            pusher, self._pusher = self._pusher, None
        if pusher is not None:
            pusher.join()
        buttons, self._buttons = self._buttons, []
        for button in buttons:
            button.when_pressed = None
            button.when_released = None
            button.close()

    def __enter__(self) -> ButtonPanel:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _edge(self, action: Action, closed: bool) -> None:
        # Runs on gpiozero's thread: it must never raise, and it must not
        # touch anything but the debouncer (under the lock) and the queue.
        try:
            with self._lock:
                if closed:
                    messages = self._debouncer.pressed(action)
                else:
                    messages = self._debouncer.released(action)
                # An edge can bring a deadline earlier than the one the push
                # thread sleeps towards (a release settles in 30 ms), or the
                # first one of a panel at rest.
                self._changed.notify()
            self._put(messages)
            if self.on_edge is not None:
                # A release is only settled on a later poll: let the owner wake
                # for it instead of finding out on its next scheduled turn.
                self.on_edge()
        except Exception:
            log.exception("button %s: edge lost", action)

    def _push(self) -> None:
        # The push thread: sleep until something falls due, emit it, repeat.
        try:
            while self._wait_until_due():
                self.poll()
        except Exception:
            # A fault in the debouncer would fall due again at once: one
            # traceback in the log, not a core spinning on it.
            log.exception("button panel: the push thread stopped")

    def _wait_until_due(self) -> bool:
        """Block until the debouncer's next deadline passes; False once closed."""
        with self._lock:
            while not self._closed:
                deadline = self._debouncer.next_deadline()
                if deadline is None:
                    self._changed.wait()  # at rest: nothing but an edge can change that
                    continue
                left = deadline - self._clock()
                if left <= 0:
                    return True
                self._changed.wait(left)
            return False

    def _put(self, messages: list[Input]) -> None:
        for message in messages:
            try:
                self._queue.put_nowait(message)
            except Full:
                log.warning("input queue full: dropped %r", message)
