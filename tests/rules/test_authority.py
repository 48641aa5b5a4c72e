"""What each role may do: the command check on the device, the event check at receipt."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import commands as c
from rules.authority import (
    NoTableNumber,
    NotAllowed,
    NotForThisDevice,
    NotOwnAction,
    NotThisTable,
    can,
    can_emit,
    event_refusal,
    refusal,
    verify,
    verify_event,
)
from rules.errors import RulesError
from rules.events import (
    ActionUndone,
    ButtonDrawn,
    ClockCalled,
    ClockPaused,
    ClockRestored,
    ClockResumed,
    ClockStarted,
    Event,
    FinalTableDrawn,
    HandFinished,
    HandStarted,
    LevelJumped,
    MoveCancelled,
    MoveConfirmed,
    PlayerCheckedIn,
    PlayersBusted,
    SeatsDrawn,
    TimeAdjusted,
)
from rules.roles import NoRole, Role, UnknownRole, parse_roles, roles_of
from rules.state import Tournament
from rules.structure import preset
from tests.rules.tournament_kit import Night

CLOCK: list[Event] = [ClockStarted(at=1.0), ClockPaused(at=1.0), ClockResumed(at=1.0),
                      LevelJumped(at=1.0, period_index=2), TimeAdjusted(at=1.0, seconds=60.0),
                      ClockRestored(at=1.0, position=10.0)]
OWN_TABLE: list[Event] = [PlayersBusted(at=1.0, groups=(("p1",),), table=3),
                          HandStarted(at=1.0, table=3), ButtonDrawn(at=1.0, table=3, seat=2),
                          ClockCalled(at=1.0, table=3), HandFinished(at=1.0, table=3),
                          MoveConfirmed(at=1.0, player_id="p1"),
                          MoveCancelled(at=1.0, player_id="p1"),
                          FinalTableDrawn(at=1.0, seats=())]


# --- roles ------------------------------------------------------------------------

def test_roles_parse_from_the_config_spelling_and_refuse_unknown_ones_translated() -> None:
    assert parse_roles("display+console") == {Role.DISPLAY, Role.CONSOLE}
    assert roles_of(Role.TABLE) == roles_of("table") == roles_of({Role.TABLE})
    with pytest.raises(UnknownRole) as err:
        parse_roles("bartender")
    assert isinstance(err.value, ValueError)
    assert err.value.translate("nb") == "Ukjent rolle for enheten: 'bartender'"
    with pytest.raises(NoRole):
        parse_roles("")


def test_the_kiosk_reads_the_same_enum() -> None:
    import kiosk.role

    assert kiosk.role.Role is Role and kiosk.role.parse_roles is parse_roles


# --- the event check, as sync applies it at receipt -----------------------------------

@pytest.mark.parametrize("event", CLOCK, ids=lambda e: e.kind.value)
def test_only_the_tds_devices_move_the_clock(event: Event) -> None:
    assert not can_emit("table", 3, event)
    assert isinstance(event_refusal("table", 3, event), NotForThisDevice)
    for roles in ("console", "display", "display+table", {Role.CONSOLE}):
        assert can_emit(roles, None, event)


@pytest.mark.parametrize("event", OWN_TABLE, ids=lambda e: e.kind.value)
def test_a_table_reports_for_its_own_table_and_what_its_reports_cause(event: Event) -> None:
    assert can_emit("table", 3, event)
    verify_event("table", 3, event)


@pytest.mark.parametrize("event", [PlayersBusted(at=1.0, groups=(("p1",),), table=4),
                                   PlayersBusted(at=1.0, groups=(("p1",),)),
                                   HandStarted(at=1.0, table=4),
                                   ButtonDrawn(at=1.0, table=4, seat=1),
                                   ClockCalled(at=1.0, table=4),
                                   PlayerCheckedIn(at=1.0, player_id="p9"),
                                   SeatsDrawn(at=1.0, seats=())],
                         ids=lambda e: e.kind.value)
def test_a_table_cannot_speak_for_another_table_or_the_desk(event: Event) -> None:
    refused = event_refusal("table", 3, event)
    assert isinstance(refused, NotAllowed) and isinstance(refused, PermissionError)
    with pytest.raises(NotAllowed):
        verify_event("table", 3, event)


def test_the_refusals_say_why_in_every_language() -> None:
    other = event_refusal("table", 3, HandStarted(at=1.0, table=4))
    assert isinstance(other, NotThisTable)
    assert other.translate("nn") == "Bord 3 kan ikkje melde for bord 4"
    assert other.translate("da") == "Bord 3 kan ikke melde for bord 4"
    desk = event_refusal("table", 3, LevelJumped(at=1.0, period_index=1))
    assert desk is not None and desk.translate("nn") == (
        "Denne eininga kan ikkje gjere det (level-jumped); bruk turneringsleiaren sin boks")


def test_unknown_roles_and_tables_without_numbers_are_refused() -> None:
    assert isinstance(event_refusal("bartender", None, HandStarted(at=1.0, table=1)),
                      UnknownRole)
    assert isinstance(event_refusal("table", None, HandStarted(at=1.0, table=1)), NoTableNumber)


def test_a_table_may_undo_its_own_events_only_and_only_when_its_origin_is_known() -> None:
    undo = ActionUndone(at=1.0, device_id="t3", seq=4)
    assert can_emit("table", 3, undo, origin="t3")
    assert isinstance(event_refusal("table", 3, undo, origin="t4"), NotOwnAction)
    assert isinstance(event_refusal("table", 3, undo), NotOwnAction)
    assert can_emit("console", None, undo)  # the TD's box undoes anyone's


# --- the command check, on the device that would give it -------------------------------

def started() -> Night:
    return Night(seed=3, max_tables=4).started(30)


def test_the_tds_devices_may_give_every_command() -> None:
    state = started().state
    for command in SAMPLES:
        for roles in ("console", "display", "display+console", "table+console"):
            assert can(state, command, roles)
            verify(state, command, roles)


SAMPLES: list[c.Command] = [
    c.CreateTournament("F", preset("pubpoker")), c.RegisterPlayer("p", "P"),
    c.RenamePlayer("p", "Q"), c.MergePlayers("p", "P", "q", "Q"), c.CheckIn("p"),
    c.CloseLateRegistration(), c.RemoveFromWaitingList("p"), c.DrawSeats(),
    c.Start(), c.StartClock(), c.PauseClock(), c.ResumeClock(), c.TogglePause(),
    c.NextLevel(), c.PreviousLevel(), c.JumpToLevel(2), c.AdjustTime(60.0),
    c.BustPlayers(("p1",), table=1), c.MarkAbsent("p1"), c.MarkReturned("p1"),
    c.ConfirmMove("p1"), c.CancelMove("p1"), c.MovePlayer("p1", 2), c.BreakTable(2),
    c.SetBreakOrder((1,)), c.DrawButton(1),
    c.StartHand(1), c.SetHandForHand(True), c.FinishHand(1), c.CallClock(1),
    c.ListForSitAndGo("p1"), c.StartSitAndGo("s", ("p1",)),
    c.StartNextSitAndGo("t", 21 * 60, 60), c.Undo("t1", 1), c.UndoAction((("t1", 1),)),
    c.CloseTournament(), c.ReopenTournament(), c.ChooseTonight(),
]


def test_every_command_kind_has_a_sample() -> None:
    def subclasses(cls: type) -> set[type]:
        return {s for sub in cls.__subclasses__() for s in {sub, *subclasses(sub)}}
    assert {type(s) for s in SAMPLES} == subclasses(c.Command)


@pytest.mark.parametrize("command", SAMPLES, ids=lambda cmd: type(cmd).__name__)
def test_a_table_device_may_give_its_own_tables_reports_and_nothing_else(
        command: c.Command) -> None:
    state = started().state
    ok = can(state, command, "table", 1, device_id="t1")
    mine = (c.BustPlayers, c.DrawButton, c.StartHand, c.FinishHand, c.CallClock,
            c.ConfirmMove, c.Undo, c.UndoAction)
    assert ok is isinstance(command, mine)
    why = refusal(state, command, "table", 1, device_id="t1")
    assert (why is None) is ok
    if why is not None:
        assert isinstance(why, NotForThisDevice)
        assert why.translate("en").startswith("This device may not do that (")


def test_a_refused_command_is_named_by_what_it_would_have_done() -> None:
    night = Night(seed=3)
    night.checked_in(4)
    state = night.state
    assert str(refusal(state, c.Start(), "table", 1)) == (
        "This device may not do that (seats-drawn); use the TD's box")
    night.do(c.DrawSeats())
    night.do(c.StartClock())
    assert str(refusal(night.state, c.TogglePause(), "table", 1)) == (
        "This device may not do that (clock-paused); use the TD's box")
    assert str(refusal(night.state, c.NextLevel(), "table", 1)) == (
        "This device may not do that (level-jumped); use the TD's box")


@pytest.mark.parametrize("command", [c.BustPlayers(("p1",), table=2), c.StartHand(2),
                                     c.DrawButton(2), c.CallClock(2), c.FinishHand(2)],
                         ids=lambda cmd: type(cmd).__name__)
def test_a_table_device_cannot_report_for_another_table(command: c.Command) -> None:
    state = started().state
    with pytest.raises(NotThisTable) as err:
        verify(state, command, "table", 1)
    assert err.value.translate("en") == "Table 1 may not report for table 2"
    assert not can(state, command, "table", 1)


def test_a_bust_that_names_no_table_is_the_desks() -> None:
    with pytest.raises(NotForThisDevice):
        verify(Tournament(), c.BustPlayers(("p1",)), "table", 1)


def test_a_table_confirms_only_moves_to_its_own_table_which_only_the_state_says() -> None:
    night = started()
    state = night.state
    rng = random.Random(1)
    while not state.moves:
        table = rng.choice(sorted(t for t, v in state.tables.items() if v.seats))
        night.do(c.BustPlayers((sorted(state.tables[table].seats.values())[0],), table=table))
        state = night.state
    player, move = next(iter(state.moves.items()))
    target, source = move.target.table, move.source.table
    assert can(state, c.ConfirmMove(player), "table", target)
    with pytest.raises(NotThisTable) as err:
        verify(state, c.ConfirmMove(player), "table", source)
    assert err.value.params == {"table": source, "other": target}
    # The event alone cannot say (the target is in the state): receipt lets it through.
    assert can_emit("table", source, MoveConfirmed(at=0.0, player_id=player))
    # No such move: the rules, not the role, refuse it.
    assert can(state, c.ConfirmMove("nobody"), "table", source)


def test_a_table_device_undoes_only_its_own_actions() -> None:
    state = Tournament()
    assert can(state, c.UndoAction((("t1", 5), ("t1", 4))), "table", 1, device_id="t1")
    assert can(state, c.Undo("t1", 5), "table", 1, device_id="t1")
    for command in (c.UndoAction((("t1", 5), ("td", 4))), c.Undo("td", 4)):
        with pytest.raises(NotOwnAction):
            verify(state, command, "table", 1, device_id="t1")
    # Not knowing which device it is, a table may not undo at all.
    assert not can(state, c.Undo("t1", 5), "table", 1)


def test_a_table_device_without_its_number_is_refused_everything() -> None:
    with pytest.raises(NoTableNumber):
        verify(Tournament(), c.StartHand(1), "table")


def test_unknown_roles_are_refused_as_commands_too() -> None:
    with pytest.raises(UnknownRole):
        verify(Tournament(), c.StartHand(1), "bartender", 1)
    assert not can(Tournament(), c.StartHand(1), "bartender", 1)


# --- the two checks agree ----------------------------------------------------------------

@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(12, 45),
       confirm=st.floats(0.0, 1.0))
def test_what_a_table_may_give_its_peers_accept(seed: int, players: int,
                                                confirm: float) -> None:
    """Every event of every command a table device may give passes the receipt check,
    so a table never stores what its peers would drop (busts cause moves, a re-plan
    cancels a walking player's move first: MoveCancelled came from tables too)."""
    rng = random.Random(seed)
    night = Night(seed=seed).started(players)
    while night.state.remaining > 2:
        state = night.state
        if state.moves and rng.random() < confirm:
            player = rng.choice(sorted(state.moves))
            table, command = state.moves[player].target.table, c.ConfirmMove(player)
        else:
            table = rng.choice(sorted(t for t, v in state.tables.items() if v.seats))
            command = c.BustPlayers((rng.choice(sorted(state.tables[table].seats.values())),),
                                    table=table)
        assert can(state, command, "table", table, device_id=f"t{table}")
        try:
            events = night.do(command)
        except RulesError:
            continue
        for event in events:
            verify_event("table", table, event, origin=f"t{table}")
