"""When the next Sit & Go starts and who plays it, decided in the rules (G1-G3)."""

from __future__ import annotations

import random
from datetime import time

import pytest

from rules.commands import (
    BustPlayers,
    CheckIn,
    ListForSitAndGo,
    StartNextSitAndGo,
    decide,
    execute,
)
from rules.events import SitAndGoStarted
from rules.sitandgo import NoFreeTable, TooFewPlayers, TooLate
from rules.sitandgo_game import game_commands
from rules.sitandgo_start import (
    can_start_next,
    free_tables,
    main_needs,
    sit_and_go_id,
    verify_next,
)
from rules.state import Phase, Tournament
from tests.rules.tournament_kit import Night

EVENING = time(21, 0)
CLOSING = time(1, 0)


def night_with_list(listed: int, *, players: int = 30, max_tables: int | None = 4) -> Night:
    night = Night(seed=5, max_tables=max_tables).started(players)
    busted = 0
    while busted < listed:
        table = max(night.state.tables, key=lambda n: len(night.state.tables[n].seats))
        player = sorted(night.state.tables[table].seats.values())[0]
        night.do(BustPlayers((player,), table=table))
        night.do(ListForSitAndGo(player))
        busted += 1
    return night


def start(night: Night, **kw: object) -> StartNextSitAndGo:
    args: dict[str, object] = {"tournament_id": "t1", "time_of_day": EVENING,
                               "closing": CLOSING}
    args.update(kw)
    return StartNextSitAndGo(**args)  # type: ignore[arg-type]


def test_G1_the_first_nine_listed_start_and_the_rest_wait() -> None:
    night = night_with_list(11)
    listed = list(night.state.sit_and_go_list)
    (event,) = night.do(start(night))
    assert isinstance(event, SitAndGoStarted)
    assert event.player_ids == tuple(listed[:9])
    assert event.sit_and_go_id == "t1-sng1" == sit_and_go_id("t1", 1)
    assert night.state.sit_and_go_list == listed[9:]


def test_G1_seven_listed_are_enough_six_are_not() -> None:
    night = night_with_list(6)
    with pytest.raises(TooFewPlayers) as err:
        decide(night.state, start(night), now=night.now, rng=random.Random(1))
    assert err.value.translate("en") == "6 on the waiting list, 7 needed"
    assert not can_start_next(night.state, tournament_id="t1", time_of_day=EVENING,
                              closing=CLOSING)
    night.do(BustPlayers((sorted(night.state.tables[min(night.state.tables)].seats.values())[0],),
                         table=min(night.state.tables)))
    night.do(ListForSitAndGo(night.state.eliminations[-1][0][0]))
    assert can_start_next(night.state, tournament_id="t1", time_of_day=EVENING,
                          closing=CLOSING)
    assert len(night.do(start(night))[0].player_ids) == 7  # type: ignore[attr-defined]


def test_G1_a_table_must_be_free_and_running_games_hold_theirs() -> None:
    night = night_with_list(16, players=30, max_tables=4)
    in_use = sum(1 for t in night.state.tables.values() if t.seats)
    assert in_use == 3 and free_tables(night.state) == 1
    night.do(start(night))
    assert free_tables(night.state) == 0
    # Seven still wait, but every table is taken until the game finishes.
    assert len(night.state.sit_and_go_list) == 7
    with pytest.raises(NoFreeTable):
        verify_next(night.state, tournament_id="t1", time_of_day=EVENING, closing=CLOSING)
    done = frozenset({sit_and_go_id("t1", 1)})
    assert free_tables(night.state, finished=done) == 1
    nxt = verify_next(night.state, tournament_id="t1", time_of_day=EVENING, closing=CLOSING,
                      finished=done)
    assert (nxt.number, nxt.sit_and_go_id) == (2, "t1-sng2")
    assert nxt.players == tuple(night.state.sit_and_go_list)


def test_G1_without_a_table_count_no_table_is_known_free() -> None:
    night = night_with_list(8, max_tables=None)
    with pytest.raises(NoFreeTable):
        decide(night.state, start(night), now=night.now, rng=random.Random(1))


def test_G1_before_the_draw_the_main_event_claims_the_tables_its_players_will_fill() -> None:
    night = Night(seed=1, max_tables=3)
    for n in range(20):
        night.do(CheckIn(f"p{n}", f"Player {n}"))
    state = night.state
    assert state.phase is Phase.CHECK_IN
    assert main_needs(state) == 2 and free_tables(state) == 3  # tables of ten
    state.sit_and_go_list = [f"x{n}" for n in range(7)]  # (listing needs a bust: forced)
    assert can_start_next(state, tournament_id="t1", time_of_day=EVENING, closing=CLOSING)
    for n in range(20, 30):
        execute(state, CheckIn(f"p{n}", f"Player {n}"), now=0.0, rng=random.Random(1))
    assert main_needs(state) == 3
    with pytest.raises(NoFreeTable) as err:
        verify_next(state, tournament_id="t1", time_of_day=EVENING, closing=CLOSING)
    assert err.value.translate("nn") == "Ikkje noko ledig bord: hovudturneringa har prioritet"


@pytest.mark.parametrize(("now", "closing", "ok"), [
    (time(22, 59), time(1, 0), True),
    (time(23, 0), time(1, 0), True),
    (time(23, 1), time(1, 0), False),
    (time(22, 30), time(23, 30), True),
    (time(22, 31), time(23, 30), False),
    (time(0, 15), time(2, 0), False),  # after midnight is later, not earlier
])
def test_G2_no_new_game_after_23_nor_within_an_hour_of_closing(
        now: time, closing: time, ok: bool) -> None:
    night = night_with_list(7)
    assert can_start_next(night.state, tournament_id="t1", time_of_day=now,
                          closing=closing) is ok
    if not ok:
        with pytest.raises(TooLate):
            decide(night.state, start(night, time_of_day=now, closing=closing),
                   now=night.now, rng=random.Random(1))


def test_G3_the_game_is_its_own_tournament_on_the_sit_and_go_structure() -> None:
    night = night_with_list(8)
    (event,) = night.do(start(night))
    assert isinstance(event, SitAndGoStarted)
    names = {p: night.name(p) for p in event.player_ids}
    create, rest = game_commands(event, names)
    assert create.name == "Sit & Go 1" and create.max_tables == 1
    game = Tournament()
    rng = random.Random(2)
    execute(game, create, now=0.0, rng=rng)
    for command in rest:
        execute(game, command, now=1.0, rng=rng)
    assert game.config is not None and game.config.structure.starting_stack == 10000
    assert sorted(e.name for e in game.active()) == sorted(names.values())
    assert len(game.tables) == 1 and game.clock.running


def test_a_second_game_gets_the_next_number() -> None:
    night = night_with_list(16, players=40, max_tables=6)
    night.do(start(night))
    (second,) = night.do(start(night))
    assert second.sit_and_go_id == "t1-sng2"  # type: ignore[attr-defined]
    assert game_commands(second, {})[0].name == "Sit & Go 2"  # type: ignore[arg-type]
