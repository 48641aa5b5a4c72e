"""``kiosk.last_stop``: the record of how the last kiosk on a store stopped."""

from __future__ import annotations

from pathlib import Path

from kiosk import last_stop


def test_no_record_running_and_a_clean_stop_read_back(tmp_path: Path) -> None:
    assert last_stop.read(tmp_path).kind == "none"
    last_stop.mark_running(tmp_path)
    assert last_stop.read(tmp_path).kind == "cut"
    last_stop.mark_stopped(tmp_path, shared=1234.5, base=-3.0, speed=1.0)
    stop = last_stop.read(tmp_path)
    assert (stop.kind, stop.shared, stop.base, stop.speed) == ("clean", 1234.5, -3.0, 1.0)
    assert stop.same_boot is bool(last_stop.boot_id())
    assert sorted(p.name for p in tmp_path.iterdir()) == [last_stop.FILE]  # no temp left


def test_a_record_that_cannot_be_read_counts_as_a_cut(tmp_path: Path) -> None:
    for text in ("", "{", '{"state": "stopped"}', "[1]", '{"state": "stopped", "shared": "x"'
                 ', "base": 0, "speed": 1}'):
        (tmp_path / last_stop.FILE).write_text(text)
        assert last_stop.read(tmp_path).kind == "cut", text
