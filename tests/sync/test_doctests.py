"""The examples in kiosk.sync's docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["auth", "frames", "roles", "timesync", "status", "discovery", "rest", "gate"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(f"kiosk.sync.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_role_module_examples_run_and_every_part_reads_the_same_enum() -> None:
    import kiosk.config
    import kiosk.controls
    import kiosk.role
    import kiosk.sync.roles

    assert doctest.testmod(kiosk.role).failed == 0
    assert kiosk.config.Role is kiosk.controls.Role is kiosk.sync.roles.Role is kiosk.role.Role
