"""Plugging the hardware into a running app, and peer sync into the loop as it is built.

:func:`kiosk.bootstrap.bootstrap` calls these for the appliance, with the
pins, reader and venue of ``pubpoker.toml`` and the real pin factory; tests call
the hardware's with gpiozero's ``MockFactory`` and a pty, and hand the bootstrap
their :class:`SyncSettings`. Everything attached here is
closed by ``app.close()`` (threads joined, pins released).
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from kiosk.station import Station
    from kiosk.sync.replicate import Replicator
    from kiosk.timebase import SharedClock

__all__ = ["SyncSettings", "attach_buttons", "attach_reader", "start_sync", "sync_receivers"]

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


@dataclass(frozen=True)
class SyncSettings:
    """How this device syncs with its peers: the venue's key and where it listens."""

    key: bytes
    #: The device's name its peers see.
    name: str = ""
    addresses: tuple[str, ...] = ("0.0.0.0",)
    #: Find peers by mDNS (off in tests: they name their peers).
    discover: bool = True
    #: Peers to link to by address, besides the ones found.
    peers: tuple[tuple[str, int], ...] = ()
    port: int = 0


def start_sync(station: Station, clock: SharedClock, inputs: queue.Queue[Any],
               settings: SyncSettings, *, role: str, table: int | None) -> Replicator:
    """Peer sync, started before the loop it is handed to: its thread runs the links
    and puts what arrives on ``inputs``; the loop folds it through the returned
    :class:`~kiosk.sync.replicate.Replicator` (its receiver for sync's items, and
    a tick hook), and reads the service's peer count for the status line."""
    from kiosk.sync.link import Identity
    from kiosk.sync.replicate import Replicator
    from kiosk.sync.service import SyncConfig, SyncService

    me = Identity(station.store.device_id, role, table, settings.name)
    config = SyncConfig(addresses=settings.addresses, port=settings.port,
                        discover=settings.discover, peers=settings.peers)
    service = SyncService(me, settings.key, clock, config, inbound=inputs)
    service.start()
    return Replicator(station, service, key=settings.key, me=me)


def sync_receivers(replicator: Replicator) -> dict[type, Callable[[Any], None]]:
    """Sync's items, each to the replicator: the loop's receivers for them."""
    from kiosk.sync.service import Incoming, Want

    return {kind: replicator.handle for kind in (Incoming, Want)}
