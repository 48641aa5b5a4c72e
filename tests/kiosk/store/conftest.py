"""Fixtures for the store tests: a real SQLite file in a temporary directory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.store import Store, open_store


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "pubpoker.db"


@pytest.fixture
def store(db_path: Path) -> Iterator[Store]:
    with open_store(db_path) as opened:
        yield opened
