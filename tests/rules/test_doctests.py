"""The examples in the rules' docstrings run, as the other packages' do."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import rules

MODULES = sorted(m.name for m in pkgutil.iter_modules(rules.__path__))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"rules.{name}")
    assert doctest.testmod(module).failed == 0
