"""Real ``pubpoker kiosk`` processes in network namespaces, driven through their inputs.

Each :class:`Kiosk` is one device: a namespace host on the test LAN, a
``pubpoker.toml``, its buttons on fake pins (``PUBPOKER_FAKE_PINS``, a FIFO),
optionally an RDM6300 card reader on a pty behind a symlink (the config's
reader URL), and a status file (``PUBPOKER_STATUS_FILE``) the test watches.
What the test injects is written to ``injected.log`` per device.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import signal
import subprocess
import sys
import time
import tty
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hardware.readers.rdm6300 import encode_frame
from kiosk.store import open_store
from rules.fold import fold, state_digest
from rules.state import Tournament
from tests.sync import harness
from tests.sync.netns import Host

ROOT = Path(__file__).resolve().parents[2]

#: ``pubpoker kiosk`` with INFO logging (refusals, sync) into the device's kiosk.log.
RUN = ("import logging, sys; logging.basicConfig(level=logging.INFO, "
       "format='%(relativeCreated)9.0f %(name)s %(message)s'); "
       "from kiosk.cli import main; sys.exit(main())")

TD_PINS = {"pause": 17, "next_level": 27, "start": 6, "add_minute": 5, "hand_for_hand": 16}
TABLE_PINS = {"bust": 22, "new_hand": 23, "clock": 24, "hand_done": 25, "seat_next": 12,
              "ok": 13}



def card(n: int) -> str:
    return f"0A{n:08X}"


def wait_for(check: Callable[[], Any], timeout: float, what: str, every: float = 0.05) -> Any:
    """The sync harness's poll, with what it waits for as the third argument."""
    return harness.wait_for(check, timeout, every=every, what=what)


@dataclass
class Kiosk:
    name: str
    host: Host
    role: str
    base: Path
    key: str
    table: int | None = None
    pins: Mapping[str, int] = field(default_factory=dict)
    reader: bool = False
    proc: subprocess.Popen[bytes] | None = None
    pty: int | None = None
    slave: int | None = None
    starts: int = 0
    free_at: float = 0.0
    lifted: dict[str, float] = field(default_factory=dict)
    #: ``pubpoker kiosk --speed``: every device of one night at the same speed.
    speed: float = 1.0

    def __post_init__(self) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        self.config.write_text(self._toml())

    # --- files ------------------------------------------------------------------------

    @property
    def dir(self) -> Path:
        return self.base / self.name

    @property
    def data(self) -> Path:
        return self.dir / "data"

    @property
    def config(self) -> Path:
        return self.dir / "pubpoker.toml"

    @property
    def fifo(self) -> Path:
        return self.dir / "pins"

    @property
    def status_path(self) -> Path:
        return self.dir / "status.json"

    @property
    def link(self) -> Path:
        return self.dir / "reader"

    @property
    def injected(self) -> Path:
        return self.dir / "injected.log"

    def _toml(self) -> str:
        lines = ["[device]", f'role = "{self.role}"', f'name = "{self.name}"',
                 f'data_dir = "{self.data}"']
        if self.table is not None:
            lines.append(f"table = {self.table}")
        lines += ["[venue]", f'key = "{self.key}"',
                  "[tournament]", "tables = 4", "seats_per_table = 10",
                  "[display]", "sound = false", "fullscreen = false",
                  "[network]", 'interface = "eth0"']
        if self.pins:
            lines.append("[buttons]")
            lines += [f"{action} = {pin}" for action, pin in self.pins.items()]
        if self.reader:
            lines += ["[reader]", f'url = "{self.link}"', 'kind = "rdm6300"']
        return "\n".join(lines) + "\n"

    def note(self, text: str) -> None:
        with open(self.injected, "a") as out:
            out.write(f"{time.monotonic():.3f} {text}\n")

    # --- the process --------------------------------------------------------------------

    def start(self) -> Kiosk:
        if self.reader and self.pty is None:
            self.plug()
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PUBPOKER_STATUS_FILE": str(self.status_path),
               "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
        if self.pins:
            env["PUBPOKER_FAKE_PINS"] = str(self.fifo)
            env["PUBPOKER_FAKE_PINS_LOG"] = str(self.dir / "pins.log")
        with contextlib.suppress(FileNotFoundError):
            self.status_path.unlink()
        self.starts += 1
        argv = self.host.argv(sys.executable, "-c", RUN, "kiosk", "--config",
                              str(self.config), "--headless", "--size", "640x360",
                              *(("--speed", repr(self.speed)) if self.speed != 1.0 else ()))
        with open(self.dir / "kiosk.log", "ab") as err:
            self.proc = subprocess.Popen(argv, stdout=err, stderr=err, cwd=ROOT, env=env)
        return self

    def wait_ready(self, timeout: float = 30.0) -> dict[str, Any]:
        def ready() -> Any:
            assert self.proc is not None
            if self.proc.poll() is not None:
                tail = (self.dir / "kiosk.log").read_text()[-3000:]
                raise AssertionError(f"{self.name} exited {self.proc.returncode}: {tail}")
            status = self.status()
            return status if status and status["pid"] == self._pid() else None

        result: dict[str, Any] = wait_for(ready, timeout, f"{self.name} to start")
        return result

    def _pid(self) -> int | None:
        # ``ip netns exec`` execs the command, so the pid is the kiosk's.
        return None if self.proc is None else self.proc.pid

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def status(self) -> dict[str, Any] | None:
        try:
            data: dict[str, Any] = json.loads(self.status_path.read_text())
            return data
        except (FileNotFoundError, json.JSONDecodeError):
            return None

    # --- its store (read in this process; WAL lets the kiosk keep writing) -------------

    def state(self) -> tuple[Tournament, int]:
        store = open_store(data_dir=self.data)
        try:
            tid = store.current_tournament()
            if tid is None:
                return Tournament(), 0
            records = store.records(tid)
            return fold(records), len(records)
        finally:
            store.close()

    def records(self) -> list[Any]:
        store = open_store(data_dir=self.data)
        try:
            tid = store.current_tournament()
            return [] if tid is None else store.records(tid)
        finally:
            store.close()

    def digest(self) -> str:
        return state_digest(self.state()[0])

    # --- inputs -----------------------------------------------------------------------

    def _pins(self, line: str) -> None:
        fd = os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)
        try:
            os.write(fd, (line + "\n").encode())
        finally:
            os.close(fd)
        self.note(f"pins {line}")

    def _spaced(self, line: str, seconds: float) -> None:
        # The kiosk confirms a release when its loop polls the buttons, at least once a
        # second; a press before that would read as contact bounce of the last one.
        time.sleep(max(0.0, self.free_at - time.monotonic()))
        self._pins(line)
        self.free_at = time.monotonic() + seconds + 1.2

    def press(self, action: str, seconds: float = 0.15) -> None:
        self._spaced(f"press {self.pins[action]} {seconds}", seconds)

    def hold(self, action: str, seconds: float = 2.0) -> None:
        self._spaced(f"hold {self.pins[action]} {seconds}", seconds)

    def bounce(self, action: str, edges: int = 12) -> float:
        """Contact bounce: edges 2 ms apart, then one clean press. Returns the longest
        the contact stood open between two of them (the kiosk's pins log): longer than
        the debounce window, that was a release and a press again, rightly."""
        pin = self.pins[action]
        # Spaced from the last press as a whole; the edges and the clean press follow
        # at once, or the clean press would be a second press, not the storm's end.
        # One write: a test process descheduled between lines would open the contact
        # for as long, and the kiosk reads the storm in one go.
        time.sleep(max(0.0, self.free_at - time.monotonic()))
        log = self.dir / "pins.log"
        before = len(log.read_text().splitlines()) if log.exists() else 0
        lines = [f"press {pin} 0.002"] * edges + [f"press {pin} 0.15"]
        self._pins("\n".join(lines))
        self.free_at = time.monotonic() + 0.15 + 1.2
        wait_for(lambda: len(log.read_text().splitlines()) >= before + len(lines), 10,
                 "the storm done by the kiosk's pins")
        done = log.read_text().splitlines()[before:before + len(lines)]
        # Each line: the time the press ended (its release), then the command; the next
        # press began its own length before it ended.
        ends = [(float(t), float(rest.split()[-1])) for t, rest in
                (line.split(" ", 1) for line in done)]
        return max((end - length) - prev
                   for (prev, _), (end, length) in itertools.pairwise(ends))

    def plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        self.pty, self.slave = master, slave
        temp = self.link.with_name("reader.tmp")
        with contextlib.suppress(FileNotFoundError):
            temp.unlink()
        temp.symlink_to(os.ttyname(slave))
        os.replace(temp, self.link)
        self.note("reader plugged")

    def unplug(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.link.unlink()
        for fd in (self.pty, self.slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.pty = self.slave = None
        self.note("reader unplugged")

    def tap(self, uid: str, done: Callable[[], Any], timeout: float = 20.0) -> Any:
        """A tag on the reader: its frame repeats, as an RDM6300's does, until ``done()``."""
        # The reader takes a tag that stays on it as one read (a 1.5 s sliding
        # window): the same card again must have been away for longer than that.
        # Under load the reader thread may stamp buffered frames late, so keep a margin.
        time.sleep(max(0.0, self.lifted.get(uid, 0.0) + 3.0 - time.monotonic()))
        self.note(f"card {uid}")
        frame = encode_frame(uid)
        began = time.monotonic()

        def read() -> Any:
            # Not taken after 5 s: lift the tag for 2.5 s and put it back, as a player
            # would (a read lost in the window, or a BUST the screen showed late).
            if (time.monotonic() - began) % 7.5 < 5.0 and self.pty is not None:
                with contextlib.suppress(OSError):
                    os.write(self.pty, frame)
                    self.lifted[uid] = time.monotonic()
            return done()

        return wait_for(read, timeout, f"{self.name}: card {uid} acknowledged", every=0.1)

    def close(self) -> None:
        self.stop()
        if self.reader:
            self.unplug()
