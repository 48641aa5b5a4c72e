"""Drive tournaments through the real command path into a real store."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

from kiosk.store import Folded, Store
from rules.commands import (
    BustPlayers,
    CheckIn,
    Command,
    CreateTournament,
    DrawSeats,
    StartClock,
    decide,
)
from rules.events import Record
from rules.house import profile
from rules.state import Tournament
from rules.structure import preset

ROOT = Path(__file__).resolve().parents[3]


class Night:
    """A tournament run on one store, as the kiosk loop would run it."""

    def __init__(self, store: Store, tournament_id: str = "t1", *, name: str = "Fredagspoker",
                 preset_name: str = "pf-pokerklub", house: str = "pubpoker", seed: int = 7,
                 now: float = 0.0) -> None:
        self.store = store
        self.tournament_id = tournament_id
        self.rng = random.Random(seed)
        self.now = now
        self.folded: Folded = store.fold(tournament_id)
        if self.state.config is None:
            self.do(CreateTournament(name, preset(preset_name), profile(house)))

    @property
    def state(self) -> Tournament:
        return self.folded.state

    def do(self, command: Command, *, at: float | None = None) -> list[Record]:
        if at is not None:
            self.now = at
        events = decide(self.state, command, now=self.now, rng=self.rng)
        records = self.store.append_new(self.tournament_id, events)
        self.folded.catch_up()
        return records

    def checked_in(self, players: list[tuple[str, str]]) -> Night:
        for player_id, name in players:
            self.do(CheckIn(player_id, name))
        return self

    def started(self, players: list[tuple[str, str]]) -> Night:
        self.checked_in(players)
        self.do(DrawSeats())
        self.do(StartClock())
        return self

    def play_out(self) -> Night:
        """Bust players one at a time, the last one standing knocking each out."""
        while not self.state.finished:
            active = sorted(e.player_id for e in self.state.active())
            self.now += 60.0
            self.do(BustPlayers((active[0],), by=active[-1]))
        return self


def players(n: int, prefix: str = "p") -> list[tuple[str, str]]:
    return [(f"{prefix}{i}", f"Player {i}") for i in range(1, n + 1)]


def child_env() -> dict[str, str]:
    """Environment for helper subprocesses: the repo on the path, unbuffered output."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def spawn(module: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", module, *args], cwd=ROOT, env=child_env(),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
