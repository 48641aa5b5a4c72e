"""Adapters that turn buttons and card readers into input messages on a queue.

The messages live in :mod:`hardware.inputs` and are re-exported here; the
adapters themselves (:mod:`hardware.buttons`, :mod:`hardware.readers`) are
imported on their own, so reading a message type never loads gpiozero or
pyserial. See ``hardware/README.md`` for the wiring.
"""

from hardware.inputs import (
    Action,
    ButtonHint,
    ButtonPressed,
    ButtonsHeld,
    CardRead,
    Input,
    ReaderStatus,
)

__all__ = [
    "Action",
    "ButtonHint",
    "ButtonPressed",
    "ButtonsHeld",
    "CardRead",
    "Input",
    "ReaderStatus",
]
