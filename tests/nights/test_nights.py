"""Issue 41: whole nights, each a short script of what the TD does, on real processes.

Each step is one ``pubpoker`` command beside a headless ``pubpoker kiosk``; after
every step :meth:`tests.nights.rig.Night.check` holds the wall, the phone and
``tournament show --json`` to the store and to each other (see ``rig.py``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rules import clock as clocks
from tests.nights import reasons
from tests.nights.rig import Night, played, wait_for

pytestmark = [pytest.mark.night, pytest.mark.realproc]

TUESDAY = ("Ada", "Bo", "Cy", "Dag", "Eva", "Finn", "Gro", "Hans", "Ida")


@pytest.fixture
def night(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Night]:
    with played(tmp_path, request.node.name, speed=30.0) as made:
        yield made


def test_a_nine_player_tuesday_at_one_table_to_the_winner_and_the_close(night: Night) -> None:
    night.step("tournament", "new", "--name", "Tirsdag", "--tables", "1", "--seats", "9")
    for name in TUESDAY:
        night.step("checkin", "--new", name)
    night.step("seat", "draw")
    night.step("clock", "start")
    rng = random.Random(41)
    left = len(TUESDAY)
    while left > 1:
        if left == 5:
            night.step("clock", "next")
        player = rng.choice(night.seated())
        answer = night.step("bust", player)
        assert answer.out.startswith(f"{player}: {left}"), answer.out
        left -= 1
    state = night.truth()[0]
    assert state.finished and state.winner is not None
    night.step("tournament", "close")
    night.record_close()
    # After the close nothing the TD types changes the night's results.
    night.step("undo", code=None)
    night.step("clock", "next", code=None)
    night.step("bust", state.winner.name, code=None)


FRIDAY12 = ("Ada", "Bo", "Cy", "Dag", "Eva", "Finn", "Gro", "Hans", "Ida", "Jon", "Kari",
            "Liv")


@pytest.fixture
def fast_night(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Night]:
    """At 120×: a 20-minute level passes in ten seconds."""
    with played(tmp_path, request.node.name, speed=120.0) as made:
        yield made


def test_a_power_cut_at_level_6_loses_nothing_acknowledged(fast_night: Night) -> None:
    night = fast_night
    night.step("tournament", "new", "--name", "Straumbrot", "--tables", "2", "--seats", "6")
    for name in FRIDAY12:
        night.step("checkin", "--new", name)
    night.step("seat", "draw")
    night.step("clock", "start")
    rng = random.Random(6)
    busted: list[str] = []
    # The TD skips to level 5; level 6 comes by the clock itself.
    while night.level() < 5:
        night.step("clock", "next")
    wait_for_level(night, 6)
    night.check()
    for _ in range(3):
        player = rng.choice(night.seated())
        night.step("bust", player)
        busted.append(player)
    night.step("clock", "pause")
    night.step("clock", "resume")
    before = night.truth()
    status = night.status()
    # A 120x level lasts ten seconds: on a loaded machine the busts and their checks
    # can outlast it, and the clock goes on by itself. The cut is at the level the
    # clock has reached, and that is the level the night must come back at.
    assert status is not None and status["clock"]["level"] >= 6, status
    level_at_cut = status["clock"]["level"]
    left_at_cut = status["clock"]["remaining"]
    night.kill()
    night.start()
    after = night.truth()
    # Every acknowledged record is still there, in the same order.
    assert after[1] >= before[1]
    for player in busted:
        entry = next(e for e in after[0].players.values() if e.name == player)
        assert entry.place is not None, player
    status = night.status()
    assert status is not None
    clock = status["clock"]
    assert clock["level"] == level_at_cut, (level_at_cut, clock)
    # Restored paused: no later than the last acknowledged step (the TD's resume), no
    # earlier than the cut itself (the clock never skips ahead over a power cut).
    state = before[0]
    assert state.config is not None
    acked = clocks.read(state.config.structure, state.clock, state.last_at).remaining
    assert acked is not None
    assert left_at_cut - 1.0 <= clock["remaining"] <= acked + 1.0, (
        left_at_cut, clock, acked)
    assert "clock-restored" in status["notices"], status["notices"]
    night.check()
    if not clock["running"]:
        night.step("clock", "resume")
    while len(night.seated()) > 1:
        night.step("bust", rng.choice(night.seated()))
    night.step("tournament", "close")
    night.record_close()
    night.step("undo", code=None)


def wait_for_level(night: Night, level: int, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while night.level() < level:
        assert time.monotonic() < end, f"level {level} never came: {night.status()}"
        time.sleep(0.2)


SLIPS = ("Jonas Gahr", "Ada", "Bo", "Cy", "Dag", "Eva")


@pytest.fixture
def slip_night(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Night]:
    """At 60×: sit-and-go's ten-minute levels pass in ten seconds."""
    with played(tmp_path, request.node.name, speed=60.0) as made:
        yield made


def place_of(night: Night, name: str) -> int | None:
    state = night.truth()[0]
    return next(e.place for e in state.players.values() if e.name == name)


def test_the_td_who_makes_every_everyday_slip(slip_night: Night) -> None:
    """Night 4: each slip's answer is checked (its exit code, and that what it says is
    true), and the rig's invariants after every step."""
    night = slip_night
    night.step("tournament", "new", "--name", "Glipp", "--preset", "sit-and-go",
               "--tables", "1", "--seats", "6")
    for name in SLIPS:
        night.step("checkin", "--new", name)

    # --json on a command without a JSON form: refused, it says so, and nothing is done.
    slip = night.step("seat", "draw", "--json", code=2)
    assert slip.reason is not None and slip.reason.kind == "NoJsonForm", slip.err
    assert not night.truth()[0].tables or night.seated() == []
    night.step("seat", "draw")
    night.step("clock", "start")

    # clock add at the top of a level: paused, the time run given back, then 60 more.
    night.step("clock", "pause")
    night.step("clock", "add", "600")
    slip = night.step("clock", "add", "60", code=2)
    assert slip.reason is not None and slip.reason.kind == "LevelAtFullLength", slip.err
    assert slip.reason.fields == {"level": "1", "length": "10:00"}, slip.reason

    # undo after a resume: it takes back the resume, and says what it took back, truly.
    night.step("clock", "resume")
    undone = night.step("undo")
    state = night.truth()[0]
    assert not state.clock.running and "paused" in undone.out, undone.out
    assert "the clock" in undone.out and reasons.counts(undone.out, "en") == [6], undone.out
    night.step("clock", "resume")

    # An unquoted name of two words is the one player.
    out = night.step("bust", "Jonas", "Gahr")
    assert out.out.startswith("Jonas Gahr: 6th"), out.out
    assert place_of(night, "Jonas Gahr") == 6

    # Two out in one hand, the names given a stack count short, then right.
    slip = night.step("bust", "Ada", "Bo", "--same-hand", "--stacks", "3000", code=2)
    assert slip.reason is not None and slip.reason.kind == "StacksDoNotMatch", slip.err
    slip = night.step("bust", "Ada", "Bo Cy", "--same-hand", code=2)
    assert slip.reason is not None and slip.reason.kind in (
        "UnknownPlayer", "SameHandNamesQuoted", "NotAKnownPlayer"), slip.err
    out = night.step("bust", "Ada", "Bo", "--same-hand", "--stacks", "3000", "5000")
    # Bo began the hand with more chips: Bo finishes higher (F3).
    assert out.out.splitlines() == ["Bo: 4th", "Ada: 5th"], out.out
    slip = night.step("bust", "Ada", code=2)
    assert slip.reason is not None and slip.reason.kind == "PlayerAlreadyOut", slip.err

    # clock next on the last level: the TD skips to level 10, then once more.
    while night.level() < 10:
        night.step("clock", "next")
    slip = night.step("clock", "next", code=2)
    assert slip.reason is not None and slip.reason.kind == "LastLevel", slip.err
    assert night.level() == 10

    # Closing early is refused with the true count left.
    slip = night.step("tournament", "close", code=2)
    assert slip.reason is not None and slip.reason.kind == "NotFinished", slip.err
    night.step("bust", "Cy")
    # The last bust names the winner; a finished night's show is its result, not a clock.
    last = night.step("bust", "Dag")
    winner = night.truth()[0].winner
    assert winner is not None and f"{winner.name} has won the tournament" in last.out, last.out
    shown = night.step("tournament", "show")
    assert winner.name in shown.out and "left" not in shown.out, shown.out
    night.step("tournament", "close")
    night.record_close()
    night.step("undo", code=2)
    night.step("bust", "Eva", code=2)
    assert len(night.refusals) >= 9, night.refusals


#: A short night's players and its close, in each language (the rig takes lang).
SHORT = ("Ane", "Bjørn", "Cecilie")


@pytest.mark.parametrize("lang", ["nn", "nb", "da", "en"])
def test_a_short_night_in_each_language(tmp_path: Path, request: pytest.FixtureRequest,
                                        lang: str) -> None:
    """Night 5: three players, one table, at 60×, in ``lang``: every answer and
    refusal in that language's words, its reasons true, the invariants after each step."""
    from rules.i18n import format_place

    with played(tmp_path, request.node.name, speed=60.0, lang=lang) as night:
        night.step("tournament", "new", "--name", f"Kort {lang}", "--tables", "1",
                   "--seats", "3")
        for name in SHORT:
            night.step("checkin", "--new", name)
        slip = night.step("checkin", "Ane", code=2)
        assert slip.reason is not None and slip.reason.kind == "AlreadyCheckedIn", slip.err
        night.step("seat", "draw")
        night.step("clock", "start")
        slip = night.step("tournament", "close", code=2)
        assert slip.reason is not None and slip.reason.kind == "NotFinished", slip.err
        out = night.step("bust", "Ane", "Bjørn", "--same-hand")
        assert out.out.splitlines()[0].startswith(f"Ane: {format_place(2, lang)}"), out.out
        assert out.out.splitlines()[1].startswith(f"Bjørn: {format_place(3, lang)}"), out.out
        assert night.truth()[0].winner is not None
        night.step("tournament", "close")
        night.record_close()
        slip = night.step("bust", "Cecilie", code=2)
        assert slip.reason is not None, slip.err


CLOSED = ("Ane", "Bo", "Cy", "Dag")
#: What a TD might type on a closed night: each refused, in each language, for
#: the night being closed (N1), and nothing it shows changes.
ON_A_CLOSED_NIGHT = (("undo",), ("clock", "next"), ("clock", "resume"), ("clock", "pause"),
                     ("clock", "add", "60"), ("hand-for-hand", "on"), ("bust", "Ane"),
                     ("checkin", "Ane"), ("seat", "draw"), ("table", "break", "1"))


def test_N1_a_closed_night_refuses_everything_until_the_td_holds_undo_twice(
        tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """Night 6 (issue 42): the wall closes the night at its winner; every command
    that would change it is refused in every language for that reason, with the
    results, standings and exports unchanged; UNDO held twice on the wall opens it
    again (its files go), and UNDO held once more closes it as it was."""
    with played(tmp_path, request.node.name, speed=30.0, pins={"undo": 22}) as night:
        night.step("tournament", "new", "--name", "Lukka", "--tables", "1", "--seats", "4")
        for name in CLOSED:
            night.step("checkin", "--new", name)
        night.step("seat", "draw")
        night.step("clock", "start")
        for name in ("Dag", "Cy", "Bo"):
            night.step("bust", name)
        # The wall closes a won night itself (kiosk/night.py), as `tournament close` does.
        wait_for_closed(night, True)
        night.check()
        night.record_close()
        for lang in ("nn", "nb", "da", "en"):
            for argv in ON_A_CLOSED_NIGHT:
                slip = night.step(*argv, code=2, lang=lang)
                assert slip.reason is not None and slip.reason.kind == "TournamentClosedError", (
                    lang, argv, slip.err)
        # The wall's UNDO, held: first it says the night is closed and how to open it.
        night.press("undo", hold=True)
        said = wait_said(night, "Hold UNDO again to open it again")
        assert said[0] == "Lukka is closed – its results stand", said
        assert night.truth()[0].closed
        time.sleep(2.5)  # the first hold ends (two seconds) and the hand comes off
        night.press("undo", hold=True)
        wait_for_closed(night, False)
        wait_said(night, title="Lukka is open again: correct what needs correcting, then close")
        first_close, night.closed = night.closed, None  # open: its files are gone
        night.check()
        assert not list((night.data / "exports").glob("results-*")), "files of an open night"
        # UNDO held once more takes the reopen back: closed again, with exactly the
        # results, standings and files of the first close.
        time.sleep(2.5)
        night.press("undo", hold=True)
        wait_for_closed(night, True)
        night.closed = first_close
        wait_for(lambda: night._exports() == first_close, 15, "the first close's files back")
        night.check()
        for argv in (("undo",), ("bust", "Ane")):
            slip = night.step(*argv, code=2)
            assert slip.reason is not None and slip.reason.kind == "TournamentClosedError"


def wait_for_closed(night: Night, closed: bool, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while night.truth()[0].closed is not closed:
        assert time.monotonic() < end, f"the night never became closed={closed}"
        time.sleep(0.1)


def wait_said(night: Night, line: str | None = None, *, title: str | None = None,
              timeout: float = 15.0) -> list[str]:
    """The newest pop-up the wall said with ``line`` or ``title`` (its title, line, kind)."""
    end = time.monotonic() + timeout
    while True:
        status = night.status()
        for said in reversed((status or {}).get("said", [])):
            if said[1] == line or said[0] == title:
                return list(said)
        assert time.monotonic() < end, f"the wall never said {line or title!r}: {status}"
        time.sleep(0.1)
