"""kiosk.night in small: power-on on the TD's box only, guests without a keyboard,
the help lines, and a finished tournament closed once."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from hardware.inputs import Action, ButtonsHeld, CardRead
from kiosk.app import App, Core
from kiosk.bootstrap import Options, bootstrap
from kiosk.config import TournamentConfig
from kiosk.display.viewmodels import CheckInView, HelpView
from kiosk.night import Night, help_lines, night_for, start_night
from tests.kiosk.night_app import night_of

TONIGHT = TournamentConfig(name="Torsdag {date}", tables=3, seats_per_table=8)


def config(buttons: dict[str, int]) -> SimpleNamespace:
    return SimpleNamespace(tournament=TONIGHT,
                           buttons=SimpleNamespace(as_dict=lambda: dict(buttons)))


@pytest.fixture()
def make(tmp_path: Path) -> Iterator[object]:
    made: list[App] = []

    def build(role: str, night: Callable[[Core], Night] | None = None) -> App:
        app = bootstrap(Options(data_dir=str(tmp_path / role), role=role, shift=False,
                                sound=False, lang="en"), fake=True, flow=night)
        made.append(app)
        return app

    yield build
    for app in made:
        app.close()


def test_power_on_creates_tonight_only_on_the_tds_box(make) -> None:  # type: ignore[no-untyped-def]
    console = make("console", night_for(config({}), today=lambda: dt.date(2026, 11, 26)))
    start_night(console)
    assert console.station.state.config is not None
    assert console.station.state.config.name == "Torsdag 26.11.2026"
    console.loop.step(block=False)
    view = console.loop.view()
    assert isinstance(view, CheckInView) and view.count_text == "0 / 24 seats"

    second_screen = make("display", night_for(config({"next_screen": 16})))
    start_night(second_screen)
    assert second_screen.station.tournament_id is None

    # A lone display box: NEW (long) starts tonight's.
    from hardware.inputs import ButtonPressed

    box = make("display", night_for(config({"start": 6, "new": 26})))
    start_night(box)
    assert box.station.tournament_id is None
    box.inputs.put(ButtonPressed(Action.new, long=True, at=0.0))
    box.loop.step(block=False)
    assert box.station.state.config is not None


def test_without_a_keyboard_an_unknown_card_is_a_guest_at_once(make) -> None:  # type: ignore[no-untyped-def]
    app = make("display+console", lambda core: Night(core, TONIGHT, guest_after=0))
    night = night_of(app)
    night.power_on()
    app.inputs.put(CardRead("0A00000042", "reader", 0.0))
    app.inputs.put(CardRead("0A00000043", "reader", 0.0))
    app.loop.step(block=False)
    names = sorted(e.name for e in app.station.state.players.values() if e.checked_in)
    assert names == ["Guest 1", "Guest 2"]
    guest = app.store.players.find("Guest 1")
    assert guest is not None and guest.cards


def test_two_buttons_held_show_each_configured_buttons_function(make) -> None:  # type: ignore[no-untyped-def]
    app = make("display+console",
               lambda core: Night(core, TONIGHT, buttons=("pause", "start", "new")))
    night_of(app).power_on()
    app.inputs.put(ButtonsHeld(frozenset({Action.pause, Action.start}), 0.0))
    app.loop.step(block=False)
    view = app.loop.view()
    assert isinstance(view, HelpView) and view.title == "The buttons"
    assert view.lines == tuple(help_lines(["pause", "start", "new"], "en"))
    assert help_lines(["new"], "da")[0] == "NY (hold): ny turnering"


def test_busted_players_list_for_a_sit_and_go_and_g_starts_one(make) -> None:  # type: ignore[no-untyped-def]
    import pygame

    from hardware.inputs import CardRead as Tap
    from rules.commands import BustPlayers, CheckIn, DrawSeats, StartClock

    app = make("display+console",
               lambda core: Night(core, TournamentConfig(tables=3),
                                  clock_of_day=lambda: dt.time(21, 0), closing=dt.time(23, 30)))
    night = night_of(app)
    night.power_on()
    station = app.station
    ids = []
    for n in range(12):
        player = app.store.players.add(f"P{n}", card=f"0A000001{n:02X}")
        ids.append(player.id)
        assert station.submit(CheckIn(player.id, player.name, player.cards)).ok
    assert station.submit(DrawSeats()).ok and station.submit(StartClock()).ok
    for pid in ids[:7]:
        assert station.submit(BustPlayers((pid,))).ok
    for n in range(7):
        app.inputs.put(Tap(f"0A000001{n:02X}", "reader", 0.0))
    app.loop.step(block=False)
    assert len(station.state.sit_and_go_list) == 7
    lines = night.side_lines("en")
    assert lines[0] == "Waiting list – Sit & Go (7)" and lines[2] == "Last start 22:30"
    app.time.advance(6.0)
    app.inputs.put(Tap("0A00000100", "reader", 0.0))  # listed twice: said, not listed twice
    app.loop.step(block=False)
    assert any(p.title == "Not done" and p.line == "P0 is already on the waiting list"
               for p in app.loop.overlays.popups)

    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_g, unicode="g", mod=0))
    app.loop.step(block=False)
    (sid,) = station.state.sit_and_gos
    game = night.sit_and_gos[sid].state
    assert game.config is not None and game.config.structure.name == "sit-and-go"
    assert game.entrants == 7 and game.clock.running
    assert station.tournament_id != sid and app.store.current_tournament() == station.tournament_id
    assert not station.state.sit_and_go_list
    assert night.side_lines("en")[-1].startswith("Sit & Go: level 1 – ")
    names = ", ".join(f"P{n}" for n in range(7))
    # The wall says the start: the game's number and who plays (what night.py returned).
    assert any(p.title.startswith("Sit & Go ") and p.title.endswith(f"starts: {names}")
               for p in app.loop.overlays.popups), [p.title for p in app.loop.overlays.popups]

    # g again with nobody listed: refused, said at once in front of what is queued.
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_g, unicode="g", mod=0))
    app.loop.step(block=False)
    shown = app.loop.overlays.current()
    assert shown is not None and shown.kind == "refusal", shown
    assert set(station.state.sit_and_gos) == {sid}


def test_a_keyboard_wedge_reader_unknown_card_asks_for_the_name_too(make) -> None:  # type: ignore[no-untyped-def]
    import pygame

    app = make("display+console", lambda core: Night(core, TONIGHT))
    night = night_of(app)
    night.power_on()
    for key in [pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4, pygame.K_5, pygame.K_RETURN]:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, unicode="", mod=0))
    app.loop.step(block=False)
    assert night.prompt is not None and night.prompt.card == "12345"
    for char in "Bo":
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code(char),
                                             unicode=char, mod=0))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, unicode="\r",
                                         mod=0))
    app.loop.step(block=False)
    bo = app.store.players.find("Bo")
    assert bo is not None and app.station.state.players[bo.id].checked_in


def test_N3_undo_held_after_new_held_twice_switches_back_to_the_running_night(make) -> None:  # type: ignore[no-untyped-def]
    from hardware.inputs import ButtonPressed
    from kiosk.tonight import Tonight

    app = make("display+console",
               lambda core: Night(core, TONIGHT, buttons=("new", "undo"), guest_after=0,
                                  today=lambda: dt.date(2026, 12, 4)))
    night = night_of(app)
    night.power_on()
    old = app.station.tournament_id
    app.inputs.put(CardRead("0A00000042", "reader", 0.0))
    app.inputs.put(CardRead("0A00000043", "reader", 0.0))
    app.loop.step(block=False)
    assert app.station.state.entrants == 2
    for _ in range(2):  # asked twice (N3)
        app.inputs.put(ButtonPressed(Action.new, long=True, at=0.0))
        app.loop.step(block=False)
    new = app.station.tournament_id
    assert new not in (None, old)

    app.inputs.put(ButtonPressed(Action.undo, long=True, at=0.0))
    app.loop.step(block=False)
    assert app.station.tournament_id == old and app.station.state.entrants == 2
    with Tonight(app.store) as picker:
        assert picker.pick() == old  # in the log: peers switch back too
    (popup,) = [p for p in app.loop.overlays.popups if p.kind == "say"]
    assert popup.title == "Undone" and popup.line == (
        "The new tournament Torsdag 04.12.2026. Tonight's tournament is again "
        "Torsdag 04.12.2026: 2 players checked in, the clock not started")


def _type(app: App, text: str, *, enter: bool = True) -> None:
    import pygame

    for char in text:
        key = pygame.key.key_code(char) if char.isalnum() else pygame.K_SPACE
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, unicode=char, mod=0))
    if enter:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN,
                                             unicode="\r", mod=0))
    app.loop.step(block=False)


def test_N2_a_name_typed_at_the_desk_near_a_known_one_asks_before_a_new_player(make) -> None:  # type: ignore[no-untyped-def]
    import pygame

    app = make("display+console", lambda core: Night(core, TONIGHT))
    night = night_of(app)
    night.power_on()
    players = app.store.players
    for name in ("Per Hansen", "Ola Nordmann"):
        players.add(name)

    def checked_in() -> list[str]:
        return sorted(e.name for e in app.station.state.players.values() if e.checked_in)

    # A typo: asked, nothing added; Enter on it again is the OK for a new player.
    _type(app, "n", enter=False)
    _type(app, "Per Hanssen")
    assert night.prompt is not None and night.prompt.near == ("Per Hansen",)
    shown = app.loop.current_popup()
    assert shown is not None and str(shown.title) == (
        "Did you mean Per Hansen? The same name again: a new player")
    assert players.find("Per Hanssen") is None and checked_in() == []
    _type(app, "")
    assert players.find("Per Hanssen") is not None and checked_in() == ["Per Hanssen"]

    # The same name in another case is the known player, asked nothing.
    _type(app, "n", enter=False)
    _type(app, "per hansen")
    assert night.prompt is None and checked_in() == ["Per Hansen", "Per Hanssen"]

    # The walk-in "Ola" is not Ola Nordmann: asked; the TD types the whole name instead.
    _type(app, "n", enter=False)
    _type(app, "Ola")
    assert night.prompt is not None and night.prompt.near == ("Ola Nordmann",)
    for _ in "Ola":
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE,
                                             unicode="", mod=0))
    _type(app, "Ola Nordmann")
    assert players.find("Ola") is None
    assert checked_in() == ["Ola Nordmann", "Per Hansen", "Per Hanssen"]

    # A name near nobody: the walk-in key was the OK for a new player.
    _type(app, "n", enter=False)
    _type(app, "Eli Dahl")
    assert players.find("Eli Dahl") is not None and "Eli Dahl" in checked_in()


def test_an_open_prompt_takes_every_key_and_escape_only_closes_it(make) -> None:  # type: ignore[no-untyped-def]
    import pygame

    from rules.commands import CheckIn, DrawSeats, StartClock

    app = make("display+console", lambda core: Night(core, TONIGHT))
    night = night_of(app)
    night.power_on()
    for n in range(2):
        assert app.station.submit(CheckIn(f"p{n}", f"P{n}")).ok
    assert app.station.submit(DrawSeats()).ok and app.station.submit(StartClock()).ok
    clock = app.station.state.clock
    _type(app, "n", enter=False)
    _type(app, "Bo", enter=False)
    # An arrow or Shift types nothing: taken all the same, the clock is not moved.
    for key in (pygame.K_RIGHT, pygame.K_LSHIFT):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, unicode="", mod=0))
    app.loop.step(block=False)
    assert night.prompt is not None and night.prompt.typed == "Bo"
    assert app.station.state.clock == clock
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, unicode="\x1b",
                                         mod=0))
    app.loop.step(block=False)
    assert night.prompt is None and app.store.players.find("Bo") is None
    assert app.loop.running and not any(p.kind == "quit" for p in app.loop.overlays.popups)
    # With no prompt the same keys are the keyboard's again.
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, unicode="", mod=0))
    app.loop.step(block=False)
    assert app.station.state.clock != clock


def test_a_typed_name_that_shows_nothing_is_refused_and_a_hidden_one_stripped(make) -> None:  # type: ignore[no-untyped-def]
    import pygame

    from rules.names import NameNotVisible

    app = make("display+console", lambda core: Night(core, TONIGHT))
    night = night_of(app)
    night.power_on()
    app.store.players.add("Kari")

    def typed(text: str) -> None:  # the keyboard's characters as they come, then Enter
        _type(app, "n", enter=False)
        for char in text:
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE,
                                                 unicode=char, mod=0))
        _type(app, "")

    # Hangul fillers and blank braille are printable to Unicode: the prompt takes them.
    typed("\u3164\u2800\u3164")
    shown = app.loop.current_popup()
    assert shown is not None and shown.kind == "refusal"
    assert str(shown.line) == NameNotVisible().translate("en")
    assert [p.name for p in app.store.players.list()] == ["Kari"]
    typed("Ka\u3164ri")
    assert [p.name for p in app.store.players.list()] == ["Kari"]
    assert [e.name for e in app.station.state.players.values() if e.checked_in] == ["Kari"]


def test_a_fault_at_check_in_is_said_in_the_rooms_words_and_changes_nothing(
        make, monkeypatch, caplog) -> None:  # type: ignore[no-untyped-def]
    """Not a refusal but a fault (a bug, a driver's error): its English stays in the log;
    the wall says nothing changed, in the room's language (issue 48)."""
    from kiosk.night import Words

    app = make("display+console", lambda core: Night(core, TONIGHT))
    night = night_of(app)
    night.power_on()

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("cursor needed to be reset because of commit/rollback")

    monkeypatch.setattr(app.store.players, "add", broken)
    _type(app, "n", enter=False)
    _type(app, "Eli Dahl")
    shown = app.loop.current_popup()
    assert shown is not None and shown.kind == "refusal" and str(shown.title) == "Eli Dahl"
    assert str(shown.line) == Words("check-in-failed", {}).translate("en")
    assert "cursor" not in str(shown.line)
    assert "cursor needed to be reset" in caplog.text
    assert not any(e.checked_in for e in app.station.state.players.values())
