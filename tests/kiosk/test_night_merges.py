"""Issue 44 on the kiosk: a ``players merge`` that reaches a device by the log (a
peer's, or taken back by the held UNDO) is followed by that device's players,
cards and standings, so every device agrees with the log."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kiosk.app import App
from kiosk.bootstrap import Options, bootstrap
from kiosk.config import TournamentConfig
from kiosk.night import Night
from rules.commands import CheckIn, MergePlayers
from tests.kiosk.night_app import night_of

TONIGHT = TournamentConfig(name="Torsdag {date}", tables=1, seats_per_table=8)
CARD = "0A1B2C3D4E"

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


def _names(app: App) -> dict[str, tuple[str, ...]]:
    return {p.name: p.cards for p in app.store.players.list()}


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


def test_a_merge_by_the_log_is_followed_and_a_held_undo_takes_it_back(make: Make) -> None:
    from hardware.inputs import Action, ButtonPressed

    wall, desk = make("wall"), make("desk", "console")
    night_of(wall).power_on()
    kept = wall.store.players.add("Per Hansen")
    twice = wall.store.players.add("Per Hanssen", card=CARD)
    # The desk knows the venue's players too (a copy of the list).
    with desk.store.conn:
        for p in (kept, twice):
            desk.store.conn.execute(
                "INSERT INTO players (id, name, name_key, created) VALUES (?, ?, ?, ?)",
                (p.id, p.name, p.name.casefold(), p.created))
        desk.store.conn.execute("INSERT INTO cards (uid, player_id, linked) VALUES (?, ?, ?)",
                                (CARD, twice.id, twice.created))
    assert wall.station.submit(CheckIn(kept.id, kept.name)).ok
    _sync(wall, desk)
    desk.loop.step(block=False)
    assert desk.station.tournament_id == wall.station.tournament_id
    # The merge as `pubpoker players merge` writes it on the wall's store.
    assert wall.station.submit(MergePlayers(kept.id, kept.name, twice.id, twice.name,
                                            twice.cards, twice.created)).ok
    wall.loop.step(block=False)
    assert _names(wall) == {"Per Hansen": (CARD,)}
    # The peer that receives it follows it.
    _sync(wall, desk)
    desk.loop.step(block=False)
    assert _names(desk) == {"Per Hansen": (CARD,)}
    # The TD's held UNDO takes the merge back: the player is back with their card,
    # on the wall and, by the log, on the desk.
    wall.inputs.put(ButtonPressed(Action.undo, long=True, at=0.0))
    wall.loop.step(block=False)
    wall.loop.step(block=False)
    assert _names(wall) == {"Per Hansen": (), "Per Hanssen": (CARD,)}
    _sync(wall, desk)
    desk.loop.step(block=False)
    assert _names(desk) == {"Per Hansen": (), "Per Hanssen": (CARD,)}
