"""Hostile and misconfigured peers: everything is dropped and counted, nothing applied."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

from tests.sync.harness import ROOT, Peer, converged, wait_for
from tests.sync.netns import Host, Lan
from tests.sync.test_convergence import start_tournament

# Real peer processes, and seconds of waiting for them to link and agree.
pytestmark = pytest.mark.realproc


def attack(host: Host, mode: str, victim: Peer, key: str) -> dict[str, Any]:
    uri = f"ws://{victim.host.address}:{victim.port}/sync"  # type: ignore[union-attr]
    done = subprocess.run(host.argv(sys.executable, "-m", "tests.sync.attacker", mode, uri, key),
                          capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def drops(peer: Peer) -> dict[str, int]:
    result: dict[str, int] = peer.ask("status")["drops"]
    return result


@pytest.mark.parametrize(("mode", "reason", "at_least"), [
    ("forged-mac", "bad-mac", 2),
    ("replay", "replay", 2),
    ("big", "oversize", 1),
    ("garbage", "malformed", 21),
    ("forged-event", "event-mac", 1),
    ("role-claim", "role-claim", 1),
])
def test_hostile_frames_are_dropped_and_counted(
        lan: Lan, spawn: Callable[..., Peer], venue_key: str,
        mode: str, reason: str, at_least: int) -> None:
    victim = spawn(lan.add(), "console", name="victim")
    start_tournament(victim, players=4)
    before = victim.digest()
    attack(lan.add(), mode, victim, venue_key)
    wait_for(lambda: drops(victim).get(reason, 0) >= at_least, 10,
             what=f"{reason} to be counted")
    after = victim.digest()
    assert after["digests"] == before["digests"] and after["count"] == before["count"]
    # Still alive and well: it takes commands and answers.
    assert victim.submit("CheckIn", player_id="p99", name="After")["ok"]


def test_a_peer_with_the_wrong_venue_key_is_never_heard(
        lan: Lan, spawn: Callable[..., Peer]) -> None:
    display = spawn(lan.add(), "display", name="display")
    console = spawn(lan.add(), "console", name="console")
    stranger = spawn(lan.add(), "console", name="stranger", key="ab" * 32)
    start_tournament(console, players=4)
    assert stranger.ask("create", name="Other", tid="other")["ok"]
    wait_for(lambda: drops(display).get("bad-mac", 0) >= 1, 15, what="bad MACs counted")
    wait_for(lambda: converged([display, console]), 10, what="the honest pair to agree")
    assert set(display.digest()["digests"]) == {"main"}
    assert set(stranger.digest()["digests"]) == {"other"}


def test_a_table_device_sending_level_jumped_is_refused_everywhere(
        lan: Lan, spawn: Callable[..., Peer]) -> None:
    display = spawn(lan.add(), "display", name="display")
    console = spawn(lan.add(), "console", name="console")
    rogue = spawn(lan.add(), "table", name="rogue", table=1)
    start_tournament(console, players=4)
    assert console.submit("DrawSeats")["ok"]
    assert console.submit("StartClock")["ok"]
    wait_for(lambda: converged([display, console, rogue]), 15, what="set-up everywhere")
    honest = display.digest()
    assert rogue.submit("JumpToLevel", period_index=3)["ok"]  # the rules core lets it
    for peer in (display, console):
        wait_for(lambda p=peer: drops(p).get("role", 0) >= 1, 10,  # type: ignore[misc]
                 what=f"{peer.name} to refuse the jump")
        assert peer.digest()["digests"] == honest["digests"]
    assert drops(rogue).get("role-local", 0) == 1
    # The rogue's later, allowed events still flow past the refused one.
    assert rogue.submit("StartHand", table=1)["ok"]
    wait_for(lambda: converged([display, console]), 10, what="honest peers to agree")
    wait_for(lambda: display.digest()["digests"] != honest["digests"], 10,
             what="the allowed hand start to arrive")
