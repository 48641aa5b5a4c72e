"""Tell systemd how the kiosk is doing: ``sd_notify`` without libsystemd.

The unit is ``Type=notify`` with ``WatchdogSec=``: systemd waits for
``READY=1`` before it counts the kiosk as started (``STATUS=`` then says
whether it shows the clock or still waits for a screen), and restarts it
when the loop stops sending ``WATCHDOG=1`` (a hung display or a deadlock is then a
restart, not a frozen clock on the pub TV). The protocol is one datagram of
``KEY=value`` lines to the AF_UNIX socket named in ``$NOTIFY_SOCKET``; a name
starting with ``@`` is in the abstract namespace. It is small enough to write
here rather than depend on a C library or a package that is not in Debian.

Off systemd (a laptop, the tests) ``$NOTIFY_SOCKET`` is unset and every call
does nothing and returns False.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Mapping

__all__ = [
    "Watchdog",
    "notify",
    "ready",
    "status",
    "stopping",
    "watchdog",
    "watchdog_interval",
]


def _address(name: str) -> str | bytes:
    # Abstract-namespace sockets are spelt with a leading "@" in the
    # environment and with a leading NUL byte on the wire.
    if name.startswith("@"):
        return b"\0" + name[1:].encode()
    return name


def notify(state: str, *, env: Mapping[str, str] | None = None) -> bool:
    """Send ``state`` (``KEY=value`` lines) to systemd; True if it was sent.

    >>> notify("READY=1", env={})
    False
    """
    environ = os.environ if env is None else env
    name = environ.get("NOTIFY_SOCKET", "")
    if not name or name[0] not in "/@":
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(_address(name))
            sock.sendall(state.encode())
    except OSError:
        # systemd gone or the socket unreachable: the kiosk must keep running,
        # and a missed ping is the watchdog's business.
        return False
    return True


def ready(status: str | None = None, *, env: Mapping[str, str] | None = None) -> bool:
    """The kiosk is up (its store and peer sync run); ``status`` says what it shows.

    Both go in one datagram, so ``systemctl status`` never shows the kiosk
    started with the previous status line.
    """
    state = "READY=1" if status is None else "READY=1\n" + _status_line(status)
    return notify(state, env=env)


def stopping(*, env: Mapping[str, str] | None = None) -> bool:
    """The kiosk is shutting down on purpose."""
    return notify("STOPPING=1", env=env)


def watchdog(*, env: Mapping[str, str] | None = None) -> bool:
    """One keep-alive ping."""
    return notify("WATCHDOG=1", env=env)


def status(text: str, *, env: Mapping[str, str] | None = None) -> bool:
    """A one-line status shown by ``systemctl status`` (newlines become spaces)."""
    return notify(_status_line(text), env=env)


def _status_line(text: str) -> str:
    return "STATUS=" + " ".join(text.splitlines())


def watchdog_interval(
    *, env: Mapping[str, str] | None = None, pid: int | None = None
) -> float | None:
    """The watchdog timeout in seconds, or None when no watchdog is armed for us.

    ``$WATCHDOG_PID``, when set, names the process the watchdog is meant for,
    so a child that inherited the environment does not ping for its parent.

    >>> watchdog_interval(env={"WATCHDOG_USEC": "30000000"})
    30.0
    >>> watchdog_interval(env={"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}, pid=2) is None
    True
    >>> watchdog_interval(env={"WATCHDOG_USEC": "nonsense"}) is None
    True
    """
    environ = os.environ if env is None else env
    raw = environ.get("WATCHDOG_USEC", "")
    try:
        usec = int(raw)
    except ValueError:
        return None
    if usec <= 0:
        return None
    owner = environ.get("WATCHDOG_PID", "")
    if owner:
        try:
            if int(owner) != (os.getpid() if pid is None else pid):
                return None
        except ValueError:
            return None
    return usec / 1_000_000


class Watchdog:
    """Pings systemd from the main loop, at most once per half interval.

    Call :meth:`tick` every loop iteration with the monotonic time; it sends
    ``WATCHDOG=1`` only when half the interval has passed since the last
    ping, so a loop that wakes often costs one ``sendto`` now and then.
    Without a watchdog (``interval`` None) it does nothing. The loop builds
    it with :meth:`from_env`.

    >>> sent = []
    >>> dog = Watchdog(interval=10.0, send=lambda: sent.append(1) or True)
    >>> [dog.tick(t) for t in (0.0, 1.0, 4.9, 5.0, 6.0, 10.0)]
    [True, False, False, True, False, True]
    >>> Watchdog(interval=None).tick(0.0)
    False
    """

    def __init__(
        self,
        interval: float | None = None,
        *,
        send: Callable[[], bool] | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.interval = interval
        self._send: Callable[[], bool] = send or (lambda: watchdog(env=env))
        self._last: float | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Watchdog:
        """A watchdog for this process as systemd configured it (maybe disabled)."""
        return cls(watchdog_interval(env=env), env=env)

    @property
    def enabled(self) -> bool:
        return self.interval is not None

    def tick(self, now: float) -> bool:
        """Ping if due at monotonic time ``now``; True when a ping was sent."""
        if self.interval is None:
            return False
        if self._last is not None and now - self._last < self.interval / 2:
            return False
        self._last = now
        return self._send()
