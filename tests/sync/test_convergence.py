"""Three real peers (display, console, table) on a namespace LAN converge."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.sync.harness import Peer, converged, wait_for
from tests.sync.netns import Lan

# Real peer processes, and seconds of waiting for them to link and agree.
pytestmark = pytest.mark.realproc


def start_tournament(console: Peer, players: int = 12) -> None:
    assert console.ask("create", name="Fredag", tid="main")["ok"]
    for n in range(1, players + 1):
        assert console.submit("CheckIn", player_id=f"p{n}", name=f"Player {n}")["ok"]


def test_three_peers_converge_after_interleaved_commands(
        lan: Lan, spawn: Callable[..., Peer]) -> None:
    display = spawn(lan.add(), "display", name="display")
    console = spawn(lan.add(), "console", name="console")
    table = spawn(lan.add(), "table", name="table1", table=1)
    peers = [display, console, table]
    start_tournament(console)
    wait_for(lambda: converged(peers), 15, what="the first events everywhere")
    assert console.submit("DrawSeats")["ok"]
    wait_for(lambda: converged(peers), 10, what="the draw everywhere")
    assert display.submit("StartClock")["ok"]
    # Interleaved: each device acts on what it has seen, without waiting.
    seated = [p for p in ("p1", "p2", "p3", "p4")]
    assert table.submit("StartHand", table=1)["ok"]
    assert console.submit("CheckIn", player_id="p13", name="Late")["ok"]
    assert display.submit("PauseClock")["ok"]
    assert console.submit("MarkAbsent", player_id=seated[0])["ok"]
    assert display.submit("ResumeClock")["ok"]
    answer = wait_for(lambda: converged(peers), 10, what="convergence")
    assert answer["count"] >= 20
    # Each device's own events arrived everywhere.
    assert set(answer["vector"]) == {p.device for p in peers}
    status = display.ask("status")
    assert {p["device_id"] for p in status["peers"]} >= {console.device, table.device}
    assert not status["drops"]
