"""The examples in the display modules' docstrings run."""

from __future__ import annotations

import doctest

import pytest

from kiosk.display import messages, viewmodels


@pytest.mark.parametrize("module", [messages, viewmodels], ids=lambda m: m.__name__)
def test_docstring_examples(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.failed == 0
