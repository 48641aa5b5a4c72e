"""A fake of libgpiod v2's Python bindings (``import gpiod``), as far as the factory uses them.

Its limits, said plainly: it is a model of what the kernel does, written
from libgpiod's documented API, not the kernel. A line's level follows the
bias until a test drives it; an edge is queued only when edge detection asks
for it; each request has a real pipe whose read end is its ``fd``, readable
while edges are queued, so the factory's selector waits on it as on a real
request. Timing, the kernel's event buffer overflowing, and permissions are
not modelled: those are for a real chip (gpio-sim in a VM, or a Pi).
``test_the_fake_speaks_the_real_api`` checks the names against the real
bindings where they are installed.
"""

from __future__ import annotations

import contextlib
import enum
import os
import threading
import time
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any


class Direction(enum.Enum):
    AS_IS = 1
    INPUT = 2
    OUTPUT = 3


class Bias(enum.Enum):
    AS_IS = 1
    UNKNOWN = 2
    DISABLED = 3
    PULL_UP = 4
    PULL_DOWN = 5


class Edge(enum.Enum):
    NONE = 1
    RISING = 2
    FALLING = 3
    BOTH = 4


class Value(enum.Enum):
    INACTIVE = 0
    ACTIVE = 1


@dataclass
class LineSettings:
    direction: Direction = Direction.AS_IS
    edge_detection: Edge = Edge.NONE
    bias: Bias = Bias.AS_IS
    active_low: bool = False
    debounce_period: Any = None
    output_value: Value = Value.INACTIVE


@dataclass
class EdgeEvent:
    class Type(enum.Enum):
        RISING_EDGE = 1
        FALLING_EDGE = 2

    event_type: EdgeEvent.Type
    timestamp_ns: int
    line_offset: int
    global_seqno: int = 0
    line_seqno: int = 0


class RequestReleasedError(Exception):
    pass


@dataclass
class ChipInfo:
    name: str
    label: str
    num_lines: int = 54


class FakeRequest:
    """One line request: edges in (:meth:`drive`), events and values out."""

    def __init__(self, path: str, consumer: str | None, config: dict[Any, LineSettings]) -> None:
        self.chip_name = path
        self.consumer = consumer
        self.settings: dict[int, LineSettings] = {}
        self.levels: dict[int, int] = {}
        self.driven: set[int] = set()
        self.released = False
        self.history: list[dict[int, LineSettings]] = []
        self._events: list[EdgeEvent] = []
        self._lock = threading.Lock()
        self._r, self._w = os.pipe()
        os.set_blocking(self._r, False)
        self._configure(config)

    @property
    def offsets(self) -> list[int]:
        return list(self.settings)

    @property
    def fd(self) -> int:
        self._check()
        return self._r

    def _check(self) -> None:
        if self.released:
            raise RequestReleasedError()

    def _configure(self, config: dict[Any, LineSettings]) -> None:
        for key, settings in config.items():
            for offset in key if isinstance(key, tuple) else (key,):
                self.settings[offset] = settings
                # An input nothing outside drives follows its bias, as an open button does.
                if offset not in self.driven or settings.direction is Direction.OUTPUT:
                    self.levels[offset] = self._resting(settings)
        self.history.append(dict(self.settings))

    @staticmethod
    def _resting(settings: LineSettings) -> int:
        if settings.direction is Direction.OUTPUT:
            return settings.output_value.value
        return 1 if settings.bias is Bias.PULL_UP else 0

    def reconfigure_lines(self, config: dict[Any, LineSettings]) -> None:
        self._check()
        self._configure(config)

    def get_value(self, offset: int) -> Value:
        self._check()
        return Value(self.levels[offset])

    def set_value(self, offset: int, value: Value) -> None:
        self._check()
        self.levels[offset] = value.value

    def drive(self, offset: int, level: int) -> bool:
        """The outside world sets the line's level; True if an edge was queued."""
        self._check()
        self.driven.add(offset)
        before, self.levels[offset] = self.levels[offset], level
        if before == level:
            return False
        edge = self.settings[offset].edge_detection
        rising = level == 1
        if edge is Edge.BOTH or edge is (Edge.RISING if rising else Edge.FALLING):
            kind = EdgeEvent.Type.RISING_EDGE if rising else EdgeEvent.Type.FALLING_EDGE
            with self._lock:
                self._events.append(EdgeEvent(kind, time.monotonic_ns(), offset))
            os.write(self._w, b"e")
            return True
        return False

    def wait_edge_events(self, timeout: float | None = None) -> bool:
        self._check()
        with self._lock:
            return bool(self._events)

    def read_edge_events(self, max_events: int | None = None) -> list[EdgeEvent]:
        self._check()
        with self._lock:
            events, self._events = self._events, []
        with contextlib.suppress(BlockingIOError):
            os.read(self._r, 4096)
        return events

    def release(self) -> None:
        if not self.released:
            self.released = True
            os.close(self._r)
            os.close(self._w)


@dataclass
class FakeGpiod:
    """Stands in for the ``gpiod`` module: ``chips`` maps a path to its label."""

    chips: dict[str, str] = field(default_factory=dict)
    requests: list[FakeRequest] = field(default_factory=list)

    line = SimpleNamespace(Direction=Direction, Bias=Bias, Edge=Edge, Value=Value)
    LineSettings = LineSettings
    EdgeEvent = EdgeEvent
    RequestReleasedError = RequestReleasedError

    def is_gpiochip_device(self, path: str) -> bool:
        return path in self.chips

    def Chip(self, path: str) -> Any:  # the module's class
        chips = self.chips

        class _Chip:
            def __enter__(self) -> _Chip:
                if path not in chips:
                    raise FileNotFoundError(path)
                return self

            def __exit__(self, *exc: object) -> None:
                pass

            def get_info(self) -> ChipInfo:
                return ChipInfo(os.path.basename(path), chips[path])

        return _Chip()

    def request_lines(self, path: str, consumer: str | None = None,
                      config: dict[Any, LineSettings] | None = None) -> FakeRequest:
        if path not in self.chips:
            raise FileNotFoundError(path)
        request = FakeRequest(path, consumer, dict(config or {}))
        self.requests.append(request)
        return request

    def request_for(self, offset: int) -> FakeRequest:
        """The live request holding ``offset``."""
        (request,) = [r for r in self.requests if offset in r.settings and not r.released]
        return request

    def close_all(self) -> None:
        for request in self.requests:
            request.release()
