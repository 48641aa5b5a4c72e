"""The TD's name prompt read key by key: typed keys in, effects and a name out (issue 50).

The prompt sees :class:`~kiosk.controls.typed.KeyTyped` values, never pygame's
events; :mod:`tests.kiosk.display.test_loop` checks the loop makes them.
"""

from __future__ import annotations

from collections.abc import Sequence

from kiosk.controls.effects import Dismiss, Effect, Popup
from kiosk.controls.prompts import MAX_NAME, TYPING_SECONDS, Prompt, Prompts
from kiosk.controls.typed import Key, KeyTyped

ENTER, ESCAPE, BACKSPACE = KeyTyped(Key.enter), KeyTyped(Key.escape), KeyTyped(Key.backspace)


class _Desk:
    def __init__(self) -> None:
        self.now = 100.0
        self.names: list[tuple[str, str | None]] = []
        self.prompts = Prompts(lambda: self.now, lambda prompt: "Name:", self.on_name)

    def on_name(self, name: str, card: str | None) -> Sequence[Effect]:
        self.names.append((name, card))
        return [Popup(name)]

    def type(self, text: str) -> None:
        for char in text:
            assert self.prompts.key(KeyTyped(Key.char, char)) is not None

    @property
    def prompt(self) -> Prompt:
        assert self.prompts.open_prompt is not None
        return self.prompts.open_prompt


def _line(effects: Sequence[Effect] | None) -> str:
    assert effects is not None
    (popup,) = effects
    assert isinstance(popup, Popup) and popup.kind == "prompt" and popup.line is not None
    return popup.line.translate("en")


def test_no_prompt_takes_no_key() -> None:
    desk = _Desk()
    for key in (ENTER, ESCAPE, BACKSPACE, KeyTyped(Key.char, "a"), KeyTyped(Key.char)):
        assert desk.prompts.key(key) is None


def test_letters_and_backspace_edit_the_name_and_enter_gives_it_tidied() -> None:
    desk = _Desk()
    desk.prompts.open("0A0001", 30.0)
    desk.type("  Ada  Lx")
    assert _line(desk.prompts.key(BACKSPACE)) == "  Ada  L_"
    desk.type("ovelace ")
    effects = desk.prompts.key(ENTER)
    assert effects == [Dismiss("prompt"), Popup("Ada Lovelace")]
    assert desk.names == [("Ada Lovelace", "0A0001")] and desk.prompts.open_prompt is None


def test_enter_on_nothing_typed_keeps_the_prompt_open() -> None:
    desk = _Desk()
    desk.prompts.open(None, 30.0)
    desk.type("   ")
    assert desk.prompts.key(ENTER) == []
    assert desk.names == [] and desk.prompt.typed == "   "


def test_escape_closes_without_a_name() -> None:
    desk = _Desk()
    desk.prompts.open(None, 30.0, typed="Bo")
    assert desk.prompts.key(ESCAPE) == [Dismiss("prompt")]
    assert desk.prompts.open_prompt is None and desk.names == []


def test_a_key_that_types_nothing_is_taken_and_keeps_the_prompt_open_longer() -> None:
    # An arrow or Shift while typing: the prompt takes it (the keyboard's own keys
    # would move the clock) and the TD is still there.
    desk = _Desk()
    desk.prompts.open(None, 5.0, typed="Bo")
    desk.now += 4.0
    assert _line(desk.prompts.key(KeyTyped(Key.char))) == "Bo_"
    assert desk.prompt.until == desk.now + TYPING_SECONDS
    desk.now += TYPING_SECONDS - 1
    assert desk.prompts.expired() is None


def test_unprintable_characters_and_a_name_too_long_are_not_typed() -> None:
    desk = _Desk()
    desk.prompts.open(None, 30.0)
    desk.type("A\r\t\x1b\u200bB")
    assert desk.prompt.typed == "AB"
    desk.type("x" * MAX_NAME)
    assert len(desk.prompt.typed) == MAX_NAME and desk.prompt.typed.startswith("ABx")
