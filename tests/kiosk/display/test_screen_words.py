"""Issue 48: every screen of a night says its words in Nynorsk, Bokmål and Danish.

The catalogue test reads each word list; this one reads what the view models
make of them on a real night (built through the rules' own commands): the
clock, paused and on a power cut, the break, hand for hand, seating, the moves,
check-in with a waiting list, the results and the league table. Every text a
screen draws goes through the leak finder; the players' names are Norwegian
and Danish, so only the screens' own words are judged.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from kiosk.display.viewmodels import (
    break_view,
    check_in_view,
    clock_view,
    moves_view,
    results_view,
    seating_view,
    standings_view,
    waiting_lines,
)
from rules.clock import period_start
from rules.commands import (
    BustPlayers,
    CheckIn,
    DrawSeats,
    PauseClock,
    SetHandForHand,
    StartClock,
)
from rules.structure import Break
from tests.kiosk.word_lists import WORD_LISTS, leaks
from tests.rules.tournament_kit import Night

pytestmark = WORD_LISTS

NAMES = ("Kari", "Ola", "Søren", "Mette", "Nils", "Ingrid", "Jens", "Sofie", "Lars", "Hanne")


def _texts(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            yield from _texts(getattr(value, item.name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _texts(item)


def _night(players: int, **options: object) -> Night:
    night = Night(**options)
    for i in range(1, players + 1):
        night.do(CheckIn(f"p{i}", f"{NAMES[i % len(NAMES)]} {i}"))
    return night


def _screens(lang: str) -> Iterator[tuple[str, object]]:
    waiting = _night(12, capacity=10)
    yield "check-in", check_in_view(waiting.state, 0.0, lang)
    yield "waiting list", waiting_lines(waiting.state, lang)
    night = _night(150)
    night.do(DrawSeats())
    yield "seating before the clock", seating_view(night.state, 0.0, lang)
    night.do(StartClock())
    yield "clock", clock_view(night.state, 0.0, lang)
    yield "power cut", clock_view(night.state, 0.0, lang, power_cut=True)
    structure = night.state.config.structure if night.state.config else None
    assert structure is not None
    first_break = next(i for i, p in enumerate(structure.periods) if isinstance(p, Break))
    on_break = period_start(structure, night.state.clock, first_break) + 1
    yield "break", break_view(night.state, on_break, lang)
    busted = 0
    while not night.state.moves:
        busted += 1
        night.do(BustPlayers((f"p{busted}",)))
    yield "moves", moves_view(night.state, 0.0, lang)
    night.do(SetHandForHand(True))
    yield "hand for hand", clock_view(night.state, 0.0, lang)
    night.do(PauseClock())
    yield "paused", clock_view(night.state, 0.0, lang)
    yield "seating", seating_view(night.state, 0.0, lang)
    finished = _night(6)
    finished.do(DrawSeats())
    finished.do(StartClock())
    for i in range(1, 6):
        finished.do(BustPlayers((f"p{i}",)), at=100.0 * i)
    yield "results", results_view(finished.state, 600.0, lang)
    yield "standings", standings_view("2026", [(1, "Kari", 21), (2, "Ola", 1)], 0.0, lang)


@pytest.mark.parametrize("lang", ["nn", "nb", "da"])
def test_no_english_on_any_screen(lang: str) -> None:
    found, seen = [], 0
    for screen, view in _screens(lang):
        for text in _texts(view):
            seen += 1
            found.extend(f"{screen}: {word!r} in {text!r}" for word in leaks(text, lang))
    assert seen > 100
    assert not found, "\n".join(found)


def test_the_finder_would_see_an_english_screen() -> None:
    english = [word for _, view in _screens("en") for text in _texts(view)
               for word in leaks(text, "nn")]
    assert {"level", "players", "break"} <= {word.lower() for word in english}
