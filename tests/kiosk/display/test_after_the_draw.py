"""Right after the draw the room reads its seats: nothing may lie over them (issue 49).

Through the real loop and painter: the last check-in's pop-up was still up
when the TD drew the seats, and hid the seating for its seconds. The draw
takes it down; a pop-up that comes while the seating shows (a late
check-in's seat) goes in the ticker's band, clear of every table.
"""

from __future__ import annotations

from pathlib import Path

from kiosk.bootstrap import Options, bootstrap
from kiosk.display.layout import recording
from kiosk.display.registry import Screen
from kiosk.display.screens import bands_of
from kiosk.display.viewmodels import SeatingView
from rules.commands import CheckIn, CreateTournament, DrawSeats
from rules.structure import preset


def test_the_draw_takes_the_check_in_pop_up_down_and_a_late_one_keeps_clear(
        tmp_path: Path) -> None:
    with bootstrap(Options(data_dir=str(tmp_path), size=(1280, 720)), fake=True) as app:
        station, loop = app.station, app.loop
        assert station.create(CreateTournament("Fredagspoker", preset("pubpoker"))).ok
        loop.settle()
        for n in range(1, 25):
            assert station.submit(CheckIn(f"p{n}", f"Spelar {n}")).ok
        loop.step(block=False)
        popup = loop.current_popup()
        assert popup is not None and popup.title == "Spelar 24"
        assert station.submit(DrawSeats()).ok
        with recording() as log:
            loop.step(block=False)
        assert loop.screen is Screen.SEATING
        assert loop.current_popup() is None, "the check-in's pop-up outlived the draw"
        view = loop.view()
        assert isinstance(view, SeatingView)
        names = {line.name for table in view.tables for line in table.seats if line.name}
        assert names <= {t.value for t in log.visible()}

        # A late check-in while the seating shows: its seat in the ticker's band.
        assert station.submit(CheckIn("p25", "Seint Komen")).ok
        with recording() as log:
            loop.step(block=False)
        popup = loop.current_popup()
        assert popup is not None and popup.title == "Seint Komen"
        ticker = bands_of(loop.display, view).rect("ticker")
        # (his name also shows at his seat: the pop-up's words are the ones with his seat)
        said = [t for t in log.visible() if "Seint Komen" in t.value and "→" in t.value]
        assert said and all(ticker.contains(t.rect) for t in said)
        assert names <= {t.value for t in log.visible()}
