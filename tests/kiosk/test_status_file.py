"""``kiosk.status_file``: what a scenario test reads of a running kiosk."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kiosk.bootstrap import Options, bootstrap
from kiosk.status_file import ENV, StatusFile, from_env
from rules.commands import CreateTournament
from rules.fold import state_digest
from rules.structure import preset


def test_the_file_holds_the_state_the_clock_and_what_was_shown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = bootstrap(Options(headless=True, temp_data=True, sound=False, size=(320, 240)),
                    fake=True)
    try:
        path = tmp_path / "status.json"
        monkeypatch.delenv(ENV, raising=False)
        assert from_env(app) is None
        monkeypatch.setenv(ENV, str(path))
        status = from_env(app)
        assert isinstance(status, StatusFile) and status.tick in app.hooks.on_tick
        status.tick()
        first = json.loads(path.read_text())
        assert first["tournament"] is None and first["clock"] is None
        assert app.station.submit(CreateTournament("F", preset("pubpoker"))).ok
        app.loop.popup("Vinnar", "Kari", kind="announcement")
        app.loop.popup("Hei", "")
        status._next = 0.0
        status.tick()
        data = json.loads(path.read_text())
        assert data["digest"] == state_digest(app.station.state)
        assert data["records"] == 1 and data["clock"]["started"] is False
        assert data["announced"] == [["Vinnar", "Kari"]]
        assert data["counts"] == {"Vinnar": 1, "Hei": 1}
        status._next = 0.0
        status.tick()  # the same pop-ups again are not counted twice
        assert json.loads(path.read_text())["counts"] == {"Vinnar": 1, "Hei": 1}
    finally:
        app.close()


def test_a_change_within_the_throttle_is_written_when_the_loop_wakes_for_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A commit that lands just after a write is not left for the next idle loop (a second):
    the held-back look is a deadline the loop sleeps to."""
    app = bootstrap(Options(headless=True, temp_data=True, sound=False, size=(320, 240)),
                    fake=True)
    try:
        path = tmp_path / "status.json"
        monkeypatch.setenv(ENV, str(path))
        status = from_env(app)
        assert status is not None and status.due in app.hooks.deadlines
        app.loop.step(block=False)
        assert status.due() is None and json.loads(path.read_text())["records"] == 0
        assert app.station.submit(CreateTournament("F", preset("pubpoker"))).ok
        app.loop.step(block=False)  # within the throttle: held back, and due
        due = status.due()
        assert due is not None and json.loads(path.read_text())["records"] == 0
        # The loop sleeps no longer than that (the idle loop sleeps a second).
        assert app.loop.timeout_ms() <= max(app.loop.min_wait_ms,
                                            (due - app.loop.monotonic()) * 1000 + 1)
        app.loop.monotonic.advance(due - app.loop.monotonic())  # type: ignore[attr-defined]
        app.loop.step(block=False)
        assert status.due() is None and json.loads(path.read_text())["records"] == 1
    finally:
        app.close()
