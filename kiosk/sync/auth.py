"""The venue key, frame MACs, event seals and replay protection.

Every device of a venue holds the same 32-byte key. A frame's MAC is
HMAC-SHA256 over its canonical JSON without the ``mac`` field; an event's
*seal* is HMAC-SHA256 over the canonical JSON of its identity, the role its
origin emitted it under, and its exact payload text. The seal is kept in the
store's ``mac`` column as ``1:<role>:<table>:<hex>``, so an event relayed by
any peer still says, verifiably, which role its origin held.

A shared key keeps out anyone without it (the pub's other Wi-Fi guests); it
cannot tell apart two devices that both hold it. Roles therefore limit honest
but misconfigured devices, not a stolen key.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.codec import canonical_json
from rules.records import RecordMethods, record

__all__ = [
    "KEY_BYTES",
    "BadKey",
    "ReplayGuard",
    "Seal",
    "event_seal",
    "frame_mac",
    "new_key",
    "open_seal",
    "parse_key",
    "session_id",
]

KEY_BYTES = 32
SEAL_VERSION = "1"


class BadKey(ValueError):
    """A venue key that is not 64 hex characters."""


def new_key() -> bytes:
    return secrets.token_bytes(KEY_BYTES)


def parse_key(text: str | bytes) -> bytes:
    """The 32-byte key from its hex spelling (or the raw bytes).

    >>> parse_key("00" * 32) == bytes(32)
    True
    """
    if isinstance(text, bytes):
        if len(text) != KEY_BYTES:
            raise BadKey(f"a venue key is {KEY_BYTES} bytes, not {len(text)}")
        return text
    cleaned = text.strip().lower()
    try:
        key = bytes.fromhex(cleaned)
    except ValueError as err:
        raise BadKey("a venue key is 64 hex characters") from err
    if len(key) != KEY_BYTES:
        raise BadKey("a venue key is 64 hex characters")
    return key


def frame_mac(key: bytes, frame: Mapping[str, Any]) -> str:
    """HMAC-SHA256 of the frame's canonical JSON, its own ``mac`` left out."""
    body = {k: v for k, v in frame.items() if k != "mac"}
    return hmac.new(key, canonical_json(body).encode(), hashlib.sha256).hexdigest()


def session_id(dialer_challenge: str, server_challenge: str) -> str:
    """Binds a link's frames to both sides' fresh challenges (no cross-link replay)."""
    text = f"pubpoker-link/1|{dialer_challenge}|{server_challenge}"
    return hashlib.sha256(text.encode()).hexdigest()[:32]


@record
class Seal(RecordMethods):
    """What an event's ``mac`` column says: the origin's role and table, and the MAC."""

    role: str
    table: int | None
    mac: str

    def text(self) -> str:
        table = "" if self.table is None else str(self.table)
        return f"{SEAL_VERSION}:{self.role}:{table}:{self.mac}"

    @classmethod
    def stored(cls, text: str) -> Seal | None:
        """What a stored row's seal says, its MAC not checked again (it was at
        receipt); None for a row without one (this device's own, unsealed).

        >>> Seal.stored("1:table:3:ab"), Seal.stored("")
        (Seal(role='table', table=3, mac='ab'), None)
        """
        parts = text.split(":")
        if len(parts) != 4 or parts[0] != SEAL_VERSION:
            return None
        try:
            table = int(parts[2]) if parts[2] else None
        except ValueError:
            return None
        return cls(parts[1], table, parts[3])


def _event_mac(key: bytes, device_id: str, seq: int, lamport: int, tournament_id: str,
               role: str, table: int | None, payload: str) -> str:
    body = canonical_json(["pubpoker-event/1", device_id, seq, lamport, tournament_id,
                           role, table, payload])
    return hmac.new(key, body.encode(), hashlib.sha256).hexdigest()


def event_seal(key: bytes, device_id: str, seq: int, lamport: int, tournament_id: str,
               payload: str, *, role: str, table: int | None) -> str:
    """The ``mac`` column text for an event this device emits under ``role``."""
    mac = _event_mac(key, device_id, seq, lamport, tournament_id, role, table, payload)
    return Seal(role, table, mac).text()


def open_seal(key: bytes, device_id: str, seq: int, lamport: int, tournament_id: str,
              payload: str, seal: str) -> Seal | None:
    """The seal's role and table if it is genuine; None for a bad or missing seal.

    >>> k = bytes(32)
    >>> s = event_seal(k, "d1", 1, 1, "t1", "{}", role="table", table=3)
    >>> opened = open_seal(k, "d1", 1, 1, "t1", "{}", s)
    >>> opened is not None and (opened.role, opened.table)
    ('table', 3)
    >>> open_seal(k, "d1", 1, 2, "t1", "{}", s) is None
    True
    """
    parts = seal.split(":")
    if len(parts) != 4 or parts[0] != SEAL_VERSION:
        return None
    _, role, table_text, mac = parts
    try:
        table = int(table_text) if table_text else None
    except ValueError:
        return None
    want = _event_mac(key, device_id, seq, lamport, tournament_id, role, table, payload)
    if not hmac.compare_digest(want, mac):
        return None
    return Seal(role, table, mac)


@dataclass
class ReplayGuard:
    """Per link and direction: counters must rise and nonces never repeat."""

    window: int = 4096
    last_counter: int = 0
    _seen: set[str] = field(default_factory=set)
    _order: deque[str] = field(default_factory=deque)

    def check(self, counter: int, nonce: str) -> bool:
        """True (and remember it) for a fresh frame; False for a replay."""
        if counter <= self.last_counter or nonce in self._seen:
            return False
        self.last_counter = counter
        self._seen.add(nonce)
        self._order.append(nonce)
        if len(self._order) > self.window:
            self._seen.discard(self._order.popleft())
        return True
