"""A whole simulated night: players, table devices, moves, the final table, a winner.

:class:`DemoNight` is called at every step of the demo's simulated time
(one shared second, :mod:`kiosk.demo.run`), never per frame, and does
whatever is due at that step's shared time, through the same
``station.submit`` path a real table device's records would take: each table
starts hands (``StartHand``) and plays them with the rules engine
(:mod:`kiosk.demo.hands`); players with no chips left are busted
(``BustPlayers`` with their starting stacks, so places are fair); the moves
the balancing proposes are confirmed after a walk to the new seat; the
final table's stopped clock is restarted after a moment; and when one player
is left the results and league points go into the store.

Late registrants arrive by card: their card reads go to the loop's input
handling (``read_card``), as a card reader's would, so the check-in pop-up
is the real one. They are handled at once, not at the loop's next frame, so
a check-in is stamped with the step it is due at, whatever the frame rate.

Everything the night does is decided from the seeded ``rng``, the folded
state and the shared time of the step, so the same seed plays the same night.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from hardware.inputs import CardRead
from kiosk.demo.hands import play_hand
from kiosk.demo.names import player_names
from kiosk.station import Station
from rules import clock as clocks
from rules.commands import (
    BustPlayers,
    CheckIn,
    Command,
    ConfirmMove,
    CreateTournament,
    DrawButton,
    DrawSeats,
    ResumeClock,
    SetHandForHand,
    StartClock,
    StartHand,
)
from rules.house import profile
from rules.posting import Blinds
from rules.structure import Level, preset

__all__ = ["DemoNight", "NightSettings"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class NightSettings:
    players: int = 54
    #: Of the players, this many arrive late and check in by card after the start.
    late: int = 4
    structure: str = "pubpoker"
    name: str = "Demo-kveld"
    #: Shared seconds between a table's hands (a range: some hands are quick).
    hand_seconds: tuple[float, float] = (80.0, 150.0)
    #: Shared seconds a moved player takes to reach the new seat.
    move_seconds: float = 45.0
    #: Shared seconds the clock stays stopped while the final table sits down.
    final_table_seconds: float = 120.0
    #: Shared seconds between late arrivals, from the start of the clock.
    late_every: float = 240.0


@dataclass
class DemoNight:
    station: Station
    rng: random.Random
    settings: NightSettings = field(default_factory=NightSettings)
    #: Where late arrivals' card reads go (the loop's ``handle``); None checks them in
    #: directly.
    read_card: Callable[[CardRead], None] | None = None
    #: Chips in front of each player, by player id.
    stacks: dict[str, int] = field(default_factory=dict)
    hands_played: int = 0
    done: bool = False
    refused: int = 0

    def __post_init__(self) -> None:
        self._next_hand: dict[int, float] = {}
        self._move_seen: dict[str, float] = {}
        self._final_seen: float | None = None
        self._final_resumed = False
        self._hfh_set = False
        self._late: list[tuple[float, str]] = []

    # --- set-up -------------------------------------------------------------------------

    def setup(self) -> None:
        """Create the tournament, register the players with cards, seat them, start."""
        settings = self.settings
        station = self.station
        outcome = station.create(CreateTournament(settings.name, preset(settings.structure),
                                                  profile("pubpoker")))
        if not outcome.ok:
            raise RuntimeError(outcome.message("en"))
        players = station.store.players
        names = player_names(settings.players, self.rng)
        start = self._config_stack()
        on_time = settings.players - settings.late
        now = station.now()
        for index, name in enumerate(names):
            # Ten decimal digits, as a keyboard-wedge reader types an EM4100 tag.
            card = f"{self.rng.randrange(10**9, 10**10)}"
            player = players.find(name) or players.add(name, card=card)
            self.stacks[player.id] = start
            if index < on_time:
                self._submit(CheckIn(player.id, player.name))
            else:
                uid = player.cards[0] if player.cards else card
                self._late.append((now + (index - on_time + 1) * settings.late_every, uid))
        self._submit(DrawSeats())
        for table in sorted(station.state.tables):
            self._submit(DrawButton(table))
        self._submit(StartClock())
        for table in station.state.tables:
            self._next_hand[table] = now + self.rng.uniform(*settings.hand_seconds) / 2

    def _config_stack(self) -> int:
        return preset(self.settings.structure).starting_stack

    # --- every iteration ----------------------------------------------------------------

    def advance(self) -> None:
        """Do everything that is due at the current shared time."""
        if self.done:
            return
        state = self.station.state
        if state.config is None:
            return
        now = self.station.now()
        if state.finished:
            assert self.station.tournament_id is not None
            self.station.store.record_results(self.station.tournament_id, state)
            self.done = True
            return
        self._arrivals(now)
        self._confirm_moves(now)
        self._final_table(now)
        self._hand_for_hand()
        reading = clocks.read(state.config.structure, state.clock, now)
        if not state.clock.running or not isinstance(reading.period, Level):
            # No cards are dealt while the clock is stopped or in a break: push
            # every table's next hand to after it.
            for table in self._next_hand:
                self._next_hand[table] = max(self._next_hand[table], now + 5.0)
            return
        for table in sorted(state.tables):
            due = self._next_hand.setdefault(
                table, now + self.rng.uniform(*self.settings.hand_seconds))
            if due <= now:
                self._play(table, reading.period)
                self._next_hand[table] = now + self.rng.uniform(*self.settings.hand_seconds)
                if self.station.state.finished:
                    break

    def _submit(self, command: Command) -> bool:
        outcome = self.station.submit(command)
        if not outcome.ok:
            self.refused += 1
            log.info("demo: %s refused: %s", type(command).__name__, outcome.message("en"))
        return outcome.ok

    def _arrivals(self, now: float) -> None:
        while self._late and self._late[0][0] <= now:
            _, uid = self._late.pop(0)
            if self.read_card is not None:
                self.read_card(CardRead(uid, reader="demo", at=now))
            else:
                result = self.station.store.players.lookup_card(uid)
                player = getattr(result, "player", None)
                if player is not None:
                    self._submit(CheckIn(player.id, player.name))

    def _confirm_moves(self, now: float) -> None:
        pending = self.station.state.moves
        for player_id in list(self._move_seen):
            if player_id not in pending:
                del self._move_seen[player_id]
        for player_id in list(pending):
            seen = self._move_seen.setdefault(player_id, now)
            if now - seen >= self.settings.move_seconds:
                self._submit(ConfirmMove(player_id))
                self._move_seen.pop(player_id, None)

    def _final_table(self, now: float) -> None:
        state = self.station.state
        if not state.final_table or self._final_resumed:
            return
        if self._final_seen is None:
            self._final_seen = now
            for table in state.tables:
                self._submit(DrawButton(table))
        if now - self._final_seen >= self.settings.final_table_seconds:
            self._final_resumed = True
            if not state.clock.running:
                self._submit(ResumeClock())

    def _hand_for_hand(self) -> None:
        state = self.station.state
        assert state.config is not None
        if (not self._hfh_set and not state.final_table
                and state.remaining == state.config.final_table_size + 1):
            self._hfh_set = self._submit(SetHandForHand(True))
        elif state.final_table and state.hand_for_hand:
            self._submit(SetHandForHand(False))

    # --- one hand -----------------------------------------------------------------------

    def _play(self, number: int, level: Level) -> None:
        state = self.station.state
        table = state.tables.get(number)
        if table is None:
            return
        moving = set(state.moves)
        seats = {seat: pid for seat, pid in table.seats.items()
                 if pid not in moving and state.players[pid].active
                 and self.stacks.get(pid, 0) > 0}
        if len(seats) < 2:
            return
        if not self._submit(StartHand(number)):
            return
        table = self.station.state.tables[number]
        position = table.button
        button = position.button if position is not None else min(seats)
        blind_seats = None
        if position is not None and position.big_blind in seats and (
                position.small_blind is None or position.small_blind in seats):
            blind_seats = (position.small_blind, position.big_blind)
        before = {seat: self.stacks[pid] for seat, pid in seats.items()}
        result = play_hand(before, button, Blinds.from_level(level), self.rng,
                           blind_seats=blind_seats)
        self.hands_played += 1
        for seat, chips in result.stacks.items():
            self.stacks[seats[seat]] = chips
        start = {seats[s]: chips for s, chips in before.items()}
        # Anyone at this table with no chips is out, also one a refused bust left behind.
        out = tuple(sorted(pid for pid in self.station.state.tables[number].seats.values()
                           if self.stacks.get(pid, 1) == 0
                           and self.station.state.players[pid].active))
        if out:
            self._submit(BustPlayers(out, start_stacks={p: start.get(p, 0) for p in out},
                                     table=number, by=seats[result.winner]))
