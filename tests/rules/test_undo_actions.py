"""One undo takes back one action, found by the action id its events carry."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from itertools import count

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.commands import (
    AdjustTime,
    BustPlayers,
    CallClock,
    CheckIn,
    Command,
    CreateTournament,
    DrawButton,
    DrawSeats,
    StartClock,
    StartHand,
    TogglePause,
    Undo,
    UndoAction,
    decide,
)
from rules.errors import RulesError
from rules.events import (
    ActionUndone,
    ClockCalled,
    HandStarted,
    Record,
    decode_event,
    encode_event,
    event_to_json,
)
from rules.fold import Replay, fold, state_digest
from rules.house import profile
from rules.refusals import NothingToUndo, UndoWindowPassed
from rules.state import Tournament
from rules.structure import preset
from rules.undo import (
    action_id,
    can_undo,
    live_records,
    newest_action,
    stamp,
    undo,
    undo_events,
    verify_undo,
)


class Venue:
    """Several devices writing one log, as the store does: one action id per command."""

    def __init__(self, seed: int = 3) -> None:
        self.replay = Replay()
        self.records: list[Record] = []
        self.rng = random.Random(seed)
        self._seqs: dict[str, count[int]] = {}
        self._lamport = count(1)
        self.now = 0.0
        #: Every command's records, in the order given.
        self.actions: list[tuple[Record, ...]] = []
        self.do("td", CreateTournament("Fredag", preset("pf-pokerklub"), profile("pubpoker")))

    @property
    def state(self) -> Tournament:
        return self.replay.state

    def do(self, device: str, command: Command, *, ids: bool = True) -> tuple[Record, ...]:
        events = decide(self.state, command, now=self.now, rng=self.rng)
        seqs = self._seqs.setdefault(device, count(1))
        written: list[Record] = []
        first: int | None = None
        for event in events:
            seq = next(seqs)
            first = seq if first is None else first
            if ids:
                (event,) = stamp([event], action_id(device, first))
            record = Record(device, seq, next(self._lamport), "t1", event)
            written.append(record)
            self.records.append(record)
            self.replay.add(record)
        self.actions.append(tuple(written))
        return tuple(written)

    def started(self, players: int = 20) -> Venue:
        for n in range(players):
            self.do("td", CheckIn(f"p{n}", f"Player {n}"))
        self.do("td", DrawSeats())
        self.do("td", StartClock())
        for table in sorted(self.state.tables):
            self.do(f"t{table}", DrawButton(table))
        return self

    def undo_newest(self, device: str = "td", **kw: object) -> tuple[Record, ...]:
        action = verify_undo(self.records, now=self.now, **kw)  # type: ignore[arg-type]
        self.do(device, undo(action, now=self.now))
        return action


def idents(records: Sequence[Record]) -> set[tuple[str, int]]:
    return {r.ident for r in records}


def without_ids(records: Sequence[Record]) -> list[Record]:
    """The same log as a version before action ids would have written it."""
    return [dataclasses.replace(r, event=dataclasses.replace(r.event, action=""))
            for r in records]


# --- the id on the event ------------------------------------------------------------

def test_an_old_payload_without_an_action_id_reads_and_spells_as_before() -> None:
    old = '{"at":5.0,"kind":"hand-started","table":2,"v":1}'
    event = decode_event(__import__("json").loads(old))
    assert event == HandStarted(at=5.0, table=2) and event.action == ""
    assert event_to_json(event) == old


def test_an_action_id_travels_with_the_event() -> None:
    event = HandStarted(at=5.0, table=2, action="t2:17")
    data = encode_event(event)
    assert data["action"] == "t2:17"
    assert decode_event(data).action == "t2:17"
    assert '"action":"t2:17"' in event_to_json(event)


def test_the_id_is_the_device_and_the_first_seq_and_stamping_keeps_an_id_already_set() -> None:
    assert action_id("td", 12) == "td:12"
    kept = HandStarted(at=1.0, table=1, action="t1:4")
    fresh = HandStarted(at=1.0, table=1)
    assert [e.action for e in stamp([kept, fresh], "td:9")] == ["t1:4", "td:9"]


# --- the newest action --------------------------------------------------------------

def test_two_commands_at_one_timestamp_are_two_actions_the_old_guess_made_one() -> None:
    venue = Venue().started()
    # A frozen (or fast-forwarded) clock: the TD adds a minute twice in one tick.
    venue.now = 500.0
    first = venue.do("td", AdjustTime(60))
    second = venue.do("td", AdjustTime(60))
    assert first[0].event.at == second[0].event.at
    assert newest_action(venue.records) == second
    # What kiosk/controls.py guessed ("same device, same moment"): both at once.
    guessed = newest_action(without_ids(venue.records))
    assert idents(guessed) == idents(first) | idents(second)


def test_a_multi_event_command_is_one_action_even_with_another_devices_event_between() -> None:
    venue = Venue().started()
    venue.now = 900.0
    late = venue.do("td", CheckIn("late", "Late Comer"))
    assert len(late) >= 3  # registered, checked in, seated (and perhaps moves)
    # A table's event lands in the middle of the fold order (same Lamport time).
    table_rec = Record("t1", 99, late[1].lamport, "t1", HandStarted(at=900.0, table=1,
                                                                      action="t1:99"))
    log = [*venue.records, table_rec]
    assert newest_action(log) == late
    assert newest_action(log, device_id="t1") == (table_rec,)


def test_only_live_records_count_undone_ones_and_undos_and_the_creation_do_not() -> None:
    venue = Venue()
    assert newest_action(venue.records) == ()
    with pytest.raises(NothingToUndo):
        verify_undo(venue.records, now=0.0)
    venue.started(4)
    hand = venue.do("t1", StartHand(1))
    assert venue.undo_newest() == hand
    assert hand[0].ident not in idents(live_records(venue.records))
    assert all(not isinstance(r.event, ActionUndone) for r in live_records(venue.records))
    # Redo (undoing the undo) brings the hand back, and it is the newest again.
    undone_by = venue.actions[-1]
    venue.do("td", Undo(undone_by[0].device_id, undone_by[0].seq))
    assert newest_action(venue.records) == hand


def test_undo_events_take_back_the_newest_event_first() -> None:
    venue = Venue().started()
    venue.now = 700.0
    late = venue.do("td", CheckIn("late", "Late Comer"))
    events = undo_events(late, now=701.0)
    assert [(u.device_id, u.seq) for u in events] == [r.ident for r in reversed(late)]
    assert all(u.at == 701.0 for u in events)
    command = undo(venue.records, now=701.0)
    assert command == UndoAction(tuple(r.ident for r in reversed(late)))
    assert list(decide(venue.state, command, now=701.0, rng=random.Random(1))) == events


def test_an_empty_undo_is_refused() -> None:
    venue = Venue()
    with pytest.raises(NothingToUndo):
        decide(venue.state, UndoAction(()), now=0.0, rng=random.Random(1))


# --- a table device: its own action, within the window --------------------------------

def test_a_table_device_undoes_only_its_own_action_and_only_within_the_window() -> None:
    venue = Venue().started(8)
    venue.now = 100.0
    called = venue.do("t1", CallClock(1))
    venue.now = 103.0
    venue.do("td", AdjustTime(60))
    # The TD's newest is the minute; table 1's own newest is its clock call.
    assert newest_action(venue.records, device_id="t1") == called
    assert can_undo(venue.records, now=105.0, device_id="t1", within=10.0)
    venue.now = 111.0
    with pytest.raises(UndoWindowPassed) as late:
        verify_undo(venue.records, now=venue.now, device_id="t1", within=10.0)
    assert late.value.translate("nn") == "For seint å angre her; be turneringsleiaren"
    assert not can_undo(venue.records, now=venue.now, device_id="t1", within=10.0)
    assert not can_undo(venue.records, now=venue.now, device_id="t9")
    # Without a window (the TD's box) it may still go.
    assert venue.undo_newest(device_id="t1") == called
    assert isinstance(venue.records[-1].event, ActionUndone)
    assert venue.state.tables[1].clock_called_at is None


# --- the property: one undo, one command ----------------------------------------------

_BUTTONS = st.sampled_from(["hand", "clock", "bust", "minute", "pause", "late"])


def _command(venue: Venue, button: str, table: int, pick: int) -> tuple[str, Command]:
    state = venue.state
    tables = sorted(state.tables)
    table = tables[table % len(tables)]
    if button == "hand":
        return f"t{table}", StartHand(table)
    if button == "clock":
        return f"t{table}", CallClock(table, seat=None)
    if button == "bust":
        seated = sorted(state.tables[table].seats.values())
        return f"t{table}", BustPlayers((seated[pick % len(seated)],), table=table)
    if button == "minute":
        return "td", AdjustTime(60)
    if button == "pause":
        return "td", TogglePause()
    return "td", CheckIn(f"late{len(venue.records)}", f"Late {len(venue.records)}")


@settings(max_examples=40, deadline=None)
@given(steps=st.lists(st.tuples(_BUTTONS, st.integers(0, 5), st.integers(0, 20),
                                st.sampled_from([0.0, 0.0, 1.0, 30.0])),
                      min_size=2, max_size=14),
       undos=st.integers(1, 6), seed=st.integers(0, 50))
def test_undo_of_the_newest_action_takes_back_exactly_one_commands_events(
        steps: list[tuple[str, int, int, float]], undos: int, seed: int) -> None:
    """Commands from several devices, often at one timestamp; each undo takes back the
    newest command whole, and nothing else, so the state is the log without it."""
    venue = Venue(seed).started(18)
    venue.now = 10.0
    given_: list[tuple[Record, ...]] = []
    for button, table, pick, dt in steps:
        venue.now += dt
        device, command = _command(venue, button, table, pick)
        try:
            written = venue.do(device, command)
        except RulesError:
            continue
        given_.append(written)
    undos = min(undos, len(given_))
    for k in range(1, undos + 1):
        expected = given_[-k]
        taken = venue.undo_newest()
        assert taken == expected
        # The state is as if the undone commands had never been given.
        kept = [r for r in venue.records if not isinstance(r.event, ActionUndone)
                and all(r.ident not in idents(a) for a in given_[-k:])]
        assert state_digest(fold(venue.records)) == state_digest(fold(kept))


def test_the_old_guess_goes_wrong_where_the_property_holds() -> None:
    """The same kind of night as above, with the log stripped of ids: two table reports
    of one device at one moment look like one action to the old guess."""
    venue = Venue().started(18)
    venue.now = 50.0
    hand = venue.do("t1", StartHand(1))
    call = venue.do("t1", CallClock(1))
    assert isinstance(hand[0].event, HandStarted) and isinstance(call[0].event, ClockCalled)
    assert newest_action(venue.records) == call
    assert idents(newest_action(without_ids(venue.records))) == idents(hand + call)
