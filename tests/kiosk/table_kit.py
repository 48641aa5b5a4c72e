"""A table device's kiosk over a night the TD's box set up in the same store."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from kiosk.app import App
from kiosk.bootstrap import Options, bootstrap
from rules.commands import CheckIn, CreateTournament, DrawSeats, StartClock
from rules.structure import preset


def desk_night(data_dir: Path, names: Sequence[str]) -> None:
    """The TD's box creates the night, checks ``names`` in, draws and starts the clock."""
    desk = bootstrap(Options(headless=True, data_dir=str(data_dir), sound=False), fake=True)
    try:
        station = desk.station
        assert station.create(CreateTournament("Fredag", preset("pubpoker"))).ok
        for n, name in enumerate(names):
            assert station.submit(CheckIn(f"p{n}", name)).ok
        assert station.submit(DrawSeats()).ok and station.submit(StartClock()).ok
    finally:
        desk.close()


def table_app(data_dir: Path, size: tuple[int, int], table: int = 1) -> App:
    """Table ``table``'s device on the same store (fake time, no pixel shift)."""
    return bootstrap(Options(headless=True, data_dir=str(data_dir), sound=False, size=size,
                             role="table", table=table, shift=False), fake=True)
