"""Finding peers: zeroconf service ``_pubpoker._tcp.local.`` on chosen interfaces.

The TXT record says the protocol version, device id, role, current
tournament and a short digest of the log head (a hash of the version
vector), so a status tool can see who is behind without a link. None of it
is trusted: a peer's identity and role count only once its signed hello
arrives. Runs in the sync loop (``AsyncZeroconf``), never on the main loop.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import socket
from collections.abc import Callable, Mapping, Sequence

from zeroconf import IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from kiosk.sync.frames import PROTOCOL
from kiosk.sync.link import Identity
from rules.codec import canonical_json
from rules.records import RecordMethods, record

__all__ = ["SERVICE_TYPE", "Discovery", "Found", "head_digest", "interface_addresses",
           "network_signature"]

log = logging.getLogger(__name__)

SERVICE_TYPE = "_pubpoker._tcp.local."


def head_digest(vector: Mapping[str, int]) -> str:
    """A short hash of a version vector: equal logs announce equal heads.

    >>> head_digest({"b": 2, "a": 1}) == head_digest({"a": 1, "b": 2})
    True
    """
    return hashlib.sha256(canonical_json(dict(vector)).encode()).hexdigest()[:16]


def interface_addresses(name: str) -> list[str]:
    """IPv4 addresses of a network interface (``[network] interface`` in the config)."""
    import ifaddr

    return [str(ip.ip) for adapter in ifaddr.get_adapters() if adapter.nice_name == name
            for ip in adapter.ips if isinstance(ip.ip, str)]


def network_signature() -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """Every interface's link state and IPv4 addresses; it changes when the network does.

    A Pi often starts before its Wi-Fi is up, and mDNS announcements and
    queries sent into a dead link are gone for good; when this changes, the
    service announces and browses afresh.
    """
    from pathlib import Path

    import ifaddr

    out = []
    for adapter in ifaddr.get_adapters():
        if adapter.nice_name == "lo":
            continue
        try:
            state = (Path("/sys/class/net") / adapter.nice_name / "operstate").read_text()
        except OSError:
            state = "?"
        out.append((adapter.nice_name, state.strip(),
                    tuple(sorted(str(ip.ip) for ip in adapter.ips if isinstance(ip.ip, str)))))
    return tuple(sorted(out))


@record
class Found(RecordMethods):
    """A peer's announcement (unauthenticated)."""

    device_id: str
    addresses: tuple[str, ...]
    port: int
    role: str
    tournament: str
    head: str


class Discovery:
    """Announce this device and report others; callbacks run in the sync loop."""

    def __init__(self, me: Identity, *, addresses: Sequence[str], port: int,
                 on_found: Callable[[Found], None], on_lost: Callable[[str], None]) -> None:
        self.me = me
        self.addresses = list(addresses)
        self.port = port
        self.on_found = on_found
        self.on_lost = on_lost
        self._aiozc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._info: AsyncServiceInfo | None = None
        self._names: dict[str, str] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._tournament = ""
        self._head = ""

    def _properties(self) -> dict[str, str]:
        return {"proto": str(PROTOCOL), "id": self.me.device_id, "role": self.me.role,
                "tid": self._tournament, "head": self._head}

    def _service_info(self) -> AsyncServiceInfo:
        name = "".join(c if c.isalnum() else "-" for c in (self.me.name or self.me.role))
        label = f"{name[:40]}-{self.me.device_id[:12]}"
        return AsyncServiceInfo(
            SERVICE_TYPE, f"{label}.{SERVICE_TYPE}",
            addresses=[socket.inet_aton(a) for a in self.addresses], port=self.port,
            properties=self._properties(), server=f"pubpoker-{self.me.device_id[:12]}.local.")

    async def start(self, tournament: str | None, head: str) -> None:
        self._tournament, self._head = tournament or "", head
        self._aiozc = AsyncZeroconf(interfaces=self.addresses, ip_version=IPVersion.V4Only)
        self._info = self._service_info()
        await self._aiozc.async_register_service(self._info, allow_name_change=True)
        self._browser = AsyncServiceBrowser(self._aiozc.zeroconf, SERVICE_TYPE,
                                            handlers=[self._on_change])

    async def update(self, tournament: str | None, head: str) -> None:
        """Announce a new log head (and tournament)."""
        if self._aiozc is None or self._info is None:
            return
        if (tournament or "", head) == (self._tournament, self._head):
            return
        self._tournament, self._head = tournament or "", head
        self._info = AsyncServiceInfo(
            SERVICE_TYPE, self._info.name, addresses=self._info.addresses, port=self.port,
            properties=self._properties(), server=self._info.server)
        await self._aiozc.async_update_service(self._info)

    def _on_change(self, zeroconf: Zeroconf, service_type: str, name: str,
                   state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Removed:
            device_id = self._names.pop(name, None)
            if device_id is not None:
                self.on_lost(device_id)
            return
        task = asyncio.get_running_loop().create_task(self._resolve(name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(self, name: str) -> None:
        if self._aiozc is None:
            return
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        try:
            if not await info.async_request(self._aiozc.zeroconf, 3000):
                return
        except Exception:  # a half-announced service; the next update tries again
            log.debug("could not resolve %s", name, exc_info=True)
            return
        props = {k.decode(errors="replace"): (v or b"").decode(errors="replace")
                 for k, v in info.properties.items()}
        device_id = props.get("id", "")
        if not device_id or device_id == self.me.device_id or info.port is None:
            return
        if props.get("proto") != str(PROTOCOL):
            return
        self._names[name] = device_id
        self.on_found(Found(device_id, tuple(info.parsed_addresses(IPVersion.V4Only)),
                            info.port, props.get("role", ""), props.get("tid", ""),
                            props.get("head", "")))

    async def restart(self) -> None:
        """Announce and browse afresh, on new sockets (after the network changed)."""
        await self.close()
        self._names.clear()
        await self.start(self._tournament, self._head)

    async def refresh(self) -> None:
        """Announce again and browse afresh on the same sockets (nobody answered).

        Lighter than :meth:`restart`, which a lone device would otherwise run
        every couple of minutes all night: no new sockets and no probing for
        the name, only the announcement sent again and the browser's queries
        started over, so a peer that missed the announcement, or came up on a
        new port, is found as quickly.
        """
        if self._aiozc is None or self._info is None:
            await self.start(self._tournament, self._head)
            return
        await self._aiozc.async_update_service(self._info)
        if self._browser is not None:
            await self._browser.async_cancel()
        self._browser = AsyncServiceBrowser(self._aiozc.zeroconf, SERVICE_TYPE,
                                            handlers=[self._on_change])

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._browser is not None:
            await self._browser.async_cancel()
        if self._aiozc is not None:
            if self._info is not None:
                try:
                    await asyncio.wait_for(self._aiozc.async_unregister_service(self._info), 2)
                except (TimeoutError, Exception):  # closing anyway
                    log.debug("unregister failed", exc_info=True)
            await self._aiozc.async_close()
        self._aiozc = None
        self._browser = None
        self._info = None
