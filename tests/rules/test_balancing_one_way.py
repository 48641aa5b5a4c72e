"""S2/S3 with moves still pending: no table both gives and takes players, and a
bust changes the pending moves only as much as it must (issue 45).

Three tables of four, seated by pinned draw so every scenario starts alike:
table 1 p1-p4, table 2 p5-p8, table 3 p9-p12.
"""

from __future__ import annotations

import dataclasses

from rules.commands import BustPlayers, ConfirmMove, DrawSeats, StartClock
from rules.house import profile
from rules.values import Move
from tests.rules.tournament_kit import Night


def _night(seed: int = 7) -> Night:
    night = Night(seed=seed, house=dataclasses.replace(profile("pubpoker"), seats_per_table=4))
    night.checked_in(12)
    night.do(DrawSeats(pinned={f"p{n}": ((n - 1) // 4 + 1, (n - 1) % 4 + 1)
                               for n in range(1, 13)}))
    night.do(StartClock())
    return night


def _moves(night: Night) -> dict[str, Move]:
    return dict(night.state.moves)


def _one_way(night: Night) -> None:
    moves = night.state.moves.values()
    assert not {m.source.table for m in moves} & {m.target.table for m in moves}, moves


def _sizes(night: Night) -> list[int]:
    return sorted(len(t.seats) for t in night.state.tables.values() if t.seats)


def _after_confirming(night: Night) -> list[int]:
    for player in sorted(night.state.moves):
        night.do(ConfirmMove(player))
    assert not night.state.moves
    return _sizes(night)


def _balanced_from_2(night: Night) -> Move:
    """Two out at table 1: one player from table 2 (fullest, lowest number) is sent there."""
    night.do(BustPlayers(("p1", "p2")))
    (move,) = night.state.moves.values()
    assert (move.source.table, move.target.table) == (2, 1)
    return move


def test_S3_a_broken_tables_players_do_not_pass_a_balance_move_going_the_other_way() -> None:
    for seed in range(8):
        night = _night(seed)
        early = _balanced_from_2(night)
        # Two out at table 3: eight fit two tables, table 3 breaks (S1, S3). Its two
        # players go to table 1; the player bound from table 2 to table 1 stays.
        night.do(BustPlayers(("p9", "p10")))
        _one_way(night)
        moves = _moves(night)
        assert early.player_id not in moves
        assert sorted(m.player_id for m in moves.values()) == ["p11", "p12"]
        assert {(m.source.table, m.target.table) for m in moves.values()} == {(3, 1)}
        assert _after_confirming(night) == [4, 4]


def test_S2_a_bust_at_the_table_a_pending_move_leaves_cancels_it_rather_than_refill_it() -> None:
    for seed in range(8):
        night = _night(seed)
        early = _balanced_from_2(night)
        out = next(p for p in ("p5", "p6", "p7", "p8") if p != early.player_id)
        events = night.do(BustPlayers((out,)))
        _one_way(night)
        # Table 2 (down to two once its mover walks) is not refilled from table 3
        # while it still sends a player away: the walk is called off and table 3
        # sends its player straight to table 1 instead.
        (move,) = night.state.moves.values()
        assert (move.source.table, move.target.table) == (3, 1)
        assert move.target == early.target
        assert [e.kind.value for e in events] == [
            "players-busted", "move-cancelled", "move-proposed"]
        assert _after_confirming(night) == [3, 3, 3]


def test_S2_a_bust_that_needs_no_move_leaves_the_pending_moves_alone() -> None:
    night = _night()
    early = _balanced_from_2(night)
    events = night.do(BustPlayers(("p9",)))
    assert [e.kind.value for e in events] == ["players-busted"]
    assert _moves(night) == {early.player_id: early}


def test_S2_a_bust_at_a_pending_moves_target_adds_a_move_and_keeps_the_pending_one() -> None:
    night = _night()
    early = _balanced_from_2(night)
    night.do(BustPlayers(("p3",)))
    _one_way(night)
    moves = _moves(night)
    assert moves.pop(early.player_id) == early
    (added,) = moves.values()
    assert (added.source.table, added.target.table) == (3, 1)
    assert _after_confirming(night) == [3, 3, 3]


def test_S2_the_busted_mover_takes_only_their_own_move_with_them() -> None:
    night = _night()
    early = _balanced_from_2(night)
    night.do(BustPlayers((early.player_id,)))
    _one_way(night)
    (move,) = night.state.moves.values()
    assert move.player_id != early.player_id
    assert (move.source.table, move.target.table) == (3, 1)
    assert _after_confirming(night) == [3, 3, 3]
