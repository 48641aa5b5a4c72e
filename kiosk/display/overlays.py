"""What lies over the screens: pop-ups, the bust ticker and the help screen.

Each has an end in monotonic time; the loop sleeps until the nearest one
(:meth:`Overlays.deadlines`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

__all__ = ["POPUP_SECONDS", "TICKER_SECONDS", "Overlays", "Popup"]

#: How long a pop-up (check-in, final table, a refusal) stays up, in real seconds.
POPUP_SECONDS: Final = 5.0
#: How long a bust stays on the ticker.
TICKER_SECONDS: Final = 8.0


@dataclass(frozen=True)
class Popup:
    title: str
    line: str
    until: float
    #: A new pop-up of the same kind replaces the one showing (check-in after check-in).
    kind: str = ""


class Overlays:
    def __init__(self, monotonic: Callable[[], float]) -> None:
        self.monotonic = monotonic
        self.popups: deque[Popup] = deque()
        self.ticker: list[str] = []
        self.ticker_until = 0.0
        self.help: tuple[tuple[str, ...], float] | None = None

    def popup(self, title: str, line: str, *, kind: str = "", seconds: float = POPUP_SECONDS,
              front: bool = False) -> None:
        """Queue a pop-up; ``front`` shows it at once (a prompt being typed into)."""
        shown = Popup(title, line, self.monotonic() + seconds, kind)
        if kind:
            self.drop(kind)
        if front:
            self.popups.appendleft(shown)
        else:
            self.popups.append(shown)

    def drop(self, kind: str) -> None:
        self.popups = deque(p for p in self.popups if p.kind != kind)

    def current(self) -> Popup | None:
        mono = self.monotonic()
        while self.popups and self.popups[0].until <= mono:
            self.popups.popleft()
        return self.popups[0] if self.popups else None

    def add_busts(self, lines: Sequence[str]) -> None:
        """New bust lines go on top; three at most, for :data:`TICKER_SECONDS`."""
        mono = self.monotonic()
        if self.ticker_until <= mono:
            self.ticker = []
        self.ticker = ([*lines, *self.ticker])[:3]
        self.ticker_until = mono + TICKER_SECONDS

    def drop_busts_of(self, name: str) -> None:
        self.ticker = [line for line in self.ticker if name not in line]

    def ticker_text(self) -> str:
        return " · ".join(self.ticker) if self.ticker_until > self.monotonic() else ""

    def show_help(self, lines: Sequence[str], seconds: float) -> None:
        self.help = (tuple(lines), self.monotonic() + seconds)

    def help_lines(self) -> tuple[str, ...] | None:
        if self.help is not None and self.help[1] <= self.monotonic():
            self.help = None
        return self.help[0] if self.help is not None else None

    def clear(self) -> None:
        self.popups.clear()
        self.ticker = []

    def deadlines(self) -> list[float]:
        """When something over the screen next comes or goes."""
        current = self.current()
        ends = [current.until] if current is not None else []
        if self.ticker_until:
            ends.append(self.ticker_until)
        if self.help is not None:
            ends.append(self.help[1])
        return ends
