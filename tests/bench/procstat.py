"""A process's memory and CPU read from ``/proc``, for benchmarks that watch real processes.

psutil is not a dependency; ``/proc/PID/status`` and ``/proc/PID/stat`` hold
all a soak needs. ``VmHWM`` is the kernel's own peak RSS since the process
started, so a peak between two samples is not missed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ProcSample", "sample"]

CLK_TCK = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class ProcSample:
    pid: int
    #: When taken (monotonic seconds).
    at: float
    rss_kb: int
    #: Peak RSS since the process started (the kernel's high-water mark).
    hwm_kb: int
    #: User plus system CPU seconds since the process started.
    cpu_s: float
    threads: int
    fds: int


def sample(pid: int, at: float) -> ProcSample | None:
    """The process now, or None if it is gone (or a zombie: no memory left to read).

    >>> s = sample(os.getpid(), 0.0)
    >>> s is not None and s.hwm_kb >= s.rss_kb > 0 and s.cpu_s > 0
    True
    """
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        stat = Path(f"/proc/{pid}/stat").read_text()
        fds = len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    if "VmRSS" not in fields:
        return None
    # The command name (field 2) may hold spaces and parentheses: count fields
    # after its last ")", where field 3 is index 0 and utime, stime are 14, 15.
    after = stat.rsplit(")", 1)[1].split()
    ticks = int(after[11]) + int(after[12])
    return ProcSample(pid, at, _kb(fields["VmRSS"]), _kb(fields["VmHWM"]), ticks / CLK_TCK,
                      int(fields["Threads"]), fds)


def _kb(value: str) -> int:
    return int(value.split()[0])
