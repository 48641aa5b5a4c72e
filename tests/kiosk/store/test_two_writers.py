"""The CLI and the running kiosk share one device's store: their seqs never collide."""

from __future__ import annotations

from pathlib import Path

from kiosk.store import open_store
from rules.events import PlayerRegistered, TournamentCreated
from rules.fold import fold
from rules.structure import preset


def test_two_open_stores_on_one_file_take_turns_for_seqs(tmp_path: Path) -> None:
    kiosk = open_store(data_dir=tmp_path)
    cli = open_store(data_dir=tmp_path)
    assert kiosk.device_id == cli.device_id
    kiosk.append_new("t", [TournamentCreated(at=0.0, name="F", structure=preset("pubpoker"))])
    written = []
    for i in range(30):
        writer = kiosk if i % 3 else cli
        written += writer.append_new(
            "t", [PlayerRegistered(at=float(i), player_id=f"p{i}", name=f"Player {i}")])
    seqs = [r.seq for r in written]
    assert len(set(seqs)) == len(seqs) == 30
    records = kiosk.records("t")
    assert len(records) == 31
    lamports = [r.lamport for r in records]
    assert lamports == sorted(lamports) and len(set(lamports)) == 31
    assert not fold(records).rejected
    kiosk.close()
    cli.close()
    again = open_store(data_dir=tmp_path)
    assert again.version_vector() == {again.device_id: 31}
    again.close()
