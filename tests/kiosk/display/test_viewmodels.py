"""View models for a real night, built through the rules' own commands."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

from kiosk.display.viewmodels import (
    PAGE_SECONDS,
    NotOnBreak,
    break_view,
    clock_view,
    moves_view,
    results_view,
    seating_view,
)
from rules.clock import period_start
from rules.commands import BustPlayers, DrawButton, DrawSeats, PauseClock, SetHandForHand
from rules.i18n import format_int
from rules.points import points
from rules.structure import Break
from tests.rules.tournament_kit import Night

MINUTE = 60.0
LEVEL = 30 * MINUTE  # pf-pokerklub levels are 30 minutes (C2)


def _break_start(night: Night, nth: int) -> float:
    """Shared time at which the ``nth`` break (1-based) begins; the clock started at 0."""
    state = night.state
    assert state.config is not None
    structure = state.config.structure
    index = [i for i, p in enumerate(structure.periods) if isinstance(p, Break)][nth - 1]
    return period_start(structure, state.clock, index)


@pytest.fixture
def night() -> Night:
    return Night().started(54)


def test_clock_at_the_start(night: Night) -> None:
    view = clock_view(night.state, 0.0)
    assert view.name == "Fredagspoker"
    assert (view.level_text, view.blinds_label, view.blinds_text) == ("Nivå 1", "Blindar",
                                                                      "100 / 200")
    assert view.ante_text == ""
    assert view.digits == "30:00"
    assert (view.next_level_label, view.next_level_text) == ("Neste nivå", "Nivå 2 – 200 / 400")
    assert (view.until_break_label, view.until_break_text) == ("Til pause", "1:00:00")
    assert (view.players_label, view.players_text) == ("Spelarar att", "54 / 54")
    assert view.average_text == format_int(10_000)
    assert view.chips_text == format_int(540_000)
    assert not view.paused and view.paused_text == ""
    assert not view.last_minute and not view.on_break
    assert view.badges == ()
    assert view.blinds_line == "Blindar 100 / 200"
    assert view.next_line == "Neste nivå: Nivå 2 – 200 / 400"
    assert view.until_break_line == "Til pause: 1:00:00"


def test_clock_in_the_last_level_and_in_a_break(night: Night) -> None:
    last = clock_view(night.state, 10 * 3600.0, "nb")
    assert (last.level_text, last.digits) == ("Nivå 9", "--:--")
    assert (last.next_line, last.until_break_line) == ("Siste nivå", "")
    on_break = clock_view(night.state, _break_start(night, 1) + MINUTE)
    assert on_break.on_break and on_break.level_text == "Pause"
    # No blinds are played in a break: the screen says what comes next instead.
    assert on_break.blinds_line == ""
    assert on_break.next_line == "Neste nivå: Nivå 3 – 300 / 600"
    assert not on_break.last_minute


def test_clock_moves_through_levels(night: Night) -> None:
    view = clock_view(night.state, LEVEL + MINUTE)
    assert (view.level_text, view.blinds_text, view.digits) == ("Nivå 2", "200 / 400", "29:00")
    assert view.until_break_text == "29:00"
    # pf-pokerklub breaks after level 2: the line names the break, not level 3.
    assert (view.next_level_label, view.next_level_text) == ("Neste", "Pause 10 min")
    assert view.next_line == "Neste: Pause 10 min"


def test_clock_warns_in_the_last_minute(night: Night) -> None:
    assert not clock_view(night.state, LEVEL - 61).last_minute
    view = clock_view(night.state, LEVEL - 30)
    assert view.last_minute and view.digits == "00:30"


def test_clock_shows_antes_and_numbers_per_language(night: Night) -> None:
    # Level 5 (800/1 600, ante 100) starts after four levels and two breaks.
    at = _break_start(night, 2) + 1800 + MINUTE
    nn = clock_view(night.state, at, "nn")
    en = clock_view(night.state, at, "en")
    assert (nn.level_text, nn.blinds_text, nn.ante_text) == (
        "Nivå 5", f"{format_int(800)} / {format_int(1600)}", "Ante 100")
    assert (en.level_text, en.blinds_text, en.blinds_label) == ("Level 5", "800 / 1,600", "Blinds")
    assert en.blinds_line == "Blinds 800 / 1,600 – Ante 100"
    assert en.chips_text == "540,000"
    assert en.next_level_text == "Level 6 – 1,200 / 2,400 – Ante 200"
    assert clock_view(night.state, at, "da").level_text == "Niveau 5"


def test_average_stack_follows_the_field(night: Night) -> None:
    night.do(BustPlayers(("p1", "p2")))
    view = clock_view(night.state, 0.0, "en")
    assert view.players_text == "52 / 54"
    assert view.average_text == format_int(540_000 // 52, "en")
    assert view.chips_text == "540,000"


def test_paused_clock_freezes_and_says_so(night: Night) -> None:
    night.do(PauseClock(), at=100.0)
    view = clock_view(night.state, 5000.0)
    assert view.paused and view.digits == "28:20"
    assert view.paused_text == "Klokka er stoppa"
    assert clock_view(night.state, 5000.0, "en").paused_text == "Clock paused"
    after_cut = clock_view(night.state, 5000.0, power_cut=True)
    assert after_cut.paused_text == "Klokka stoppa etter straumbrot – trykk pause"


def test_clock_before_the_start() -> None:
    night = Night().checked_in(10)
    night.do(DrawSeats())
    view = clock_view(night.state, 0.0)
    assert view.paused and view.paused_text == "Klokka er ikkje starta"


def test_badges_for_hand_for_hand(night: Night) -> None:
    night.do(SetHandForHand(True))
    assert clock_view(night.state, 0.0).badges == ("Hand for hand",)
    assert clock_view(night.state, 0.0, "nb").badges == ("Hånd for hånd",)


def test_break_with_colour_up() -> None:
    night = Night(preset_name="pf-pokerklub").started(54)
    at = _break_start(night, 3) + 10
    view = break_view(night.state, at)
    assert (view.title, view.digits) == ("Pause", "09:50")
    assert view.colour_up
    assert view.colour_up_text == "Fargebyte: 100 og 200 blir tekne ut"
    assert (view.after_label, view.after_text) == (
        "Etter pausen", f"Nivå 7 – {format_int(2000)} / {format_int(4000)} – Ante 500")
    assert view.after_line == f"Etter pausen: {view.after_text}"
    assert view.players_line == "Spelarar att: 54 / 54"
    en = break_view(night.state, at, "en")
    assert en.colour_up_text == "Colour-up: the 100 and 200 chips are removed"
    assert break_view(night.state, at, "da").colour_up_text == "Farveskift: 100 og 200 tages ud"
    assert clock_view(night.state, at).on_break


def test_plain_and_meal_breaks(night: Night) -> None:
    first = break_view(night.state, _break_start(night, 1))
    assert (first.title, first.digits, first.colour_up, first.colour_up_text) == (
        "Pause", "10:00", False, "")
    assert first.after_text == "Nivå 3 – 300 / 600"
    meal = break_view(night.state, _break_start(night, 2) + 29 * MINUTE + 30)
    assert (meal.title, meal.digits, meal.last_minute) == ("Matpause", "00:30", True)


def test_break_screen_refuses_a_level(night: Night) -> None:
    with pytest.raises(NotOnBreak):
        break_view(night.state, 0.0)


def test_seating_with_fifteen_tables_pages_through_everyone() -> None:
    night = Night().started(150)
    night.do(DrawButton(1))
    state = night.state
    first = seating_view(state, 0.0)
    assert (first.pages, first.page, first.page_text) == (5, 0, "Side 1 av 5")
    assert first.title == "Bordplassering" and first.button_mark == "D"
    pages = [seating_view(state, 0.0, page=p) for p in range(first.pages)]
    tables = [t for page in pages for t in page.tables]
    assert [t.number for t in tables] == list(range(1, 16))
    assert [t.title for t in tables][:2] == ["Bord 1", "Bord 2"]
    assert all(len(t.seats) == 10 for t in tables)
    names = sorted(line.name for t in tables for line in t.seats if line.name)
    assert names == sorted(e.name for e in state.players.values())
    button = state.tables[1].button
    assert button is not None
    marked = [(t.number, line.seat) for t in tables for line in t.seats if line.button]
    assert marked == [(1, button.button)]
    # Pages turn with shared time, so every screen in the room agrees.
    assert seating_view(state, PAGE_SECONDS).page == 1
    assert seating_view(state, 5 * PAGE_SECONDS).page == 0


def test_a_busted_players_seat_is_empty(night: Night) -> None:
    seat = night.state.players["p3"].seat
    assert seat is not None
    night.do(BustPlayers(("p3",)))
    view = seating_view(night.state, 0.0, "en")
    table = next(t for t in view.tables if t.number == seat.table)
    line = table.seats[seat.seat - 1]
    assert (line.seat, line.name) == (seat.seat, "")
    # 54 players sit at six tables: two pages of three.
    assert view.title == "Seating" and view.pages == 2 and view.page_text == "Page 1 of 2"


def test_moves_after_a_bust() -> None:
    night = Night().started(150)
    assert moves_view(night.state, 0.0).lines == ()
    assert moves_view(night.state, 0.0).empty_text == "Ingen flyttingar"
    busted = 0
    while not night.state.moves:
        busted += 1
        night.do(BustPlayers((f"p{busted}",)))
    view = moves_view(night.state, 0.0)
    assert view.title == "Flytt"
    [move] = night.state.moves.values()
    name = night.name(move.player_id)
    assert view.lines == (
        f"{name}: bord {move.source.table}, sete {move.source.seat} → "
        f"bord {move.target.table}, sete {move.target.seat}",)
    assert moves_view(night.state, 0.0, "en").lines[0].startswith(f"{name}: table ")


def test_results_after_a_finished_night() -> None:
    night = Night().started(6)
    for i in range(1, 6):
        night.do(BustPlayers((f"p{i}",)), at=100.0 * i)
    assert night.state.finished
    view = results_view(night.state, 0.0)
    assert (view.title, view.winner_label, view.winner_name) == ("Resultat", "Vinnar", "Player 6")
    assert view.points_label == "Poeng"
    assert [r.place for r in view.rows] == [1, 2, 3, 4, 5, 6]
    assert [r.name for r in view.rows] == [f"Player {n}" for n in range(6, 0, -1)]
    assert view.rows[0].place_text == "1. plass"
    assert [r.points_text for r in view.rows] == [str(points(p, 6)) for p in range(1, 7)]
    en = results_view(night.state, 0.0, "en")
    assert [r.place_text for r in en.rows][:3] == ["1st", "2nd", "3rd"]
    assert (en.title, en.winner_label) == ("Results", "Winner")


def test_results_before_anyone_is_out(night: Night) -> None:
    view = results_view(night.state, 0.0)
    assert view.rows == () and view.winner_name == "" and view.empty_text


def test_view_models_are_frozen(night: Night) -> None:
    view = clock_view(night.state, 0.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.digits = "00:00"  # type: ignore[misc]


def test_view_models_do_not_import_pygame() -> None:
    code = ("import sys, kiosk.display.viewmodels, kiosk.display.messages; "
            "assert 'pygame' not in sys.modules, 'pygame imported'")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


@pytest.mark.parametrize("tables", [1, 2, 6, 7, 12, 15])
def test_seating_pages_hold_every_table_once(tables: int) -> None:
    night = Night().started(tables * 10)
    first = seating_view(night.state, 0.0)
    assert len(night.state.tables) == tables
    assert first.tables_per_page <= 6
    seen = [t.number for p in range(first.pages)
            for t in seating_view(night.state, 0.0, page=p).tables]
    assert seen == sorted(night.state.tables)
    assert (first.page_text == "") is (first.pages == 1)


def test_long_lists_page_in_shared_time() -> None:
    night = Night().started(150)
    for i in range(1, 41):
        night.do(BustPlayers((f"p{i}",)))
    results = [results_view(night.state, PAGE_SECONDS * p) for p in range(4)]
    assert [r.page for r in results] == [0, 1, 2, 3]
    assert results[0].page_text == "Side 1 av 4"
    assert [row.place for r in results for row in r.rows] == list(range(111, 151))
    assert results[0].winner_name == ""
    moves = moves_view(night.state, 0.0)
    pending = len(night.state.moves)
    assert moves.pages == max(1, -(-pending // 10))
    every = [line for p in range(moves.pages)
             for line in moves_view(night.state, 0.0, page=p).lines]
    assert len(every) == pending


# --- issue 19: the right words ----------------------------------------------------------


def _pubpoker_level(number: int) -> float:
    """Shared time one minute into level ``number`` of the pubpoker preset (clock from 0)."""
    night = Night(preset_name="pubpoker").started(20)
    structure = night.state.config.structure  # type: ignore[union-attr]
    index = next(i for i in range(len(structure.periods))
                 if structure.level_number(i) == number)
    return period_start(structure, night.state.clock, index) + MINUTE


def test_a_big_blind_ante_reads_bb_ante_on_the_wall_and_in_the_cli_alike() -> None:
    """pubpoker's level 5 is a big-blind ante of 1 000 (B7): not everyone's "Ante"."""
    from kiosk.cli.report import clock_document
    from kiosk.cli.show_words import clock_line

    night = Night(preset_name="pubpoker").started(20)
    at = _pubpoker_level(5)
    wall = {lang: clock_view(night.state, at, lang).ante_text
            for lang in ("nn", "nb", "da", "en")}
    assert wall == {"nn": f"BB-ante {format_int(1000, 'nn')}",
                    "nb": f"BB-ante {format_int(1000, 'nb')}",
                    "da": f"BB-ante {format_int(1000, 'da')}", "en": "BB ante 1,000"}
    doc = clock_document(night.state, at)
    for lang, words in wall.items():
        assert words in clock_line(doc, lang), (lang, clock_line(doc, lang))
    # The break before it says what comes after it the same way.
    after = break_view(night.state, at - 2 * MINUTE, "nn").after_text
    assert after.endswith(f"BB-ante {format_int(1000, 'nn')}"), after
    # A per-player ante keeps its word.
    per_player = Night().started(54)
    five = _break_start(per_player, 2) + 1800 + MINUTE
    assert clock_view(per_player.state, five, "nn").ante_text == "Ante 100"


@pytest.mark.parametrize(("lang", "line"), [("nn", "Neste: Pause 10 min"),
                                            ("nb", "Neste: Pause 10 min"),
                                            ("da", "Næste: Pause 10 min"),
                                            ("en", "Next: Break 10 min")])
def test_the_line_before_a_break_names_the_break(lang: str, line: str) -> None:
    """pubpoker breaks for 10 minutes after level 4: level 4 says the break, not level 5."""
    night = Night(preset_name="pubpoker").started(20)
    four = clock_view(night.state, _pubpoker_level(4), lang)
    assert four.next_line == line
    three = clock_view(night.state, _pubpoker_level(3), lang)
    assert "4" in three.next_level_text and "10 min" not in three.next_level_text


def test_results_start_at_page_one_when_the_night_ends() -> None:
    """Whatever the room's page count stood at, the end shows page 1, then pages on."""
    night = Night().started(24)
    ended = 10_017.0  # page slot 1001: the room's own count would show page 3 of 3
    for i in range(1, 24):
        night.do(BustPlayers((f"p{i}",)), at=ended if i == 23 else 100.0 * i)
    assert int(ended // PAGE_SECONDS) % 3 == 2
    pages = [results_view(night.state, ended + PAGE_SECONDS * n + 1).page for n in range(4)]
    assert pages == [0, 1, 2, 0]
    assert results_view(night.state, ended + 1).page_text == "Side 1 av 3"
