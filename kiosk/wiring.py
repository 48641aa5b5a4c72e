"""Plugging the hardware and peer sync into a running app.

:func:`kiosk.bootstrap.bootstrap` calls these for the appliance, with the
pins and reader of ``pubpoker.toml`` and the real pin factory; tests call
them with gpiozero's ``MockFactory`` and a pty. Everything attached here is
closed by ``app.close()`` (threads joined, pins released).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from hardware.buttons import ButtonPanel
from hardware.inputs import Action
from hardware.readers import (
    CardReader,
    CardReaderWorker,
    open_line_reader,
    open_pn532,
    open_rdm6300,
    open_wedge,
)
from kiosk.app import App

__all__ = ["attach_buttons", "attach_reader", "attach_sync"]

log = logging.getLogger(__name__)

OPENERS: Mapping[str, Callable[[str], CardReader]] = {
    "rdm6300": open_rdm6300,
    "pn532": open_pn532,
    "line": open_line_reader,
    "wedge": open_wedge,
}


def attach_buttons(app: App, pins: Mapping[str, int], *, pin_factory: Any = None,
                   long_press: float = 1.5) -> ButtonPanel:
    """A button panel whose presses go on ``app.inputs``, which wakes the loop.

    The panel pushes: nothing polls it from the loop. On a real clock its own
    thread (:meth:`~hardware.buttons.ButtonPanel.start`) emits releases, long
    presses and repeats as they fall due. Fake time (``app.time``) moves only
    when told, so the clock's move emits them instead (its ``on_step``): what
    fell due by the new time is on the queue before the loop's next turn, not
    some real milliseconds later.
    """
    panel = ButtonPanel({Action(name): pin for name, pin in pins.items()}, app.inputs,
                        pin_factory=pin_factory, clock=app.loop.monotonic,
                        long_press=long_press, auto_repeat=True)
    app.on_close.append(panel.close)
    if app.time is None:
        panel.start()
        return panel
    moved = app.time.on_step
    moved.append(panel.poll)
    app.on_close.append(lambda: moved.remove(panel.poll) if panel.poll in moved else None)
    return panel


def attach_reader(app: App, url: str, kind: str = "rdm6300", *,
                  name: str = "reader") -> CardReaderWorker:
    """A card reader on its own thread, reopened with backoff after an unplug.

    The backoff stops at 1 s, not the worker's 8 s: a USB reader plugged back in
    after a minute reads again within about a second (issue 46), and trying to
    open a missing device once a second costs nothing.
    """
    opener = OPENERS[kind]
    worker = CardReaderWorker(name, lambda: opener(url), app.inputs, clock=app.loop.monotonic,
                              max_backoff=1.0)
    worker.start()
    app.on_close.append(worker.stop)
    app.readers.append(worker)
    return worker


def attach_sync(app: App, key: bytes, *, role: str, table: int | None, name: str = "",
                addresses: tuple[str, ...] = ("0.0.0.0",), discover: bool = True,
                peers: tuple[tuple[str, int], ...] = (), port: int = 0) -> Any:
    """Peer sync: its thread runs the links; the loop folds what arrives.

    Returns the :class:`~kiosk.sync.replicate.Replicator`.
    """
    from kiosk.sync.link import Identity
    from kiosk.sync.replicate import Replicator
    from kiosk.sync.service import SyncConfig, SyncService

    me = Identity(app.store.device_id, role, table, name)
    config = SyncConfig(addresses=addresses, port=port, discover=discover, peers=peers)
    service = SyncService(me, key, app.clock, config, inbound=app.inputs)
    service.start()
    app.on_close.insert(0, service.stop)
    app.sync = service
    replicator = Replicator(app.station, service, key=key, me=me)
    from kiosk.sync.service import Incoming, Want

    for kind in (Incoming, Want):
        app.loop.receivers[kind] = replicator.handle
    app.on_tick.append(replicator.tick)
    app.loop.peers = service.peer_count
    return replicator
