"""N1 on the wall (issue 42): the kiosk's close at the winner is the same
``TournamentClosed`` event ``pubpoker tournament close`` writes, once, so the
wall, the CLI on the same store and every peer agree the night is closed."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kiosk.app import App
from kiosk.bootstrap import Options, bootstrap
from kiosk.config import TournamentConfig
from kiosk.night import CLOSE_GRACE, Night
from rules.commands import BustPlayers, CheckIn, DrawSeats, ReopenTournament, StartClock
from rules.events import TournamentClosed
from rules.refusals import TournamentClosedError
from tests.kiosk.night_app import night_of

TONIGHT = TournamentConfig(name="Torsdag {date}", tables=1, seats_per_table=8)

Make = Callable[..., App]


@pytest.fixture()
def make(tmp_path: Path) -> Iterator[Make]:
    made: list[App] = []

    def build(name: str, role: str = "display+console", *, night: bool = True) -> App:
        """A kiosk built with tonight's night (``night=False``: none)."""
        app = bootstrap(Options(data_dir=str(tmp_path / name), role=role,
                                shift=False, sound=False, lang="en"), fake=True,
                        flow=(lambda core: Night(core, TONIGHT)) if night else None)
        made.append(app)
        return app

    yield build
    for app in made:
        app.close()


def _closes(app: App) -> int:
    tid = app.station.tournament_id
    assert tid is not None
    return sum(isinstance(r.event, TournamentClosed) for r in app.store.records(tid))


def _sync(source: App, to: App) -> None:
    """Peer sync's stand-in: the source's log, each row sealed as a peer receives it."""
    from kiosk.store import StoredEvent
    from kiosk.sync.auth import event_seal

    tid = source.station.tournament_id
    assert tid is not None
    rows = []
    for record in source.store.records(tid):
        row = source.store.log.get(*record.ident)
        assert row is not None
        if not row.mac:
            row = StoredEvent.of(record, event_seal(
                bytes(32), row.device_id, row.seq, row.lamport, tid, row.payload,
                role=str(source.station.role), table=None))
        rows.append(row)
    to.station.accept(rows)


def _to_one_left(app: App) -> list[str]:
    """Ada, Bo and Cy in, drawn and started; Cy out. Returns the ids, Ada's first."""
    ids = []
    for name in ("Ada", "Bo", "Cy"):
        player = app.store.players.add(name)
        ids.append(player.id)
        assert app.station.submit(CheckIn(player.id, player.name)).ok
    assert app.station.submit(DrawSeats()).ok and app.station.submit(StartClock()).ok
    assert app.station.submit(BustPlayers((ids[2],))).ok
    return ids


@pytest.mark.realproc
def test_N1_the_walls_close_at_the_winner_is_one_event_the_cli_sees(make: Make) -> None:
    from tests.kiosk.cli_run import pubpoker

    app = make("wall")
    night = night_of(app)
    night.power_on()
    ada, bo, _ = _to_one_left(app)
    app.loop.step(block=False)
    assert _closes(app) == 0 and not app.station.state.closed
    assert app.station.submit(BustPlayers((bo,))).ok
    for _ in range(3):
        app.loop.step(block=False)
    tid = app.station.tournament_id
    assert tid is not None
    assert app.station.state.closed and _closes(app) == 1
    assert app.store.tournament(tid).status == "closed"
    assert (app.data_dir / "exports" / f"results-{tid}.csv").exists()
    # Closing a closed night again writes its files, not a second event.
    night.close(tid)
    assert _closes(app) == 1

    # The CLI on the same store, while the wall runs: closed, changes refused.
    data = app.data_dir
    show = pubpoker(data, "tournament", "show", "--json").stdout
    assert '"status": "closed"' in show
    for argv in (("bust", "Ada"), ("undo",), ("clock", "pause")):
        done = pubpoker(data, *argv, code=2)
        assert done.stderr == TournamentClosedError().translate("en") + "\n", argv
    assert _closes(app) == 1
    assert app.station.state.players[ada].place == 1


def test_N1_a_peer_follows_the_close_and_never_doubles_it(make: Make) -> None:
    wall, desk = make("wall"), make("desk", "console")
    night_of(wall).power_on()
    _, bo, _ = _to_one_left(wall)
    tid = wall.station.tournament_id
    _sync(wall, desk)
    desk.loop.step(block=False)
    assert desk.station.tournament_id == tid

    # The wall writes the winning bust; the desk gets it before the wall's close.
    assert wall.station.submit(BustPlayers((bo,))).ok
    _sync(wall, desk)
    desk.loop.step(block=False)
    assert desk.station.state.finished and not desk.station.state.closed
    assert _closes(desk) == 0  # the TD device that wrote the bust closes, not every one
    wall.loop.step(block=False)
    assert _closes(wall) == 1
    # The close arrives, and again (a replay): one event; the desk's results follow it.
    for _ in range(2):
        _sync(wall, desk)
        desk.loop.step(block=False)
    assert desk.station.state.closed and _closes(desk) == 1
    assert desk.store.tournament(tid or "").status == "closed"
    assert desk.time is not None
    desk.time.advance(CLOSE_GRACE + 1)
    desk.loop.step(block=False)
    _sync(desk, wall)
    for app in (wall, desk):
        assert _closes(app) == 1 and not app.station.state.rejected


def test_N1_a_peer_closes_after_the_grace_when_the_writer_of_the_bust_does_not(
        make: Make) -> None:
    wall, screen = make("wall", night=False), make("screen", "display")
    # A night the wall was not built with: it never closes (switched off, say).
    Night(wall.core, TONIGHT).power_on()
    _, bo, _ = _to_one_left(wall)
    assert wall.station.submit(BustPlayers((bo,))).ok
    _sync(wall, screen)
    screen.loop.step(block=False)
    assert screen.station.state.finished and _closes(screen) == 0
    assert screen.time is not None
    screen.time.advance(CLOSE_GRACE + 1)
    screen.loop.step(block=False)
    assert screen.station.state.closed and _closes(screen) == 1


def test_N1_a_reopened_night_is_not_closed_again_behind_the_tds_back(make: Make) -> None:
    app = make("wall")
    night_of(app).power_on()
    _, bo, _ = _to_one_left(app)
    assert app.station.submit(BustPlayers((bo,))).ok
    app.loop.step(block=False)
    assert app.station.state.closed
    assert app.station.submit(ReopenTournament()).ok
    # The kiosk restarted (a power cut): the night is won and open, as the TD left it.
    again = Night(app.core, TONIGHT)
    again.tick()
    assert app.time is not None
    app.time.advance(CLOSE_GRACE + 1)
    again.tick()
    assert not app.station.state.closed and _closes(app) == 1


def _won_on_the_wall(make: Make) -> tuple[App, str]:
    """A wall whose night the last bust won, closed by the wall itself."""
    app = make("wall")
    night_of(app).power_on()
    _, bo, _ = _to_one_left(app)
    assert app.station.submit(BustPlayers((bo,))).ok
    app.loop.step(block=False)
    assert app.station.state.closed
    tid = app.station.tournament_id
    assert tid is not None
    return app, tid


def test_N1_the_walls_buttons_on_a_closed_night_say_why_and_write_nothing(make: Make) -> None:
    from hardware.inputs import Action, ButtonPressed

    app, tid = _won_on_the_wall(make)
    logged = len(app.store.records(tid))
    for action in (Action.pause, Action.next_level):
        app.loop.overlays.popups.clear()
        app.inputs.put(ButtonPressed(action, long=True, at=0.0))
        app.loop.step(block=False)
        shown = app.loop.current_popup()
        assert shown is not None and shown.kind == "refusal", action
        assert shown.line == TournamentClosedError().translate("en"), action
    assert len(app.store.records(tid)) == logged


def test_N1_undo_held_twice_on_a_closed_night_opens_it_again_and_once_more_closes_it(
        make: Make) -> None:
    """The button's reopen is asked twice, like ``tournament reopen --yes``: the first
    press says the night is closed and how to open it, writing nothing; the second
    opens it (its files go, as the CLI's reopen does); UNDO then takes it back."""
    from hardware.inputs import Action, ButtonPressed

    app, tid = _won_on_the_wall(make)
    exports = app.data_dir / "exports"
    assert (exports / f"results-{tid}.csv").exists()
    logged = len(app.store.records(tid))
    app.loop.overlays.popups.clear()
    app.inputs.put(ButtonPressed(Action.undo, long=True, at=0.0))
    app.loop.step(block=False)
    shown = app.loop.current_popup()
    assert shown is not None and shown.kind == "confirm"
    assert shown.title.endswith("is closed – its results stand"), shown.title
    assert shown.line == "Hold UNDO again to open it again"
    assert len(app.store.records(tid)) == logged and app.station.state.closed

    app.inputs.put(ButtonPressed(Action.undo, long=True, at=0.0))
    app.loop.step(block=False)
    assert not app.station.state.closed and len(app.store.records(tid)) == logged + 1
    assert app.store.tournament(tid).status == "finished"
    assert not (exports / f"results-{tid}.csv").exists()
    said = [p.title for p in app.loop.overlays.popups]
    assert any("is open again" in title for title in said), said
    # Not closed again behind the TD's back while it stays won.
    for _ in range(3):
        app.loop.step(block=False)
    assert not app.station.state.closed

    app.inputs.put(ButtonPressed(Action.undo, long=True, at=0.0))
    app.loop.step(block=False)
    app.loop.step(block=False)
    assert app.station.state.closed and app.store.tournament(tid).status == "closed"
    assert (exports / f"results-{tid}.csv").exists()


def test_N1_undo_held_on_a_reopened_night_closes_it_again_files_and_all(make: Make) -> None:
    from hardware.inputs import Action, ButtonPressed

    app, tid = _won_on_the_wall(make)
    exports = app.data_dir / "exports"
    # `pubpoker tournament reopen --yes`, as the CLI does it on this store.
    assert app.station.submit(ReopenTournament()).ok
    app.store.reopen_tournament(tid, app.station.state, exports)
    app.loop.step(block=False)
    assert app.store.tournament(tid).status == "finished"
    assert not (exports / f"results-{tid}.csv").exists()

    app.inputs.put(ButtonPressed(Action.undo, long=True, at=0.0))
    app.loop.step(block=False)
    app.loop.step(block=False)
    assert app.station.state.closed and _closes(app) == 1
    assert app.store.tournament(tid).status == "closed"
    assert (exports / f"results-{tid}.csv").exists()


def test_N1_a_reopen_that_reaches_the_log_from_elsewhere_is_followed_by_this_store(
        make: Make) -> None:
    """A reopen written by a peer (here: only the event, as sync brings it) leaves
    this store's status, results and files as a local reopen would."""
    app, tid = _won_on_the_wall(make)
    exports = app.data_dir / "exports"
    assert app.store.tournament(tid).status == "closed"
    assert app.station.submit(ReopenTournament()).ok  # the event, nothing else
    app.loop.step(block=False)
    assert app.store.tournament(tid).status == "finished"
    assert not (exports / f"results-{tid}.csv").exists()
