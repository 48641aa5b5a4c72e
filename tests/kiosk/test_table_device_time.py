"""A table device alone says its time is not confirmed, until a display answers.

Two kiosks in one process, each with its own real store, linked by real peer
sync over loopback (the TV as the time reference, the table device dialling
it): the table's screen says "Tida er ikkje stadfesta" while nobody has
answered, and stops saying so once sync's time exchange with the display has
given it the time, by then showing the TV's tournament at its table.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from kiosk.app import App
from kiosk.bootstrap import Options, bootstrap
from kiosk.sync.auth import parse_key
from kiosk.table_screen import WORDS, TableScreenView
from kiosk.wiring import SyncSettings
from rules.commands import CheckIn, CreateTournament, DrawSeats, StartClock
from rules.structure import preset

KEY = parse_key("5a" * 32)


def drawn(app: App) -> TableScreenView:
    app.loop.step(block=False)
    last = app.loop.painter.last
    assert last is not None and isinstance(last.view, TableScreenView)
    return last.view


def until(apps: tuple[App, ...], done: Callable[[], bool], seconds: float = 20.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for app in apps:
            app.loop.step(block=False)
        if done():
            return
        time.sleep(0.02)
    raise AssertionError("timed out")


def test_the_table_says_its_time_is_unconfirmed_until_the_display_answers() -> None:
    # The table listens and knows no peer: alone until the display links to it.
    table = bootstrap(Options(headless=True, temp_data=True, sound=False, size=(480, 320),
                              max_wait_ms=20, role="table", table=1, lang="en"), fake=True,
                      sync=SyncSettings(KEY, addresses=("127.0.0.1",), discover=False))
    tv: App | None = None
    try:
        alone = drawn(table)
        assert alone.title == "Table 1" and alone.unconfirmed == WORDS["en"]["unconfirmed"]
        assert not any(seat.name for seat in alone.seats)

        assert table.sync is not None
        tv = bootstrap(Options(headless=True, temp_data=True, sound=False, size=(480, 320),
                               max_wait_ms=20), fake=True,
                       sync=SyncSettings(KEY, addresses=("127.0.0.1",), discover=False,
                                         peers=(("127.0.0.1", table.sync.port),)))
        assert tv.station.submit(CreateTournament("Fredag", preset("pubpoker"))).ok
        for n in range(12):
            assert tv.station.submit(CheckIn(f"p{n}", f"Spelar {n}")).ok
        assert tv.station.submit(DrawSeats()).ok and tv.station.submit(StartClock()).ok
        # The wall does not get the table's screen.
        tv.loop.step(block=False)
        assert tv.loop.painter.last is not None
        assert not isinstance(tv.loop.painter.last.view, TableScreenView)

        until((tv, table), lambda: any(s.name for s in drawn(table).seats))
        until((tv, table), lambda: drawn(table).unconfirmed == "")
        confirmed = drawn(table)
        seated = {tv.station.state.players[p].name
                  for p in tv.station.state.tables[1].seats.values()}
        assert {s.name for s in confirmed.seats if s.name} == seated
        assert table.sync is not None and not table.sync.estimate.uncertain
        assert table.sync.estimate.reference == tv.store.device_id
    finally:
        table.close()
        if tv is not None:
            tv.close()
