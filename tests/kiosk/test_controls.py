"""Buttons and cards become commands, per role (issue 6, the kiosk side)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from hardware.inputs import Action, ButtonHint, ButtonPressed, CardRead
from kiosk.controls import Controller, Mode, Role
from kiosk.station import Station
from kiosk.store import open_store
from kiosk.timebase import SharedClock
from rules.commands import CreateTournament, DrawButton, DrawSeats, StartClock
from rules.structure import preset


class Hand:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture()
def hand() -> Hand:
    return Hand()


@pytest.fixture()
def station(tmp_path: Path, hand: Hand) -> Station:
    st = Station(open_store(data_dir=tmp_path), SharedClock(source=hand), rng=random.Random(4))
    assert st.submit(CreateTournament("Fredag", preset("pubpoker"))).ok
    for n in range(1, 13):
        st.store.players.add(f"Player {n}", card=f"0A00{n:06X}")
    yield st
    st.close()


def press(action: Action, long: bool = False) -> ButtonPressed:
    return ButtonPressed(action=action, long=long, at=0.0)


def tap(n: int) -> CardRead:
    return CardRead(uid=f"0A00{n:06X}", reader="rdm6300", at=0.0)


def check_in_all(ctl: Controller, count: int = 12) -> None:
    for n in range(1, count + 1):
        # Checked in without a word of the controls': the room tells it (one pop-up).
        assert ctl.handle(tap(n)) == []
        assert ctl.station.state.by_card(tap(n).uid) is not None


def test_a_known_card_checks_in_and_an_unknown_card_asks_for_a_name(station: Station) -> None:
    ctl = Controller(station, frozenset({Role.CONSOLE}))
    assert ctl.handle(tap(3)) == []  # the room tells the check-in (tests/kiosk/test_one_popup.py)
    unknown = ctl.handle(CardRead(uid="0BADC0FFEE", reader="rdm6300", at=0.0))
    assert unknown[0].translate("nn") == "Nytt kort – skriv namnet"
    assert ctl.unnamed_card == "0BADC0FFEE"
    assert station.state.entrants == 1


def test_a_card_tapped_twice_shows_the_seat_again_and_adds_nothing(station: Station) -> None:
    ctl = Controller(station, frozenset({Role.CONSOLE}))
    check_in_all(ctl)
    assert ctl.handle(press(Action.start, long=True)) == []
    said = ctl.handle(tap(5))
    entry = station.state.find("Player 5")
    assert entry is not None
    seat = entry.seat
    assert said[0].key == "already-in" and seat is not None
    expected = f"Player 5 is already in: table {seat.table}, seat {seat.seat}"
    assert said[0].translate("en") == expected
    assert station.state.entrants == 12


def test_a_payment_card_is_refused_and_never_stored(station: Station) -> None:
    ctl = Controller(station, frozenset({Role.CONSOLE}))
    said = ctl.handle(CardRead(uid="4111 1111 1111 1111", reader="line", at=0.0))
    assert said[0].key == "payment-card" and ctl.unnamed_card is None
    dump = "\n".join(station.store.conn.iterdump())
    # The number as read or as its digits; "4111" alone turns up in a stored timestamp.
    assert "4111 1111" not in dump and "4111111111111111" not in dump


def test_td_buttons_run_the_clock_and_destructive_ones_need_a_long_press(
        station: Station, hand: Hand) -> None:
    ctl = Controller(station, frozenset({Role.DISPLAY}))
    check_in_all(ctl)
    short = ctl.handle(press(Action.start))
    assert short[0].translate("en") == "Hold the button to draw seats or start the clock"
    assert station.state.tables == {}
    ctl.handle(press(Action.start, long=True))
    assert len(station.state.tables) == 2
    ctl.handle(press(Action.start, long=True))
    assert station.state.clock.running
    ctl.handle(press(Action.next_level))
    tid = station.tournament_id
    assert tid is not None
    logged = len(station.store.records(tid))
    hint = ctl.handle(ButtonHint(action=Action.prev_level, at=0.0))
    assert hint[0].translate("nn") == "Hald knappen inne for å gå tilbake eit nivå"
    assert ctl.handle(press(Action.prev_level))[0].key == "hold-to"
    assert len(station.store.records(tid)) == logged
    ctl.handle(press(Action.prev_level, long=True))
    ctl.handle(press(Action.pause))
    assert not station.state.clock.running
    refused = ctl.handle(press(Action.prev_level, long=True))
    assert refused[0].key == "refused"
    assert refused[0].translate("en") == "There is no level 0 in the structure"


def test_hand_for_hand_is_held_on_and_off_and_tables_report_hand_done(
        station: Station) -> None:
    """C7: the TD holds HAND FOR HAND; each table's HAND DONE is recorded until the next hand."""
    td = Controller(station, frozenset({Role.DISPLAY}))
    check_in_all(td)
    td.handle(press(Action.start, long=True))
    td.handle(press(Action.start, long=True))
    table = Controller(station, frozenset({Role.TABLE}), table=1)
    refused = table.handle(press(Action.hand_done))
    assert refused[0].key == "refused" and not station.state.tables[1].hand_done
    short = td.handle(press(Action.hand_for_hand))
    assert short[0].translate("en") == "Hold the button to turn hand for hand on or off"
    assert not station.state.hand_for_hand
    said = td.handle(press(Action.hand_for_hand, long=True))
    assert said[0].popup and said[0].translate("nn").startswith("Hand for hand: bordet")
    assert station.state.hand_for_hand and station.state.tables_still_playing() == [1, 2]
    assert table.handle(press(Action.hand_done)) == []
    assert station.state.tables_still_playing() == [2]
    table.handle(press(Action.new_hand))
    assert station.state.tables_still_playing() == [1, 2]
    off = td.handle(press(Action.hand_for_hand, long=True))
    assert off[0].translate("da") == "Hånd for hånd er slut"
    assert not station.state.hand_for_hand
    # A table device may not start or end it: peers would refuse the event.
    assert table.handle(press(Action.hand_for_hand, long=True)) == []
    assert not station.state.hand_for_hand


def table_device(station: Station) -> Controller:
    console = Controller(station, frozenset({Role.CONSOLE}))
    check_in_all(console)
    assert station.submit(DrawSeats()).ok and station.submit(StartClock()).ok
    return Controller(station, frozenset({Role.TABLE}), table=1)


def test_table_bust_by_card_and_by_seat_buttons(station: Station) -> None:
    ctl = table_device(station)
    at_table = sorted(station.state.tables[1].seats.items())
    pid_a = at_table[0][1]
    seat_b, pid_b = at_table[1]
    assert ctl.handle(press(Action.bust))[0].key == "bust-tap" and ctl.mode is Mode.BUST
    n_a = int(station.state.players[pid_a].name.split()[-1])
    said = ctl.handle(tap(n_a))
    assert said[0].key == "busted" and station.state.players[pid_a].place == 12
    ctl.handle(press(Action.bust))
    shown = ctl.handle(press(Action.seat_next))
    assert shown[0].params["seat"] == seat_b
    ctl.handle(press(Action.ok))
    assert station.state.players[pid_b].place == 11 and ctl.mode is Mode.IDLE


def test_a_table_device_cannot_bust_a_player_from_another_table(station: Station) -> None:
    ctl = table_device(station)
    other = next(iter(station.state.tables[2].seats.values()))
    ctl.handle(press(Action.bust))
    said = ctl.handle(tap(int(station.state.players[other].name.split()[-1])))
    assert said[0].key == "not-here" and station.state.players[other].active


def test_new_hand_clock_call_and_undo_within_ten_seconds(station: Station, hand: Hand) -> None:
    ctl = table_device(station)
    station.submit(DrawButton(1))
    ctl.handle(press(Action.new_hand))
    assert station.state.tables[1].hands == 1
    ctl.handle(press(Action.clock))
    assert station.state.tables[1].clock_called_at == hand.t
    hand.t += 5
    assert ctl.handle(press(Action.undo, long=True))[0].key == "undone"
    assert station.state.tables[1].clock_called_at is None
    hand.t += 30
    late = ctl.handle(press(Action.undo, long=True))[0]
    assert late.key == "refused" and late.translate("en") == "Too late to undo here; ask the TD"
    assert station.state.tables[1].hands == 1


def test_the_undo_window_is_real_seconds_on_a_fast_forwarded_clock(
        tmp_path: Path, hand: Hand) -> None:
    """At 60× (a soak run) ten real seconds are 600 shared ones."""
    fast = SharedClock(source=hand, speed=60.0)
    st = Station(open_store(data_dir=tmp_path / "fast"), fast, rng=random.Random(4))
    try:
        assert st.submit(CreateTournament("Fredag", preset("pubpoker"))).ok
        for n in range(1, 13):
            st.store.players.add(f"Player {n}", card=f"0A00{n:06X}")
        ctl = table_device(st)
        st.submit(DrawButton(1))
        ctl.handle(press(Action.clock))
        hand.t += 5  # five real seconds: 300 shared
        assert ctl.handle(press(Action.undo, long=True))[0].key == "undone"
        ctl.handle(press(Action.clock))
        hand.t += 11
        assert ctl.handle(press(Action.undo, long=True))[0].key == "refused"
    finally:
        st.close()


def test_a_moved_player_taps_in_at_the_new_table(station: Station) -> None:
    ctl = table_device(station)
    busted = list(station.state.tables[1].seats.values())[:2]
    from rules.commands import BustPlayers

    assert station.submit(BustPlayers(tuple(busted))).ok
    # Ten left fit at one table: table 1 breaks and its players move.
    pid, move = next(iter(station.state.moves.items()))
    pending = len(station.state.moves)
    target = Controller(station, frozenset({Role.TABLE}), table=move.target.table)
    said = target.handle(tap(int(station.state.players[pid].name.split()[-1])))
    assert said[0].key == "moved"
    assert station.state.players[pid].seat == move.target
    assert len(station.state.moves) == pending - 1
    assert ctl.mode is Mode.IDLE


@pytest.mark.parametrize("lang", ["nn", "nb", "da", "en"])
def test_N1_a_closed_night_refuses_every_td_button_with_the_reason(
        station: Station, lang: str) -> None:
    from rules.commands import BustPlayers, CloseTournament
    from rules.refusals import TournamentClosedError

    ctl = Controller(station, frozenset({Role.DISPLAY, Role.CONSOLE}))
    check_in_all(ctl, 3)
    ctl.handle(press(Action.start, long=True))
    ctl.handle(press(Action.start, long=True))
    ids = sorted(station.state.players)
    assert station.submit(BustPlayers((ids[0],))).ok
    assert station.submit(CloseTournament()).ok
    tid = station.tournament_id
    assert tid is not None
    logged = len(station.store.records(tid))
    for action, long in [(Action.pause, False), (Action.next_level, False),
                         (Action.prev_level, True), (Action.add_minute, False),
                         (Action.remove_minute, True), (Action.start, True),
                         (Action.hand_for_hand, True), (Action.undo, True)]:
        said = ctl.handle(press(action, long))
        assert [s.key for s in said] == ["refused"], action
        assert said[0].translate(lang) == TournamentClosedError().translate(lang), action
    assert len(station.store.records(tid)) == logged
    assert station.state.closed and station.state.clock.running


def test_F2_a_card_at_check_in_when_full_puts_the_player_on_the_waiting_list(
        tmp_path: Path, hand: Hand) -> None:
    import dataclasses

    from rules.house import HouseRules

    st = Station(open_store(data_dir=tmp_path), SharedClock(source=hand), rng=random.Random(4))
    try:
        house = dataclasses.replace(HouseRules(), seats_per_table=4)
        assert st.submit(CreateTournament("Fredag", preset("pubpoker"), house,
                                          max_tables=1)).ok
        for n in range(1, 7):
            st.store.players.add(f"Player {n}", card=f"0A00{n:06X}")
        ctl = Controller(st, frozenset({Role.CONSOLE}))
        check_in_all(ctl, 4)
        said = ctl.handle(tap(5))
        assert said[0].popup and said[0].translate("nn") == "Player 5: Venteliste – du er nr. 1"
        said = ctl.handle(tap(6))
        assert said[0].translate("en") == "Player 6: Waiting list – you are number 2"
        assert st.state.entrants == 4 and len(st.state.waiting) == 2
        # A second tap adds nothing and says where they stand.
        again = ctl.handle(tap(6))
        assert "2" in again[0].translate("da") and len(st.state.waiting) == 2
    finally:
        st.close()


def test_a_devices_rows_are_handed_in_and_tried_first(station: Station) -> None:
    """Issue 50: the night's rows are part of the controls when they are built (no
    row patched in at run time), and a card is looked up once, for the desk's row
    and the check-in alike."""
    from kiosk.controls.dispatch import TD, Route, Rows
    from kiosk.controls.messages import Say
    from kiosk.store import CardMatch

    seen: list[object] = []

    def desk(read: CardRead, found: object) -> list[Say] | None:
        seen.append(found)
        return None  # the usual check-in

    rows = Rows(routes={Action.pause: (Route(TD, lambda ctl, p: [Say("bust-tap")]),)},
                card=desk)
    ctl = Controller(station, frozenset({Role.CONSOLE}), rows=rows)
    assert not hasattr(ctl, "route") and not hasattr(ctl, "card_hooks")
    assert [s.key for s in ctl.handle(press(Action.pause))] == ["bust-tap"]
    calls: list[str] = []
    lookup = station.store.players.lookup_card

    def counted(uid: str) -> object:
        calls.append(uid)
        return lookup(uid)

    station.store.players.lookup_card = counted  # type: ignore[method-assign]
    ctl.handle(tap(3))
    assert calls == [tap(3).uid]
    assert len(seen) == 1 and isinstance(seen[0], CardMatch)
    assert station.state.players[seen[0].player.id].checked_in
