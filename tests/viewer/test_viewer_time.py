"""One time on every screen (RULES.md N4): a phone that opens the page after a quiet spell.

The document is built when the night changes; the page must count from the
kiosk's shared time when it was sent, not from when it was built. A real
``pubpoker kiosk --headless`` with its status file (the wall's clock as its
screens read it) serves the page; after a quiet spell with the clock running
and no event, what the page would show (the page's own arithmetic, in
:func:`page_left`) must equal the wall within a second, and so after a
pause and after a level change.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.kiosk.store.helpers import ROOT, child_env
from tests.viewer.realkiosk import free_port, make_night, pubpoker, wait_http

pytestmark = [pytest.mark.slow, pytest.mark.realproc, pytest.mark.timeout(120)]

QUIET = 6.0


def page_left(doc: dict[str, Any]) -> float:
    """The time left the page shows the moment it gets ``doc`` (app.js's elapsed())."""
    clock = doc["clock"]
    # A document without "served" (a kiosk before N4) was counted from its arrival.
    served = doc.get("served", doc["now"])
    gone = max(0.0, served - doc["now"]) if clock["running"] else 0.0
    return float(clock["remaining"] - gone)


def wall_left(status: Path, at: float) -> float:
    """The wall's time left at shared time ``at``, from the kiosk's own status file."""
    data = json.loads(status.read_text())
    clock = data["clock"]
    gone = at - data["shared"] if clock["running"] else 0.0
    return float(clock["remaining"] - gone)


def time_now(status: Path) -> float:
    """The kiosk's shared time now, from its status file (same machine, same monotonic)."""
    data = json.loads(status.read_text())
    return float(data["shared"] + (time.monotonic() - data["mono"]))


def fetch(port: int) -> dict[str, Any]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/night.json", timeout=5) as answer:
        return dict(json.loads(answer.read()))


def test_N4_a_phone_opening_the_page_after_a_quiet_spell_shows_the_walls_time(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    make_night(data)
    status = tmp_path / "status.json"
    port = free_port()
    env = {**child_env(), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "PUBPOKER_STATUS_FILE": str(status)}
    process = subprocess.Popen(
        [sys.executable, "-m", "kiosk.cli", "kiosk", "--headless", "--size", "1280x720",
         "--data-dir", str(data), "--viewer-port", str(port)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seen: list[str] = []
    try:
        wait_http(f"http://127.0.0.1:{port}/night.json")
        # make_night left the clock paused; the TD resumes it under the kiosk.
        pubpoker(data, "clock", "resume")

        def compare(moment: str) -> None:
            doc = fetch(port)
            phone, wall = page_left(doc), wall_left(status, doc.get("served", time_now(status)))
            seen.append(f"{moment}: wall {wall:7.1f} s, phone {phone:7.1f} s")
            assert abs(phone - wall) <= 1.0, seen

        time.sleep(QUIET)  # nothing happens: the document the page gets was built before
        doc = fetch(port)
        assert time_now(status) - doc["now"] >= QUIET - 1.0, "no quiet spell: the test is void"
        compare(f"after {QUIET:.0f} s quiet")
        pubpoker(data, "clock", "pause")
        time.sleep(2.0)
        compare("paused")
        pubpoker(data, "clock", "resume")
        pubpoker(data, "clock", "next")
        time.sleep(QUIET)
        compare(f"next level, {QUIET:.0f} s on")
        assert process.poll() is None
    finally:
        process.terminate()
        process.wait(timeout=30)
    print("\n" + "\n".join(seen))
    err = process.stderr.read() if process.stderr else ""
    assert "Traceback" not in err, err
