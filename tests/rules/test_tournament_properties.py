"""Invariants of whole tournaments under random registrations and busts."""

from __future__ import annotations

import math
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import button as buttons
from rules.commands import BustPlayers, CheckIn, ConfirmMove, DrawButton, StartHand
from rules.events import MoveProposed
from rules.fold import fold, state_digest
from rules.values import MoveReason
from tests.rules.tournament_kit import Night

steps = st.lists(
    st.one_of(
        st.tuples(st.just("bust"), st.integers(1, 3), st.integers(0, 10**6)),
        st.tuples(st.just("late"), st.just(1), st.integers(0, 10**6)),
        st.tuples(st.just("hand"), st.just(1), st.integers(0, 10**6)),
    ),
    min_size=1, max_size=60,
)


def _check_tables(night: Night, tolerance: int = 1) -> None:
    state = night.state
    if state.finished:
        # The winner keeps their seat; nobody is left to balance.
        return
    seated = [p for t in state.tables.values() for p in t.seats.values()]
    active = {e.player_id for e in state.active()}
    # Nobody lost, nobody duplicated: every active player sits exactly once.
    assert sorted(seated) == sorted(active)
    sizes = [len(t.seats) for t in state.tables.values()]
    assert max(sizes) - min(sizes) <= tolerance
    if not state.final_table:
        assert len(sizes) == math.ceil(len(active) / 10)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(12, 64), seed=st.integers(0, 1000), script=steps)
def test_S1_S2_balancing_keeps_tables_even_minimal_and_complete(
        players: int, seed: int, script: list[tuple[str, int, int]]) -> None:
    night = Night(seed=seed).started(players)
    for table in list(night.state.tables):
        night.do(DrawButton(table))
    late = 0
    for action, size, pick in script:
        if night.state.finished:
            break
        rng = random.Random(pick)
        active = sorted(e.player_id for e in night.state.active())
        if action == "bust" and len(active) > size:
            events = night.do(BustPlayers(tuple(rng.sample(active, size))))
        elif action == "late" and night.state.entrants < 150:
            late += 1
            events = night.do(CheckIn(f"late{late}", f"Late {late}"))
        else:
            table = rng.choice(sorted(night.state.tables))
            if len(night.state.tables[table].seats) > 1:
                night.do(StartHand(table))
            continue
        for event in events:
            if isinstance(event, MoveProposed):
                _never_small_blind(night, event)
        for move in list(night.state.moves.values()):
            night.do(ConfirmMove(move.player_id))
        _check_tables(night)
    assert state_digest(fold(reversed(night.records))) == state_digest(night.state)


def _never_small_blind(night: Night, event: MoveProposed) -> None:
    move = event.move
    target = night.state.tables.get(move.target.table)
    # Players from a broken table are drawn (S3) and may get the SB; "never
    # the SB" is the balancing rule (S2).
    if move.reason is not MoveReason.BALANCE or target is None or target.button is None:
        return
    occupied = [s for s in target.seats if s != move.target.seat]
    upcoming = buttons.next_position(target.button, [*occupied, move.target.seat],
                                     seats_per_table=10)
    assert move.target.seat != upcoming.small_blind


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), steps=st.lists(st.floats(0, 1), min_size=5, max_size=70))
def test_S2_S3_moves_left_pending_never_lead_to_a_refused_event(
        seed: int, steps: list[float]) -> None:
    """Players walk slowly: moves stay pending across busts and late registrations.

    Nothing balancing or the late draw proposes is ever refused by the reducer
    (no seat promised twice, nobody sent to a seat another still needs), no
    table is sent players while one of its own is still bound elsewhere (S2),
    and once everyone has sat down the tables are even again.
    """
    from rules.errors import RulesError

    night = Night(seed=seed).started(10)
    rng = random.Random(seed)
    late = 0
    for r in steps:
        if r < 0.5:
            late += 1
            night.do(CheckIn(f"late{late}", f"Late {late}"))
        elif r < 0.8:
            active = sorted(e.player_id for e in night.state.active())
            if len(active) > 3:
                night.do(BustPlayers((rng.choice(active),)))
        elif night.state.moves:
            try:
                night.do(ConfirmMove(rng.choice(sorted(night.state.moves))))
            except RulesError as err:
                # Only refused while the promised seat's player has not left yet.
                assert err.code == "SeatTaken"
        assert night.state.rejected == []
        # Issue 45: no table both gives players and takes them.
        moves = night.state.moves.values()
        assert not {m.source.table for m in moves} & {m.target.table for m in moves}, moves
    for _ in range(200):
        if not night.state.moves:
            break
        for player in sorted(night.state.moves):
            try:
                night.do(ConfirmMove(player))
            except RulesError:
                continue
    assert not night.state.moves and night.state.rejected == []
    _check_tables(night)
