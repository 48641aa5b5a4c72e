"""The phones' page out of descriptors: a real kiosk pauses its page, counts it, logs a line.

A pub's Wi-Fi full of phones (or one laptop holding hundreds of sockets
open) can take a process to its descriptor limit. asyncio then fails every
``accept`` of the page's listener and, left to itself, logs a traceback for
each: tens of thousands a minute. Here a real ``pubpoker kiosk --headless``
serving the page has its limit cut to a dozen descriptors above what it
holds and what its listeners leave to the rest of it (``prlimit --pid``);
the test then holds connections to the page until the listener stops
taking them. The kiosk must stay the same process, keep folding the TD's
commands and writing its status file, count the pauses (where
``pubpoker doctor`` reads them too), write one line about it and no
traceback, and serve the page again once the sockets are let go.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kiosk.accept_pauses import RESERVE
from tests.kiosk.store.helpers import ROOT, child_env
from tests.sync.harness import wait_for
from tests.viewer.realkiosk import free_port, make_night, pubpoker, stop, wait_http

pytestmark = [pytest.mark.slow, pytest.mark.flood, pytest.mark.timeout(180)]

#: Connections the "laptop" opens: far more than the descriptors left to the kiosk.
HELD = 300


def _status(path: Path) -> dict[str, Any]:
    try:
        return dict(json.loads(path.read_text()))
    except (OSError, ValueError):
        return {}


def test_a_kiosk_whose_page_runs_out_of_descriptors_counts_it_and_goes_on(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    make_night(data)
    status, log_path = tmp_path / "status.json", tmp_path / "kiosk.log"
    port = free_port()
    env = {**child_env(), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "PUBPOKER_STATUS_FILE": str(status)}
    env.pop("PUBPOKER_LANG", None)
    held: list[socket.socket] = []
    with log_path.open("w") as log_file:
        process = subprocess.Popen(
            [sys.executable, "-m", "kiosk.cli", "kiosk", "--headless", "--size", "1280x720",
             "--data-dir", str(data), "--viewer-port", str(port)],
            cwd=ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT)
    try:
        wait_http(f"http://127.0.0.1:{port}/night.json")
        assert wait_for(lambda: _status(status).get("ports", {}).get("viewer"), 10,
                        what="the status file") == port
        descriptors = len(os.listdir(f"/proc/{process.pid}/fd"))
        # A dozen phones' worth above what the listener leaves to the rest of the kiosk.
        limit = descriptors + RESERVE + 12
        subprocess.run(["prlimit", "--pid", str(process.pid), f"--nofile={limit}:{limit}"],
                       check=True)
        for _ in range(HELD):
            sock = socket.socket()
            sock.settimeout(2)
            with contextlib.suppress(OSError):
                sock.connect(("127.0.0.1", port))
            held.append(sock)
        paused = wait_for(lambda: (_status(status).get("viewer") or {}).get("accept-paused", 0),
                          15, what="the page's listener pauses to be counted")
        # The rest of the kiosk goes on: the TD's command is folded while the page waits.
        # (make_night left the clock paused.)
        pubpoker(data, "clock", "resume")
        wait_for(lambda: (_status(status).get("clock") or {}).get("running") is True, 15,
                 what="the resume from the terminal on the wall, the page out of descriptors")
        # What `pubpoker doctor` tells an operator later (the kiosk notes it in the store).
        noted = wait_for(lambda: json.loads(pubpoker(data, "doctor", "--json", check=False).stdout)
                         ["store"]["listener_pauses"], 15, what="the pauses in `pubpoker doctor`")
        assert noted["phones"] >= 1 and noted["peers"] == 0
        for sock in held:
            sock.close()
        held.clear()
        # The same process takes phones again once the sockets are let go.
        night = json.loads(wait_http(f"http://127.0.0.1:{port}/night.json", timeout=30))
        assert night["tournament"]
        assert process.poll() is None
    finally:
        for sock in held:
            sock.close()
        stop(process)
    text = log_path.read_text(errors="replace")
    print(f"\npage out of descriptors: limit {limit} ({descriptors} held), "
          f"{paused}+ pause(s) counted, log {len(text)} bytes")
    assert paused >= 1
    assert text.count("out of file descriptors") == 1, text[-3000:]
    assert "not accepting phones" in text
    assert "Traceback" not in text, text[-3000:]
    assert len(text) < 10_000
