"""Plugging the phones' page into a running kiosk (called by the bootstrap).

A port that cannot be had (taken, or below 1024 without the right) is
logged and left out, as a missing card reader is: the wall matters more.
"""

from __future__ import annotations

import logging
import socket
from typing import Any

from kiosk.viewer.feed import ViewerFeed
from kiosk.viewer.server import ViewerServer
from kiosk.viewer.words import WORDS

__all__ = ["attach_viewer", "page_addresses"]

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


def attach_viewer(app: Any, port: int, *, qr: bool = True) -> ViewerFeed | None:
    """Serve the page on ``port``; fed from the loop, stopped with the app."""
    feed = ViewerFeed(app.station, None, lang=app.loop.lang)
    # The night as it is now, so the first phone never sees an empty page.
    feed.server = server = ViewerServer(port=port, document=feed.first(),
                                        clock=app.station.now)
    try:
        server.start()
    except OSError as err:
        log.error("the players' page is not served on port %d: %s", port, err.strerror or err)
        return None
    app.viewer = server
    app.on_tick.append(feed.tick)
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
    return feed
