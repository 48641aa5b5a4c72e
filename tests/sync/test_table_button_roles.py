"""A table device's own buttons pass the role check: CLOCK (C5) and HAND DONE (C7).

Found by the whole-night scenario (issue 10): the table's CLOCK press was
refused as "clock-called: use the TD's box", so no table could call the clock.
"""

from __future__ import annotations

import random
from pathlib import Path

from kiosk.station import Station
from kiosk.store import open_store
from kiosk.timebase import SharedClock
from rules.commands import (
    CallClock,
    CheckIn,
    CreateTournament,
    DrawSeats,
    FinishHand,
    SetHandForHand,
    StartClock,
)
from rules.structure import preset


def test_clock_and_hand_done_from_a_table_device(tmp_path: Path) -> None:
    td = Station(open_store(data_dir=tmp_path / "td"), SharedClock(), random.Random(1),
                 role="console")
    table = Station(open_store(data_dir=tmp_path / "t1"), SharedClock(), random.Random(2),
                    role="table", table=1)
    try:
        assert td.submit(CreateTournament("F", preset("pubpoker"))).ok
        for n in range(4):
            player = td.store.players.add(f"P{n}")
            assert td.submit(CheckIn(player.id, player.name)).ok
        assert td.submit(DrawSeats()).ok and td.submit(StartClock()).ok
        assert td.submit(SetHandForHand(True)).ok
        assert td.tournament_id is not None
        table.accept(td.store.records(td.tournament_id))
        assert table.tournament_id == td.tournament_id
        called = table.submit(CallClock(1))
        assert called.ok, called.refusal
        done = table.submit(FinishHand(1))
        assert done.ok, done.refusal
        # Another table's CLOCK is still not this device's to press.
        assert not table.submit(CallClock(2)).ok or 2 not in table.state.tables
    finally:
        table.close()
        td.close()
