"""The websocket endpoint: peers at ``/sync``; a seam for a read-only phone view.

Phones will later read the tournament at ``/view`` through a handler passed
in here; until then any other path is answered 404 before the upgrade.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from http import HTTPStatus
from typing import Any, cast

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.http11 import Request, Response

from kiosk.sync.frames import MAX_FRAME

__all__ = ["PEER_PATH", "VIEW_PATH", "start_server"]

PEER_PATH = "/sync"
VIEW_PATH = "/view"

Handler = Callable[[ServerConnection], Awaitable[None]]


async def start_server(peer: Handler, *, hosts: Sequence[str] | None, port: int,
                       view: Handler | None = None, ping_interval: float = 1.0,
                       ping_timeout: float = 2.0) -> Server:
    routes = {PEER_PATH: peer}
    if view is not None:
        routes[VIEW_PATH] = view

    def route(conn: ServerConnection, request: Request) -> Response | None:
        if request.path not in routes:
            return conn.respond(HTTPStatus.NOT_FOUND, "no such endpoint\n")
        return None

    async def handler(conn: ServerConnection) -> None:
        await routes[conn.request.path if conn.request else PEER_PATH](conn)

    # asyncio's create_server takes a list of hosts; serve() passes it through.
    host = cast(Any, list(hosts)) if hosts else None
    return await serve(handler, host, port,
                       process_request=route, max_size=MAX_FRAME, compression=None,
                       ping_interval=ping_interval, ping_timeout=ping_timeout,
                       close_timeout=1, open_timeout=3)
