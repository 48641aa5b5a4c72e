"""A kiosk that died says why on the wall after systemd starts it again.

The unit restarts the kiosk for as long as it keeps dying; restarted, it
would look as if nothing had happened. The dying process keeps one line in
the data dir (:mod:`kiosk.last_exit`), and the next start shows it on the
status line. A clean stop (SIGTERM) keeps nothing.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk import last_exit
from kiosk.app import App
from kiosk.cli import main
from kiosk.sync.auth import new_key
from tests.bench.realproc import Kiosk, prepare_tournament, wait
from tests.sync.netns import Lan, fresh_lan

REASON = "OSError: [Errno 24] Too many open files"


@pytest.fixture
def lan() -> Iterator[Lan]:
    with fresh_lan() as made:
        yield made


def test_a_kiosk_that_dies_keeps_why_for_its_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def dies(self: App, frames: int | None = None) -> int:
        raise OSError(24, "Too many open files")

    monkeypatch.setattr(App, "run", dies)
    with pytest.raises(OSError):
        main(["kiosk", "--headless", "--size", "800x480", "--role", "display",
              "--data-dir", str(tmp_path)])
    assert last_exit.take(tmp_path) == REASON
    assert last_exit.take(tmp_path) is None  # shown once: the next start after that is quiet


def test_a_clean_stop_keeps_nothing(tmp_path: Path) -> None:
    assert main(["kiosk", "--headless", "--size", "800x480", "--role", "display",
                 "--data-dir", str(tmp_path), "--frames", "3"]) == 0
    assert not (tmp_path / last_exit.FILE).exists()


def _status(path: Path) -> dict[str, Any] | None:
    with contextlib.suppress(FileNotFoundError, json.JSONDecodeError):
        data: dict[str, Any] = json.loads(path.read_text())
        return data
    return None


@pytest.mark.slow
def test_the_restarted_kiosk_shows_why_on_its_status_line(tmp_path: Path, lan: Lan) -> None:
    """A real ``pubpoker kiosk --config`` (the appliance's command line) restarted
    after a death shows the reason on the status line, then forgets it."""
    status = tmp_path / "status.json"
    kiosk = Kiosk("tv", tmp_path / "tv", "display", key=new_key().hex(), host=lan.add(),
                  env={"PUBPOKER_STATUS_FILE": str(status)})
    prepare_tournament(kiosk.data)
    last_exit.record(kiosk.data, OSError(24, "Too many open files"))
    kiosk.start()
    try:
        seen = wait(lambda: (s := _status(status)) and s.get("status_line") and s, 60,
                    "the kiosk's status file")
        # The wall speaks the venue's language: Nynorsk by default.
        assert "Kiosken starta på nytt etter ein feil: " + REASON in seen["status_line"], seen
        assert not (kiosk.data / last_exit.FILE).exists()
        assert kiosk.process is not None
        kiosk.process.check_alive("the kiosk")
    finally:
        kiosk.stop()
    assert not (kiosk.data / last_exit.FILE).exists()  # SIGTERM is a clean stop


def test_the_status_source_doctests() -> None:
    import doctest

    result = doctest.testmod(last_exit)
    assert result.attempted > 0 and result.failed == 0
