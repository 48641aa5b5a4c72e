"""A module's logger that imports :mod:`logging` only when something is logged.

``logging`` (with ``traceback``, ``string`` and ``threading``) is a noticeable
share of a CLI command's start-up, and the store and station log only when
something goes wrong. ``log = logger(__name__)`` stands for
``logging.getLogger(__name__)``: the first call of any of its methods gets the
real logger by that name (so the kiosk's logging set-up applies to it).

>>> import sys
>>> log = logger("kiosk.example")
>>> log.name
'kiosk.example'
>>> log.isEnabledFor(50), type(log.real).__name__
(True, 'Logger')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import logging

__all__ = ["LazyLogger", "logger"]


class LazyLogger:
    """Stands for ``logging.getLogger(name)`` until first used."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._real: logging.Logger | None = None

    @property
    def real(self) -> logging.Logger:
        if self._real is None:
            import logging

            self._real = logging.getLogger(self.name)
        return self._real

    def __getattr__(self, attr: str) -> Any:
        # Only for what the instance itself lacks: debug, info, warning, error, exception…
        return getattr(self.real, attr)


def logger(name: str) -> LazyLogger:
    return LazyLogger(name)
