"""The appliance's shared fixtures."""

from __future__ import annotations

from collections.abc import Generator, Iterator

import pytest

from tests.appliance.devices_vm import SHARING, Booted, boot

_booted: list[Generator[Booted, None, None]] = []


@pytest.fixture(scope="session")
def devices_vm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Booted]:
    """The booted appliance with buttons and card readers (devices_vm.py), built once."""
    running = boot(tmp_path_factory)
    _booted.append(running)
    yield next(running)
    running.close()  # stops it, if the files' end has not already


@pytest.hookimpl(trylast=True)  # after the test's own fixtures are torn down
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Stop the shared VM once its files are done on this worker, not at the session's end.

    An idle guest under TCG still draws its clock: kept until the worker's last
    test, it spent CPU beside every file the worker ran after it.
    """
    def sharing(it: pytest.Item | None) -> bool:
        return it is not None and it.nodeid.split("::")[0] in SHARING

    if _booted and sharing(item) and not sharing(nextitem):
        _booted.pop().close()
