"""Issue 41, night 2 (and issue 45's full night): a 128-player Friday on real processes.

The venue's regulars are imported from a CSV; twelve tables of ten (pf-pokerklub:
at most ten a table, as few tables as possible, merged when they can be, S1).
A hundred check in before the draw; 28 more come during late registration
(F2): the first twenty get the free seats by draw, the last eight wait on the
list and come in, first in line first, as busts free seats. Then the room plays
down: every bust is one ``pubpoker bust``, every move the rules propose is
confirmed as the mover sits down (``pubpoker move confirm``), tables break as
the field shrinks (S1, S3), the final table is drawn at nine (C6), and the
night ends with its winner and the close.

After every step :meth:`tests.nights.rig.Night.check` holds the wall, the phone
and ``tournament show --json`` to the store; between steps the night's own
promises are checked: nobody is seated twice, a table never holds more than
ten, once the moves are made the tables are as few as the field allows and
within one player of each other, and the waiting list comes in in order.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from rules.state import Tournament
from tests.nights.rig import Night, played

pytestmark = [pytest.mark.night, pytest.mark.realproc, pytest.mark.slow]

FIRST = ("Ada", "Bjørn", "Cecilie", "Dag", "Eirik", "Frøydis", "Gunnar", "Hege", "Ivar",
         "Jorunn", "Kåre", "Liv", "Magnus", "Nina", "Øystein", "Åse")
LAST = ("Berg", "Dahl", "Hansen", "Lie", "Moe", "Næss", "Strand", "Aas")
#: The venue's 128 regulars, in the order they walk in.
FRIDAY = [f"{first} {last}" for last in LAST for first in FIRST]
SEATS, TABLES = 10, 12


@pytest.fixture
def friday(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Night]:
    # 30-minute levels (C2) at 60×: late registration (four levels) lasts two
    # real minutes, time for the whole check-in and the first busts in it.
    with played(tmp_path, request.node.name, speed=60.0) as made:
        yield made


def seated(state: Tournament) -> dict[int, list[str]]:
    """Table -> names sitting there (the pending movers still where they were)."""
    return {n: sorted(state.players[p].name for p in t.seats.values())
            for n, t in sorted(state.tables.items()) if t.seats}


def room_holds(state: Tournament) -> None:
    """Nobody sits twice, no table holds more than ten, and whoever is in has a seat
    or a pending move; the waiting list has no seat."""
    where: dict[str, int] = {}
    for number, table in state.tables.items():
        assert len(table.seats) <= SEATS, (number, table.seats)
        for pid in table.seats.values():
            assert pid not in where, (pid, where[pid], number)
            where[pid] = number
    for pid, entry in state.players.items():
        if entry.checked_in and entry.place is None and pid not in state.waiting:
            assert pid in where, (entry.name, "has no seat")
        if pid in state.waiting:
            assert pid not in where and entry.place is None, entry.name


def settled(state: Tournament) -> None:
    """S1/S2 once every move is made: as few tables as the field needs, within one of
    each other (the final table: everyone at one)."""
    assert not state.moves, state.moves
    counts = sorted(len(t.seats) for t in state.tables.values() if t.seats)
    assert len(counts) == math.ceil(state.remaining / SEATS), (counts, state.remaining)
    assert counts[-1] - counts[0] <= 1, counts


def confirm_moves(night: Night) -> int:
    """Each proposed move confirmed as the player sits down, one at a time (a
    confirmed move may propose the next)."""
    made = 0
    while moves := night.truth()[0].moves:
        pid, move = next(iter(moves.items()))
        state = night.truth()[0]
        name = state.players[pid].name
        night.step("move", "confirm", name)
        after = night.truth()[0]
        assert after.players[pid].seat == move.target, (name, after.players[pid].seat)
        room_holds(after)
        made += 1
        assert made < 200, "moves never end"
    return made


def test_a_128_player_friday_late_registration_moves_breaks_final_table_and_close(
        friday: Night, tmp_path: Path) -> None:
    night = friday
    regulars = tmp_path / "regulars.csv"
    regulars.write_text("name,card\n" + "".join(f"{name},\n" for name in FRIDAY),
                        encoding="utf-8")
    imported = night.step("players", "import", str(regulars))
    assert "128" in imported.out, imported.out
    night.step("tournament", "new", "--name", "Fredag {date}", "--preset", "pf-pokerklub",
               "--house", "pf-pokerklub", "--tables", str(TABLES), "--seats", str(SEATS))

    # A hundred before the draw, as they come through the door.
    early, late = FRIDAY[:100], FRIDAY[100:]
    for name in early:
        night.step("checkin", name)
    night.step("seat", "draw")
    state = night.truth()[0]
    room_holds(state)
    settled(state)  # 100 over ten tables of ten
    night.step("clock", "start")

    # Late registration: twenty free seats, taken by draw (a newcomer who opens a
    # table sets off moves into it, made as the movers sit down); the last eight wait.
    late_moves = 0
    for name in late:
        night.step("checkin", name)
        room_holds(night.truth()[0])
        late_moves += confirm_moves(night)
    state = night.truth()[0]
    settled(state)
    waiting = [state.players[p].name for p in state.waiting]
    assert waiting == late[-8:], waiting
    assert state.entrants == 120 and state.remaining == 120
    assert sum(len(t.seats) for t in state.tables.values()) == 120

    rng = random.Random(2)
    breaks = moves = 0
    admitted: list[str] = []
    tables_before = len(seated(state))
    while True:
        state = night.truth()[0]
        if state.finished:
            break
        in_play = [e.name for e in state.players.values()
                   if e.seat is not None and e.place is None and e.player_id not in state.moves]
        player = rng.choice(sorted(in_play))
        waited = [state.players[p].name for p in state.waiting]
        night.step("bust", player)
        after = night.truth()[0]
        room_holds(after)
        if waited:
            # The first in line takes the freed seat (F2), the rest move up.
            first = next(e for e in after.players.values() if e.name == waited[0])
            assert first.seat is not None, (waited[0], "not admitted")
            assert [after.players[p].name for p in after.waiting] == waited[1:]
            admitted.append(waited[0])
        moves += confirm_moves(night)
        after = night.truth()[0]
        if after.finished:
            break
        settled(after)
        tables_now = len(seated(after))
        breaks += tables_before - tables_now
        tables_before = tables_now
        if after.remaining == 9:
            # C6: the final table, everyone at one table, redrawn.
            assert after.final_table and len(seated(after)) == 1, seated(after)

    state = night.truth()[0]
    assert state.entrants == 128 and state.winner is not None
    assert breaks == TABLES - 1 and moves > 0
    assert admitted == late[-8:], admitted
    summary = (f"friday: {late_moves} moves during late registration, {moves} from the "
               f"first bust to the final table, {breaks} tables broken; admitted from the "
               f"waiting list in order: {', '.join(admitted)}")
    night.say(summary)
    print(summary)
    night.step("tournament", "close")
    night.record_close()
    night.step("bust", state.winner.name, code=2)
    night.step("undo", code=2)
