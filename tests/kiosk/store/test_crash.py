"""Crash test: SIGKILL a writer at random moments; nothing acknowledged is lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kiosk.store.crashing import crash_many

# A writer process killed and restarted twenty times.
pytestmark = pytest.mark.realproc


def test_sigkill_at_random_moments_loses_no_acknowledged_event(tmp_path: Path) -> None:
    report = crash_many(tmp_path / "pubpoker.db", kills=20, seed=20260101)
    assert report.kills == 20
    assert report.integrity_ok == 20
    assert len(report.acked) >= 20
    print(f"\ncrash test: {report.kills} kills, {len(report.acked)} acked events, "
          f"{report.events} in the log, {report.seconds:.1f} s")
