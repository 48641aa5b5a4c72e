"""The appliance modules' doctests (CI's --doctest-modules covers rules/ only)."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

from kiosk import config, hdmi, health, sdnotify


@pytest.mark.parametrize("module", [config, hdmi, health, sdnotify], ids=lambda m: m.__name__)
def test_doctests(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
