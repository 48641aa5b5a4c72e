"""Fixtures for peer-sync tests: a namespace LAN, a venue key, peers cleaned up."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.sync.auth import new_key
from tests.sync.harness import Peer
from tests.sync.netns import Lan, fresh_lan


@pytest.fixture
def lan() -> Iterator[Lan]:
    with fresh_lan() as made:
        yield made


@pytest.fixture
def venue_key() -> str:
    return new_key().hex()


@pytest.fixture
def spawn(tmp_path: Path, venue_key: str) -> Iterator[Callable[..., Peer]]:
    """Start peers; every one is stopped (or killed) at the end of the test."""
    started: list[Peer] = []

    def make(host: Any, role: str, *, name: str, start: bool = True, **kw: Any) -> Peer:
        kw.setdefault("key", venue_key)
        peer = Peer(host, tmp_path / name, role, name=name, **kw)
        started.append(peer)
        return peer.start() if start else peer

    try:
        yield make
    finally:
        for peer in started:
            peer.stop()
