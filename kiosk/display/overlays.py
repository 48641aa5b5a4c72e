"""What lies over the screens: pop-ups, the bust ticker and the help screen.

Each has an end in monotonic time; the loop sleeps until the nearest one
(:meth:`Overlays.deadlines`).

What an overlay says is kept as words (a :class:`Message`, translated when
said), not only as the text once shown: when the language changes
(:attr:`Overlays.lang`) every pop-up, the ticker and the help are said again
in the new one, so a box put up in Danish does not stay Danish on an English
screen. A plain ``str`` (a player's name, a typed line) is the same in every
language.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Final, Protocol

from rules.i18n import DEFAULT_LANGUAGE

__all__ = ["POPUP_SECONDS", "TICKER_SECONDS", "HelpLines", "Message", "Overlays", "Popup", "Text",
           "said"]

#: How long a pop-up (check-in, final table, a refusal) stays up, in real seconds.
POPUP_SECONDS: Final = 5.0
#: How long a bust stays on the ticker.
TICKER_SECONDS: Final = 8.0


class Message(Protocol):
    """Words that can be said in any of the languages."""

    def translate(self, lang: str = ..., /) -> str: ...


#: What an overlay says: words to translate (a message, or a function of the
#: language), or text that is the same in every language.
Text = str | Message | Callable[[str], str]
#: The help's lines in a language.
HelpLines = Sequence[str] | Callable[[str], Sequence[str]]


def said(words: Text, lang: str) -> str:
    """``words`` in ``lang``.

    >>> said("Kari Nordmann", "en")
    'Kari Nordmann'
    """
    if isinstance(words, str):
        return words
    if callable(words):
        return words(lang)
    return words.translate(lang)


@dataclass(frozen=True)
class Popup:
    """A pop-up as shown: its title and line in the language showing."""

    title: str
    line: str
    until: float
    #: A new pop-up of the same kind replaces the one showing (check-in after check-in).
    kind: str = ""
    #: What the title and line were said from; None for text fixed in one language.
    words: tuple[Text, Text] | None = field(default=None, compare=False, repr=False)

    def said_in(self, lang: str) -> Popup:
        """The same pop-up in ``lang`` (itself when its text is not words)."""
        if self.words is None:
            return self
        title, line = self.words
        return replace(self, title=said(title, lang), line=said(line, lang))


class Overlays:
    def __init__(self, monotonic: Callable[[], float], lang: str = DEFAULT_LANGUAGE) -> None:
        self.monotonic = monotonic
        self._lang = lang
        self.popups: deque[Popup] = deque()
        self._ticker: list[Text] = []
        self.ticker_until = 0.0
        self._help: tuple[HelpLines, float] | None = None

    @property
    def lang(self) -> str:
        return self._lang

    @lang.setter
    def lang(self, lang: str) -> None:
        """Say everything showing again in ``lang``."""
        self._lang = lang
        self.popups = deque(p.said_in(lang) for p in self.popups)

    def popup(self, title: Text, line: Text, *, kind: str = "", seconds: float = POPUP_SECONDS,
              front: bool = False) -> None:
        """Queue a pop-up; ``front`` shows it at once (a prompt being typed into)."""
        shown = Popup(said(title, self._lang), said(line, self._lang),
                      self.monotonic() + seconds, kind, (title, line))
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

    @property
    def ticker(self) -> list[str]:
        """The ticker's lines in the language showing, newest first."""
        return [said(line, self._lang) for line in self._ticker]

    @ticker.setter
    def ticker(self, lines: Sequence[Text]) -> None:
        self._ticker = list(lines)

    def add_busts(self, lines: Sequence[Text]) -> None:
        """New bust lines go on top; three at most, for :data:`TICKER_SECONDS`."""
        mono = self.monotonic()
        if self.ticker_until <= mono:
            self._ticker = []
        self._ticker = [*lines, *self._ticker][:3]
        self.ticker_until = mono + TICKER_SECONDS

    def drop_busts_of(self, name: str) -> None:
        self._ticker = [line for line in self._ticker if name not in said(line, self._lang)]

    def ticker_text(self) -> str:
        return " · ".join(self.ticker) if self.ticker_until > self.monotonic() else ""

    def show_help(self, lines: HelpLines, seconds: float) -> None:
        """The help for ``seconds``: its lines, or how to say them in a language."""
        self._help = (lines if callable(lines) else tuple(lines), self.monotonic() + seconds)

    @property
    def help(self) -> tuple[tuple[str, ...], float] | None:
        """The help's lines in the language showing, and when it goes."""
        if self._help is None:
            return None
        lines, until = self._help
        return (tuple(lines(self._lang) if callable(lines) else lines), until)

    def help_lines(self) -> tuple[str, ...] | None:
        if self._help is not None and self._help[1] <= self.monotonic():
            self._help = None
        shown = self.help
        return shown[0] if shown is not None else None

    def clear(self) -> None:
        self.popups.clear()
        self._ticker = []

    def deadlines(self) -> list[float]:
        """When something over the screen next comes or goes."""
        current = self.current()
        ends = [current.until] if current is not None else []
        if self.ticker_until:
            ends.append(self.ticker_until)
        if self._help is not None:
            ends.append(self._help[1])
        return ends
