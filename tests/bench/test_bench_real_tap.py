"""A card tap to store and to screen in a real ``pubpoker kiosk``: 40 RDM6300 check-ins.

Run with ``./dev test tests/bench/test_bench_real_tap.py -m bench -s`` (as
root: the kiosk runs peer sync, alone in a network namespace, as a display
box with a venue key and a reader does). ``PUBPOKER_BENCH_TAPS`` changes the
count; ``PUBPOKER_BENCH_PYTHON`` the interpreter of the kiosk.

The host's side of ``tests/appliance/test_vm_readers.py::test_tap_to_screen_timing``
(an RDM6300 frame on the guest's ``/dev/serial0`` to the check-in on the TV's
screendump, under TCG). The kiosk is ``pubpoker kiosk --config pubpoker.toml
--headless --size 1920x1080`` with ``[reader] kind = "rdm6300"`` on the slave
of a pty the bench holds, showing a tournament prepared with the CLI (seats
drawn, clock running) whose venue knows ``TAPS`` more players, each with a
card of their own, not yet checked in. Each tap is one 14-byte frame written
whole to the pty's master, as the module sends it when a tag comes into its
field, then a random pause of 0.3-1.0 s. Every tap is another card: the
reader drops a card's repeats for 1.5 s, and a second tap of one card is
"already in", not a check-in. For each:

- **durable**: the bench polls the kiosk's store every 2 ms (read-only; a
  commit is visible only after its fsync) for the ``player-checked-in`` row;
  late by up to the poll interval;
- **on screen**: the first frame the kiosk drew with that row folded in, from
  its frame log (``PUBPOKER_FRAME_LOG``, a line after each flip or update;
  for a checkout without one, :mod:`tests.bench.frame_probe` writes it).

Both from the frame's last byte written, as p50/p99/max, with the load
average. The reader's thread blocks until a byte comes, then takes all that
waits (``StreamReader.read``), so no read timeout sits in the path: a tap
costs the thread's wake-up, the store's commit and one frame. Goal: p99 at
most 200 ms to the store and to the screen. Measured in fourteen runs of 40
taps on a 2-core machine, most with a TCG VM test beside it (load average
0.7-5.6): durable p50 4-7 ms, max 7-38 ms; on-screen p50 13-26 ms, max 20-104
ms, and 20-26 ms with the load near 1 (at 40 taps the nearest-rank p99 is the
max: one slow frame is the figure). 200 ms is about twice the worst tail seen
beside the VM and eight times the unloaded one, so a goal missed means the
path got slower, not that the machine was busy; and a fifth of a second after
the tap is still "at once" to a player at the desk. The load is printed beside
the figures, and which way each tap's frame was drawn (a whole flip or a
partial update).
"""

from __future__ import annotations

import csv
import json
import os
import random
import shutil
import statistics
import time
import tty
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from hardware.readers.rdm6300 import encode_frame
from kiosk.sync.auth import new_key
from tests.bench.realproc import (
    SIZE,
    Arrival,
    FrameLog,
    Kiosk,
    StoreWatch,
    cli,
    load_average,
    percentile,
    prepare_tournament,
    python_versions,
    render_table,
    screen_observable,
    settle,
    wait,
)
from tests.sync.netns import Lan, fresh_lan

pytestmark = [pytest.mark.bench, pytest.mark.timeout(900)]

TAPS = int(os.environ.get("PUBPOKER_BENCH_TAPS", "40"))
GOAL_MS = 200.0
POLL = 0.002
CHECKED_IN = ("player-checked-in",)
#: Checked in before the kiosk starts: the check-in screen has a room to draw.
SEATED = 8
#: Seats per table (the house's). The tables have room for two more: seats
#: that pending moves hold are not free, and a check-in with none free waits
#: on the waiting list (``player-waitlisted``), not ``player-checked-in``.
SEATS = 10


@pytest.fixture
def lan() -> Iterator[Lan]:
    with fresh_lan() as made:
        yield made


class Pty:
    """The RDM6300's TX line: the bench writes the master, the kiosk reads the slave.

    The bench holds a slave descriptor too, so the pty stays up while the
    kiosk's reader opens and closes it (as a UART's device node does).
    """

    def __init__(self) -> None:
        self.master, self._slave = os.openpty()
        # Raw: a frame's 0x02/0x03 and its bytes reach the reader as sent.
        tty.setraw(self._slave)
        self.path = os.ttyname(self._slave)

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def close(self) -> None:
        os.close(self.master)
        os.close(self._slave)


@dataclass
class ReaderKiosk(Kiosk):
    """A :class:`Kiosk` whose ``pubpoker.toml`` has a ``[reader]``."""

    reader_url: str = ""
    reader_kind: str = "rdm6300"

    def _toml(self) -> str:
        return (super()._toml()
                + f'[reader]\nurl = "{self.reader_url}"\nkind = "{self.reader_kind}"\n')

    def has_open(self, path: str) -> bool:
        """Whether the kiosk holds ``path`` open: its reader thread opened the port."""
        assert self.process is not None
        fds = Path(f"/proc/{self.process.pid}/fd")
        try:
            return any(os.readlink(fd) == path for fd in fds.iterdir())
        except (FileNotFoundError, ProcessLookupError):
            return False


def cards(taps: int) -> list[tuple[str, str]]:
    """(name, EM4100 UID) for each tap, as in the VM's timing test."""
    return [(f"Tap {n:02d}", f"2B0000{n:04X}") for n in range(1, taps + 1)]


def prepare(data_dir: Path, known: list[tuple[str, str]]) -> None:
    """Tonight's tournament running, and the venue's players with their cards."""
    tables = min(15, -(-(SEATED + len(known)) // SEATS) + 2)
    prepare_tournament(data_dir, players=SEATED, tables=tables)
    players = data_dir.parent / "players.csv"
    with open(players, "w", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerows([("name", "card"), *known])
    cli(data_dir, "players", "import", str(players))
    cli(data_dir, "clock", "resume")


def seated_names(data_dir: Path) -> set[str]:
    shown = json.loads(cli(data_dir, "tournament", "show", "--json").stdout)
    return {seat["name"] for table in shown["tables"] for seat in table["seats"]}


def test_card_tap_to_store_and_screen_over_40_taps(tmp_path: Path, lan: Lan) -> None:
    known = cards(TAPS)
    prepare(tmp_path / "template", known)
    pty = Pty()
    kiosk = ReaderKiosk("tv", tmp_path / "tv", "display", key=new_key().hex(), host=lan.add(),
                        probe=True, reader_url=pty.path)
    shutil.copytree(tmp_path / "template", kiosk.data)
    rng = random.Random(46)
    kiosk.start()
    assert kiosk.process is not None
    store = StoreWatch(kiosk.data)
    frames = FrameLog(kiosk.frame_log)
    to_store: list[float] = []
    to_screen: list[float] = []
    drawn: Counter[str] = Counter()
    rows = 0
    try:
        wait(frames.has_frames, 60, "the kiosk's first frame")
        wait(lambda: kiosk.has_open(pty.path), 30, "the kiosk's reader on the pty")
        settle([kiosk.process], at_least=5.0)
        load_before = load_average()
        began = time.monotonic()
        for n, (name, uid) in enumerate(known):
            arrival = Arrival(store, frames, store.max_rowid(), CHECKED_IN)
            pty.write(encode_frame(uid))
            sent = time.monotonic()
            deadline = sent + 10.0
            while not arrival.poll():
                if time.monotonic() > deadline:
                    kiosk.process.check_alive("the kiosk")
                    raise AssertionError(f"tap {n + 1} ({name}): not checked in in 10 s "
                                         f"(stored {arrival.row})")
                time.sleep(POLL)
            assert arrival.durable_at is not None and arrival.frame is not None
            to_store.append((arrival.durable_at - sent) * 1000)
            to_screen.append((arrival.frame.at - sent) * 1000)
            drawn[arrival.frame.kind] += 1
            time.sleep(rng.uniform(0.3, 1.0))
        took = time.monotonic() - began
        load_after = load_average()
        kiosk.process.check_alive("the kiosk")
        rows = len(store.rows_after(0, CHECKED_IN))
    finally:
        kiosk.stop()
        store.close()
        pty.close()
    missing = {name for name, _ in known} - seated_names(kiosk.data)
    versions = python_versions()
    table = []
    for label, values in (("tap → durable in the store", to_store),
                          ("tap → on the screen", to_screen)):
        p99 = percentile(values, 99)
        table.append([label, f"{percentile(values, 50):.1f}", f"{p99:.1f}",
                      f"{max(values):.1f}", f"{statistics.mean(values):.1f}",
                      f"p99 <= {GOAL_MS:.0f}", "ok" if p99 <= GOAL_MS else "FAIL"])
    print(f"\nRDM6300 card reader of a real kiosk at {SIZE} (display, venue key, pty): "
          f"{TAPS} taps of {TAPS} cards in {took:.0f} s; python {versions['python']}, "
          f"pygame {versions['pygame']}, SDL {versions['sdl']}")
    print(f"load average {load_before} before, {load_after} after; {os.cpu_count()} cores; "
          f"ms after the frame's last byte; store polled every {POLL * 1000:.0f} ms; "
          f"frames from {screen_observable()}; the taps' frames: "
          f"{', '.join(f'{n} {kind}' for kind, n in sorted(drawn.items()))}")
    print(render_table(["from the tap", "p50 ms", "p99 ms", "max ms", "mean ms", "goal", ""],
                       table))
    # One check-in per card, no more: a repeat or a lost tap would show here.
    assert rows == SEATED + TAPS, f"{rows} check-ins stored, {SEATED + TAPS} expected"
    assert not missing, f"tapped but not seated: {sorted(missing)}"
    assert percentile(to_store, 99) <= GOAL_MS
    assert percentile(to_screen, 99) <= GOAL_MS
