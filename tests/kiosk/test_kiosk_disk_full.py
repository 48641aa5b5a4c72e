"""A kiosk on a disk that fills up: the clock goes on, presses are refused on screen, and the
night carries on by itself once space is freed.

The wall's kiosk (display + console) is bootstrapped on a real tmpfs and
filled with a real file; presses go through its input queue as a button's
would. Mounting needs root: without it the test skips.
"""

from __future__ import annotations

from hardware.inputs import Action, ButtonPressed
from kiosk.bootstrap import Options, bootstrap
from kiosk.display.viewmodels import ClockView
from kiosk.store import DiskFull, open_store
from kiosk.store.space import RESERVE_NAME
from tests.kiosk.store.disk import fill, tmpfs
from tests.kiosk.store.helpers import Night, players


def test_a_full_disk_shows_a_warning_refuses_presses_on_screen_and_recovers() -> None:
    with tmpfs("8m") as data:
        with open_store(data / "pubpoker.db") as store:
            Night(store).started(players(6))
        app = bootstrap(Options(data_dir=str(data), role="display+console", lang="nn",
                                shift=False, sound=False), fake=True)
        try:
            loop, time = app.loop, app.time
            assert time is not None

            def step(n: int = 1) -> None:
                for _ in range(n):
                    loop.step(block=False)

            def press(action: Action) -> None:
                app.inputs.put(ButtonPressed(action, long=False, at=0.0))
                step()

            def status() -> str:
                return loop.status_line()[0]

            def events() -> int:
                return len(app.store.records(app.station.tournament_id or ""))

            step()
            assert app.station.state.clock.running and (data / RESERVE_NAME).exists()
            assert "minnekort" not in status().lower()
            start = events()
            fillers = [fill(data)]
            # The reserve takes the first press that finds the disk full.
            press(Action.next_level)
            assert events() == start + 1
            assert "Lite plass på minnekortet" in status()
            fillers.append(fill(data, "filler2"))
            press(Action.next_level)
            assert events() == start + 1  # refused, whole
            shown = loop.current_popup()
            assert shown is not None and DiskFull().translate("nn") in (
                f"{shown.title} {shown.line}")
            assert "Minnekortet er fullt" in status()
            # The clock runs on from memory; its checkpoints fail without a crash.
            before = loop.view()
            assert isinstance(before, ClockView)
            for _ in range(4):
                time.advance(10.0)
                step()
            after = loop.view()
            assert isinstance(after, ClockView) and after != before
            assert app.station.state.clock.running
            for filler in fillers:
                filler.unlink()
            step()
            assert "minnekort" not in status().lower()
            press(Action.next_level)
            assert events() == start + 2
        finally:
            app.close()
        with open_store(data / "pubpoker.db") as store:
            assert len(store.records(store.current_tournament() or "")) == start + 2


def test_a_power_cut_onto_a_full_disk_still_brings_the_display_up() -> None:
    with tmpfs("8m") as data:
        with open_store(data / "pubpoker.db") as store:
            night = Night(store).started(players(6))
            store.save_checkpoint("t1", 120.0, at_wall=night.now)
            # The power goes while the kiosk holds the file: its -wal and -shm stay.
            holder = open_store(data / "pubpoker.db")
            holder.records("t1")
        (data / RESERVE_NAME).unlink()
        fillers = [fill(data)]
        try:
            app = bootstrap(Options(data_dir=str(data), role="display+console", lang="nn",
                                    shift=False, sound=False), fake=True)
            try:
                app.station.cold_start(peers_present=False)
                app.loop.step(block=False)
                assert isinstance(app.loop.view(), ClockView)
                assert "Minnekortet er fullt" in app.loop.status_line()[0]
            finally:
                app.close()
        finally:
            holder.close()
            for filler in fillers:
                filler.unlink()
