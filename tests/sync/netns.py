"""Test hosts in network namespaces, joined by a bridge: a pub LAN on one machine.

Each host is a namespace with one veth (``eth0``, 10.77.0.N/24) whose other
end sits on a bridge in a hub namespace. Nothing is ever routed out of these
namespaces: they have no default route and no link to the root namespace.
A partition takes a host's ``eth0`` down; healing brings it back up.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest

__all__ = ["Host", "Lan", "fresh_lan", "netns_available", "require_netns"]

SUBNET = "10.77.0"


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], check=check, capture_output=True, text=True)


@functools.cache
def netns_available() -> str | None:
    """None if namespaces work here; else why not."""
    if os.geteuid() != 0:
        return "not root"
    if shutil.which("ip") is None:
        return "no ip command (apt-get install iproute2)"
    name = f"pp-probe-{uuid.uuid4().hex[:6]}"
    try:
        made = _ip("netns", "add", name, check=False)
        if made.returncode != 0:
            return f"ip netns add failed: {made.stderr.strip()}"
    finally:
        _ip("netns", "del", name, check=False)
    return None


@dataclass
class Host:
    ns: str
    index: int

    @property
    def address(self) -> str:
        return f"{SUBNET}.{self.index}"

    def argv(self, *command: str) -> list[str]:
        return ["ip", "netns", "exec", self.ns, *command]

    def down(self) -> None:
        _ip("-n", self.ns, "link", "set", "eth0", "down")

    def up(self) -> None:
        _ip("-n", self.ns, "link", "set", "eth0", "up")
        # The multicast route goes with the link; mDNS needs it back.
        _ip("-n", self.ns, "route", "replace", "224.0.0.0/4", "dev", "eth0")


@dataclass
class Lan:
    tag: str = field(default_factory=lambda: uuid.uuid4().hex[:6])
    hosts: list[Host] = field(default_factory=list)

    @property
    def hub(self) -> str:
        return f"pp-{self.tag}-hub"

    def __post_init__(self) -> None:
        _ip("netns", "add", self.hub)
        _ip("-n", self.hub, "link", "set", "lo", "up")
        _ip("-n", self.hub, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
        _ip("-n", self.hub, "link", "set", "br0", "up")

    def add(self) -> Host:
        index = len(self.hosts) + 2
        host = Host(f"pp-{self.tag}-h{index}", index)
        _ip("netns", "add", host.ns)
        self.hosts.append(host)
        _ip("-n", host.ns, "link", "set", "lo", "up")
        _ip("-n", self.hub, "link", "add", f"v{index}", "type", "veth",
            "peer", "name", "eth0", "netns", host.ns)
        _ip("-n", self.hub, "link", "set", f"v{index}", "master", "br0")
        _ip("-n", self.hub, "link", "set", f"v{index}", "up")
        _ip("-n", host.ns, "addr", "add", f"{host.address}/24", "dev", "eth0")
        host.up()
        return host

    def close(self) -> None:
        for host in self.hosts:
            _ip("netns", "del", host.ns, check=False)
        _ip("netns", "del", self.hub, check=False)
        self.hosts.clear()


def require_netns() -> None:
    """Skip the calling test where network namespaces do not work."""
    reason = netns_available()
    if reason is not None:
        pytest.skip(f"network namespaces unavailable: {reason}")


@contextmanager
def fresh_lan() -> Iterator[Lan]:
    """A new test LAN, taken down after (the test is skipped without namespaces)."""
    require_netns()
    lan = Lan()
    try:
        yield lan
    finally:
        lan.close()
