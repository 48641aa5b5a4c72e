"""Keyboard-wedge (USB HID) readers: a card arrives as fast typed digits and Enter.

The display turns key events into calls to :meth:`WedgeBuffer.feed`. A reader
types a whole UID in a few milliseconds, a person types far slower, so any gap
longer than ``max_gap`` between keys starts over: typed digits are never
mistaken for a card.

>>> w = WedgeBuffer()
>>> [w.feed(k, 10.0 + i * 0.01) for i, k in enumerate("0012345678")][-1] is None
True
>>> w.feed("\\r", 10.11)
CardRead(uid='0012345678', reader='keyboard', at=10.11)
>>> w.feed("1", 20.0), w.feed("2", 20.3), w.pending
(None, None, True)
"""

from __future__ import annotations

from hardware.inputs import CardRead

__all__ = ["WedgeBuffer"]

_ENTER = frozenset({"\r", "\n", "\r\n"})
_DIGITS = frozenset("0123456789")


class WedgeBuffer:
    """Collects digits typed by a wedge reader until Enter; pure, no clock."""

    def __init__(
        self,
        *,
        max_gap: float = 0.1,
        min_len: int = 8,
        max_len: int = 20,
        reader: str = "keyboard",
    ) -> None:
        self.max_gap = max_gap
        self.min_len = min_len
        self.max_len = max_len
        self.reader = reader
        self._digits: list[str] = []
        self._last: float | None = None
        self._spoilt = False

    @property
    def pending(self) -> bool:
        """Whether a card may be arriving (the display may hold back its shortcuts)."""
        return bool(self._digits)

    def feed(self, key: str, at: float) -> CardRead | None:
        """One key: a character (``event.unicode``), ``"\\r"`` or ``"\\n"`` for Enter."""
        if self._last is not None and at - self._last > self.max_gap:
            self._reset()
        self._last = at
        if key in _ENTER:
            uid, spoilt = "".join(self._digits), self._spoilt
            self._reset()
            if not spoilt and self.min_len <= len(uid) <= self.max_len:
                return CardRead(uid=uid, reader=self.reader, at=at)
            return None
        if key in _DIGITS and len(self._digits) < self.max_len and not self._spoilt:
            self._digits.append(key)
        else:
            # Not a digit, or too many: this burst is not a card. Ignore the
            # rest of it until a pause or an Enter.
            self._digits.clear()
            self._spoilt = True
        return None

    def _reset(self) -> None:
        self._digits.clear()
        self._spoilt = False
