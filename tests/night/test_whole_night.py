"""Issue 10: a whole night, end to end, on real ``pubpoker kiosk`` processes.

Six devices, each a kiosk process in its own network namespace on a test LAN
(``tests/sync/netns.py``): the display (TD buttons on fake pins), the console
(a card reader on a pty) and four table devices (buttons and a reader each).
40 players are checked in by card, seated by the display's START, and busted
one by one by BUST + card at their table; moved players confirm by card at
their new table; new hands, a clock call, and the final table follow from the
busts. With 13 players left the TD holds HAND FOR HAND; every table presses
HAND DONE after each hand and deals the next only when all are done, until the
final table, where the TD holds it again to end it. Only the devices' inputs
drive the night (the console's player list and tonight's tournament are set up
before power-on, as the TD does at the terminal). Faults come at seeded
moments, and the night goes on through them:

- a table device SIGKILLed and restarted;
- the display SIGKILLed and restarted with no peers reachable for 30 s, while
  the tables go on busting players;
- a 20 s partition of two tables (their veths down, then up): the other side
  goes on busting, the cut tables deal hands, and a move into a cut table waits
  for the heal;
- a card reader unplugged and replugged (pty closed, symlink repointed);
- a bounce storm on a table's NEW HAND button (one hand, not thirteen);
- a forged peer (``tests/sync/attacker.py``) against the display.

At the end every device has the same state digest, the places and points are
those the scripted busts imply, every acknowledged input is in every log and
the display announced the winner. The display's clock stays within 1 s of the
reference (the console's log, read at the console's shared time) except while it
shows the announced paused-after-power-cut state. Heal times (until every device
holds every record any device held when the fault ended) are logged and printed.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from kiosk.config import TournamentConfig
from kiosk.station import Station
from kiosk.store import open_store
from kiosk.sync.auth import new_key
from kiosk.timebase import SharedClock
from kiosk.tonight import tonight
from rules import clock as clocks
from rules.fold import fold
from rules.points import points
from rules.state import Tournament
from tests.night.rig import ROOT, TABLE_PINS, TD_PINS, Kiosk, card, wait_for
from tests.sync.netns import Lan, fresh_lan

PLAYERS = 40
TABLES = 4
OUTAGE = 30.0  # the display alone after its power cut
PARTITION = 20.0
#: Busts while a partition or the display's outage lasts.
WINDOW_BUSTS = 3
#: Players left when the TD starts hand for hand (the final table is 10), or the first
#: bust after the faults are over.
HAND_FOR_HAND_AT = 14
#: The panel's debounce window (hardware.buttons.ButtonPanel's default).
DEBOUNCE = 0.03
SEED = int(os.environ.get("PUBPOKER_NIGHT_SEED", "20261129"))
FAULTS = ("table-kill", "display-kill", "partition", "reader-unplug", "bounce-storm",
          "forged-peer")

#: Events that change the clock by the TD's hand (not by time passing).
CLOCK_KINDS = frozenset({"clock-started", "clock-paused", "clock-resumed", "level-jumped",
                         "time-adjusted", "clock-restored"})

#: The table's screen after BUST (nn): "Bust: the busted player taps their card".
BUST_TAP = "Slått ut:"

pytestmark = [pytest.mark.slow, pytest.mark.night]

N = TypeVar("N", bound="Night")


class Night:
    def __init__(self, lan: Lan, base: Path) -> None:
        self.lan = lan
        self.base = base
        self.key = new_key().hex()
        self.tv = Kiosk("tv", lan.add(), "display", base, self.key, pins=TD_PINS)
        self.console = Kiosk("console", lan.add(), "console", base, self.key, reader=True)
        self.tables = {t: Kiosk(f"t{t}", lan.add(), "table", base, self.key, table=t,
                                pins=TABLE_PINS, reader=True) for t in range(1, TABLES + 1)}
        self.rng = random.Random(SEED)
        self.heals: dict[str, float] = {}
        self.expected: dict[str, int] = {}  # player id -> place
        self.acked: list[tuple[str, str]] = []  # (what, detail) acknowledged by a log
        self.offset0 = 0.0
        self.paused_cut = False
        self.clock_errors: list[float] = []
        self._watching = threading.Event()
        self.window_thread: threading.Thread | None = None
        self.window_error: BaseException | None = None
        self.restored = False
        self.cut: set[int] = set()
        self.heal_reader: int | None = None
        self.hfh_rounds = 0
        self.redraw_resumed = False
        self.window_busts = 0
        self.report: list[str] = []

    @property
    def devices(self) -> list[Kiosk]:
        return [self.tv, self.console, *self.tables.values()]

    def say(self, text: str) -> None:
        line = f"{time.monotonic():10.3f} {text}"
        self.report.append(line)
        with open(self.base / "night.log", "a") as out:
            out.write(line + "\n")

    # --- set-up -------------------------------------------------------------------------

    def prepare(self) -> None:
        """The console's player list and tonight's tournament, before power-on."""
        store = open_store(data_dir=self.console.data)
        for n in range(1, PLAYERS + 1):
            store.players.add(f"Player {n:02d}", card=card(n))
        station = Station(store, SharedClock(), random.Random(SEED), role="console")
        config = TournamentConfig(tables=TABLES, seats_per_table=10)
        import datetime as dt

        assert station.create(tonight(config, dt.date(2026, 11, 27))).ok
        self.tid = station.tournament_id
        assert self.tid is not None
        records = store.records(self.tid)
        station.close()
        # The display has START, so at power-on it would create tonight's tournament
        # itself (kiosk/night.py) unless it already has one: as if synced the day before.
        tv = open_store(data_dir=self.tv.data)
        try:
            tv.append(records)
            tv.set_current_tournament(self.tid)
        finally:
            tv.close()

    def start(self) -> None:
        for device in self.devices:
            device.start()
        for device in self.devices:
            device.wait_ready(60)
        status = self.tv.status()
        assert status is not None
        self.offset0 = status["shared"] - status["mono"]
        self.converge("power-on", timeout=60)

    def stop(self) -> None:
        self._watching.set()
        for device in self.devices:
            device.close()

    # --- reading the devices -------------------------------------------------------------

    def digests(self) -> dict[str, tuple[Any, Any]]:
        out = {}
        for device in self.devices:
            status = device.status()
            out[device.name] = (None, None) if status is None else (
                status["digest"], status["records"])
        return out

    def converge(self, what: str, timeout: float = 45.0) -> float:
        began = time.monotonic()

        def same() -> bool:
            seen = set(self.digests().values())
            return len(seen) == 1 and None not in next(iter(seen))

        try:
            wait_for(same, timeout, f"every device to converge after {what}", every=0.1)
        except AssertionError:
            seen = {d.name: (s and (s["digest"], s["records"], s["peers"], s["tournament"]))
                    for d in self.devices for s in [d.status()]}
            raise AssertionError(f"no convergence after {what}: {seen}") from None
        took = time.monotonic() - began
        return took

    def state(self, device: Kiosk | None = None) -> Tournament:
        return (device or self.console).state()[0]

    # --- the clock watch -----------------------------------------------------------------

    def watch_clock(self) -> None:
        """The display's clock against the console's log read at the console's shared time."""
        while not self._watching.wait(0.5):
            status, console = self.tv.status(), self.console.status()
            if status is None or console is None or status["clock"] is None \
                    or not self.tv.alive():
                continue
            if "clock-restored" in status["notices"] or self.paused_cut:
                continue
            try:
                records = self.console.records()
            except Exception:  # the console's store may be mid-checkpoint: skip
                continue
            ref = fold(records)
            if ref.config is None or not ref.clock.started:
                continue
            # Every namespace shares CLOCK_MONOTONIC, so the console's shared time at
            # the display's reading is the display's mono plus the console's offset.
            at = status["mono"] + console["shared"] - console["mono"]
            # A TD's clock change reaches the display a few ms later: a sample taken
            # in between is the change on its way, not a wrong clock.
            if any(abs(r.event.at - at) < 1.0 for r in records
                   if r.event.kind.value in CLOCK_KINDS):
                continue
            reading = clocks.read(ref.config.structure, ref.clock, at)
            shown = status["clock"]["remaining"]
            if shown is None or reading.remaining is None:
                continue
            self.clock_errors.append(abs(shown - reading.remaining))

    # --- inputs with their acknowledgements ----------------------------------------------------

    def press_and_wait(self, device: Kiosk, action: str, *, hold: bool = False,
                       said: str | None = None) -> None:
        log = device.dir / "pins.log"
        before = len(log.read_text().splitlines()) if log.exists() else 0
        shown = self.said(device, said) if said else 0
        (device.hold if hold else device.press)(action)
        wait_for(lambda: log.exists() and len(log.read_text().splitlines()) > before, 10,
                 f"{device.name}: {action} pressed")
        if said:
            wait_for(lambda: self.said(device, said) > shown, 10,
                     f"{device.name}: {action} shown")

    @staticmethod
    def said(device: Kiosk, title: str) -> int:
        status = device.status() or {}
        return sum(n for t, n in status.get("counts", {}).items() if t.startswith(title))

    def new_hand(self, t: int) -> None:
        device = self.tables[t]
        before = self.state(device).tables[t].hands
        self.press_and_wait(device, "new_hand")
        wait_for(lambda: self.state(device).tables[t].hands > before, 15,
                 f"t{t}: new hand")
        self.acked.append(("hand", f"{t}:{before + 1}"))

    def bust(self, t: int, player: str, place: int) -> None:
        device = self.tables[t]
        # The place is the count left on this table's own device: it must have every
        # earlier bust first (one from another table crosses by sync, later on a
        # loaded machine: place 6, not 5, in a run beside three VM boots).
        wait_for(lambda: self.state(device).remaining == place, 30,
                 f"t{t}: every earlier bust on its device")
        state = self.state(device)
        n = int(state.players[player].name.split()[-1])
        # BUST, acknowledged on the table's screen ("Bust: ... taps their card").
        self.press_and_wait(device, "bust", said=BUST_TAP)
        device.tap(card(n), lambda: self.state(device).players[player].place is not None,
                   timeout=30.0)
        got = self.state(device).players[player].place
        assert got == place, (player, got, place)
        self.expected[player] = place
        self.acked.append(("bust", player))

    def confirm_moves(self, source: Kiosk) -> None:
        """Every pending move: the mover taps their card at the new table.

        One at a time, read afresh from the bust's table: a confirmed move may make
        balancing cancel or re-plan another.
        """
        deadline = time.monotonic() + 3 * PARTITION + 60
        while moves := dict(self.state(source).moves):
            assert time.monotonic() < deadline, f"moves not confirmed: {moves}"
            player, move = next(iter(moves.items()))
            target = self.tables[move.target.table]

            def known(p: str = player, want: Any = move.target, d: Kiosk = target) -> Any:
                now = self.state(source).moves.get(p)
                if now is None or now.target != want:
                    return None  # cancelled or re-planned meanwhile: read the source again
                there = self.state(d).moves.get(p)
                return there is not None and there.target == want

            # A target cut off by the partition learns of the move when it heals.
            wait_for(lambda: known() is not False, PARTITION + 30,
                     f"{target.name} to know the move")
            if not known():
                continue
            n = int(self.state(target).players[player].name.split()[-1])
            target.tap(card(n), lambda p=player, d=target: p not in self.state(d).moves)
            if self.state(target).players[player].seat == move.target:
                self.acked.append(("move", player))
            wait_for(lambda p=player: p not in self.state(source).moves, 30,
                     "the move confirmed at the bust's table")

    def td_clock_buttons(self) -> None:
        """The TD's +1 minute and NEXT LEVEL: every device's clock follows."""
        def count(kind: str) -> int:
            return sum(1 for r in self.console.records() if r.event.kind.value == kind)

        def shown() -> int:
            return int((self.tv.status() or {}).get("clock", {}).get("period", -1))

        period = shown()
        for action, kind in (("add_minute", "time-adjusted"), ("next_level", "level-jumped")):
            before = count(kind)
            self.press_and_wait(self.tv, action)
            wait_for(lambda k=kind, n=before: count(k) > n, 15, f"the TD's {action}")
            self.acked.append(("td", kind))
        wait_for(lambda: shown() > period, 15, "the display to show the next level")
        self.say(f"TD: +1 minute, next level (period {period} → {shown()})")

    def resume_after_redraw(self) -> None:
        """C6 stops the clock for the final table's redraw; the TD's PAUSE starts it."""
        self.redraw_resumed = True
        clock = self.state().clock
        if not clock.started or clock.running:
            return
        self.press_and_wait(self.tv, "pause")
        wait_for(lambda: self.state().clock.running, 15, "the clock after the redraw")
        self.acked.append(("td", "clock-resumed"))
        self.say("final table drawn; the TD started the clock again")

    # --- hand for hand -------------------------------------------------------------------

    def hand_for_hand(self, on: bool) -> None:
        """The TD holds HAND FOR HAND; the TV announces it going on."""
        shown = self.said(self.tv, "Hand for hand")
        self.press_and_wait(self.tv, "hand_for_hand", hold=True)
        wait_for(lambda: self.state().hand_for_hand is on, 15, f"hand for hand {on}")
        if on:
            wait_for(lambda: self.said(self.tv, "Hand for hand") > shown, 15,
                     "the TV to announce hand for hand")
        self.acked.append(("hfh", str(on)))
        self.say(f"hand for hand {'on' if on else 'off'}")

    def hand_for_hand_round(self) -> None:
        """Every table presses HAND DONE; only when all are done do they deal on."""
        live = [t for t in self.live_tables()]
        for t in live:
            device = self.tables[t]
            self.press_and_wait(device, "hand_done")
            wait_for(lambda d=device, t=t: self.state(d).tables[t].hand_done, 15,
                     f"t{t}: hand done")
            self.acked.append(("done", str(t)))
            # The table device knows first; the TV hears it over sync, a moment
            # later on a busy machine.
            wait_for(lambda t=t: t not in self.state().tables_still_playing(), 15,
                     f"the TV to count t{t} done")
        wait_for(lambda: not [t for t in self.state().tables_still_playing() if t in live],
                 15, "every table done")
        for t in live:
            self.new_hand(t)
        self.hfh_rounds += 1

    # --- faults ---------------------------------------------------------------------------------

    def record_keys(self, device: Kiosk) -> set[tuple[str, int]]:
        return {(r.device_id, r.seq) for r in device.records()}

    def heal(self, name: str, began: float, timeout: float = 45.0) -> None:
        """Until every device holds every record any device held at ``began``'s end.

        The night goes on meanwhile, so equal digests at one instant would be luck;
        holding the union of what existed when the fault ended is the heal.
        """
        union: set[tuple[str, int]] = set()
        for device in self.devices:
            union |= self.record_keys(device)
        wait_for(lambda: all(union <= self.record_keys(d) for d in self.devices), timeout,
                 f"every device to hold every record after {name}", every=0.1)
        self.heals[name] = time.monotonic() - began
        self.say(f"healed {name} in {self.heals[name]:.2f}s")

    def window(self, seconds: float, end: Callable[[], None]) -> None:
        """A fault that lasts: ``end`` runs after ``seconds`` while the night goes on."""
        self.open_window = threading.Event()

        def run() -> None:
            try:
                time.sleep(seconds)
                end()
            except BaseException as err:  # reported by the main loop, not lost in a thread
                self.window_error = err
            finally:
                self.open_window.set()

        self.window_busts = 0
        self.window_thread = threading.Thread(target=run, daemon=True)
        self.window_thread.start()

    def window_open(self) -> bool:
        if self.window_thread is None:
            return False
        if self.window_thread.is_alive():
            return True
        self.window_thread.join()
        self.window_thread = None
        if self.window_error is not None:
            raise self.window_error
        return False

    def fault(self, name: str) -> None:
        self.say(f"fault {name}")
        began = time.monotonic()
        if name == "table-kill":
            t = self.rng.choice(sorted(self.live_tables()))
            device = self.tables[t]
            device.kill()
            time.sleep(1.0)
            device.start()
            device.wait_ready(60)
            began = time.monotonic()
            self.new_hand(t)  # the restarted device takes input again
        elif name == "display-kill":
            self.tv.kill()
            self.tv.host.down()
            self.paused_cut = True
            self.tv.start()
            self.tv.wait_ready(60)
            status = wait_for(lambda: (s := self.tv.status()) and s, 10, "tv status")
            self.say(f"display alone: notices {status['notices']} peers {status['peers']}")
            assert status["peers"] == 0

            def back() -> None:
                self.tv.host.up()
                self.heal(name, time.monotonic())
                self.restored = True

            self.window(OUTAGE, back)
            return
        elif name == "partition":
            live = self.live_tables()
            cut = set(self.rng.sample(live, min(2, len(live) - 1)))
            cut |= set(self.rng.sample(sorted(set(self.tables) - set(live)),
                                       min(2 - len(cut), TABLES - len(live))))
            self.cut = cut
            for t in sorted(cut):
                self.tables[t].host.down()
            self.say(f"tables {sorted(cut)} cut off for {PARTITION:.0f}s")

            def join() -> None:
                for t in sorted(cut):
                    self.tables[t].host.up()
                self.cut = set()
                self.heal(name, time.monotonic())

            self.window(PARTITION, join)
            return
        elif name == "reader-unplug":
            t = self.rng.choice(sorted(self.live_tables()))
            device = self.tables[t]
            device.unplug()
            time.sleep(1.5)
            device.plug()
            began = time.monotonic()
            self.heal_reader = t
        elif name == "bounce-storm":
            t = self.rng.choice(sorted(self.live_tables()))
            device = self.tables[t]
            before = self.state(device).tables[t].hands
            gap = device.bounce("new_hand", 12)
            wait_for(lambda: self.state(device).tables[t].hands > before, 15, "bounced hand")
            time.sleep(1.5)
            hands = self.state(device).tables[t].hands
            if gap < DEBOUNCE:
                assert hands == before + 1, ("bounce made extra hands", gap)
            else:
                # The kiosk was descheduled mid-storm and the contact stood open past
                # the debounce window: a release and a press again, rightly another hand.
                self.say(f"bounce storm: the contact stood open {gap * 1000:.0f} ms")
                assert before + 1 <= hands <= before + 13
            self.acked.append(("hand", f"{t}:{hands}"))
        elif name == "forged-peer":
            port = self.tv_port()
            attacker = self.lan.add()
            before = sum((self.tv.status() or {}).get("drops", {}).values())
            sent = before
            for mode in ("forged-mac", "forged-event", "role-claim", "garbage"):
                run = subprocess.run(attacker.argv(
                    sys.executable, "-m", "tests.sync.attacker", mode,
                    f"ws://{self.tv.host.address}:{port}/sync", self.key),
                    cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                    capture_output=True, text=True, timeout=60)
                assert run.returncode == 0, run.stderr[-2000:]
                self.say(f"attacker {mode}: {run.stdout.strip()}")
                sent += json.loads(run.stdout)["sent"]
            assert "ghost" not in self.state(self.tv).players
            # Every forged frame is counted as dropped, none taken.
            wait_for(lambda: sum((self.tv.status() or {}).get("drops", {}).values()) >= sent,
                     10, "the display to count every forged frame")
            self.say(f"display's dropped frames: {self.tv.status()['drops']}")
        if name == "reader-unplug":
            self.heals[name] = -1.0  # set by the next card read at that table
        else:
            self.heal(name, began)

    def resume_after_cut(self) -> None:
        """The TD clears the paused-after-power-cut state with the pause button."""
        self.restored = False
        if not self.state(self.console).clock.running:
            self.press_and_wait(self.tv, "pause")
            wait_for(lambda: self.state(self.console).clock.running, 15,
                     "the clock running again")
        wait_for(lambda: "clock-restored" not in (self.tv.status() or {}).get("notices", ["?"]),
                 15, "the power-cut notice to clear")
        self.paused_cut = False

    def tv_port(self) -> int:
        """The TV's peer sync port as the TV reports it, not by the order ``ss`` lists ports."""
        port = (self.tv.status() or {}).get("ports", {}).get("sync")
        assert isinstance(port, int), self.tv.status()
        out = subprocess.run(self.tv.host.argv("ss", "-ltnH"), capture_output=True, text=True,
                             check=True).stdout
        assert f":{port} " in out, (port, out)
        return port

    def live_tables(self) -> list[int]:
        state = self.state()
        return [t for t in state.tables if state.tables[t].seats]


def on_a_lan(make: Callable[[Lan, Path], N], tmp_path: Path, keep: Path) -> Iterator[N]:
    """A night's devices on a fresh test LAN; stopped after, their logs kept in ``keep``."""
    with fresh_lan() as lan:
        made = make(lan, tmp_path)
        try:
            yield made
        finally:
            made.stop()
            print("\n".join(made.report))
            # pytest prunes its old temp dirs; the last run's logs stay here.
            shutil.rmtree(keep, ignore_errors=True)
            shutil.copytree(tmp_path, keep, symlinks=True,
                            ignore=shutil.ignore_patterns("*.db*", "pins", "reader"))


@pytest.fixture
def night(tmp_path: Path) -> Iterator[Night]:
    yield from on_a_lan(Night, tmp_path, Path("/tmp/pubpoker-night-last"))


def test_a_whole_night_with_faults_loses_nothing(night: Night) -> None:
    began = time.monotonic()
    night.prepare()
    night.start()
    night.say(f"power-on: 6 devices converged ({time.monotonic() - began:.1f}s)")
    watcher = threading.Thread(target=night.watch_clock, daemon=True)
    watcher.start()

    # Check-in: each player's card on the console's reader.
    for n in range(1, PLAYERS + 1):
        night.console.tap(card(n), lambda n=n: (s := night.console.status()) and
                          s["entrants"] >= n)
        night.acked.append(("checkin", card(n)))
    night.say("40 checked in")
    # START (held) draws the seats; START again starts the clock.
    night.press_and_wait(night.tv, "start", hold=True)
    wait_for(lambda: len(night.state().tables) == TABLES, 15, "seats drawn")
    night.press_and_wait(night.tv, "start", hold=True)
    wait_for(lambda: night.state().clock.running, 15, "clock running")
    night.converge("the draw")
    for t in range(1, TABLES + 1):
        night.new_hand(t)
    night.say("seated, clock running, first hands dealt")

    rng = night.rng
    busts = PLAYERS - 1
    # Early enough that every fault, lasting ones included, is over before hand for hand.
    slots = sorted(rng.sample(range(2, 12), len(FAULTS)))
    due = list(zip(slots, rng.sample(FAULTS, len(FAULTS)), strict=True))
    night.say(f"seed {SEED}: faults from busts {due}")
    call_at = rng.randrange(5, busts - 5)
    td_at = rng.randrange(5, busts - 5)
    heal_reader: int | None = None
    for k in range(busts):
        # A compressed night would lose half its players in one 30 s outage: a few
        # busts go on through a lasting fault, then the room waits for it to end.
        while night.window_open() and night.window_busts >= WINDOW_BUSTS:
            time.sleep(0.2)
        # A fault is due at its bust, or at the first one after a lasting fault ends.
        if due and due[0][0] <= k and not night.window_open():
            name = due.pop(0)[1]
            night.fault(name)
            if name == "reader-unplug":
                heal_reader = night.heal_reader
                plugged = time.monotonic()
        if night.restored:
            night.resume_after_cut()
        left = PLAYERS - k
        state = night.state()
        if left <= HAND_FOR_HAND_AT and not (due or night.window_open() or night.hfh_rounds
                                             or state.hand_for_hand or state.final_table):
            night.hand_for_hand(True)
            state = night.state()
        # Busts happen where the console can see them; cut-off tables deal on.
        tables = sorted(t for t, table in state.tables.items() if t not in night.cut
                        and [p for p in table.seats.values() if p not in state.moves])
        for t in sorted(night.cut & set(state.tables)):
            night.new_hand(t)
        t = heal_reader if heal_reader in tables else rng.choice(tables)
        seated = sorted(p for p in state.tables[t].seats.values() if p not in state.moves)
        player = rng.choice(seated)
        if k == td_at:
            night.td_clock_buttons()
        if k == call_at:
            device = night.tables[t]
            night.press_and_wait(device, "clock")
            wait_for(lambda d=device, t=t: night.state(d).tables[t].clock_called_at, 15,
                     "clock called")
            night.acked.append(("clock", str(t)))
        night.bust(t, player, left)
        night.window_busts += 1
        if heal_reader == t:
            night.heals["reader-unplug"] = time.monotonic() - plugged
            night.say(f"healed reader-unplug in {night.heals['reader-unplug']:.2f}s "
                      "(replug to the next card read)")
            heal_reader = None
        night.confirm_moves(night.tables[t])
        # The TV's state, once it has this bust: on a loaded machine it hears of it
        # over sync after the table does, and a last bust read too early (no winner
        # yet) sent a NEW HAND to a closed night.
        after = wait_for(lambda left=left: (s := night.state()).remaining == left - 1 and s, 30,
                         "the TV to count the bust")
        if after.winner is not None:
            break
        if after.final_table and not night.redraw_resumed:
            night.resume_after_redraw()
        if after.hand_for_hand and after.final_table:
            night.hand_for_hand(False)
        elif after.hand_for_hand:
            night.hand_for_hand_round()
        elif after.tables.get(t) and rng.random() < 0.5:
            night.new_hand(t)
    while night.window_open():
        time.sleep(0.2)
    if night.restored:
        night.resume_after_cut()
    assert not due, f"faults never injected: {due}"
    assert night.hfh_rounds >= 1, night.hfh_rounds
    final = night.state()
    assert final.winner is not None
    winner = final.winner
    night.expected[winner.player_id] = 1
    night.say(f"winner {winner.name}")
    took = night.converge("the end")
    night.say(f"final convergence {took:.2f}s")

    # Every device: the same digest and the same records.
    digests = night.digests()
    assert len(set(digests.values())) == 1, digests
    # Results and points: exactly the scripted busts.
    assert final.entrants == PLAYERS and final.finished
    assert {p: e.place for p, e in final.players.items()} == night.expected
    assert final.config is not None
    scheme = final.config.house.points
    for device in night.devices:
        state = night.state(device)
        assert {p: e.place for p, e in state.players.items()} == night.expected
    from kiosk.display.viewmodels import results_view

    rows = results_view(final, 0.0, "en", page=0).rows
    for row in rows:
        assert str(points(row.place, PLAYERS, scheme)) in row.points_text, row
    # Every acknowledged input is in every device's log.
    hands = Counter(int(detail.split(":")[0]) for what, detail in night.acked if what == "hand")
    clocks_called = Counter(int(detail) for what, detail in night.acked if what == "clock")
    hands_done = Counter(int(detail) for what, detail in night.acked if what == "done")
    switched = sum(1 for what, _ in night.acked if what == "hfh")
    for device in night.devices:
        state, records = night.state(device), device.records()
        kinds = Counter((r.event.kind.value, getattr(r.event, "table", None)) for r in records)
        for what, detail in night.acked:
            if what == "checkin":
                assert state.by_card(detail) is not None, (device.name, detail)
            elif what == "bust":
                assert state.players[detail].place == night.expected[detail]
            elif what == "move":
                assert any(r.event.kind.value == "move-confirmed"
                           and r.event.player_id == detail for r in records), detail
        for t, n in hands.items():
            assert kinds[("hand-started", t)] >= n, (device.name, t, n)
        for t, n in clocks_called.items():
            assert kinds[("clock-called", t)] >= n, (device.name, t, n)
        for t, n in hands_done.items():
            assert kinds[("hand-finished", t)] >= n, (device.name, t, n)
        assert kinds[("hand-for-hand-set", None)] >= switched, device.name
        for what, detail in night.acked:
            if what == "td":
                assert kinds[(detail, None)] >= 1, (device.name, detail)
    # The display announced the winner.
    wait_for(lambda: any(winner.name in line
                         for _t, line in (night.tv.status() or {}).get("announced", [])),
             15, "the display to announce the winner")
    night._watching.set()
    watcher.join(5)
    night.say(f"clock error: max {max(night.clock_errors):.3f}s over "
              f"{len(night.clock_errors)} samples")
    night.say("heal times: " + json.dumps({k: round(v, 2) for k, v in night.heals.items()}))
    night.say(f"night took {time.monotonic() - began:.1f}s")
    assert max(night.clock_errors) <= 1.0
    assert set(night.heals) == set(FAULTS)
