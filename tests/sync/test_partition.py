"""A partition with commands on both sides heals: nothing lost, conflicts resolved alike."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable

import pytest

from tests.sync.harness import Peer, converged, wait_for
from tests.sync.netns import Lan
from tests.sync.test_convergence import start_tournament

# Real peer processes, links cut and healed: seconds of waiting each.
pytestmark = pytest.mark.realproc


def connected(peer: Peer) -> set[str]:
    return {p["device_id"] for p in peer.ask("status")["peers"] if p["connected"]}


def test_partition_and_heal_converge_within_two_seconds(
        lan: Lan, spawn: Callable[..., Peer]) -> None:
    display = spawn(lan.add(), "display", name="display")
    console = spawn(lan.add(), "console", name="console")
    table_host = lan.add()
    table = spawn(table_host, "table", name="table1", table=1)
    peers = [display, console, table]
    start_tournament(console)
    wait_for(lambda: converged(peers), 15, what="set-up everywhere")
    assert console.submit("DrawSeats")["ok"]
    wait_for(lambda: converged(peers), 10, what="the draw everywhere")
    assert display.submit("StartClock")["ok"]
    wait_for(lambda: converged(peers), 10, what="the clock start everywhere")
    at_table = table.ask("seats")["tables"]["1"]
    victim, other = at_table[0], at_table[1]

    table_host.down()
    # Both sides act; the same player is busted on both.
    assert console.submit("BustPlayers", player_ids=[victim])["ok"]
    assert console.submit("CheckIn", player_id="p20", name="Late")["ok"]
    assert table.submit("BustPlayers", player_ids=[victim], table=1)["ok"]
    assert table.submit("StartHand", table=1)["ok"]
    assert table.submit("BustPlayers", player_ids=[other], table=1)["ok"]
    assert display.submit("PauseClock")["ok"]
    wait_for(lambda: not connected(table), 15, what="the table to notice the partition")
    wait_for(lambda: converged([display, console]), 10, what="one side to agree")
    assert table.digest()["digests"] != display.digest()["digests"]
    own = {p.device: p.digest()["vector"][p.device] for p in peers}

    table_host.up()
    healed = time.monotonic()
    answer = wait_for(lambda: converged(peers), 10, every=0.02, what="convergence after heal")
    took = time.monotonic() - healed
    print(f"converged {took:.2f}s after the partition healed")
    assert took <= 2.0
    # No event lost: every device's whole feed is everywhere.
    assert answer["vector"] == own
    # The double bust: one kept, the other marked rejected, the same on every peer.
    rejected = answer["rejected"]["main"]
    assert any(kind == "players-busted" for _, _, kind, _ in rejected)
    for peer in peers:
        assert peer.digest()["rejected"] == answer["rejected"]


def test_a_device_that_starts_with_its_link_down_finds_its_peers_when_it_comes_up(
        lan: Lan, spawn: Callable[..., Peer]) -> None:
    """A Pi after a power cut boots before the router: its first announcements are lost.

    The restarted console has a new port, so the display cannot redial the old
    one, and after 20 s mDNS browsers query only every 16-32 s. The console
    sees its link change and announces and browses afresh.
    """
    display = spawn(lan.add(), "display", name="display")
    console_host = lan.add()
    console = spawn(console_host, "console", name="console")
    wait_for(lambda: connected(display) == {console.device}, 15, what="the first link")
    console.kill()
    console_host.down()
    console.start()
    time.sleep(20.0)
    assert not connected(console)
    console_host.up()
    back = time.monotonic()
    wait_for(lambda: connected(console) == {display.device}, 15, every=0.1,
             what="the console to find the display")
    took = time.monotonic() - back
    print(f"linked {took:.2f}s after the console's link came up")
    assert took <= 6.0
    assert "rediscovering peers (network changed)" in console.log.read_text()


def test_a_network_change_under_working_links_does_not_disturb_them(
        lan: Lan, spawn: Callable[..., Peer]) -> None:
    """A new interface (a USB stick's network, say) is a change, but the links still work."""
    display = spawn(lan.add(), "display", name="display")
    console_host = lan.add()
    console = spawn(console_host, "console", name="console")
    wait_for(lambda: connected(console) == {display.device}, 15, what="the first link")
    for command in (("link", "add", "extra0", "type", "veth", "peer", "name", "extra1"),
                    ("addr", "add", "192.168.213.1/24", "dev", "extra0"),
                    ("link", "set", "extra1", "up"), ("link", "set", "extra0", "up")):
        subprocess.run(console_host.argv("ip", *command), check=True)
    for _ in range(8):  # four of the watcher's looks
        time.sleep(0.5)
        assert connected(console) == {display.device}
    assert "rediscovering" not in console.log.read_text()


def test_a_lone_device_announces_and_browses_afresh_and_still_finds_a_late_peer(
        lan: Lan, spawn: Callable[..., Peer]) -> None:
    """Alone for a while (15 s), a device refreshes its discovery on the same sockets
    (not a restart on new ones: it does so all night); a peer that comes later is
    found as quickly as ever."""
    display = spawn(lan.add(), "display", name="display")
    wait_for(lambda: "rediscovering peers (alone)" in display.log.read_text(), 30,
             what="the lone display's refresh")
    console = spawn(lan.add(), "console", name="console")
    wait_for(lambda: connected(display) == {console.device}, 10, every=0.1,
             what="the display to link with the late console")
    log = display.log.read_text()
    assert "rediscovery failed" not in log and "network changed" not in log
