"""A peer killed with SIGKILL mid-stream comes back and catches up."""

from __future__ import annotations

from collections.abc import Callable

from tests.sync.harness import Peer, converged, wait_for
from tests.sync.netns import Lan
from tests.sync.test_convergence import start_tournament


def test_a_peer_killed_mid_stream_restarts_and_catches_up(
        lan: Lan, spawn: Callable[..., Peer]) -> None:
    display = spawn(lan.add(), "display", name="display")
    console = spawn(lan.add(), "console", name="console")
    table = spawn(lan.add(), "table", name="table1", table=1)
    start_tournament(console, players=4)
    wait_for(lambda: converged([display, console, table]), 15, what="set-up everywhere")
    # A stream of check-ins from the console; the table dies in the middle of it.
    assert console.ask("burst", n=300, gap=0.003, prefix="s")["ok"]
    wait_for(lambda: table.digest()["count"] > 60, 10, every=0.01, what="the stream to flow")
    table.kill()
    wait_for(lambda: console.ask("applied")["pending"] == 0, 15, what="the stream to end")
    assert console.submit("DrawSeats")["ok"]
    table.start()
    answer = wait_for(lambda: converged([display, console, table]), 15,
                      what="the restarted table to catch up")
    assert answer["count"] >= 300 + 4
    seats = table.ask("seats")["tables"]
    assert sum(len(v) for v in seats.values()) == 304
    # It still works as a table after the restart.
    assert table.submit("StartHand", table=1)["ok"]
    wait_for(lambda: converged([display, console, table]), 10, what="its new event everywhere")
