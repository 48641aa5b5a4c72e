"""Issue 45, the waiting list (RULES.md F2) on the wall, in every language.

The real loop on a real (dummy) display, built by ``bootstrap(..., fake=True)``:
the check-in screen and the clock's side panel say how many wait and who, in
order, and a bust that lets the first one in puts "NAME from the waiting list →
Table T, seat S" in a pop-up. What the loop drew is read from the painter's
last frame and its pixels, not only from the view models.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from kiosk.app import App, FlowParts
from kiosk.bootstrap import Options, bootstrap
from kiosk.display.parts import LoopParts
from kiosk.display.registry import Screen
from kiosk.display.screens import side_panel_box
from kiosk.display.shift import amplitude_for, pixel_shift
from kiosk.display.viewmodels import CheckInView, ClockView, SeatingView
from rules.commands import BustPlayers, CheckIn, CreateTournament, DrawSeats, StartClock
from rules.structure import preset

#: The words the wall uses for the list and the admission, per language.
SAYS = {
    "nn": ("Venteliste: 2", "frå ventelista → Bord {table}, sete {seat}"),
    "nb": ("Venteliste: 2", "fra ventelisten → Bord {table}, sete {seat}"),
    "da": ("Venteliste: 2", "fra ventelisten → Bord {table}, sæde {seat}"),
    "en": ("Waiting list: 2", "from the waiting list → Table {table}, seat {seat}"),
}


class _CheckIn:
    """What the night on the appliance hands the wall (kiosk.night): the check-in screen."""

    def parts(self) -> FlowParts:
        return FlowParts(LoopParts(check_in_screen=True))


def _app(tmp_path: Path, lang: str, *, check_in: bool = False) -> App:
    app = bootstrap(Options(data_dir=str(tmp_path), size=(1280, 720), lang=lang), fake=True,
                    flow=(lambda core: _CheckIn()) if check_in else None)
    station = app.station
    create = dataclasses.replace(CreateTournament("Fredag", preset("pubpoker")), capacity=4)
    assert station.create(create).ok
    for n in range(1, 5):
        assert station.submit(CheckIn(f"p{n}", f"Spelar {n}")).ok
    # Every place is taken: the next two wait, in the order they came.
    for pid, name in (("w1", "Kari"), ("w2", "Ola")):
        assert station.submit(CheckIn(pid, name)).ok
    assert station.state.waiting == ["w1", "w2"]
    app.loop.settle()
    app.loop.step(block=False)
    return app


@pytest.fixture(params=sorted(SAYS))
def app(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[App]:
    made = _app(tmp_path, request.param)
    try:
        yield made
    finally:
        made.close()


@pytest.fixture(params=sorted(SAYS))
def check_in_app(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[App]:
    """The wall built with the check-in screen, as the night has it."""
    made = _app(tmp_path, request.param, check_in=True)
    try:
        yield made
    finally:
        made.close()


def _lit(app: App, rect: pygame.Rect) -> bool:
    """Anything well off black in ``rect`` (as shown, after the pixel shift)."""
    assert app.time is not None
    moved = rect.move(pixel_shift(app.time(), amplitude_for(app.loop.display.get_height())))
    sub = app.loop.display.subsurface(moved.clip(app.loop.display.get_rect()))
    lit = pygame.mask.from_threshold(sub, (0, 0, 0, 255), (40, 40, 40, 255))
    return lit.count() < sub.get_width() * sub.get_height()


def test_F2_the_check_in_screen_says_who_waits_in_order(check_in_app: App) -> None:
    loop = check_in_app.loop
    count, _ = SAYS[loop.lang]
    loop.step(block=False)
    shown = loop.painter.last
    assert shown is not None and isinstance(shown.view, CheckInView)
    assert shown.view.waiting_text == f"{count} – 1. Kari, 2. Ola"
    # Counted against the TD's capacity, the places there are.
    assert shown.view.count_text.startswith("4 / 4 ")
    if os.environ.get("PUBPOKER_SAVE_SHOTS"):
        pygame.image.save(loop.display, f"/tmp/h45b-check-in-{loop.lang}.png")


def test_F2_the_clock_shows_the_list_beside_it_and_a_bust_lets_the_first_in(app: App) -> None:
    loop, station = app.loop, app.station
    count, admitted = SAYS[loop.lang]
    assert station.submit(DrawSeats()).ok
    assert station.submit(StartClock()).ok
    loop.step(block=False)  # the draw's seating is told first
    shown = loop.painter.last
    assert shown is not None and isinstance(shown.view, SeatingView)
    assert shown.view.waiting_text == f"{count} – 1. Kari, 2. Ola"
    if os.environ.get("PUBPOKER_SAVE_SHOTS"):
        pygame.image.save(loop.display, f"/tmp/h45b-seating-{loop.lang}.png")
    loop.show(Screen.CLOCK)
    loop.step(block=False)
    shown = loop.painter.last
    assert shown is not None and isinstance(shown.view, ClockView)
    assert shown.side == (count, "1. Kari, 2. Ola")
    assert _lit(app, side_panel_box(loop.display, shown.view))
    if os.environ.get("PUBPOKER_SAVE_SHOTS"):
        pygame.image.save(loop.display, f"/tmp/h45b-clock-{loop.lang}.png")
    # A bust frees a seat while late registration is open: Kari sits down.
    assert station.submit(BustPlayers(("p1",))).ok
    loop.step(block=False)
    kari = station.state.players["w1"]
    assert kari.checked_in and kari.seat is not None and station.state.waiting == ["w2"]
    shown = loop.painter.last
    assert shown is not None and shown.popup is not None
    assert (shown.popup.title, shown.popup.line) == (
        "Kari", admitted.format(table=kari.seat.table, seat=kari.seat.seat))
    assert shown.side == (count.replace("2", "1"), "1. Ola")
    if os.environ.get("PUBPOKER_SAVE_SHOTS"):
        pygame.image.save(loop.display, f"/tmp/h45b-admitted-{loop.lang}.png")
