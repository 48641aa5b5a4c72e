from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from kiosk.table_device.render import render_table_screen
from kiosk.table_screen import hand_for_hand_view, table_screen_view
from rules.commands import BustPlayers, CallClock, DrawButton, FinishHand, SetHandForHand, StartHand
from rules.events import Record
from tests.rules.tournament_kit import Night


def test_the_table_screen_shows_seats_button_moves_clock_and_an_undo_countdown() -> None:
    night = Night(seed=2).started(20)
    night.do(DrawButton(1))
    night.do(StartHand(1), at=10.0)
    night.do(CallClock(1), at=20.0)
    victims = sorted(night.state.tables[1].seats.values())[:2]
    night.do(BustPlayers(tuple(victims), table=1), at=25.0)
    bust = next(r for r in night.records if r.event.kind.value == "players-busted")
    view = table_screen_view(night.state, 1, 30.0, "en", last=bust)
    position = night.state.tables[1].button
    assert position is not None
    marks = {m.seat: m.role for m in view.seats}
    assert marks[position.big_blind] == "BB"
    assert marks[position.button].startswith("D")
    assert view.clock == "Clock: 20"
    assert view.moves and view.moves[0].startswith("Moving here: ")
    assert view.last_action == "Last: eliminated" and view.undo == "Undo (5 s)"
    later = table_screen_view(night.state, 1, 60.0, "nn", last=bust)
    assert later.undo == "" and later.clock == ""
    surface = pygame.Surface((480, 320))
    render_table_screen(surface, view)
    lit = sum(1 for x in range(0, 480, 3) for y in range(0, 320, 3)
              if surface.get_at((x, y))[:3] != (0, 0, 0))
    assert lit > 200


def test_hand_for_hand_status_lists_tables_still_playing_then_says_deal() -> None:
    night = Night().started(20)
    assert not hand_for_hand_view(night.state).active
    night.do(SetHandForHand(True))
    night.do(FinishHand(2))
    assert hand_for_hand_view(night.state, "en").text == "Still playing: 1"
    night.do(FinishHand(1))
    done = hand_for_hand_view(night.state, "nn")
    assert done.all_done and done.text == "Neste hand!"


def test_a_record_stamp_is_enough_for_the_last_action_line() -> None:
    night = Night().started(12)
    night.do(StartHand(1), at=100.0)
    record: Record = night.records[-1]
    view = table_screen_view(night.state, 1, 103.0, "da", last=record)
    assert view.last_action == "Sidst: ny hånd" and view.undo == "Fortryd (7 s)"
