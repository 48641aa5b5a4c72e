"""Suite-wide fixtures."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

# The processes the tests start (`pubpoker`, kiosks, peers) run as on the device,
# whose modules pip byte-compiled at install: with PYTHONDONTWRITEBYTECODE in the
# shell each of them compiled every module from source, a quarter of a second a
# start and thousands of starts a run. The caches go outside the checkout.
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
    os.environ.setdefault("PYTHONPYCACHEPREFIX", str(
        Path(os.environ.get("TMPDIR", "/tmp")) / "pubpoker-test-pycache"))


@pytest.fixture(autouse=True)
def no_leaked_threads() -> Iterator[None]:
    """Fail any test that leaves a thread running: only one thread owns state."""
    before = set(threading.enumerate())
    yield
    leaked = [
        t for t in threading.enumerate()
        if t not in before and t.is_alive() and not t.daemon
    ]
    for thread in leaked:
        thread.join(timeout=2.0)
    still = [t.name for t in leaked if t.is_alive()]
    assert not still, f"test left threads running: {still}"
