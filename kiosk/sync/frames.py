"""Peer frames: canonical JSON objects, checked before anything reads them.

A frame is ``{"v": 1, "t": type, "c": counter, "n": nonce, "s": session, ...,
"mac": hex}``. :func:`decode_frame` is pure and total: any input either
yields a :class:`Frame` whose fields have the right shapes, or raises
:class:`FrameError` with the reason it is counted under. It never checks the
MAC or the counter; the link does that with the key and its replay guard.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from enum import StrEnum, unique
from typing import Any, Final

from rules.codec import canonical_json
from rules.records import RecordMethods, record

__all__ = [
    "MAX_FRAME",
    "PROTOCOL",
    "EventRow",
    "Frame",
    "FrameError",
    "FrameType",
    "decode_frame",
    "encode_frame",
]

PROTOCOL: Final = 1
#: websockets refuses bigger messages, closing the link (counted as oversize).
MAX_FRAME: Final = 1024 * 1024

#: device_id, seq, lamport, tournament_id, payload text, seal (the ``mac`` column).
EventRow = tuple[str, int, int, str, str, str]


@unique
class FrameType(StrEnum):
    HELLO = "hello"
    #: "I have up to these seqs": the answer is the events the sender lacks.
    HAVE = "have"
    EVENTS = "events"
    TIME = "time"
    TIME_REPLY = "time-reply"


class FrameError(ValueError):
    """A frame that is dropped; ``reason`` is the counter it goes under."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


@record
class Frame(RecordMethods):
    type: FrameType
    counter: int
    nonce: str
    session: str
    mac: str
    #: The whole decoded object, for the MAC check.
    raw: Mapping[str, Any]

    def __getitem__(self, name: str) -> Any:
        return self.raw[name]

    def get(self, name: str, default: Any = None) -> Any:
        return self.raw.get(name, default)


def encode_frame(frame: Mapping[str, Any]) -> str:
    return canonical_json(dict(frame))


# --- shape checks ---------------------------------------------------------------

def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _count(v: Any) -> bool:
    """A counter, seq or Lamport time: an int SQLite and JSON both hold exactly."""
    return _is_int(v) and 0 <= v < 2**53


def _str(v: Any, most: int = 200) -> bool:
    return isinstance(v, str) and len(v) <= most


def _hex(v: Any, length: int) -> bool:
    return isinstance(v, str) and len(v) == length and all(c in "0123456789abcdef" for c in v)


def _vector(v: Any) -> bool:
    return isinstance(v, dict) and len(v) <= 10_000 and all(
        _str(k) and k and _count(n) for k, n in v.items())


def _event_row(v: Any) -> bool:
    return (isinstance(v, list) and len(v) == 6 and _str(v[0]) and bool(v[0])
            and _count(v[1]) and v[1] >= 1 and _count(v[2])
            and _str(v[3]) and bool(v[3]) and _str(v[4], MAX_FRAME) and _str(v[5], 400))


def _time(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and abs(v) < 1e12


_FIELDS: Final[dict[FrameType, dict[str, Callable[[Any], bool]]]] = {
    FrameType.HELLO: {
        "proto": _is_int, "device": lambda v: _str(v) and bool(v), "role": _str,
        "table": lambda v: v is None or _count(v), "name": _str,
        "tournament": lambda v: v is None or _str(v), "challenge": lambda v: _hex(v, 32),
    },
    FrameType.HAVE: {"vector": _vector, "digest": lambda v: _str(v, 64)},
    FrameType.EVENTS: {
        "events": lambda v: isinstance(v, list) and all(_event_row(r) for r in v),
        "more": lambda v: isinstance(v, bool),
    },
    FrameType.TIME: {"t0": _time},
    FrameType.TIME_REPLY: {"t0": _time, "t1": _time, "t2": _time},
}
_HEADER: Final = {"v", "t", "c", "n", "s", "mac"}


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def decode_frame(data: str | bytes) -> Frame:
    """Parse and shape-check one frame; :class:`FrameError` says why not.

    >>> try:
    ...     decode_frame("[]")
    ... except FrameError as err:
    ...     print(err.reason)
    malformed
    """
    if len(data) > MAX_FRAME:
        raise FrameError("oversize")
    try:
        obj = json.loads(data, parse_constant=_no_constant)
    except (ValueError, RecursionError) as err:
        raise FrameError("malformed", "not JSON") from err
    if not isinstance(obj, dict):
        raise FrameError("malformed", "not an object")
    obj = dict[str, Any](obj)
    if obj.get("v") != PROTOCOL or isinstance(obj.get("v"), bool):
        raise FrameError("malformed", "protocol version")
    try:
        kind = FrameType(str(obj.get("t")))
    except ValueError as err:
        raise FrameError("malformed", "frame type") from err
    counter: Any = obj.get("c")
    nonce: Any = obj.get("n")
    session: Any = obj.get("s")
    mac: Any = obj.get("mac")
    if not (_count(counter) and counter >= 1 and _hex(nonce, 32) and _str(session, 64)
            and _hex(mac, 64)):
        raise FrameError("malformed", "header")
    fields = _FIELDS[kind]
    if set(obj) != _HEADER | set(fields):
        raise FrameError("malformed", "fields")
    for name, ok in fields.items():
        if not ok(obj[name]):
            raise FrameError("malformed", name)
    return Frame(kind, counter, nonce, session, mac, obj)
