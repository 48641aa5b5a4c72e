"""N3 on every device: what the TD does from the terminal on the desk's box
(``tournament new --yes``, ``undo``, ``tournament switch``, real processes) is
followed by a peer that only receives the desk's log, as sync delivers it:
the peer's station and wall show the tournament the desk's now says is tonight's.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.app import App
from kiosk.bootstrap import Options, bootstrap
from kiosk.store import open_store
from kiosk.tonight import follow_tonight
from rules.i18n import LANGUAGES

# Real `pubpoker` processes on two data dirs, in four languages.
pytestmark = pytest.mark.realproc


def pubpoker(data: Path, *argv: str, lang: str = "en") -> str:
    env = {**os.environ, "PUBPOKER_DATA_DIR": str(data)}
    done = subprocess.run([sys.executable, "-m", "kiosk.cli", "--lang", lang, *argv], env=env,
                          text=True, capture_output=True, timeout=60)
    assert done.returncode == 0, (argv, done.stdout, done.stderr)
    return done.stdout


@pytest.fixture()
def peer(tmp_path: Path) -> Iterator[App]:
    app = bootstrap(Options(data_dir=str(tmp_path / "display"), role="display", shift=False,
                            sound=False, lang="en"), fake=True)
    follow_tonight(app)
    yield app
    app.close()


def synced(peer: App, desk: Path) -> str | None:
    """The peer after it took every record of the desk's log (as sync appends them)."""
    store = open_store(data_dir=desk)
    try:
        records = [r for row in store.tournaments() for r in store.records(row.id)]
    finally:
        store.close()
    peer.station.accept(records)
    assert peer.time is not None
    peer.time.advance(2.0)
    peer.loop.step(block=False)
    state = peer.station.state
    return state.config.name if state.config is not None else None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_N3_every_device_follows_new_undo_and_switch(peer: App, tmp_path: Path,
                                                     lang: str) -> None:
    desk = tmp_path / "desk"
    pubpoker(desk, "tournament", "new", "--name", "Fredagspoker", lang=lang)
    for name in ("Ada", "Bo Berg", "Per Nilsen"):
        pubpoker(desk, "checkin", "--new", name, lang=lang)
    pubpoker(desk, "seat", "draw", lang=lang)
    pubpoker(desk, "clock", "start", lang=lang)
    assert synced(peer, desk) == "Fredagspoker"

    pubpoker(desk, "tournament", "new", "--name", "Torsdag", "--yes", lang=lang)
    assert synced(peer, desk) == "Torsdag"  # the TD asked for it, twice
    pubpoker(desk, "undo", lang=lang)
    assert synced(peer, desk) == "Fredagspoker"
    assert peer.station.state.entrants == 3

    pubpoker(desk, "tournament", "switch", "Torsdag", lang=lang)
    assert synced(peer, desk) == "Torsdag"
    pubpoker(desk, "tournament", "switch", "Fredagspoker", lang=lang)
    assert synced(peer, desk) == "Fredagspoker"
    pubpoker(desk, "bust", "Per Nilsen", lang=lang)
    synced(peer, desk)
    assert peer.station.state.remaining == 2
