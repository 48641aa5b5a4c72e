"""The examples in kiosk.sync's docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["auth", "frames", "roles", "timesync", "status", "discovery"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(f"kiosk.sync.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
