"""When the network changes: rtnetlink's link and address messages (Linux, stdlib socket).

Sync rediscovers its peers when the device's network changes (a Pi that
booted before the pub's router, Wi-Fi back after a drop). Reading every
interface's state every two seconds to find out costs a thread hop, a
``getifaddrs`` and a file per interface, forever. The kernel says it
instead: a ``NETLINK_ROUTE`` socket joined to the link and IPv4-address
groups turns readable when a link goes up or down or an address comes or
goes, in the namespace the process runs in. Sync then reads the interfaces
once (:func:`kiosk.sync.discovery.network_signature`) and compares, so what
the messages say need not be parsed, and a message that changes nothing
that matters (a Wi-Fi scan's) costs one read. A lost message (the socket's
buffer overflowed: ``ENOBUFS``) counts as a change.

Where netlink is missing (not Linux, or a sandbox that refuses the socket)
:func:`open_netwatch` gives None, and sync reads the interfaces on a timer
that backs off while nothing happens (:mod:`kiosk.sync.rest`).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import socket
from typing import Final

__all__ = ["NetWatch", "open_netwatch"]

log = logging.getLogger(__name__)

# rtnetlink(7) multicast groups (the legacy bit masks bind() takes).
_RTMGRP_LINK: Final = 0x1
_RTMGRP_IPV4_IFADDR: Final = 0x10


class NetWatch:
    """A netlink socket that is readable after a link or IPv4 address change."""

    def __init__(self) -> None:
        family = getattr(socket, "AF_NETLINK", None)
        if family is None:
            raise OSError(errno.EAFNOSUPPORT, "no netlink here")
        sock = socket.socket(family, socket.SOCK_RAW | socket.SOCK_CLOEXEC,
                             socket.NETLINK_ROUTE)
        try:
            sock.setblocking(False)
            sock.bind((0, _RTMGRP_LINK | _RTMGRP_IPV4_IFADDR))
        except OSError:
            sock.close()
            raise
        self._sock = sock

    def fileno(self) -> int:
        return self._sock.fileno()

    def drain(self) -> bool:
        """Read every waiting message; True if there was one (or some were lost)."""
        seen = False
        while True:
            try:
                if not self._sock.recv(65536):
                    return seen
                seen = True
            except BlockingIOError:
                return seen
            except OSError as err:
                if err.errno == errno.ENOBUFS:  # overflowed: something changed, unknown what
                    seen = True
                    continue
                if err.errno == errno.EINTR:
                    continue
                raise

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._sock.close()


def open_netwatch() -> NetWatch | None:
    """A :class:`NetWatch`, or None where netlink cannot be had."""
    try:
        return NetWatch()
    except OSError as err:
        log.info("no netlink (%s): the network is read on a timer", err)
        return None
