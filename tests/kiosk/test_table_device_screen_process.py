"""A real ``pubpoker kiosk --config C --headless`` as table 1 shows its own table.

The store is made by the real CLI (a tournament, twenty long Nordic names,
the seats drawn, the clock started); the kiosk runs from a ``pubpoker.toml``
with ``role = "table"``, its buttons on fake pins driven through the FIFO
(:mod:`kiosk.fake_pins`, the same gpiozero path as the real pins). What it
drew is read from its status file (``table_screen``: the view of the last
frame on the screen). Seen from outside: table 1's number and seats, its time
not confirmed (alone, no peer answered), BUST → ◀ ▶ → OK step by step with a
player out in the store at the end, and HAND DONE in hand-for-hand once the
TD's terminal turns it on.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.table_screen import WORDS
from tests.kiosk.store.disk import pubpoker
from tests.kiosk.store.helpers import ROOT, child_env

NAMES = ("Kristoffer Bjørnstad-Haugland", "Åsmund Kvernhusvik-Ødegård", "Sigrid Aamodt",
         "Bjørn Eriksen", "Ingrid Østby-Lie", "Torbjørn Skjæveland", "Marit Bø",
         "Håkon Nygård-Tveit", "Ragnhild Fjellheim", "Eirik Sæther", "Solveig Haugen",
         "Nils Kristian Ødegaard", "Liv Ullmann", "Ole Gunnar Solskjær", "Astrid Lindgren",
         "Per Spelmann", "Kari Nordmann", "Tor Ola Svennevig", "Anne Grete Preus",
         "Gunnhild Ås")
PINS = {"bust": 22, "seat_next": 12, "ok": 13, "hand_done": 25}
W = WORDS["nn"]

# Twenty CLI processes to set the night up, then a real kiosk.
pytestmark = pytest.mark.slow


def wait(what: str, ok: Callable[[], Any], timeout: float = 30.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = ok()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"never saw {what}")


class TableKiosk:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.data = root / "data"
        self.status = root / "status.json"
        self.fifo = root / "pins"
        self.process: subprocess.Popen[str] | None = None

    def config(self) -> Path:
        path = self.root / "pubpoker.toml"
        buttons = "\n".join(f"{action} = {pin}" for action, pin in PINS.items())
        path.write_text(
            f'[device]\nrole = "table"\nname = "Bord 1"\ntable = 1\nlanguage = "nn"\n'
            f'data_dir = "{self.data}"\n[venue]\nkey = "{secrets.token_hex(32)}"\n'
            f"[display]\nsound = false\nfullscreen = false\n[buttons]\n{buttons}\n",
            encoding="utf-8")
        return path

    def start(self) -> None:
        env = {**child_env(), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
               "PUBPOKER_STATUS_FILE": str(self.status), "PUBPOKER_FAKE_PINS": str(self.fifo)}
        env.pop("PUBPOKER_LANG", None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "kiosk.cli", "kiosk", "--config", str(self.config()),
             "--headless", "--size", "480x320"], cwd=ROOT, env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def screen(self) -> dict[str, Any] | None:
        try:
            data = json.loads(self.status.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        assert self.process is not None and self.process.poll() is None
        screen: dict[str, Any] | None = data.get("table_screen")
        if screen is not None:
            screen["remaining"] = data["remaining"]
        return screen

    def press(self, action: str) -> None:
        fd = os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)
        try:
            os.write(fd, f"press {PINS[action]} 0.1\n".encode())
        finally:
            os.close(fd)

    def showing(self, what: str, ok: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        return dict(wait(what, lambda: (s := self.screen()) is not None and ok(s) and s))

    def stop(self) -> str:
        assert self.process is not None
        self.process.terminate()
        self.process.wait(timeout=30)
        return self.process.stderr.read() if self.process.stderr else ""


@pytest.fixture()
def kiosk(tmp_path: Path) -> Iterator[TableKiosk]:
    made = TableKiosk(tmp_path)
    d = str(made.data)
    for argv in (("tournament", "new", "--name", "Fredag"),
                 *(("checkin", "--new", name) for name in NAMES), ("seat", "draw"),
                 ("clock", "start")):
        done = pubpoker(*argv, "--data-dir", d)
        assert done.returncode == 0, done.stderr
    made.start()
    try:
        yield made
    finally:
        err = made.stop()
        assert "Traceback" not in err, err




def test_a_table_kiosk_shows_its_table_and_walks_bust_seat_ok(kiosk: TableKiosk) -> None:
    first = kiosk.showing("the table screen", lambda s: bool(s["seats"]))
    assert first["title"] == "Bord 1"
    names = [seat["name"] for seat in first["seats"] if seat["name"]]
    assert len(names) == 10 and set(names) <= set(NAMES)
    assert first["digits"] and first["level_line"].startswith("Nivå 1")
    # Alone after a start: no display has given it the time.
    assert first["unconfirmed"] == W["unconfirmed"]
    assert first["prompt"] == [W["idle"]] and not first["prompt_active"]

    kiosk.press("bust")
    kiosk.showing("BUST's first step", lambda s: s["prompt"] == [W["bust"]]
                  and s["prompt_active"])
    kiosk.press("seat_next")
    chosen = kiosk.showing("the seat chosen", lambda s: len(s["prompt"]) == 2)
    seat = next(m for m in chosen["seats"] if m["chosen"])
    assert chosen["prompt"] == [W["seat"].format(seat=seat["seat"], name=seat["name"]),
                                W["confirm"]]
    left = chosen["remaining"]
    kiosk.press("ok")
    after = kiosk.showing("the bust done", lambda s: s["remaining"] == left - 1)
    out = kiosk.showing("the player gone from the seat", lambda s: all(
        m["name"] != seat["name"] for m in s["seats"]))
    assert not any(m["chosen"] for m in out["seats"]) and not after["prompt_active"]
    shown = kiosk.showing("what was said", lambda s: seat["name"] in s["said"])
    assert shown["said"] == f"{seat['name']} er slått ut"
    kiosk.showing("the last action", lambda s: s["last_action"] == "Sist: slått ut")

    # The TD turns hand-for-hand on at the desk: HAND DONE is what the table waits for.
    done = pubpoker("hand-for-hand", "on", "--data-dir", str(kiosk.data))
    assert done.returncode == 0, done.stderr
    kiosk.showing("hand-for-hand's prompt", lambda s: s["prompt"] == [W["h4h"]] and not s["said"])
    kiosk.press("hand_done")
    kiosk.showing("waiting for table 2", lambda s: s["prompt"] == [
        W["h4h-wait"].format(tables="2")])
