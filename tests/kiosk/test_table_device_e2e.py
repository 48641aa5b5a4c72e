"""Issue 6 end to end, in one process: mock pins and pty card readers drive a
display/console and two table devices through check-in, new hands, a bust, a
position-aware move confirmed by a card tap, and a clock call.

The devices' logs are relayed by hand between steps (peer sync's job), so
what is proven here is the path from the physical input to the folded state
and the display's view model.
"""

from __future__ import annotations

import os
import queue
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from hardware.buttons import ButtonPanel
from hardware.inputs import Action, Input
from hardware.readers import CardReaderWorker, open_rdm6300
from hardware.readers.rdm6300 import encode_frame
from kiosk.controls import Controller, Role, Say
from kiosk.display.viewmodels import clock_view, moves_view, seating_view
from kiosk.station import Station
from kiosk.store import open_store
from kiosk.timebase import SharedClock
from rules import button as buttons
from rules.clock_call import ClockCall
from rules.commands import CreateTournament
from rules.structure import preset

PINS = {Action.pause: 17, Action.next_level: 27, Action.start: 6, Action.undo: 5,
        Action.bust: 22, Action.new_hand: 23, Action.clock: 24, Action.hand_done: 25,
        Action.seat_next: 12, Action.ok: 13}



def card(n: int) -> str:
    return f"0A{n:08X}"


class Hand:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@dataclass
class Device:
    name: str
    station: Station
    controller: Controller
    factory: MockFactory
    panel: ButtonPanel
    inputs: queue.Queue[Input]
    pty: int | None = None
    worker: CardReaderWorker | None = None
    said: list[Say] = field(default_factory=list)


@pytest.fixture()
def hand() -> Hand:
    return Hand()


@pytest.fixture()
def devices(tmp_path: Path, hand: Hand) -> Iterator[dict[str, Device]]:
    made: dict[str, Device] = {}
    specs = {"tv": (frozenset({Role.DISPLAY, Role.CONSOLE}), None, True),
             "t1": (frozenset({Role.TABLE}), 1, True),
             "t2": (frozenset({Role.TABLE}), 2, False)}
    try:
        for name, (roles, table, reader) in specs.items():
            station = Station(open_store(data_dir=tmp_path / name), SharedClock(source=hand),
                              rng=random.Random(len(made) + 7))
            inputs: queue.Queue[Input] = queue.Queue()
            factory = MockFactory()
            panel = ButtonPanel(PINS, inputs, pin_factory=factory, clock=hand)
            device = Device(name, station, Controller(station, roles, table=table),
                            factory, panel, inputs)
            if reader:
                master, slave = os.openpty()
                device.pty = master
                path = os.ttyname(slave)
                device.worker = CardReaderWorker(name, lambda p=path: open_rdm6300(p),
                                                 inputs, clock=hand)
                device.worker.start()
            made[name] = device
        yield made
    finally:
        for device in made.values():
            if device.worker is not None:
                device.worker.stop()
            device.panel.close()
            device.station.close()


def relay(devices: dict[str, Device]) -> None:
    """Stand-in for peer sync: every device gets every other device's records."""
    for source in devices.values():
        tid = source.station.tournament_id
        if tid is None:
            continue
        records = source.station.store.records(tid)
        for target in devices.values():
            if target is not source:
                target.station.accept(records)


def pump(device: Device, hand: Hand, *, wait: float = 0.0) -> list[Say]:
    device.panel.poll()
    said: list[Say] = []
    try:
        while True:
            said.extend(device.controller.handle(device.inputs.get(timeout=wait)))
            wait = 0.0
    except queue.Empty:
        pass
    device.said.extend(said)
    return said


def press(devices: dict[str, Device], name: str, action: Action, hand: Hand, *,
          long: bool = False) -> list[Say]:
    device = devices[name]
    pin = device.factory.pin(PINS[action])
    # A little contact bounce on the way down, as real buttons do.
    for _ in range(5):
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    hand.t += 1.6 if long else 0.1
    device.panel.poll()
    pin.drive_high()
    hand.t += 0.1
    said = pump(device, hand)
    relay(devices)
    return said


def tap(devices: dict[str, Device], name: str, n: int, hand: Hand) -> list[Say]:
    device = devices[name]
    assert device.pty is not None
    hand.t += 2.0  # beyond the reader's 1.5 s repeat window
    os.write(device.pty, encode_frame(card(n)))
    said: list[Say] = []
    # The reader thread delivers in its own time; wait for the card, not its status.
    for _ in range(50):
        said += [s for s in pump(device, hand, wait=0.1)
                 if s.key not in ("reader-back", "reader-lost")]
        if said:
            break
    relay(devices)
    return said


def test_a_night_at_two_tables_driven_only_by_pins_and_card_readers(
        devices: dict[str, Device], hand: Hand) -> None:
    tv, t1, t2 = devices["tv"].station, devices["t1"].station, devices["t2"].station
    assert tv.submit(CreateTournament("Fredag", preset("pubpoker"))).ok
    for device in devices.values():
        for n in range(1, 15):
            device.station.store.players.add(f"Player {n}", card=card(n))
    relay(devices)

    # Check-in by card at the TD desk: each tap checks in, told by the wall's room
    # in one pop-up, not by the controls too (tests/kiosk/test_one_popup.py).
    for n in range(1, 15):
        said = tap(devices, "tv", n, hand)
        assert said == [], [s.translate("en") for s in said]
        assert tv.state.entrants == n
    assert [v.station.state.entrants for v in devices.values()] == [14, 14, 14]
    assert clock_view(tv.state, hand.t, "en").players_text == "14 / 14"

    # START (long) draws the seats, START again starts the clock.
    press(devices, "tv", Action.start, hand, long=True)
    press(devices, "tv", Action.start, hand, long=True)
    assert t1.state.clock.running and len(t1.state.tables) == 2
    seating = seating_view(tv.state, hand.t, "en")
    assert sum(len([s for s in t.seats if s.name]) for t in seating.tables) == 14

    # New hands at both tables: the first one draws the button (B8).
    for _ in range(3):
        press(devices, "t1", Action.new_hand, hand)
        press(devices, "t2", Action.new_hand, hand)
    assert tv.state.tables[1].hands == 3 and tv.state.tables[2].hands == 3
    position = tv.state.tables[2].button
    assert position is not None

    # Two busts at table 1, each by BUST + the busted player's card.
    for player in sorted(tv.state.tables[1].seats.values())[:2]:
        n = int(tv.state.players[player].name.split()[-1])
        assert press(devices, "t1", Action.bust, hand)[0].key == "bust-tap"
        said = tap(devices, "t1", n, hand)
        assert said[-1].key == "busted", said[-1].translate("en")
        assert tv.state.players[player].place is not None
    assert tv.state.remaining == 12

    # Table 2 gave up a player: the one due the big blind (S2), never onto the SB.
    (mover, move), = tv.state.moves.items()
    assert move.position_known and move.source.table == 2 and move.target.table == 1
    assert move.source.seat == buttons.next_big_blind(position, tuple(tv.state.tables[2].seats))
    target = tv.state.tables[1]
    assert target.button is not None
    upcoming = buttons.next_position(target.button, (*target.seats, move.target.seat),
                                     seats_per_table=10)
    assert move.target.seat != upcoming.small_blind
    name = tv.state.players[mover].name
    shown = moves_view(tv.state, hand.t, "en").lines
    assert shown == (f"{name}: table 2, seat {move.source.seat} → "
                     f"table 1, seat {move.target.seat}",)

    # The mover taps their card at table 1: the move is confirmed everywhere.
    said = tap(devices, "t1", int(name.split()[-1]), hand)
    assert said[-1].key == "moved"
    for station in (tv, t1, t2):
        assert station.state.players[mover].seat == move.target
        assert not station.state.moves
    assert moves_view(tv.state, hand.t, "en").lines == ()

    # CLOCK at table 1: the countdown runs from the press, on every device.
    press(devices, "t1", Action.clock, hand)
    called = tv.state.tables[1].clock_called_at
    assert called is not None
    call = ClockCall(table=1, seat=None, started_at=called)
    assert call.remaining(called + 20.0) == 10.0

    # The TD's pause button stops the clock on every screen.
    press(devices, "tv", Action.pause, hand)
    view = clock_view(t2.state, hand.t + 60, "en")
    assert view.paused and not t1.state.clock.running

    # All three devices fold the same log to the same state.
    from rules.fold import state_digest

    assert len({state_digest(d.station.state) for d in devices.values()}) == 1
    assert all(not d.station.state.rejected for d in devices.values())
