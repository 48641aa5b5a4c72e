"""The table device's screen at 800×480 and 480×320, worst case, every language.

Ten seats of long Nordic names with the button and blinds, a seat chosen by
BUST → ◀ ▶, a move out of the table, a called clock, a paused clock whose
time is not confirmed, the last action with its undo countdown: every text is
recorded as the renderer draws it (:func:`kiosk.table_device.render.record_texts`)
and must lie inside its box and the screen, overlap no other text, and keep a
readable height. A second later only the countdowns are redrawn.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from kiosk.table_device.render import Drawn, record_texts, render_table_screen, render_table_tick
from kiosk.table_screen import PromptStep, TableScreenView, table_screen_view
from rules.commands import (
    BustPlayers,
    CallClock,
    CheckIn,
    DrawButton,
    DrawSeats,
    StartClock,
    TogglePause,
)
from rules.i18n import LANGUAGES
from tests.rules.tournament_kit import Night

LONG_NAMES = ("Kristoffer Bjørnstad-Haugland", "Åsmund Kvernhusvik-Ødegård",
              "Ragnhild Fjellheim-Aasen", "Torbjørn Skjæveland-Rønning",
              "Ingrid Østby-Lie Sæther", "Håkon Nygård-Tveitevåg", "Solveig Haugen-Bjørklund",
              "Nils Kristian Ødegaard", "Marit Bøe-Kvalheim", "Eirik Sæther-Mjøen")
SIZES = ((800, 480), (480, 320))
#: The smallest text height allowed, as a share of the screen height.
MIN_SHARE = 0.028


def worst_case_night() -> tuple[Night, str]:
    night = Night(preset_name="pubpoker", seed=3)
    for i in range(20):
        name = LONG_NAMES[i % len(LONG_NAMES)] + ("" if i < 10 else f" {i}")
        night.do(CheckIn(f"p{i}", name))
    night.do(DrawSeats())
    night.do(StartClock(), at=10.0)
    night.do(DrawButton(1), at=20.0)
    # Two out at table 2 leaves it two short: a move out of table 1.
    out = sorted(night.state.tables[2].seats.values())[:2]
    night.do(BustPlayers(tuple(out), table=2), at=30.0)
    night.do(CallClock(1), at=40.0)
    night.do(TogglePause(), at=41.0)
    longest = max(night.state.tables[1].seats.items(),
                  key=lambda s: len(night.state.players[s[1]].name))
    return night, str(longest[0])


def view_for(night: Night, seat: int, lang: str, now: float = 45.0) -> TableScreenView:
    bust = next(r for r in reversed(night.records) if r.event.kind.value == "players-busted")
    return table_screen_view(night.state, 1, now, lang, last=bust, undo_window=30.0,
                             step=PromptStep(busting=True, seat=seat), time_confirmed=False)


def drawn(size: tuple[int, int], view: TableScreenView) -> tuple[pygame.Surface, list[Drawn]]:
    texts: list[Drawn] = []
    surface = pygame.Surface(size)
    record_texts(texts.append)
    try:
        render_table_screen(surface, view)
    finally:
        record_texts(None)
    return surface, texts


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_fits_its_box_and_the_screen_and_overlaps_none(
        size: tuple[int, int], lang: str) -> None:
    night, seat = worst_case_night()
    view = view_for(night, int(seat), lang)
    assert view.moves and view.clock and view.unconfirmed and view.paused and view.undo
    assert len(view.seats) == 10 and all(m.name for m in view.seats)
    surface, texts = drawn(size, view)
    screen = surface.get_rect()
    values = [t.value for t in texts]
    smallest = min(texts, key=lambda t: t.rect.height)
    print(f"\n{size} {lang}: {len(texts)} texts, smallest {smallest.rect.height} px "
          f"({smallest.rect.height / size[1]:.1%} of the height): {smallest.value!r}")
    for text in texts:
        assert screen.contains(text.rect), text
        # Fitted, never ellipsised: the whole line is inside its box.
        assert text.box.left <= text.rect.left and text.rect.right <= text.box.right, text
        assert text.box.top - 1 <= text.rect.top and text.rect.bottom <= text.box.bottom + 1, text
        assert text.rect.height >= MIN_SHARE * size[1], text
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            assert not a.rect.colliderect(b.rect), (a, b)
    # What the dealer must see is all there.
    for expected in (view.title, view.clock, view.digits, view.level_line, view.unconfirmed,
                     view.paused_text, view.moves[0], *view.prompt,
                     *(m.name for m in view.seats)):
        assert expected in values, (expected, values)


def test_a_second_later_only_the_countdowns_are_redrawn() -> None:
    night, seat = worst_case_night()
    night.do(TogglePause(), at=42.0)  # running again: the clock counts down
    before = view_for(night, int(seat), "nn", now=45.0)
    after = view_for(night, int(seat), "nn", now=46.0)
    assert before.digits != after.digits and before.clock != after.clock
    assert before.undo != after.undo and after.last_action == "Sist: slått ut"
    surface, _ = drawn((480, 320), before)
    dirty = render_table_tick(surface, after, before)
    assert dirty
    area = sum(r.width * r.height for r in dirty)
    assert area < 0.05 * 480 * 320, dirty
    # The tick leaves the same pixels as drawing the second from scratch.
    whole, _ = drawn((480, 320), after)
    assert pygame.image.tostring(surface, "RGB") == pygame.image.tostring(whole, "RGB")
