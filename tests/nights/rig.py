"""A night on real processes, checked after every step (issue 41).

:class:`Night` is one venue's evening: a headless ``pubpoker kiosk`` on a data
dir (its frame log in ``PUBPOKER_FRAME_LOG``, its state in
``PUBPOKER_STATUS_FILE``, the phones' page on a free port), the ``pubpoker``
command the TD types beside it (each a process of its own, forked from a warm
Python: :mod:`tests.forkserver`), and a phone that opens ``/night.json``. The
kiosk runs at ``--speed`` (the command follows the kiosk's time through the
store), so a night's levels pass in seconds.

:meth:`Night.step` runs one thing the TD does and then :meth:`Night.check`:

- the wall (status file and frame log), the phone and ``tournament show
  --json`` agree with the store on the level, the time left (within 1 s, read
  at each one's own shared time), the players left and every player's seat;
- the places form a ranking (RULES.md F3);
- ``standings --json`` and the exported standings CSV agree;
- once the night is closed, its results, standings and exports never change;
- a refused step's reason is true: every count, name and level it gives is the
  store's (:mod:`tests.nights.reasons`).

Run one night alone and watch its wall (the README's "Tests and benchmarks")::

    ./dev test tests/nights/test_nights.py -k tuesday &
    tail -F /tmp/pytest-of-$USER/pytest-current/test_a_nine_player_tuesday*/frames.log
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.store import open_store
from rules import clock as clocks
from rules.fold import fold, state_digest
from rules.state import Tournament
from tests.forkserver import Forked, ForkServer
from tests.kiosk.store.helpers import ROOT, child_env
from tests.nights import reasons

#: The last run of each night, kept for a look after (pytest prunes its temp dirs).
KEEP = Path("/tmp/pubpoker-nights-last")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(check: Callable[[], Any], timeout: float, what: str, every: float = 0.1) -> Any:
    end = time.monotonic() + timeout
    last: BaseException | None = None
    while True:
        try:
            got = check()
            if got:
                return got
        except AssertionError as err:
            last = err
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}: {last}")
        time.sleep(every)


def ranking(places: Iterable[int], entrants: int, left: int) -> None:
    """F3: the busted players' places are a competition ranking of the bottom places.

    With ``left`` players still in, the busts hold places ``left+1 .. entrants``:
    each place is the best of its span, and the next one skips past the tie.
    """
    got = sorted(places)
    want = left + 1
    k = 0
    while k < len(got):
        tied = got.count(got[k])
        assert got[k] >= want, (got, entrants, left)
        k += tied
        want = got[k - 1] + tied
    assert len(got) == entrants - left, (got, entrants, left)
    if got:
        assert got[-1] + got.count(got[-1]) - 1 == entrants, (got, entrants, left)


@dataclass
class Answer:
    """One ``pubpoker`` call: what it said and when (the machine's monotonic clock)."""

    argv: tuple[str, ...]
    code: int
    out: str
    err: str
    began: float
    ended: float
    #: A refusal's reason as read back from its catalogue (exit 2, through ``step``).
    reason: reasons.Reason | None = None


@dataclass
class Night:
    base: Path
    speed: float = 30.0
    lang: str = "en"
    proc: subprocess.Popen[bytes] | None = None
    #: The kiosk's buttons on fake pins (action -> BCM pin), from a pubpoker.toml.
    pins: dict[str, int] | None = None
    port: int = field(default_factory=free_port)
    #: This night's own venue key: nights run side by side on one host, and a pinned
    #: night's kiosk runs peer sync; with one key for all, two nights' kiosks would
    #: link and merge each other's tournaments into their logs.
    venue_key: str = field(default_factory=lambda: secrets.token_hex(32))
    #: Every command the TD typed that was acknowledged (exit 0): (argv, stdout).
    acked: list[tuple[tuple[str, ...], str]] = field(default_factory=list)
    #: Results, standings and exports when the night closed; they never change after.
    closed: dict[str, str] | None = None
    steps: int = 0
    checks: int = 0
    #: Every refusal a step got, its reason held true to the store.
    refusals: list[reasons.Reason] = field(default_factory=list)
    clock_errors: list[float] = field(default_factory=list)
    _ranked: tuple[tuple[str, int], ...] = ()
    _season: str | None = None
    _truth: tuple[tuple[str, int], tuple[Tournament, int, int]] | None = None
    _server: ForkServer | None = None

    def __post_init__(self) -> None:
        self.data.mkdir(parents=True, exist_ok=True)

    # --- files -------------------------------------------------------------------------

    @property
    def data(self) -> Path:
        return self.base / "data"

    @property
    def frames(self) -> Path:
        return self.base / "frames.log"

    @property
    def status_path(self) -> Path:
        return self.base / "status.json"

    @property
    def fifo(self) -> Path:
        return self.base / "pins"

    def _config(self) -> Path:
        """A wall's pubpoker.toml with the night's buttons (and sound off); peer sync
        on loopback only (a test's traffic goes nowhere else), under its own key."""
        path = self.base / "pubpoker.toml"
        buttons = "\n".join(f"{action} = {pin}" for action, pin in (self.pins or {}).items())
        path.write_text(f'[device]\nrole = "display"\nname = "Vegg"\ndata_dir = "{self.data}"\n'
                        f'language = "{self.lang}"\n'
                        f'[venue]\nkey = "{self.venue_key}"\n[network]\ninterface = "lo"\n'
                        f"[display]\nsound = false\n"
                        f"fullscreen = false\n[buttons]\n{buttons}\n", encoding="utf-8")
        return path

    def press(self, action: str, *, hold: bool = False) -> None:
        """A tap of the button for ``action`` (through the kiosk's fake pins); ``hold``:
        a long press (two seconds, past the buttons' 1.5)."""
        assert self.pins is not None
        line = f"hold {self.pins[action]} 2.0" if hold else f"press {self.pins[action]} 0.1"
        fd = os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)
        try:
            os.write(fd, f"{line}\n".encode())
        finally:
            os.close(fd)
        self.say(f"{'held' if hold else 'pressed'} {action}")

    def say(self, text: str) -> None:
        with open(self.base / "night.log", "a") as out:
            out.write(f"{time.monotonic():10.3f} {text}\n")

    # --- the kiosk -----------------------------------------------------------------------

    def start(self, timeout: float = 60.0) -> None:
        env = {**child_env(), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
               "PUBPOKER_STATUS_FILE": str(self.status_path),
               "PUBPOKER_FRAME_LOG": str(self.frames)}
        env.pop("PUBPOKER_LANG", None)
        with contextlib.suppress(FileNotFoundError):
            self.status_path.unlink()
        argv = [sys.executable, "-m", "kiosk.cli", "--lang", self.lang, "kiosk", "--headless",
                "--size", "640x360", "--data-dir", str(self.data), "--viewer-port",
                str(self.port), "--speed", repr(self.speed)]
        if self.pins:
            argv += ["--config", str(self._config())]
            env["PUBPOKER_FAKE_PINS"] = str(self.fifo)
            env["PUBPOKER_FAKE_PINS_LOG"] = str(self.base / "pins.log")
        with open(self.base / "kiosk.log", "ab") as err:
            self.proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=err, stderr=err)
        proc = self.proc

        def up() -> bool:
            if proc.poll() is not None:
                tail = (self.base / "kiosk.log").read_text()[-3000:]
                raise RuntimeError(f"the kiosk exited {proc.returncode}: {tail}")
            status = self.status()
            return bool(status and status["pid"] == proc.pid and self.phone())

        wait_for(up, timeout, "the kiosk to start")
        self.say(f"kiosk up, pid {proc.pid}")

    def kill(self) -> None:
        """A power cut: SIGKILL, nothing saved on the way out."""
        assert self.proc is not None and self.proc.poll() is None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.say("kiosk killed")

    def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def status(self) -> dict[str, Any] | None:
        try:
            data: dict[str, Any] = json.loads(self.status_path.read_text())
            return data
        except (FileNotFoundError, json.JSONDecodeError):
            return None

    def phone(self) -> dict[str, Any] | None:
        """A phone opens the page's night."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/night.json",
                                        timeout=5) as answer:
                doc: dict[str, Any] = json.loads(answer.read())
                return doc
        except OSError:
            return None

    def last_frame(self) -> tuple[int, int] | None:
        """The newest frame on the wall: (rowid shown, clock running)."""
        try:
            lines = self.frames.read_text().splitlines()
        except FileNotFoundError:
            return None
        for line in reversed(lines):
            parts = line.split()
            if len(parts) == 4:
                return int(parts[2]), int(parts[3])
        return None

    # --- the store ----------------------------------------------------------------------

    def truth(self) -> tuple[Tournament, int, int]:
        """The store's night, its record count and its highest rowid.

        Folded again only when the log grew: the checks ask after every step and
        while they wait for the wall, and folding a 128-player night's whole log
        each time was most of a night's own CPU. The rowid is read before the
        records, so the night folded is at least as new as the rowid it is kept by.
        """
        store = open_store(data_dir=self.data)
        try:
            tid = store.current_tournament()
            if tid is None:
                return Tournament(), 0, -1
            key = (tid, store.log.max_rowid())
            if self._truth is not None and self._truth[0] == key:
                return self._truth[1]
            records = store.records(tid)
            made = fold(records), len(records), key[1]
            self._truth = key, made
            return made
        finally:
            store.close()

    # --- the TD's command ----------------------------------------------------------------

    def _spawn(self, argv: Sequence[str], lang: str | None = None) -> Forked:
        """``pubpoker --lang LANG ARGV`` as the TD's terminal runs it, in a process of
        its own (forked warm: :mod:`tests.forkserver`)."""
        env = {**child_env(), "PUBPOKER_DATA_DIR": str(self.data)}
        env.pop("PUBPOKER_LANG", None)
        if self._server is None:
            self._server = ForkServer(self.base, env, ROOT)
        return self._server.spawn(["--lang", lang or self.lang, *argv], env, ROOT)

    def cli(self, *argv: str, code: int | None = 0, lang: str | None = None) -> Answer:
        began = time.monotonic()
        proc = self._spawn(argv, lang)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode is not None
        answer = Answer(tuple(argv), proc.returncode, out, err, began, time.monotonic())
        if code is not None:
            assert proc.returncode == code, (argv, proc.returncode, out, err)
        if proc.returncode == 0:
            self.acked.append((tuple(argv), out))
        self.say(f"$ pubpoker {' '.join(argv)} -> {proc.returncode}: "
                 f"{(out + err).strip()[:200]}")
        return answer

    def looks(self, *argvs: tuple[str, ...]) -> list[Answer]:
        """Several read-only ``pubpoker`` commands side by side (the checks' looks: not
        actions, so not acknowledged); each must succeed."""
        return self._looked(argvs, *self._look(argvs))

    def _look(self, argvs: Sequence[tuple[str, ...]]) -> tuple[float, list[Forked]]:
        began = time.monotonic()
        return began, [self._spawn(argv) for argv in argvs]

    def _looked(self, argvs: Sequence[tuple[str, ...]], began: float,
                procs: list[Forked]) -> list[Answer]:
        answers = []
        for argv, proc in zip(argvs, procs, strict=True):
            out, err = proc.communicate(timeout=60)
            answer = Answer(tuple(argv), proc.returncode, out, err, began, time.monotonic())
            assert proc.returncode == 0, (argv, proc.returncode, out, err)
            self.say(f"$ pubpoker {' '.join(argv)} -> 0 (a look)")
            answers.append(answer)
        return answers

    def step(self, *argv: str, code: int | None = 0, lang: str | None = None) -> Answer:
        """The TD types ``pubpoker ARGV``; then every invariant is checked, and a
        refusal's reason is held to the store (:mod:`tests.nights.reasons`)."""
        before = self.truth()[1] if code == 2 else None
        answer = self.cli(*argv, code=code, lang=lang)
        self.steps += 1
        if answer.code == 2:
            answer.reason = self.refusal(answer, lang or self.lang)
            if before is not None:
                assert self.truth()[1] == before, ("a refusal wrote to the store", argv)
        self.check()
        return answer

    def refusal(self, answer: Answer, lang: str) -> reasons.Reason | None:
        """No refusal gives a reason that is false: each count, name and level it
        names is the store's. Returns what it said (None: no catalogued refusal)."""
        reason = reasons.read(answer.err, lang)
        self.say(f"  refused: {reason.kind if reason else 'not catalogued'}")
        if reason is None:
            return None
        store = open_store(data_dir=self.data)
        try:
            tid = store.current_tournament()
            state = fold(store.records(tid)) if tid is not None else Tournament()
            names = frozenset(p.name for p in store.players.list())
        finally:
            store.close()
        status = self.status()
        at = (state.last_at,) if status is None else (
            self._shared(answer.began, status), self._shared(answer.ended, status))
        reasons.check(reason, reasons.Store(state, names, at), answer.argv, lang)
        self.refusals.append(reason)
        return reason

    # --- the invariants -------------------------------------------------------------------

    def check(self, timeout: float = 20.0) -> None:
        """Every surface agrees with the store (waiting for the wall and the phone to
        catch up with the step), the places rank, the standings and their CSV agree,
        and a closed night is as it was closed."""
        # The terminal's looks run side by side, and beside the wait for the wall and
        # the phone (a 128-player night makes a thousand): they read the store as the
        # step left it, unless something wrote after it (the wall's close at the
        # winner), and then they are looked again.
        store, _, rowid = self.truth()
        ranked_before = self._ranked
        looks = self._looks_for(store)
        early = self._look(looks) if looks else None
        state = wait_for(self._surfaces, timeout, "the wall and the phone to agree")
        answers: dict[tuple[str, ...], Answer] = {}
        if early is not None:
            answers = dict(zip(looks, self._looked(looks, *early), strict=True))
        if self.truth()[2] != rowid:
            self._ranked = ranked_before
            state = wait_for(self._surfaces, timeout, "the wall and the phone to agree")
            looks = self._looks_for(state)
            answers = dict(zip(looks, self.looks(*looks), strict=True)) if looks else {}
        show: tuple[str, ...] = ("tournament", "show", "--json")
        ranked = len(looks) > 1
        if show in answers:
            self._show(state, answers[show])
        self._ranking(state)
        if ranked:
            self._standings(answers[looks[-2]], answers[looks[-1]])
        self._closed(state)
        self.checks += 1

    def _looks_for(self, state: Tournament) -> list[tuple[str, ...]]:
        """What the terminal is asked after a step: the night, and the standings and
        their CSV when the places changed."""
        looks: list[tuple[str, ...]] = ([("tournament", "show", "--json")]
                                        if state.config is not None else [])
        if self._rank_changed(state):
            if self._season is None:
                self._season = json.loads(self.looks(("standings", "--json"))[0].out)["season"]
            looks += [("standings", "--json", self._season),
                      ("export", "standings", self._season, "--machine-headers")]
        return looks

    def _shared(self, mono: float, status: dict[str, Any]) -> float:
        """The kiosk's shared time at the machine's monotonic ``mono``."""
        return float(status["shared"]) + (mono - float(status["mono"])) * self.speed

    def _surfaces(self) -> Tournament | None:
        state, count, rowid = self.truth()
        status = self.status()
        assert status is not None, "no status file"
        assert self.proc is not None and status["pid"] == self.proc.pid, "an old status file"
        # The wall holds the store's night, and its newest frame shows it.
        if state.config is not None:
            assert status["records"] == count and status["digest"] == state_digest(state), (
                "wall behind the store", status["records"], count)
        frame = self.last_frame()
        assert frame is not None, "the wall drew nothing"
        # A step the screen on show does not depend on (the seating list after a level
        # change) draws no frame; the clock screen draws every change.
        if status["screen"] == "clock":
            assert frame[0] >= rowid, ("no frame shows the step", frame, rowid)
        assert status["remaining"] == state.remaining, (status["remaining"], state.remaining)
        doc = self.phone()
        assert doc is not None, "the phone got no page"
        assert doc["tournament"] == (state.config is not None)
        if state.config is None:
            return state
        structure = state.config.structure
        # The wall's clock, read at its own shared time.
        wall = status["clock"]
        at_wall = clocks.read(structure, state.clock, float(status["shared"]))
        assert wall["period"] == at_wall.period_index, (wall, at_wall)
        if at_wall.remaining is not None:
            err = abs(wall["remaining"] - at_wall.remaining)
            assert err <= 1.0, ("wall time", wall, at_wall.remaining)
        # The phone: the document's time left, counted on from when it was built to
        # when it was served, as the page counts.
        assert doc["remaining"] == state.remaining and doc["entrants"] == state.entrants
        clock = doc["clock"]
        served = float(doc["served"])
        at_phone = clocks.read(structure, state.clock, served)
        shown = clock["remaining"]
        if shown is not None and clock["running"]:
            shown -= served - float(doc["now"])
        assert clock["period"] == at_phone.period_index or (
            shown is not None and shown < 0), ("phone level", clock, at_phone)
        if clock["period"] == at_phone.period_index and at_phone.remaining is not None:
            assert shown is not None
            err = abs(shown - at_phone.remaining)
            self.clock_errors.append(err)
            assert err <= 1.0, ("phone time", clock, doc["now"], served, at_phone.remaining)
        seats = {s["name"]: (s["table"], s["seat"], s["place"]) for s in doc["seats"]}
        truth = {e.name: (e.seat.table if e.seat else None, e.seat.seat if e.seat else None,
                          e.place) for e in state.players.values() if e.checked_in}
        assert seats == truth, ("phone seats", seats, truth)
        return state

    def _show(self, state: Tournament, show: Answer) -> None:
        """``tournament show --json`` against the store, its time read in its own bracket."""
        status = self.status()
        assert status is not None
        doc = json.loads(show.out)
        assert doc["players_left"] == state.remaining and doc["entrants"] == state.entrants
        if state.finished or state.config is None:
            return
        structure = state.config.structure
        first = clocks.read(structure, state.clock, self._shared(show.began, status))
        last = clocks.read(structure, state.clock, self._shared(show.ended, status))
        got = doc["clock"]
        if got["started"] and first.remaining is not None and last.remaining is not None:
            levels = {first.level_number, last.level_number}
            assert got["level"] in levels or got["on_break"], (got, levels)
            if first.period_index == last.period_index:
                assert last.remaining - 1.0 <= got["seconds_left"] <= first.remaining + 1.0, (
                    got["seconds_left"], first.remaining, last.remaining)
        seats = {s["name"]: (t["number"], s["seat"]) for t in doc["tables"]
                 for s in t["seats"]}
        truth = {e.name: (e.seat.table, e.seat.seat) for e in state.players.values()
                 if e.seat is not None and e.place is None}
        assert seats == truth, ("show seats", seats, truth)

    def _ranking(self, state: Tournament) -> None:
        if state.config is None:
            return
        places = [e.place for e in state.players.values() if e.place is not None]
        if state.finished:
            ranking([p for p in places if p != 1], state.entrants, 1)
            assert places.count(1) == 1, places
        else:
            ranking(places, state.entrants, state.remaining)

    def _rank_changed(self, state: Tournament) -> bool:
        """Places differ from the last look's (standings and their CSV to compare)."""
        places = tuple(sorted((p, e.place) for p, e in state.players.items() if e.place))
        if state.config is None or not places or places == self._ranked:
            return False  # nothing placed, or the same places as the last look
        self._ranked = places
        return True

    def _standings(self, standings: Answer, export: Answer) -> None:
        season = json.loads(standings.out)
        rows = list(csv.DictReader(io.StringIO(export.out)))
        assert [(int(r["rank"]), r["name"], int(r["points"])) for r in rows] == [
            (s["rank"], s["name"], s["points"]) for s in season["standings"]], (rows, season)

    def record_close(self) -> None:
        """What the close wrote: it must read the same after every later step."""
        self.closed = self._exports()

    def _exports(self) -> dict[str, str]:
        state = self.truth()[0]
        if self._season is None:
            self._season = json.loads(self.looks(("standings", "--json"))[0].out)["season"]
        looks = {"results": ("results", "show", "--json"),
                 "standings": ("standings", "--json", self._season),
                 "results.csv": ("export", "results", state.config.name
                                 if state.config else ""),
                 "standings.csv": ("export", "standings", self._season)}
        out = {key: answer.out for key, answer in zip(
            looks, self.looks(*looks.values()), strict=True)}
        for path in sorted((self.data / "exports").glob("*")):
            out[path.name] = path.read_text()
        return out

    def _closed(self, state: Tournament) -> None:
        if self.closed is not None:
            now = self._exports()
            for key, was in self.closed.items():
                assert now.get(key) == was, (f"{key} changed after the close", was,
                                             now.get(key))

    # --- helpers for the scripts ---------------------------------------------------------

    def seated(self) -> list[str]:
        """Players still in, by name, in seat order (table, seat)."""
        state = self.truth()[0]
        return [e.name for e in sorted(
            (e for e in state.players.values() if e.seat is not None and e.place is None),
            key=lambda e: (e.seat.table, e.seat.seat) if e.seat else (0, 0))]

    def level(self) -> int:
        status = self.status()
        assert status is not None and status["clock"] is not None
        return int(status["clock"]["level"] or 0)


@contextlib.contextmanager
def played(base: Path, name: str, **options: Any) -> Iterator[Night]:
    """A night in ``base`` (``options`` as :class:`Night` takes them), started for
    the ``with`` and stopped after it however it ends: its figures said, its logs
    kept as ``name``."""
    night = Night(base, **options)
    began = time.monotonic()
    night.start()
    try:
        yield night
    finally:
        night.stop()
        night.say(f"night took {time.monotonic() - began:.1f}s, {night.steps} steps, "
                  f"{night.checks} checks")
        keep(night, name)


def keep(night: Night, name: str) -> None:
    """Copy the night's logs where a person can look after the run."""
    import shutil

    target = KEEP / name
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True, exist_ok=True)
    for item in ("frames.log", "night.log", "kiosk.log", "status.json"):
        with contextlib.suppress(FileNotFoundError):
            shutil.copy(night.base / item, target / item)
    shutil.copytree(night.data, target / "data", ignore=shutil.ignore_patterns("*.reserve"))
