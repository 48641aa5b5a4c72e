"""Plugging the phones' page into a running kiosk (called by the bootstrap).

A port that cannot be had (taken, or below 1024 without the right) is
logged, said on the wall's status line, and tried again every
:data:`RETRY_EVERY` seconds: the wall goes on meanwhile, as without a card
reader.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import socket
from typing import Any, Final

from kiosk.store.doctor import VIEWER_KEY
from kiosk.viewer.feed import ViewerFeed
from kiosk.viewer.server import ViewerServer
from kiosk.viewer.words import WORDS
from rules.errors import RulesError
from rules.i18n import OsReason

__all__ = ["RETRY_EVERY", "ViewerNotServed", "attach_viewer", "page_addresses"]

log = logging.getLogger(__name__)


def page_addresses(port: int) -> tuple[str, str]:
    """(the URL by IP for the QR code, the mDNS name for the line under it)."""
    name = f"{socket.gethostname().split('.')[0] or 'pubpoker'}.local"
    try:
        import ifaddr  # zeroconf's own dependency

        ips = [ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips
               if isinstance(ip.ip, str) and not ip.ip.startswith("127.")]
    except Exception:  # no interfaces to read: the name alone
        ips = []
    host = ips[0] if ips else name
    suffix = "" if port == 80 else f":{port}"
    return f"http://{host}{suffix}/", f"{name}{suffix}"


class ViewerNotServed(RulesError, OSError):
    """The players' page could not have its port: said on the wall's status line."""

    messages = {
        "nn": "Mobilsida er ikkje oppe på port {port}: {reason}; prøver igjen",
        "nb": "Mobilsiden er ikke oppe på port {port}: {reason}; prøver igjen",
        "da": "Mobilsiden kører ikke på port {port}: {reason}; prøver igen",
        "en": "The phones' page is not served on port {port}: {reason}; trying again",
    }


#: Seconds between tries for a port that was taken (a second kiosk, an old one
#: still stopping): the page comes up by itself once the port is free.
RETRY_EVERY: Final = 30.0


def attach_viewer(app: Any, port: int, *, qr: bool = True,
                  retry_every: float = RETRY_EVERY) -> ViewerFeed | None:
    """Serve the page on ``port``; fed from the loop, stopped with the app.

    A port that cannot be had is said on the status line (in the wall's
    language) and tried again every ``retry_every`` seconds; None until then.
    """
    feed = ViewerFeed(app.station, None, lang=app.loop.lang)
    failure = _serve(app, feed, port, qr)
    retrying = _Retrying(app, feed, port, qr, failure, retry_every)
    if failure is None:
        retrying.note("")  # a note from an earlier start is over
        return feed
    retrying.attach()
    return None


def _serve(app: Any, feed: ViewerFeed, port: int, qr: bool) -> ViewerNotServed | None:
    """Listen on ``port`` and wire the page in; the reason if the port cannot be had."""
    # The night as it is now, so the first phone never sees an empty page.
    feed.server = server = ViewerServer(port=port, document=feed.first(),
                                        clock=app.station.now)
    try:
        server.start()
    except OSError as err:
        log.error("the players' page is not served on port %d: %s", port, err.strerror or err)
        # The port as text: a number, not an amount ("8082", never "8 082").
        return ViewerNotServed(port=str(port), reason=OsReason.of(err))
    app.viewer = server
    app.hooks.on_tick.append(feed.tick)
    app.on_close.insert(0, server.stop)
    log.info("the players' page is served on port %d", server.port)
    if qr and "display" in str(app.loop.role).split("+"):
        from kiosk.display import qr as wall_qr

        url, name = page_addresses(server.port)
        loop = app.loop
        # Asked on each draw: the caption follows a language change on the wall.
        wall_qr.install(url, lambda: (WORDS[loop.lang]["title"], name))
        app.on_close.append(wall_qr.uninstall)
        app.loop.painter.force_full()
    return None


class _Retrying:
    """The port was taken: say so on the status line, and try it again now and then."""

    def __init__(self, app: Any, feed: ViewerFeed, port: int, qr: bool,
                 failure: ViewerNotServed | None, every: float) -> None:
        self.app, self.feed, self.port, self.qr = app, feed, port, qr
        self.failure: ViewerNotServed | None = failure
        self.every = every
        self.next_try = app.loop.monotonic() + every

    def attach(self) -> None:
        self.app.hooks.status_sources.append(self.status)
        self.app.hooks.on_tick.append(self.tick)
        reason = self.failure.params["reason"] if self.failure is not None else None
        self.note(json.dumps({
            "port": self.port, "errno": getattr(reason, "errno_name", ""),
            "since": dt.datetime.now().astimezone().isoformat(timespec="seconds")}))

    def status(self, lang: str) -> list[str]:
        return [] if self.failure is None else [self.failure.translate(lang)]

    def tick(self) -> None:
        if self.failure is None or self.app.loop.monotonic() < self.next_try:
            return
        self.next_try = self.app.loop.monotonic() + self.every
        self.failure = _serve(self.app, self.feed, self.port, self.qr)
        if self.failure is None:
            self.note("")

    def note(self, value: str) -> None:
        """For ``pubpoker doctor`` (asked over SSH later): the port not had, or "" again."""
        try:
            self.app.store.note(VIEWER_KEY, value)
        except Exception as err:  # a full or read-only disk: the night matters more
            log.warning("viewer port not noted: %s", err)
