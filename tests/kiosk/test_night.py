"""kiosk.night in small: power-on on the TD's box only, guests without a keyboard,
the help lines, and a finished tournament closed once."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from hardware.inputs import Action, ButtonsHeld, CardRead
from kiosk.app import App
from kiosk.bootstrap import Options, bootstrap
from kiosk.config import TournamentConfig
from kiosk.display.viewmodels import CheckInView, HelpView
from kiosk.night import Night, attach_night, help_lines

TONIGHT = TournamentConfig(name="Torsdag {date}", tables=3, seats_per_table=8)


def config(buttons: dict[str, int]) -> SimpleNamespace:
    return SimpleNamespace(tournament=TONIGHT,
                           buttons=SimpleNamespace(as_dict=lambda: dict(buttons)))


@pytest.fixture()
def make(tmp_path: Path) -> Iterator[object]:
    made: list[App] = []

    def build(role: str) -> App:
        app = bootstrap(Options(data_dir=str(tmp_path / role), role=role, shift=False,
                                sound=False, lang="en"), fake=True)
        made.append(app)
        return app

    yield build
    for app in made:
        app.close()


def test_power_on_creates_tonight_only_on_the_tds_box(make) -> None:  # type: ignore[no-untyped-def]
    console = make("console")
    attach_night(console, config({}), today=lambda: dt.date(2026, 11, 26))
    assert console.station.state.config is not None
    assert console.station.state.config.name == "Torsdag 26.11.2026"
    console.loop.step(block=False)
    view = console.loop.view()
    assert isinstance(view, CheckInView) and view.count_text == "0 / 24 seats"

    second_screen = make("display")
    attach_night(second_screen, config({"next_screen": 16}))
    assert second_screen.station.tournament_id is None

    box = make("display")
    attach_night(box, config({"start": 6}))
    assert box.station.state.config is not None


def test_without_a_keyboard_an_unknown_card_is_a_guest_at_once(make) -> None:  # type: ignore[no-untyped-def]
    app = make("display+console")
    night = Night(app, TONIGHT, guest_after=0).attach()
    night.power_on()
    app.inputs.put(CardRead("0A00000042", "reader", 0.0))
    app.inputs.put(CardRead("0A00000043", "reader", 0.0))
    app.loop.step(block=False)
    names = sorted(e.name for e in app.station.state.players.values() if e.checked_in)
    assert names == ["Guest 1", "Guest 2"]
    guest = app.store.players.find("Guest 1")
    assert guest is not None and guest.cards


def test_two_buttons_held_show_each_configured_buttons_function(make) -> None:  # type: ignore[no-untyped-def]
    app = make("display+console")
    Night(app, TONIGHT, buttons=("pause", "start", "new")).attach().power_on()
    app.inputs.put(ButtonsHeld(frozenset({Action.pause, Action.start}), 0.0))
    app.loop.step(block=False)
    view = app.loop.view()
    assert isinstance(view, HelpView) and view.title == "The buttons"
    assert view.lines == tuple(help_lines(["pause", "start", "new"], "en"))
    assert help_lines(["new"], "da")[0] == "NY (hold): ny turnering"
