"""Issue 47, break 4: on a full memory card the TD can still look. ``tournament
show``, ``players list``, ``results show`` and ``tournament list`` only read, so
they answer (exit 0) from the store as it is, with no snapshot tried, and leave
the data dir's reserve to the writes it is kept for; a write is still refused in
one sentence. A real tmpfs (root only), the real ``pubpoker``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from kiosk.store import DiskFull
from kiosk.store.space import reserve_path
from tests.kiosk.store.disk import fill, pubpoker, tmpfs

pytestmark = [pytest.mark.realproc, pytest.mark.slow]

READS = (("tournament", "show", "--json"), ("players", "list", "--json"),
         ("results", "show", "--json"), ("tournament", "list", "--json"))


@pytest.mark.parametrize("reserve", ["kept", "spent"])
def test_the_read_only_commands_answer_on_a_full_card(reserve: str, tmp_path: Path) -> None:
    with tmpfs("4m") as data:
        d = str(data)
        for argv in (("tournament", "new", "--name", "Fredag"), ("checkin", "--new", "Ada"),
                     ("checkin", "--new", "Bo"), ("players", "add", "Cy")):
            assert pubpoker(*argv, "--data-dir", d).returncode == 0
        # What they say with room, read from a copy: the night on the full card
        # keeps no snapshot, so a read there folds the log, as after a night's events.
        shutil.copy(data / "pubpoker.db", tmp_path / "pubpoker.db")
        before = {argv: json.loads(pubpoker(*argv, "--data-dir", str(tmp_path)).stdout)
                  for argv in READS}
        if reserve == "spent":
            reserve_path(data).unlink()
        fill(data)
        for argv in READS:
            done = pubpoker(*argv, "--data-dir", d, lang="en")
            assert done.returncode == 0, (argv, done.stderr)
            assert json.loads(done.stdout) == before[argv]
            assert "could not save" not in done.stderr and "not saved:" not in done.stderr
        # Looking cost the reserve nothing: it is there for the next write.
        assert reserve_path(data).exists() == (reserve == "kept")
        done = pubpoker("players", "add", "Di", "--data-dir", d, lang="en")
        if reserve == "spent":
            assert (done.returncode, done.stderr) == (2, DiskFull().translate("en") + "\n")
