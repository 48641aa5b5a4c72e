"""A pending move reads the same on every screen (issue 49): the seat finder and
the seating rows say where the player goes, in the moves screen's words, and the
moves screen is large and says whether the clock stands."""

from __future__ import annotations

import dataclasses
import re

import pygame
import pytest

from kiosk.display.layout import recording
from kiosk.display.messages import text
from kiosk.display.painter import Frame, Painter
from kiosk.display.screens import render_moves, render_seat_finder, render_seating
from kiosk.display.seat_finder import seat_finder_view
from kiosk.display.viewmodels import moves_view, seating_view
from rules.commands import BustPlayers, PauseClock
from rules.i18n import LANGUAGES
from rules.values import Move
from tests.rules.tournament_kit import Night

#: Four languages' words for a pending move to table 14, seat 2.
PENDING = {"nn": "→ bord 14, sete 2", "nb": "→ bord 14, sete 2", "da": "→ bord 14, sæde 2",
           "en": "→ table 14, seat 2"}


def _moving(pending: int = 1) -> Night:
    """150 players on 15 tables, busted from table 1 on until ``pending`` moves wait."""
    night = Night().started(150)
    busted = 0
    while len(night.state.moves) < pending:
        busted += 1
        night.do(BustPlayers((f"p{busted}",)), at=10.0 * busted)
    return night


@pytest.fixture(scope="module")
def night() -> Night:
    return _moving(8)


def _first(night: Night) -> Move:
    return min(night.state.moves.values(), key=lambda m: (m.source, m.player_id))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_words_for_a_pending_move(lang: str) -> None:
    assert text("move_pending", lang, table=14, seat=2) == PENDING[lang]
    line = text("move_line", lang, name="Håkon Kristiansen", from_table=3, from_seat=7,
                to_table=14, to_seat=2)
    # The moves screen's line ends in the same words as the seating row's suffix.
    assert line.endswith(PENDING[lang])
    assert line.startswith("Håkon Kristiansen: ") and line.count(",") == 2


def test_the_seat_finder_shows_where_a_moving_player_goes(night: Night) -> None:
    move = _first(night)
    name = night.name(move.player_id)
    rows = [row for page in range(seat_finder_view(night.state, 0.0).pages)
            for row in seat_finder_view(night.state, 0.0, page=page).rows]
    [row] = [r for r in rows if r.name == name]
    assert (row.table_text, row.seat_text) == (str(move.target.table), str(move.target.seat))
    assert row.move_text == "Flytt"
    moving = {night.name(m.player_id) for m in night.state.moves.values()}
    assert all(r.move_text == "" for r in rows if r.name not in moving)
    assert sum(1 for r in rows if r.move_text) == len(night.state.moves)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_seating_row_names_the_player_and_where_they_move(night: Night, lang: str) -> None:
    move = _first(night)
    view = seating_view(night.state, 0.0, lang, page=(move.source.table - 1) // 3)
    table = next(t for t in view.tables if t.number == move.source.table)
    line = table.seats[move.source.seat - 1]
    assert line.name == night.name(move.player_id)
    assert line.moving_to == text("move_pending", lang, table=move.target.table,
                                  seat=move.target.seat)
    assert line.moving_to.startswith("→ ") and str(move.target.table) in line.moving_to
    staying = [s for t in view.tables for s in t.seats
               if s.name and (t.number, s.seat) not in
               {(m.source.table, m.source.seat) for m in night.state.moves.values()}]
    assert staying and all(s.moving_to == "" for s in staying)


def test_the_moves_screen_says_whether_the_clock_stands() -> None:
    night = _moving()
    running = moves_view(night.state, night.now)
    assert not running.clock_paused
    assert re.fullmatch(r"Nivå \d+ – \d\d:\d\d", running.clock_text), running.clock_text
    night.do(PauseClock(), at=night.now + 1)
    for lang in LANGUAGES:
        paused = moves_view(night.state, night.now + 60, lang)
        assert paused.clock_paused and paused.clock_text == text("paused", lang)
    assert moves_view(night.state, night.now, power_cut=True).clock_text == text("power_cut")


@pytest.mark.parametrize("pending", range(1, 9))
def test_the_moves_screen_is_large_and_shows_the_clock(night: Night, pending: int) -> None:
    surface = pygame.Surface((1280, 720))
    full = moves_view(night.state, 100.0, page=0)
    view = dataclasses.replace(full, lines=full.lines[:pending])
    assert len(view.lines) == pending
    with recording() as log:
        render_moves(surface, view)
    drawn = {d.value: d for d in log.texts}
    for line in view.lines:
        assert drawn[line].size >= 0.05 * 720, (line, drawn[line].size)
        assert surface.get_rect().contains(drawn[line].rect)
    clock = drawn[view.clock_text]
    assert view.clock_text.startswith("Nivå 1 – ") and clock.size >= 0.04 * 720
    assert all(not clock.rect.colliderect(drawn[line].rect) for line in view.lines)
    if pending == 1:
        # One move is read from the bar: as large as the screen's width allows.
        assert drawn[line].rect.width >= 0.9 * drawn[line].box.width
        assert drawn[line].size >= 0.07 * 720


def test_the_wall_draws_the_move_on_the_seating_and_the_seat_finder(night: Night) -> None:
    move = _first(night)
    surface = pygame.Surface((1280, 720))
    view = seating_view(night.state, 0.0, page=(move.source.table - 1) // 3)
    table = next(t for t in view.tables if t.number == move.source.table)
    suffix = table.seats[move.source.seat - 1].moving_to
    with recording() as log:
        render_seating(surface, view)
    [drawn] = [d for d in log.texts if d.value == suffix]
    name = next(d for d in log.texts if d.rect.centery == drawn.rect.centery
                and d.rect.right <= drawn.rect.left and d.value[:1].isalpha())
    assert name.value[:3] == night.name(move.player_id)[:3]
    pages = [seat_finder_view(night.state, 0.0, page=p)
             for p in range(seat_finder_view(night.state, 0.0).pages)]
    finder = next(v for v in pages if any(r.move_text for r in v.rows))
    with recording() as log:
        render_seat_finder(surface, finder)
    values = [d.value for d in log.texts]
    assert values.count("Flytt") == sum(1 for r in finder.rows if r.move_text)


def test_a_second_on_the_moves_screen_redraws_only_the_clock_line(night: Night) -> None:
    pygame.display.init()
    display = pygame.display.set_mode((1280, 720))
    painter = Painter(display, shift=False)

    def frame(now: float) -> Frame:
        return Frame(moves_view(night.state, now, page=0), None, "", ("", False), (0, 0), "nn",
                     screen="moves")

    assert painter.draw(frame(100.0)) == "full"
    assert frame(100.0).view != frame(101.0).view
    assert painter.draw(frame(101.0)) == "tick"
    assert painter.full_frames == 1
    ticked = pygame.image.tostring(display, "RGB")
    painter.force_full()
    assert painter.draw(frame(101.0)) == "full"
    assert pygame.image.tostring(display, "RGB") == ticked
