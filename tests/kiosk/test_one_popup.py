"""One pop-up per event (issue 50): a known card at check-in is told once, by the
room, not first by the controls and then again by the room over it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hardware.inputs import CardRead
from kiosk.app import App
from kiosk.bootstrap import Options, bootstrap
from kiosk.config import TournamentConfig
from kiosk.night import Night
from tests.kiosk.night_app import night_of

TONIGHT = TournamentConfig(name="Torsdag {date}", tables=3, seats_per_table=8)


@pytest.fixture()
def desk(tmp_path: Path) -> Iterator[App]:
    app = bootstrap(Options(data_dir=str(tmp_path), role="display+console", shift=False,
                            sound=False, lang="en"), fake=True,
                    flow=lambda core: Night(core, TONIGHT, today=lambda: dt.date(2026, 11, 26)))
    night_of(app).power_on()
    app.loop.step(block=False)
    yield app
    app.close()


def posted(app: App) -> list[tuple[Any, Any, str]]:
    """Every pop-up posted from now on, as (title, line, kind)."""
    seen: list[tuple[Any, Any, str]] = []
    overlays = app.loop.overlays
    post = overlays.popup

    def counted(title: Any, line: Any, **kw: Any) -> None:
        seen.append((title, line, kw.get("kind", "")))
        post(title, line, **kw)

    overlays.popup = counted  # type: ignore[method-assign]
    return seen


def test_a_known_card_at_check_in_posts_one_popup(desk: App) -> None:
    desk.store.players.add("Ada", card="0A00000001")
    seen = posted(desk)
    desk.inputs.put(CardRead(uid="0A00000001", reader="rdm6300", at=0.0))
    desk.loop.step(block=False)
    assert desk.station.state.by_card("0A00000001") is not None
    assert [kind for _, _, kind in seen] == ["check-in"], seen
    shown = desk.loop.current_popup()
    assert shown is not None and shown.title == "Ada", shown
    assert shown.line == "Checked in", shown


def test_a_second_tap_posts_one_popup_too(desk: App) -> None:
    desk.store.players.add("Ada", card="0A00000001")
    desk.inputs.put(CardRead(uid="0A00000001", reader="rdm6300", at=0.0))
    desk.loop.step(block=False)
    seen = posted(desk)
    desk.inputs.put(CardRead(uid="0A00000001", reader="rdm6300", at=1.0))
    desk.loop.step(block=False)
    assert len(seen) == 1, seen
