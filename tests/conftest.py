"""Suite-wide fixtures."""

from __future__ import annotations

import functools
import os
import re
import resource
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import forkserver

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


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadfile``, but the files that share one booted VM are one scope.

    Each worker builds its own session fixtures, so files sent to two workers
    would boot the VM twice (tests/appliance/devices_vm.py)."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    from tests.appliance.devices_vm import SHARING

    class SharedVmScheduling(LoadFileScheduling):
        ordered = False

        def _split_scope(self, nodeid: str) -> str:
            scope = str(super()._split_scope(nodeid))
            return SHARING[0] if scope in SHARING else scope

        def _assign_work_unit(self, node: Any) -> None:
            # The longest chains first (longest processing time first): xdist
            # queues files by their count of tests, so a VM file of five tests
            # started late and the run waited on it alone at the end. The
            # marks say what is long: a VM boot, then a chroot, then a whole
            # night, then real processes; within a kind, most tests first.
            root = self.config.rootpath
            if not self.ordered and self.config.option.loadscopereorder:
                self.ordered = True
                units = sorted(self.workqueue.items(),
                               key=lambda unit: (_heaviness(root, unit[0]), -len(unit[1])))
                self.workqueue.clear()
                self.workqueue.update(units)
            # xdist hands a worker its next file while the last tests of its file
            # still run (a worker needs its next test to finish the one before).
            # Behind a long one (a VM boot, a night) that next file waits for
            # minutes: it gets the lightest file waiting, and the long ones go to
            # workers about to be free.
            running = self.assigned_work.get(node, {})
            if len(self.workqueue) > 1 and any(
                    _heaviness(root, scope) < len(_LONG_MARKS)
                    for scope, tests in running.items() if not all(tests.values())):
                self.workqueue.move_to_end(next(reversed(self.workqueue)), last=False)
            super()._assign_work_unit(node)

    return SharedVmScheduling(config, log)


#: The marks of a file's tests that make it long, longest first (pyproject.toml).
_LONG_MARKS = ("vm", "chroot", "night", "realproc", "slow", "browser")


@functools.cache
def _heaviness(root: Path, scope: str) -> int:
    """How long a file's tests take, by the first of :data:`_LONG_MARKS` its source
    uses (``pytest.mark.vm``): 0 for a VM boot, up to len(_LONG_MARKS) for none."""
    try:
        source = (root / scope).read_text(encoding="utf-8")
    except OSError:
        return len(_LONG_MARKS)
    used = set(re.findall(r"mark\.(\w+)", source))
    return next((rank for rank, mark in enumerate(_LONG_MARKS) if mark in used),
                len(_LONG_MARKS))


# --- CPU by test file -------------------------------------------------------------
# The full suite is bound by the CPU of two cores, not by waiting, so each run
# says which files spend it. A phase's CPU is this process's and its reaped
# children's (kiosks, `pubpoker` commands): a child still running when the phase
# ends counts where it is reaped. The children that run on across tests (a fork
# server and the commands it reaps, a VM's QEMU) count as they spend it, read
# from /proc (forkserver.LiveChild).


def _cpu() -> float:
    own, children = (resource.getrusage(who) for who in
                     (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return (own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
            + forkserver.live_cpu())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    yield from _counted(item)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    yield from _counted(item)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    yield from _counted(item)


def _counted(item: pytest.Item) -> Iterator[None]:
    began = _cpu()
    yield
    # user_properties travel with the report, to xdist's controller too.
    item.user_properties.append(("cpu", _cpu() - began))


_CPU_BY_FILE: Counter[str] = Counter()
#: Each file's first start and last stop (epoch seconds) and the worker it ran on:
#: the files that end last are the suite's critical path.
_SPAN_BY_FILE: dict[str, tuple[float, float, str]] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    path = report.nodeid.split("::")[0]
    if report.when == "teardown":
        _CPU_BY_FILE[path] += sum(
            value for name, value in report.user_properties if name == "cpu")
    if report.start:
        first, last, _ = _SPAN_BY_FILE.get(path, (report.start, report.stop, ""))
        worker = getattr(getattr(report, "node", None), "gateway", None)
        _SPAN_BY_FILE[path] = (min(first, report.start), max(last, report.stop),
                               getattr(worker, "id", "") or "")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not _CPU_BY_FILE or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    total = sum(_CPU_BY_FILE.values())
    terminalreporter.write_sep("=", f"CPU by test file: {total:.0f} CPU-s in all, the 15 most")
    for path, seconds in _CPU_BY_FILE.most_common(15):
        terminalreporter.write_line(f"{seconds:8.1f} s  {path}")
    if _SPAN_BY_FILE:
        zero = min(first for first, _, _ in _SPAN_BY_FILE.values())
        terminalreporter.write_sep("=", "the 10 files that ended last: from, to (s into the "
                                        "run), worker")
        for path, (first, last, worker) in sorted(_SPAN_BY_FILE.items(),
                                                   key=lambda kv: -kv[1][1])[:10]:
            terminalreporter.write_line(f"{first - zero:7.0f} {last - zero:7.0f}  {worker:5} "
                                        f"{path}")
    if times := os.environ.get("PUBPOKER_TIMES"):  # .ci/run's summary at the end
        with open(times, "a") as fh:
            fh.write(f"CPU of the tests (theirs and their children's): {total:.0f} s\n")
