"""Helpers that build tournaments through the real command path."""

from __future__ import annotations

import random
from itertools import count

from rules.commands import CheckIn, Command, CreateTournament, DrawSeats, StartClock, decide
from rules.events import Event, Record
from rules.fold import Replay
from rules.house import HouseRules, profile
from rules.state import Tournament
from rules.structure import preset


class Night:
    """A tournament driven by commands, keeping the log it writes."""

    def __init__(self, *, preset_name: str = "pf-pokerklub", house: str | HouseRules = "pubpoker",
                 seed: int = 7, device: str = "td", **options: object) -> None:
        self.replay = Replay()
        self.records: list[Record] = []
        self.rng = random.Random(seed)
        self.device = device
        self._seq = count(1)
        self.now = 0.0
        rules = profile(house) if isinstance(house, str) else house
        self.do(CreateTournament("Fredagspoker", preset(preset_name), rules,
                                 **options))  # type: ignore[arg-type]

    def do(self, command: Command, *, at: float | None = None) -> tuple[Event, ...]:
        if at is not None:
            self.now = at
        events = decide(self.state, command, now=self.now, rng=self.rng)
        for event in events:
            seq = next(self._seq)
            record = Record(self.device, seq, seq, "t1", event)
            self.records.append(record)
            self.replay.add(record)
        return events

    @property
    def state(self) -> Tournament:
        return self.replay.state

    def checked_in(self, n: int) -> Night:
        for i in range(1, n + 1):
            self.do(CheckIn(f"p{i}", f"Player {i}"))
        return self

    def started(self, n: int) -> Night:
        self.checked_in(n)
        self.do(DrawSeats())
        self.do(StartClock())
        return self

    def name(self, player_id: str) -> str:
        return self.state.players[player_id].name
