"""Tournament rules through commands, events and the fold (RULES.md F, C, S, B)."""

from __future__ import annotations

import random

import pytest

from rules import clock as clocks
from rules.commands import (
    AdjustTime,
    BustPlayers,
    CheckIn,
    CloseLateRegistration,
    ConfirmMove,
    DrawButton,
    DrawSeats,
    JumpToLevel,
    MarkAbsent,
    NextLevel,
    PauseClock,
    RegisterPlayer,
    ResumeClock,
    StartClock,
    StartHand,
    TogglePause,
    Undo,
    UndoAction,
    decide,
)
from rules.events import FinalTableDrawn, MoveProposed, PlayersBusted, PlayerSeated, Record
from rules.fold import fold, restore_snapshot, snapshot, state_digest
from rules.refusals import (
    CannotReenter,
    DuplicateName,
    LateRegistrationClosedError,
    MoveNotProposed,
    NamedTwice,
    NoOneLeftToWin,
    NotEnoughPlayers,
    NotHandForHand,
    PlayerAlreadyOut,
    TournamentFinished,
    UnknownPlayer,
    UnknownTable,
)
from rules.state import Phase
from rules.structure import Level, preset
from tests.rules.tournament_kit import Night


def refused(night: Night, command: object, error: type[Exception]) -> Exception:
    """The command raises ``error`` and leaves no event and no change behind."""
    before = state_digest(night.state)
    logged = len(night.records)
    with pytest.raises(error) as caught:
        night.do(command)  # type: ignore[arg-type]
    assert state_digest(night.state) == before
    assert len(night.records) == logged
    message = caught.value.translate("nn")  # type: ignore[attr-defined]
    assert message and "{" not in message
    return caught.value


# --- F: format and entry ---------------------------------------------------------

def test_F1_busted_player_cannot_reenter() -> None:
    night = Night().started(12)
    night.do(BustPlayers(("p5",)))
    err = refused(night, CheckIn("p5"), CannotReenter)
    assert "Player 5" in err.translate("en")
    refused(night, RegisterPlayer("p5", "Player 5"), CannotReenter)


def test_F1_duplicate_name_is_refused_with_a_clear_error() -> None:
    night = Night().checked_in(3)
    err = refused(night, RegisterPlayer("x9", "  player 2 "), DuplicateName)
    assert err.translate("nn") == "Det finst alt ein spelar som heiter «player 2»"


def test_F2_late_registrant_gets_a_full_stack_and_a_drawn_seat_at_the_shortest_table() -> None:
    night = Night().started(19)  # tables of 10 and 9
    events = night.do(CheckIn("late", "Late Comer"))
    seated = [e for e in events if isinstance(e, PlayerSeated)]
    assert len(seated) == 1
    shortest = min(night.state.tables.values(), key=lambda t: len(t.seats))
    assert len(night.state.tables[seated[0].seat.table].seats) == 10
    assert len(shortest.seats) == 10
    entry = night.state.players["late"]
    assert entry.late and entry.active and night.state.entrants == 20


def _drawn_full_room(late: int) -> tuple[Night, int]:
    """100 drawn at ten full tables of ten (pf-pokerklub), ``late`` more checked in
    before the clock starts; also how many moves those check-ins proposed."""
    night = Night(house="pf-pokerklub", max_tables=12).checked_in(100)
    night.do(DrawSeats())
    proposed = 0
    for n in range(late):
        events = night.do(CheckIn(f"late{n}", f"Late {n}"))
        assert night.state.players[f"late{n}"].seat is not None  # S3: drawn in at once
        proposed += sum(isinstance(e, MoveProposed) for e in events)
    return night, proposed


def test_S2_late_players_before_the_clock_move_nobody_and_the_start_balances_once() -> None:
    night, proposed = _drawn_full_room(5)
    assert proposed == 0 and not night.state.moves
    assert sorted(len(t.seats) for t in night.state.tables.values()) == [5] + [10] * 10
    moves = [e.move for e in night.do(StartClock()) if isinstance(e, MoveProposed)]
    # 105 on eleven tables within one of each other: the short table takes four,
    # one from each of four full tables, and nothing moves the other way.
    assert len(moves) == 4
    assert {m.target.table for m in moves} == {11}
    assert len({m.source.table for m in moves}) == 4 and 11 not in {m.source.table for m in moves}
    for m in moves:
        night.do(ConfirmMove(m.player_id))
    assert sorted(len(t.seats) for t in night.state.tables.values()) == [9] * 5 + [10] * 6


def test_S2_twenty_late_before_the_clock_fill_two_new_tables_and_nobody_moves() -> None:
    # The churn of issue 45: each late arrival balanced at once made 24 moves.
    night, proposed = _drawn_full_room(20)
    assert proposed == 0
    started = night.do(StartClock())
    assert not [e for e in started if isinstance(e, MoveProposed)] and not night.state.moves
    assert sorted(len(t.seats) for t in night.state.tables.values()) == [10] * 12


def test_S2_a_start_undone_takes_its_moves_back_with_it() -> None:
    night, _ = _drawn_full_room(5)
    started = night.do(StartClock())
    assert night.state.moves
    # The start is one action: its clock event and its moves, undone newest first.
    night.do(UndoAction(tuple((r.device_id, r.seq)
                              for r in reversed(night.records[-len(started):]))))
    assert not night.state.moves and not night.state.clock.started


def test_F2_late_registration_closes_after_the_configured_level_and_by_the_td() -> None:
    night = Night(late_registration_levels=2).started(10)
    night.do(CheckIn("a", "A"), at=2 * 1800 - 1)  # still level 2
    refused_at = 2 * 1800 + 600 + 10  # level 3, after the first break
    night.now = refused_at
    refused(night, CheckIn("b", "B"), LateRegistrationClosedError)
    other = Night().started(10)
    other.do(CloseLateRegistration())
    refused(other, CheckIn("c", "C"), LateRegistrationClosedError)


def test_F3_place_is_players_left_plus_one_at_the_moment_of_the_bust() -> None:
    night = Night().started(20)
    night.do(BustPlayers(("p3",)))
    night.do(BustPlayers(("p8",)))
    assert night.state.players["p3"].place == 20
    assert night.state.players["p8"].place == 19


def test_F3_several_busts_in_one_hand_bigger_starting_stack_finishes_higher() -> None:
    night = Night().started(20)
    night.do(BustPlayers(("p1", "p2", "p3"), start_stacks={"p1": 800, "p2": 3000, "p3": 800}))
    places = {p: night.state.players[p].place for p in ("p1", "p2", "p3")}
    # p2 started bigger: 18th; p1 and p3 had equal stacks and share 19th.
    assert places == {"p2": 18, "p1": 19, "p3": 19}
    assert night.state.remaining == 17


def test_F3_without_stacks_the_td_orders_the_busts() -> None:
    night = Night().started(10)
    night.do(BustPlayers(("p4", "p9")))
    assert (night.state.players["p4"].place, night.state.players["p9"].place) == (9, 10)


def test_F4_tournament_ends_when_one_player_holds_all_chips() -> None:
    night = Night().started(3)
    night.do(BustPlayers(("p1",), by="p2"))
    assert not night.state.finished
    night.do(BustPlayers(("p3",), by="p2"))
    assert night.state.finished and night.state.winner is not None
    assert night.state.winner.player_id == "p2"
    assert night.state.players["p2"].knockouts == 2
    assert not night.state.clock.running
    assert [e.place for e in night.state.results()] == [1, 2, 3]


def test_F4_the_last_player_cannot_be_busted() -> None:
    night = Night().started(2)
    refused(night, BustPlayers(("p1", "p2")), NoOneLeftToWin)
    # The reason is true: neither is out, and it says how many are left.
    assert NoOneLeftToWin(left=2).translate("en").startswith("All 2 players left cannot")


def test_F5_every_preset_starts_at_ten_thousand() -> None:
    for name in ("pubpoker", "pf-pokerklub", "sit-and-go"):
        assert preset(name).starting_stack == 10_000


def test_F6_pf_pokerklub_flags_a_player_away_more_than_twenty_minutes() -> None:
    night = Night(house="pf-pokerklub").started(6)
    night.do(MarkAbsent("p2"), at=100.0)
    assert night.state.absent_too_long(100.0 + 20 * 60) == []
    assert [e.player_id for e in night.state.absent_too_long(100.0 + 20 * 60 + 1)] == ["p2"]
    pub = Night(house="pubpoker").started(6)
    pub.do(MarkAbsent("p2"), at=0.0)
    # pubpoker blinds absent players out instead (F6): nobody is flagged.
    assert pub.state.absent_too_long(10_000.0) == []


# --- C: clock and structure -----------------------------------------------------------

def test_C1_new_blinds_apply_from_the_next_hand() -> None:
    night = Night().started(4)
    structure = preset("pf-pokerklub")
    assert clocks.level_for_hand(structure, night.state.clock, 1799.5).big_blind == 200
    assert clocks.level_for_hand(structure, night.state.clock, 1800.5).big_blind == 400
    # A hand begun during a break plays the level after the break.
    assert clocks.level_for_hand(structure, night.state.clock, 3600 + 60).big_blind == 600


def test_C2_pf_pokerklub_structure_is_exactly_the_seeds() -> None:
    s = preset("pf-pokerklub")
    assert [(lv.small_blind, lv.big_blind, lv.ante, lv.seconds) for lv in s.levels()] == [
        (100, 200, 0, 1800), (200, 400, 0, 1800), (300, 600, 0, 1800), (500, 1000, 0, 1800),
        (800, 1600, 100, 1800), (1200, 2400, 200, 1800), (2000, 4000, 500, 1800),
        (3000, 6000, 500, 1800), (5000, 10000, 1000, 1800),
    ]
    # A 10-minute break after every hour of play, plus one longer meal break.
    breaks = [(i, p.seconds, p.meal) for i, p in enumerate(s.periods) if not isinstance(p, Level)]
    assert [b[1] for b in breaks if not b[2]] == [600, 600, 600]
    assert [b[1] for b in breaks if b[2]] == [1800]
    levels_before = [sum(isinstance(p, Level) for p in s.periods[:i]) for i, _, _ in breaks]
    assert levels_before == [2, 4, 6, 8]


def test_C3_breaks_and_pauses_stop_the_level_clock() -> None:
    night = Night().started(4)
    s = preset("pf-pokerklub")
    night.do(PauseClock(), at=100.0)
    assert clocks.read(s, night.state.clock, 5000.0).remaining == 1700.0
    night.do(TogglePause(), at=5000.0)
    reading = clocks.read(s, night.state.clock, 5000.0 + 3500.0)  # 3600 s of play
    assert reading.on_break and reading.playing_time == 3600.0
    after_break = clocks.read(s, night.state.clock, 5000.0 + 3500.0 + 600.0 + 60.0)
    assert after_break.level_number == 3 and after_break.remaining == 1740.0
    assert after_break.playing_time == 3660.0


def test_C4_heads_up_levels_last_ten_minutes_from_the_next_level() -> None:
    night = Night().started(3)
    s = preset("pf-pokerklub")
    night.do(BustPlayers(("p1",)), at=600.0)  # heads-up during level 1
    still_level_1 = clocks.read(s, night.state.clock, 1700.0)
    assert still_level_1.level_number == 1 and still_level_1.remaining == 100.0
    level_2 = clocks.read(s, night.state.clock, 1800.0)
    assert level_2.level_number == 2 and level_2.remaining == 600.0
    assert clocks.read(s, night.state.clock, 2400.0).on_break


def test_C6_final_table_at_nine_left_redraws_one_table_and_stops_the_clock() -> None:
    night = Night().started(20)
    for i in range(1, 11):
        night.do(BustPlayers((f"p{i}",)))
        for move in list(night.state.moves.values()):
            night.do(ConfirmMove(move.player_id))
    events = night.do(BustPlayers(("p11",)))
    assert any(isinstance(e, FinalTableDrawn) for e in events)
    assert len(night.state.tables) == 1 and night.state.final_table
    assert len(next(iter(night.state.tables.values())).seats) == 9
    assert not night.state.clock.running and night.state.phase is Phase.RUNNING


def test_levels_can_be_jumped_but_not_past_the_last() -> None:
    night = Night().started(4)
    night.do(NextLevel(), at=10.0)
    s = preset("pf-pokerklub")
    assert clocks.read(s, night.state.clock, 10.0).level_number == 2
    last = len(s.periods) - 1
    night.do(JumpToLevel(last), at=20.0)
    refused(night, NextLevel(), clocks.NoSuchLevel)
    night.do(AdjustTime(-30), at=30.0)


# --- S and B through the reducer ---------------------------------------------------------

def test_S2_with_known_buttons_the_mover_is_the_next_big_blind_and_never_lands_on_the_sb() -> None:
    night = Night(seed=11).started(20)
    for table in list(night.state.tables):
        night.do(DrawButton(table))
        night.do(StartHand(table))
        night.do(StartHand(table))
    source = max(night.state.tables.values(), key=lambda t: len(t.seats))
    other = next(t for t in night.state.tables.values() if t is not source)
    victims = sorted(other.seats.values())[:2]
    events = night.do(BustPlayers(tuple(victims)))
    moves = [e.move for e in events if isinstance(e, MoveProposed)]
    assert len(moves) == 1
    move = moves[0]
    assert move.position_known
    from rules import button as buttons

    assert source.button is not None
    due_bb = buttons.next_big_blind(source.button, tuple(source.seats))
    assert move.source.seat == due_bb
    target = night.state.tables[move.target.table]
    assert target.button is not None
    next_hand = buttons.next_position(target.button, (*target.seats, move.target.seat),
                                      seats_per_table=10)
    assert move.target.seat != next_hand.small_blind
    night.do(ConfirmMove(move.player_id))
    assert night.state.players[move.player_id].seat == move.target


def test_S4_a_confirmed_move_carries_the_player_and_frees_the_old_seat() -> None:
    night = Night().started(20)
    first = night.state.tables[1]
    events = night.do(BustPlayers(tuple(sorted(first.seats.values())[:2])))
    move = next(e.move for e in events if isinstance(e, MoveProposed))
    night.do(ConfirmMove(move.player_id))
    assert move.source.seat not in night.state.tables[move.source.table].seats
    assert night.state.tables[move.target.table].seats[move.target.seat] == move.player_id
    refused(night, ConfirmMove(move.player_id), MoveNotProposed)


# --- undo, rejection, determinism --------------------------------------------------------

def test_an_undone_bust_is_a_compensating_event_and_can_be_redone() -> None:
    night = Night().started(14)
    night.do(BustPlayers(("p4",)))
    bust_seq = len(night.records)
    night.do(Undo("td", bust_seq))
    assert night.state.players["p4"].active and night.state.remaining == 14
    state = fold(night.records)
    assert state_digest(state) == state_digest(night.state)
    assert len(night.records) == bust_seq + 1  # nothing deleted
    night.do(Undo("td", bust_seq + 1))
    assert fold(night.records).players["p4"].place == 14


def test_two_devices_busting_the_same_player_is_rejected_identically_in_any_order() -> None:
    night = Night().started(10)
    base = list(night.records)
    top = base[-1].lamport
    a = Record("table-1", 1, top + 1, "t1", PlayersBusted(at=50.0, groups=(("p3",),)))
    b = Record("table-2", 1, top + 1, "t1", PlayersBusted(at=51.0, groups=(("p3",),)))
    digests = set()
    for order in ([*base, a, b], [b, *base, a], list(reversed([*base, a, b]))):
        state = fold(order)
        digests.add(state_digest(state))
        assert [(r.device_id, r.code) for r in state.rejected] == [("table-2", "PlayerAlreadyOut")]
    assert len(digests) == 1


def test_fold_is_deterministic_and_snapshots_round_trip() -> None:
    night = Night(seed=3).started(30)
    rng = random.Random(5)
    for _ in range(15):
        active = [e.player_id for e in night.state.active()]
        night.do(BustPlayers((rng.choice(active),)), at=night.now + 60)
        for move in list(night.state.moves.values()):
            night.do(ConfirmMove(move.player_id))
    live = state_digest(night.state)
    shuffled = list(night.records)
    rng.shuffle(shuffled)
    assert state_digest(fold(shuffled)) == live
    assert state_digest(restore_snapshot(snapshot(night.state))) == live


# --- bad input ---------------------------------------------------------------------------

def test_bad_commands_raise_specific_translated_errors_and_produce_no_event() -> None:
    night = Night().started(10)
    refused(night, BustPlayers(("nobody",)), UnknownPlayer)
    night.do(BustPlayers(("p2",)))
    refused(night, BustPlayers(("p2",)), PlayerAlreadyOut)
    refused(night, BustPlayers(("p3", "p3")), NamedTwice)
    refused(night, ConfirmMove("p5"), MoveNotProposed)
    refused(night, JumpToLevel(99), clocks.NoSuchLevel)
    refused(night, StartClock(), clocks.ClockAlreadyStarted)
    empty = Night()
    refused(empty, DrawSeats(), NotEnoughPlayers)
    with pytest.raises(clocks.ClockRunning):
        decide(Night().started(3).state, ResumeClock(), now=0.0, rng=random.Random(1))


def test_B5_a_late_registrant_between_sb_and_button_sits_out_until_the_button_passes() -> None:
    from rules import button as buttons

    night = Night(seed=5).started(12)  # two tables of six
    for table in list(night.state.tables):
        night.do(DrawButton(table))
        night.do(StartHand(table))
    events = night.do(CheckIn("late", "Late Comer"))
    seat = next(e.seat for e in events if isinstance(e, PlayerSeated))
    table = night.state.tables[seat.table]
    assert table.button is not None
    expected = buttons.sitting_out(table.button, seat.seat, occupied=tuple(table.seats),
                                   seats_per_table=10)
    assert (seat.seat in table.sitting_out) == expected
    for _ in range(12):
        night.do(StartHand(seat.table))
        position = night.state.tables[seat.table].button
        assert position is not None
        out = seat.seat in night.state.tables[seat.table].sitting_out
        assert out == (out and buttons.sits_out(position, seat.seat))
    # Within one orbit the button has passed and the newcomer is dealt in.
    assert seat.seat not in night.state.tables[seat.table].sitting_out


def test_S5_when_the_next_button_player_is_moved_the_button_stays_dead_for_a_hand() -> None:
    from rules import button as buttons
    from rules.values import Move, MoveReason, SeatRef

    night = Night(seed=8).started(18)
    for table in list(night.state.tables):
        night.do(DrawButton(table))
        night.do(StartHand(table))
    source = night.state.tables[1]
    before = source.button
    assert before is not None and before.small_blind is not None
    # The TD moves the player who is due the button next hand.
    mover = source.seats[before.small_blind]
    free = next(s for s in range(1, 11) if s not in night.state.tables[2].seats)
    move = Move(mover, SeatRef(1, before.small_blind), SeatRef(2, free),
                MoveReason.BALANCE, position_known=True)
    night.replay.add(_record(night, MoveProposed(at=night.now, move=move)))
    night.do(ConfirmMove(mover))
    night.do(StartHand(1))
    after = night.state.tables[1].button
    assert after is not None
    # Dead button on the empty seat; the big blind still moves on by one player.
    assert after.button == before.small_blind
    assert after.button not in night.state.tables[1].seats
    assert after.big_blind == buttons.seat_after(before.big_blind,
                                                 sorted(night.state.tables[1].seats))


def _record(night: Night, event: object) -> Record:
    seq = next(night._seq)
    record = Record(night.device, seq, seq, "t1", event)  # type: ignore[arg-type]
    night.records.append(record)
    return record


def test_C5_a_clock_call_starts_the_countdown_at_its_table_and_a_new_hand_clears_it() -> None:
    from rules.clock_call import ClockCall
    from rules.commands import CallClock

    night = Night().started(12)
    seat = next(iter(night.state.tables[2].seats))
    night.do(CallClock(2, seat), at=500.0)
    table = night.state.tables[2]
    assert (table.clock_called_at, table.clock_called_seat) == (500.0, seat)
    call = ClockCall(table=2, seat=seat, started_at=table.clock_called_at)
    assert call.remaining(520.0) == 10.0
    night.do(StartHand(2), at=540.0)
    assert night.state.tables[2].clock_called_at is None
    refused(night, CallClock(9), UnknownTable)


def test_C7_hand_for_hand_waits_for_every_table_then_deals_on() -> None:
    from rules.commands import FinishHand, SetHandForHand

    night = Night().started(20)
    refused(night, FinishHand(1), NotHandForHand)
    night.do(SetHandForHand(True))
    assert night.state.tables_still_playing() == [1, 2]
    night.do(FinishHand(1))
    assert night.state.tables_still_playing() == [2]
    night.do(FinishHand(2))
    assert night.state.tables_still_playing() == []
    night.do(StartHand(1))
    assert night.state.tables_still_playing() == [1]


def test_C7_hand_for_hand_is_refused_once_the_tournament_is_over() -> None:
    from rules.commands import SetHandForHand

    night = Night().started(2)
    night.do(BustPlayers(("p1",), by="p2"))
    assert night.state.finished
    refused(night, SetHandForHand(True), TournamentFinished)
    assert not night.state.hand_for_hand


def test_a_replay_that_keeps_no_records_folds_like_one_that_does() -> None:
    from rules.fold import Replay

    night = Night().started(14)
    night.do(BustPlayers(("p4",)))
    night.do(Undo("td", len(night.records)))
    log = list(night.records)
    lean = Replay(retain=False, load_all=lambda: log)
    for record in log:
        lean.add(record)
    assert len(lean) == 0
    assert state_digest(lean.state) == state_digest(fold(log)) == state_digest(night.state)
    with pytest.raises(ValueError):
        Replay(retain=False)


def test_C6_with_eight_seat_tables_the_final_table_waits_until_the_players_fit() -> None:
    from dataclasses import replace

    from rules.commands import CreateTournament
    from rules.house import profile

    night = Night()
    night.replay = type(night.replay)()
    night.records.clear()
    night.do(CreateTournament("Liten", preset("pf-pokerklub"),
                              replace(profile("pubpoker"), seats_per_table=8)))
    night.started(16)
    night.do(BustPlayers(tuple(f"p{i}" for i in range(1, 8))))  # nine left
    assert not night.state.final_table
    for move in list(night.state.moves.values()):
        night.do(ConfirmMove(move.player_id))
    events = night.do(BustPlayers(("p8",)))  # eight left: they fit at one table
    assert any(isinstance(e, FinalTableDrawn) for e in events)
    assert len(night.state.tables) == 1 and not night.state.clock.running
