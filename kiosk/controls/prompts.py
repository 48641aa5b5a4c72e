"""A name typed at the TD's desk: for a card nobody owns, or a walk-in without one.

The prompt takes every key while it is open (letters, Backspace, Enter to
finish, Escape to close) and shows what is typed in a pop-up at the front.
A card's prompt that nobody types into closes after its time; its owner
then decides (the night makes the card "Guest N"). The prompt changes no
state itself: :class:`Prompts` answers with effects and calls ``on_name``
with the finished name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from kiosk.controls.effects import Dismiss, Effect, Popup
from kiosk.controls.typed import Key, KeyTyped
from rules.names import PLAYER_NAME_MAX

__all__ = ["MAX_NAME", "TYPING_SECONDS", "Prompt", "Prompts"]

#: Seconds a prompt stays open after the last key.
TYPING_SECONDS: Final = 60.0
#: Longest name a prompt takes: the one the store and the rules accept.
MAX_NAME: Final = PLAYER_NAME_MAX


@dataclass
class Prompt:
    """A name being typed: for an unknown card (``card``) or a walk-in (None);
    ``near`` holds the known names it was asked about (N2: Enter again adds it)."""

    card: str | None
    until: float
    typed: str = ""
    near: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Fixed:
    text: str

    def translate(self, lang: str = "nn", /) -> str:
        return self.text


class Prompts:
    def __init__(self, monotonic: Callable[[], float],
                 title: Callable[[Prompt], object],
                 on_name: Callable[[str, str | None], Sequence[Effect]]) -> None:
        self.monotonic = monotonic
        self.title = title
        self.on_name = on_name
        self.open_prompt: Prompt | None = None

    def open(self, card: str | None, seconds: float, *, typed: str = "",
             near: tuple[str, ...] = ()) -> list[Effect]:
        self.open_prompt = Prompt(card, self.monotonic() + seconds, typed, near)
        return self._shown()

    def close(self) -> list[Effect]:
        self.open_prompt = None
        return [Dismiss("prompt")]

    def _shown(self) -> list[Effect]:
        prompt = self.open_prompt
        if prompt is None:
            return []
        seconds = max(0.1, prompt.until - self.monotonic())
        return [Popup(self.title(prompt), _Fixed(f"{prompt.typed}_"),  # type: ignore[arg-type]
                      kind="prompt", seconds=seconds, front=True)]

    def expired(self) -> Prompt | None:
        """The prompt, closed, once its time is up; None while open or when there is none."""
        prompt = self.open_prompt
        if prompt is None or self.monotonic() < prompt.until:
            return None
        self.open_prompt = None
        return prompt

    def key(self, key: KeyTyped) -> list[Effect] | None:
        """What a key does to the open prompt; None with no prompt (not taken)."""
        prompt = self.open_prompt
        if prompt is None:
            return None
        if key.key is Key.enter:
            name = " ".join(prompt.typed.split())
            if not name:
                return []
            return [*self.close(), *self.on_name(name, prompt.card)]
        if key.key is Key.escape:
            return self.close()
        if key.key is Key.backspace:
            prompt.typed = prompt.typed[:-1]
        elif key.char and key.char.isprintable() and len(prompt.typed) < MAX_NAME:
            prompt.typed += key.char
        # Someone is typing: the prompt stays while they do.
        prompt.until = max(prompt.until, self.monotonic() + TYPING_SECONDS)
        return self._shown()
