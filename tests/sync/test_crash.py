"""A peer killed with SIGKILL mid-stream comes back and catches up."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.sync.harness import Peer, converged, wait_for
from tests.sync.netns import Lan
from tests.sync.test_convergence import start_tournament

# Real peer processes, and seconds of waiting for them to link and agree.
pytestmark = pytest.mark.realproc


def test_a_peer_killed_mid_stream_restarts_and_catches_up(
        lan: Lan, spawn: Callable[..., Peer]) -> None:
    display = spawn(lan.add(), "display", name="display")
    console = spawn(lan.add(), "console", name="console")
    table = spawn(lan.add(), "table", name="table1", table=1)
    peers = [display, console, table]
    start_tournament(console, players=6)
    assert console.submit("DrawSeats")["ok"]
    wait_for(lambda: converged(peers), 15, what="set-up everywhere")
    for _ in range(3):
        assert table.submit("StartHand", table=1)["ok"]
    # A stream of late check-ins from the console; the table dies in the middle of it.
    assert console.ask("burst", n=300, gap=0.003, prefix="s")["ok"]
    wait_for(lambda: table.digest()["count"] > 100, 10, every=0.01, what="the stream to flow")
    table.kill()
    wait_for(lambda: console.ask("applied")["pending"] == 0, 15, what="the stream to end")
    table.start()
    answer = wait_for(lambda: converged(peers), 15, what="the restarted table to catch up")
    assert answer["vector"][table.device] == 3  # its own events survived the kill
    assert answer["count"] >= 1 + 6 + 300
    # It carries on as the same device, with the next seq.
    assert table.submit("StartHand", table=1)["seqs"] == [4]
    answer = wait_for(lambda: converged(peers), 10, what="its new event everywhere")
    assert answer["vector"][table.device] == 4
