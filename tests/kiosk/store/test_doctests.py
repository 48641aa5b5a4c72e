"""The store's docstring examples run as tests (CI runs doctests only for rules/)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["kiosk.paths", "kiosk.store", "kiosk.store.cards", "kiosk.store.errors",
           "kiosk.store.log", "kiosk.store.players", "kiosk.store.space"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0
