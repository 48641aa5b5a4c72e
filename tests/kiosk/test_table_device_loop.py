"""The table device's kiosk loop draws its table once, then only what a second changes.

A real kiosk built by the bootstrap as table 1 (fake time, dummy video at
480×320): the first frame is the table screen drawn whole; while the clock
runs, each second is a partial frame of the digits' glyphs, not a redraw; a
press of BUST is drawn whole once (the prompt and the seats' box change).
"""

from __future__ import annotations

from pathlib import Path

from hardware.inputs import Action, ButtonPressed
from kiosk.table_screen import WORDS, TableScreenView
from tests.kiosk.table_kit import desk_night, table_app


def test_a_running_clock_on_the_table_screen_is_drawn_by_the_second_not_whole(
        tmp_path: Path) -> None:
    # The TD's box sets the night up in the store; the table device only plays it.
    desk_night(tmp_path, [f"Spelar {n}" for n in range(14)])
    app = table_app(tmp_path, (480, 320))
    try:
        loop = app.loop
        assert app.time is not None
        loop.step(block=False)
        assert loop.painter.last is not None
        first = loop.painter.last.view
        assert isinstance(first, TableScreenView) and first.title == "Bord 1"
        full, frames = loop.painter.full_frames, loop.painter.frames
        for _ in range(10):
            app.time.advance(1.0)
            loop.step(block=False)
        assert loop.painter.frames - frames == 10
        assert loop.painter.full_frames == full, "a second redrew the whole table screen"
        last = loop.painter.last.view
        assert isinstance(last, TableScreenView) and last.digits != first.digits

        loop.handle(ButtonPressed(Action.bust, long=False, at=app.time()))
        loop.step(block=False)
        busting = loop.painter.last.view
        assert isinstance(busting, TableScreenView)
        assert busting.prompt == (WORDS["nn"]["bust"],) and busting.prompt_active
        assert loop.painter.full_frames == full + 1
    finally:
        app.close()


def test_a_table_devices_panel_is_its_own_painters_not_the_walls(tmp_path: Path) -> None:
    """Issue 50: the table device is handed a painter that knows its panel; no module
    table is changed for it, so a wall built after it in the same process draws a
    table's view as it draws any view it does not know (the "not started" text)."""
    from kiosk.bootstrap import Options, bootstrap
    from kiosk.display.painter import TICKS
    from kiosk.display.registry import RENDERERS

    desk_night(tmp_path, ["Ada", "Bo", "Cy"])
    table = table_app(tmp_path, (480, 320))
    wall = bootstrap(Options(data_dir=str(tmp_path / "wall"), headless=True, sound=False,
                             size=(480, 320)), fake=True)
    try:
        table.loop.step(block=False)
        assert table.loop.painter.last is not None
        assert isinstance(table.loop.painter.last.view, TableScreenView)
        assert TableScreenView in table.loop.painter.renderers
        assert TableScreenView in table.loop.painter.ticks
        for known in (RENDERERS, TICKS, wall.loop.painter.renderers, wall.loop.painter.ticks):
            assert TableScreenView not in known
    finally:
        table.close()
        wall.close()
