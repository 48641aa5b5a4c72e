"""The demo serves the players' page too: someone trying the box can open it on a phone."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from tests.kiosk.store.helpers import ROOT, child_env
from tests.viewer.realkiosk import free_port, wait_http


def test_a_demo_serves_the_page_it_is_asked_to(tmp_path: Path) -> None:
    port = free_port()
    env = {**child_env(), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    demo = subprocess.Popen(
        [sys.executable, "-m", "kiosk.cli", "demo", "--headless", "--speed", "1",
         "--frames", "100000", "--viewer-port", str(port), "--lang", "da",
         "--data-dir", str(tmp_path / "demo")],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        end = time.monotonic() + 30
        while not (night := json.loads(wait_http(f"http://127.0.0.1:{port}/night.json"))
                   )["tournament"] and time.monotonic() < end:
            time.sleep(0.2)  # the demo makes its night after the page is up
        assert night["tournament"] and night["lang"] == "da"
        assert night["words"]["da"]["name"]
        assert b"<html" in wait_http(f"http://127.0.0.1:{port}/").lower()
    finally:
        demo.terminate()
        demo.wait(timeout=30)
    assert "Traceback" not in (demo.stderr.read() if demo.stderr else "")


def test_a_demo_refuses_a_port_that_is_not_one(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "demo", "--headless", "--frames", "5",
         "--viewer-port", "http", "--data-dir", str(tmp_path / "demo")],
        cwd=ROOT, env={**child_env(), "SDL_VIDEODRIVER": "dummy"}, capture_output=True,
        text=True, timeout=60)
    assert done.returncode == 2 and "--viewer-port" in done.stderr
