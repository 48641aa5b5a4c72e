"""``pubpoker demo``: a whole night, played with the rules engine, ends with a winner."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.demo.digest import log_lines
from kiosk.demo.hands import play_hand
from kiosk.demo.night import NightSettings
from kiosk.demo.run import DEMO_OPTIONS, DemoRun, run_until_finished
from kiosk.store import open_store
from rules.posting import Blinds


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> tuple[DemoRun, Path]:
    data = tmp_path_factory.mktemp("night")
    options = replace(DEMO_OPTIONS, speed=2000.0, data_dir=str(data), temp_data=False)
    return run_until_finished(options, step_seconds=60.0), data


def test_the_night_runs_to_a_winner(night: tuple[DemoRun, Path]) -> None:
    run, _ = night
    assert run.night.done
    assert run.night.refused == 0
    # The table devices played real hands; all chips ended with the winner.
    assert run.night.hands_played > 50
    assert sorted(c for c in run.night.stacks.values() if c) == [54 * 10_000]


def test_the_night_ends_on_the_results_first_page_with_one_winner_banner(
        night: tuple[DemoRun, Path]) -> None:
    """Issue 19: the last frame (``--screenshot``) showed a "Vinnar" pop-up over the
    banner and "Side 3 av 6"; the run stops at the step the night ends in."""
    from kiosk.display.loop import Screen
    from kiosk.display.viewmodels import ResultsView

    run, _ = night
    loop = run.app.loop
    assert loop.screen is Screen.RESULTS
    view = loop.view()
    assert isinstance(view, ResultsView) and view.winner_name
    assert (view.page, view.page_text) == (0, "Side 1 av 6")
    assert not [p for p in loop.overlays.popups if view.winner_name in (p.title, p.line)]
    assert loop.painter.last is not None and loop.painter.last.popup is None


def test_results_and_points_are_in_the_store(night: tuple[DemoRun, Path]) -> None:
    _, data = night
    with open_store(data_dir=data) as store:
        tournament = store.current_tournament()
        assert tournament is not None
        rows = store.results(tournament)
        assert len(rows) == 54
        # Players out in the same hand with the same starting stack share a place.
        assert [r.place for r in rows].count(1) == 1
        assert all(1 <= r.place <= 54 for r in rows)
        assert sum(r.points for r in rows) > 0
        state = store.fold(tournament).state
        assert state.finished and state.entrants == 54
        # Late arrivals came by card, through the loop's check-in.
        assert sum(1 for e in state.players.values() if e.late) == NightSettings().late


def test_the_same_seed_is_the_same_night(tmp_path: Path) -> None:
    def first_hour(where: Path, frame: float, speed: float) -> tuple[int, list[str]]:
        run = run_until_finished(replace(DEMO_OPTIONS, speed=speed, data_dir=str(where)),
                                 step_seconds=frame, max_shared_seconds=3600.0)
        return run.night.hands_played, log_lines(where / "pubpoker.db")

    # The frame (how much shared time one drawn frame covers) and the speed
    # change how often the screen is drawn, never what happens or when.
    hands, log = first_hour(tmp_path / "a", 60.0, 2000.0)
    assert hands > 10 and len(log) > 100
    assert first_hour(tmp_path / "b", 7.0, 30.0) == (hands, log)


def test_a_hand_conserves_chips_and_can_bust() -> None:
    rng = random.Random(5)
    stacks = {1: 500, 4: 9000, 7: 12000}
    busted = False
    for _ in range(200):
        result = play_hand(stacks, 1, Blinds(100, 200), rng)
        assert sum(result.stacks.values()) == sum(stacks.values())
        busted = busted or 0 in result.stacks.values()
    assert busted


def test_kiosk_command_runs_headless_with_a_role(tmp_path: Path) -> None:
    shot = tmp_path / "kiosk.png"
    assert main(["kiosk", "--role", "console", "--data-dir", str(tmp_path), "--headless",
                 "--frames", "2", "--screenshot", str(shot)]) == 0
    assert shot.exists()


@pytest.mark.realproc
def test_kiosk_command_takes_the_role_and_data_dir_from_the_config(tmp_path: Path) -> None:
    from kiosk.bootstrap import options_from_config
    from kiosk.config import load_config

    config = tmp_path / "pubpoker.toml"
    config.write_text(f'[device]\nrole = "console"\nlanguage = "da"\n'
                      f'data_dir = "{tmp_path / "data"}"\n'
                      f'[venue]\nkey = "{"0123456789abcdef" * 4}"\n'
                      # Its peer sync on loopback: a test's traffic goes nowhere else.
                      '[network]\ninterface = "lo"\n')
    options = options_from_config(load_config(config))
    assert (options.role, options.lang, options.fullscreen, options.watchdog) == (
        "console", "da", True, True)
    assert options.data_dir == str(tmp_path / "data")
    shot = tmp_path / "kiosk.png"
    assert main(["kiosk", "--config", str(config), "--headless", "--frames", "2",
                 "--screenshot", str(shot)]) == 0
    assert (tmp_path / "data" / "pubpoker.db").exists()
