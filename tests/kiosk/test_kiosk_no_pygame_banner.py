"""Issue 47, break 4: a real ``pubpoker kiosk`` says nothing of pygame. Its stdout
is the CLI's, so pygame's "Hello from the pygame community" must not come before
the kiosk's first line, whichever way pygame is first imported."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.kiosk.store.helpers import ROOT, child_env

pytestmark = [pytest.mark.realproc, pytest.mark.slow]


def test_the_kiosk_draws_without_pygame_s_banner(tmp_path: Path) -> None:
    frames = tmp_path / "frames.log"
    env = {**child_env(), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "PUBPOKER_FRAME_LOG": str(frames)}
    # Not inherited: importing kiosk in this process sets it here too.
    env.pop("PYGAME_HIDE_SUPPORT_PROMPT", None)
    kiosk = subprocess.Popen(
        [sys.executable, "-m", "kiosk.cli", "--lang", "en", "kiosk", "--headless",
         "--size", "320x240", "--data-dir", str(tmp_path / "data")],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        end = time.monotonic() + 30
        while not (frames.exists() and frames.read_text(encoding="ascii").strip()):
            assert kiosk.poll() is None, kiosk.communicate()
            assert time.monotonic() < end, "the kiosk drew no frame in 30 s"
            time.sleep(0.05)
    finally:
        kiosk.send_signal(signal.SIGTERM)
        out, err = kiosk.communicate(timeout=30)
    # pygame is loaded (a frame was drawn), and said nothing.
    for said in (out, err):
        assert "Hello from the pygame community" not in said, said
        assert not any(line.startswith("pygame ") for line in said.splitlines()), said
