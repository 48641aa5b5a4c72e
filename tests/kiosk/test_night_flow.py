"""Issue 9: the TD's night on the appliance, from power-on to the winner and the next night.

Driven only the way the appliance is: mock GPIO pins (``attach_buttons`` with
gpiozero's ``MockFactory``), a pty RDM6300 card reader (``attach_reader``), and
key events posted to pygame's queue (a USB keyboard). Two table devices run
their own station and controller on mock pins; their records are relayed to
the wall's station by hand (peer sync's job). Each step asserts the view model
the wall shows (``app.loop.view()``) and its pop-up.

With ``PUBPOKER_SAVE_GUIDE=1`` each step's screen is saved to ``images/night/``
for the README's guide (or to ``PUBPOKER_GUIDE_DIR``, to look at them first).
The regulars have venue-like names (:func:`kiosk.demo.names.venue_names`).
"""

from __future__ import annotations

import datetime as dt
import os
import queue
import random
import time
import tty
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pygame
import pytest
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from hardware.buttons import ButtonPanel
from hardware.inputs import Action, ButtonPressed, CardRead, Input
from hardware.readers.rdm6300 import encode_frame
from kiosk.app import App
from kiosk.bootstrap import Options, bootstrap
from kiosk.config import TournamentConfig
from kiosk.controls import Controller, Role, Say
from kiosk.demo.names import venue_names
from kiosk.display.loop import Screen
from kiosk.display.viewmodels import (
    BreakView,
    CheckInView,
    ClockView,
    HelpView,
    ResultsView,
    SeatingView,
)
from kiosk.night import Night
from kiosk.station import Station
from kiosk.store import open_store
from kiosk.timebase import SharedClock
from kiosk.wiring import attach_buttons, attach_reader
from rules import clock as clocks
from tests.kiosk.night_app import night_of

GUIDE = Path(os.environ.get("PUBPOKER_GUIDE_DIR")
             or Path(__file__).resolve().parents[2] / "images" / "night")
SAVE = os.environ.get("PUBPOKER_SAVE_GUIDE") == "1"

#: The TD's box: the console buttons.
TD_PINS = {"pause": 17, "next_level": 27, "start": 6, "undo": 5, "new": 26, "next_screen": 16}
#: A table device's buttons.
TABLE_PINS = {Action.bust: 22, Action.new_hand: 23, Action.hand_done: 25,
              Action.seat_next: 12, Action.ok: 13}
TONIGHT = TournamentConfig(preset="pf-pokerklub", name="Fredagspoker {date}",
                           seats_per_table=10, tables=2, resume_after_break=False)



def card(n: int) -> str:
    return f"0A{n:08X}"


@dataclass
class TableDevice:
    table: int
    station: Station
    controller: Controller
    factory: MockFactory
    panel: ButtonPanel
    inputs: queue.Queue[Input]


class Night9:
    """The wall (display + console) and its surroundings, with helpers for each gesture."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.app: App = bootstrap(
            Options(data_dir=str(tmp / "tv"), role="display+console", lang="nn", shift=False,
                    seed=9, sound=False),
            fake=True, flow=lambda core: Night(core, TONIGHT, buttons=tuple(TD_PINS),
                                               today=lambda: dt.date(2026, 11, 27),
                                               guest_after=20.0))
        self.factory = MockFactory()
        attach_buttons(self.app, TD_PINS, pin_factory=self.factory)
        master, slave = os.openpty()
        tty.setraw(slave)
        self.pty, self._slave = master, slave
        attach_reader(self.app, os.ttyname(slave), "rdm6300")
        self.night = night_of(self.app)
        self.tables: dict[int, TableDevice] = {}
        self.shots = 0

    @property
    def time(self) -> Callable[[], float]:
        assert self.app.time is not None
        return self.app.time

    def advance(self, seconds: float) -> None:
        assert self.app.time is not None
        self.app.time.advance(seconds)

    def step(self, n: int = 1) -> None:
        for _ in range(n):
            self.app.loop.step(block=False)

    def view(self) -> object:
        self.step()
        return self.app.loop.view()

    def popup(self) -> str:
        shown = self.app.loop.current_popup()
        return "" if shown is None else f"{shown.title} {shown.line}".strip()

    def shot(self, name: str, *, popup: bool = False) -> None:
        """The screen as the guide shows it; one not about a pop-up has none (issue 19:
        the guide's check-in image carried a stray "Kortlesaren er tilbake")."""
        self.step()
        self.app.loop.draw()
        drawn = self.app.loop.painter.last
        assert drawn is not None and (drawn.popup is not None) == popup, (name, drawn.popup)
        if SAVE:
            GUIDE.mkdir(parents=True, exist_ok=True)
            self.shots += 1
            self.app.screenshot(GUIDE / f"{self.shots:02d}-{name}.png")

    # --- gestures -------------------------------------------------------------------

    def press(self, *names: str, long: bool = False, hold: float | None = None) -> None:
        pins = [self.factory.pin(TD_PINS[name]) for name in names]
        for pin in pins:
            pin.drive_low()
        self.step()
        self.advance(hold if hold is not None else (1.6 if long else 0.1))
        self.step()
        for pin in pins:
            pin.drive_high()
        self.advance(0.1)
        self.step()

    def tap(self, n: int, until: Callable[[], bool]) -> None:
        self.advance(2.0)  # beyond the reader's repeat window
        for _ in range(200):
            os.write(self.pty, encode_frame(card(n)))
            time.sleep(0.01)
            self.step()
            if until():
                return
        raise AssertionError(f"card {n} was never read")

    def type(self, text: str, *, enter: bool = True) -> None:
        for char in text:
            key = pygame.key.key_code(char) if char.isalnum() else pygame.K_SPACE
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, unicode=char, mod=0))
            self.step()
        if enter:
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN,
                                                 unicode="\r", mod=0))
            self.step()

    # --- table devices ----------------------------------------------------------------

    def table_device(self, table: int) -> TableDevice:
        if table not in self.tables:
            station = Station(open_store(data_dir=self.tmp / f"t{table}"),
                              SharedClock(source=self.time), rng=random.Random(table))
            inputs: queue.Queue[Input] = queue.Queue()
            factory = MockFactory()
            panel = ButtonPanel(TABLE_PINS, inputs, pin_factory=factory, clock=self.time)
            self.tables[table] = TableDevice(table, station,
                                             Controller(station, frozenset({Role.TABLE}), table),
                                             factory, panel, inputs)
            self.relay()
        return self.tables[table]

    def relay(self) -> None:
        """Peer sync's stand-in: the wall's records to the tables and back."""
        tid = self.app.station.tournament_id
        assert tid is not None
        for device in self.tables.values():
            device.station.accept(self.app.store.records(tid))
            if device.station.tournament_id == tid:
                self.app.station.accept(device.station.store.records(tid))
        self.step()

    def table_press(self, table: int, action: Action) -> list[Say]:
        device = self.table_device(table)
        pin = device.factory.pin(TABLE_PINS[action])
        pin.drive_low()
        self.advance(0.1)
        device.panel.poll()
        pin.drive_high()
        self.advance(0.1)
        device.panel.poll()
        said: list[Say] = []
        while True:
            try:
                said.extend(device.controller.handle(device.inputs.get_nowait()))
            except queue.Empty:
                break
        self.relay()
        return said

    def bust(self, player_id: str) -> list[Say]:
        """BUST at the player's table, the seat picked with ▶, then OK."""
        seat = self.app.station.state.players[player_id].seat
        assert seat is not None
        device = self.table_device(seat.table)
        device.station.accept(self.app.store.records(self.app.station.tournament_id or ""))
        assert self.table_press(seat.table, Action.bust)[0].key == "bust-tap"
        for _ in range(12):
            self.table_press(seat.table, Action.seat_next)
            if device.controller.selected_seat == seat.seat:
                break
        return self.table_press(seat.table, Action.ok)

    def close(self) -> None:
        for device in self.tables.values():
            device.panel.close()
            device.station.close()
        self.app.close()
        os.close(self.pty)
        os.close(self._slave)


@pytest.fixture()
def night(tmp_path: Path) -> Iterator[Night9]:
    made = Night9(tmp_path)
    try:
        yield made
    finally:
        made.close()


def test_a_whole_night_on_the_appliance(night: Night9) -> None:
    app, state = night.app, lambda: night.app.station.state
    # Nine regulars with cards; Kari and Ola Nordmann come later without one.
    regulars = [name for name in venue_names(20, 9)
                if name not in ("Kari Nordmann", "Ola Nordmann")][:9]
    for n, regular in enumerate(regulars, 1):
        app.store.players.add(regular, card=card(n))

    # Power-on: tonight's tournament, checking in, from the config.
    assert night.night.power_on()
    assert not night.night.power_on()  # once: it is open now
    view = night.view()
    assert isinstance(view, CheckInView)
    assert view.title == "Innsjekk" and view.count_text == "0 / 20 sete" and not view.names
    assert state().config is not None and state().config.name == "Fredagspoker 27.11.2026"
    night.shot("power-on")

    # START with nobody in: a clear message, nothing drawn.
    night.press("start", long=True)
    assert "spelarar" in night.popup().lower(), night.popup()
    assert not state().tables
    night.advance(3.1)

    # Nine known cards.
    for n in range(1, 10):
        night.tap(n, lambda n=n: state().entrants == n)
        assert night.popup().startswith(regulars[n - 1]), night.popup()
    view = night.view()
    assert isinstance(view, CheckInView) and view.count_text == "9 / 20 sete"
    night.advance(5.1)  # the last pop-up gone: the list itself
    night.shot("check-in")

    # A card tapped twice: said, not counted twice.
    night.advance(5.0)
    night.tap(3, lambda: bool(night.popup()))
    assert night.popup() == f"{regulars[2]} er allereie sjekka inn"
    assert state().entrants == 9

    # An unknown card: the name typed on the keyboard, the card linked to the new player.
    night.tap(10, lambda: night.night.prompt is not None)
    assert night.popup().startswith("Nytt kort – skriv namnet")
    night.type("Kari Nordmann", enter=False)
    assert night.popup() == "Nytt kort – skriv namnet Kari Nordmann_"
    night.shot("new-card", popup=True)
    night.type("", enter=True)
    kari = app.store.players.find("Kari Nordmann")
    assert kari is not None and card(10) in kari.cards
    assert state().players[kari.id].checked_in and state().entrants == 10

    # A walk-in without a card: n, the name, Enter.
    night.type("n", enter=False)
    assert night.night.prompt is not None and night.night.prompt.card is None
    night.type("Ola Nordmann")
    assert state().find("Ola Nordmann") is not None and state().entrants == 11

    # An unknown card and nobody at the keyboard: a guest, named later.
    night.tap(11, lambda: night.night.prompt is not None)
    night.advance(21.0)
    night.step()
    guest = app.store.players.find("Gjest 1")
    assert guest is not None and card(11) in guest.cards and state().entrants == 12
    view = night.view()
    assert isinstance(view, CheckInView) and view.count_text == "12 / 20 sete"
    assert {"Kari Nordmann", "Ola Nordmann", "Gjest 1"} <= set(view.names)

    # Help: two buttons held for three seconds.
    night.press("pause", "next_level", hold=3.2)
    view = night.view()
    assert isinstance(view, HelpView) and view.title == "Knappane"
    assert "START (hald): trekk bord, så start klokka" in view.lines
    night.shot("help")
    night.advance(16.0)
    assert isinstance(night.view(), CheckInView)

    # START (long): the draw, on the seating screen; START again: level 1.
    night.press("start", long=True)
    assert len(state().tables) == 2
    view = night.view()
    assert isinstance(view, SeatingView)
    assert sum(1 for t in view.tables for s in t.seats if s.name) == 12
    night.shot("seating")
    night.press("start", long=True)
    assert state().clock.running
    night.advance(31.0)
    view = night.view()
    assert isinstance(view, ClockView) and view.level_text.endswith("1")
    night.shot("clock")

    # A bust at table 1 by its device, shown on the wall's ticker.
    # One with a card (player ids are random; the walk-in has none), for the card bust below.
    first = sorted(p for p in state().tables[1].seats.values() if state().players[p].cards)[0]
    name = state().players[first].name
    said = night.bust(first)
    assert said[-1].key == "busted"
    assert state().players[first].place == 12
    assert name in " ".join(app.loop.overlays.ticker)

    # A bust of a player already out, by their card at a table device: said, nothing changes.
    # (The wall's UNDO first: the TD took the wrong one.)
    night.press("undo", long=True)
    shown = night.app.loop.current_popup()
    assert shown is not None and (shown.title, shown.line) == ("Angra", f"{name} slått ut")
    assert state().players[first].place is None
    assert not any(name in line for line in app.loop.overlays.ticker)
    night.shot("undo", popup=True)
    night.bust(first)
    assert state().players[first].place == 12
    device = night.tables[1]
    entry = device.station.state.players[first]
    assert entry.cards
    device.controller.handle(ButtonPressed(Action.bust, long=False, at=0.0))
    said = device.controller.handle(CardRead(entry.cards[0], reader="rdm6300", at=0.0))
    assert said[0].translate("nn") == f"{name} er allereie slått ut (12. plass)"
    assert state().remaining == 11

    # Play on to the third break; the clock waits at the end of each break for START.
    structure = state().config.structure  # type: ignore[union-attr]
    third = [i for i, p in enumerate(structure.periods) if isinstance(p, clocks.Break)][2]
    while True:
        reading = clocks.read(structure, state().clock, app.station.now())
        if reading.period_index == third:
            break
        if reading.waiting:
            view = night.view()
            assert isinstance(view, BreakView)
            assert view.paused_text == "Pausen er over – trykk start"
            night.press("start", long=True)
            continue
        night.advance(min(600.0, (reading.remaining or 600.0) + 1))
        night.step()
    night.advance(60.0)
    view = night.view()
    assert isinstance(view, BreakView) and view.colour_up
    assert "100" in view.colour_up_text and "200" in view.colour_up_text
    night.shot("break")
    night.advance(600.0)
    view = night.view()
    assert isinstance(view, BreakView) and view.paused and "trykk start" in view.paused_text
    night.shot("break-over")
    night.press("start", long=True)
    night.advance(5.0)
    view = night.view()
    assert isinstance(view, ClockView) and not view.paused

    # One more bust at table 1 and the tables are rebalanced: the moves.
    for _ in range(1):
        out = sorted(state().tables[1].seats.values())[0]
        said = night.bust(out)
        assert said[-1].key == "busted", said[-1].translate("en")
    assert state().moves, "table 2 gives table 1 a player"
    night.view()
    assert app.loop.screen is Screen.MOVES
    night.shot("move")
    # The movers sit down; the new table's device confirms each move.
    from rules.commands import ConfirmMove

    for mover, move in list(state().moves.items()):
        assert night.table_device(move.target.table).station.submit(ConfirmMove(mover)).ok
        night.relay()
    assert not state().moves

    # Down to nine: the final table.
    while not state().final_table:
        table = max(state().tables, key=lambda t: len(state().tables[t].seats))
        assert night.bust(sorted(state().tables[table].seats.values())[0])[-1].key == "busted"
        for pid in list(state().moves):
            target = state().moves[pid].target.table
            assert night.table_device(target).station.submit(ConfirmMove(pid)).ok
            night.relay()
    view = night.view()
    assert isinstance(view, SeatingView) and "Finalebord" in night.popup()
    night.shot("final-table", popup=True)

    # To the winner.
    while not state().finished:
        (table,) = [t for t in state().tables if state().tables[t].seats]
        night.bust(sorted(state().tables[table].seats.values())[0])
    night.step(2)
    view = night.view()
    assert isinstance(view, ResultsView) and view.winner_name == state().winner.name  # type: ignore[union-attr]
    night.shot("winner")

    # The results are in the standings, exported once, and the tournament is closed.
    tid = app.station.tournament_id
    assert tid is not None
    rows = app.store.results(tid)
    assert len(rows) == 12 and rows[0].place == 1 and rows[0].points > 0
    assert (app.data_dir / "exports" / f"results-{tid}.csv").exists()
    assert app.store.tournament(tid).status == "closed"

    # NEW (long): the next tournament, checking in.
    night.press("new", long=True)
    assert app.station.tournament_id != tid
    view = night.view()
    assert isinstance(view, CheckInView) and view.count_text == "0 / 20 sete"
    night.tap(1, lambda: state().entrants == 1)

    # NEW while it runs: a warning first, nothing lost; a second long press goes on.
    second = app.station.tournament_id
    kept = len(app.store.records(second or ""))
    night.press("new", long=True)
    assert app.station.tournament_id == second
    assert "er ikkje ferdig" in night.popup()
    night.shot("new-confirm", popup=True)
    night.press("new", long=True)
    assert app.station.tournament_id not in (second, tid)
    assert len(app.store.records(second or "")) == kept
    assert "ingenting er tapt" in " ".join(f"{p.title} {p.line}" for p in app.loop.overlays.popups)
