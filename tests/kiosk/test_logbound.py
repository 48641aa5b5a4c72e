"""The kiosk's log is bounded: a fault that repeats is written a few times, then counted."""

from __future__ import annotations

import io
import logging
import subprocess
import sys

from kiosk.logbound import BoundedHandler
from tests.kiosk.store.helpers import ROOT, child_env


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def _logger(handler: logging.Handler, name: str = "test.logbound") -> logging.Logger:
    log = logging.getLogger(name)
    log.handlers[:] = [handler]
    log.propagate = False
    log.setLevel(logging.WARNING)
    return log


def test_a_repeating_record_is_written_a_few_times_then_counted_once_a_window() -> None:
    out, clock = io.StringIO(), Clock()
    log = _logger(BoundedHandler(out, burst=3, window=60.0, clock=clock))
    for n in range(1000):
        log.warning("reader unplugged (%d)", n)
    log.error("something else")
    assert out.getvalue().count("reader unplugged") == 3
    assert "something else" in out.getvalue()
    clock.t = 61.0
    log.warning("reader unplugged (%d)", 1000)
    lines = out.getvalue().splitlines()
    assert lines[4] == ("997 more log record(s) like this were left out in 60 s: "
                        "test.logbound: reader unplugged (%d)")
    assert lines[5] == "reader unplugged (1000)"


def test_a_flood_of_tracebacks_stays_within_the_windows_bound() -> None:
    out, clock = io.StringIO(), Clock()
    log = _logger(BoundedHandler(out, burst=5, per_window=100, window=60.0, clock=clock),
                  "test.logbound.flood")
    for n in range(20_000):
        clock.t = n * 0.003  # 20,000 in a minute: what one EMFILE flood used to write
        try:
            raise OSError(24, "Too many open files")
        except OSError:
            log.exception("socket.accept() out of system resource")
        # Messages that are all different (an f-string with a number) are bounded too.
        log.error(f"peer {n} sent garbage")
    text = out.getvalue()
    assert text.count("Traceback") == 5
    assert text.count("sent garbage") <= 100
    assert len(text) < 20_000


def test_the_kiosk_process_bounds_its_own_log() -> None:
    """The handler is the one `pubpoker kiosk` installs (the root logger's, at WARNING)."""
    code = ("import logging, sys; from kiosk.logbound import install; h = install(); "
            "log = logging.getLogger('kiosk.x'); "
            "[log.warning('same %d', n) for n in range(500)]; log.info('quiet'); h.close()")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=child_env(),
                          capture_output=True, text=True, timeout=60, check=True)
    lines = done.stderr.splitlines()
    assert lines[:5] == [f"same {n}" for n in range(5)]
    assert lines[5:] == ["495 more log record(s) like this were left out in 60 s: "
                         "kiosk.x: same %d"]
