"""Results, season standings (Q1 points, Q2 tie-breaks) and their exports."""

from __future__ import annotations

import csv
import io
import itertools
import json

import pytest

from kiosk.store import Store, UnknownSeason, UnknownTournament
from rules.points import points
from tests.kiosk.store.helpers import Night, players


def finished(store: Store, tid: str, n: int, *, name: str = "Fredagspoker",
             order: list[tuple[str, str]] | None = None) -> Night:
    night = Night(store, tid, name=name)
    night.started(order or players(n))
    return night.play_out()


def test_results_come_from_the_folded_tournament(store: Store) -> None:
    for i in range(1, 13):
        store.players.add(f"Player {i}")
    night = finished(store, "t1", 12)
    rows = store.record_results("t1", night.state)
    assert [r.place for r in rows] == list(range(1, 13))
    winner = rows[0]
    assert winner.name == night.state.winner.name  # type: ignore[union-attr]
    assert winner.knockouts == 11 and winner.points == points(1, 12) == 17
    assert [r.points for r in rows] == [points(p, 12) for p in range(1, 13)]
    assert store.tournament("t1").status == "finished"
    assert store.results("Fredagspoker") == rows


def test_standings_sum_a_season_and_break_ties_by_placings(store: Store) -> None:
    # Two nights with the same people, finishing in different orders.
    night1 = finished(store, "t1", 10)
    order2 = list(reversed(players(10)))
    night2 = finished(store, "t2", 10, name="Neste fredag", order=order2)
    store.record_results("t1", night1.state)
    store.record_results("t2", night2.state)
    season = store.tournament("t1").season
    table = store.standings(season)
    assert len(table) == 10
    assert all(a.points >= b.points for a, b in itertools.pairwise(table))
    by_name = {s.name: s for s in table}
    for s in table:
        assert s.tournaments == 2 and len(s.placings) == 2
        assert s.points == sum(points(p, 10) for p in s.placings)
    # Q2: equal points are ranked by best placing, then the next.
    for a, b in itertools.pairwise(table):
        if a.points == b.points and a.rank != b.rank:
            assert sorted(a.placings) < sorted(b.placings)
    assert set(by_name) == {name for _, name in players(10)}


def test_a_player_is_one_person_across_the_season_by_the_players_table(store: Store) -> None:
    kari = store.players.add("Kari")
    night1 = Night(store, "t1").started([(kari.id, "Kari"), ("w1", "Walk In"), ("x", "Ola")])
    night1.play_out()
    night2 = Night(store, "t2").started([("k-walkin", "kari"), ("w2", "Walk In"), ("y", "Ola")])
    night2.play_out()
    store.record_results("t1", night1.state)
    store.record_results("t2", night2.state)
    table = store.standings(store.tournament("t1").season)
    assert {s.name: s.tournaments for s in table} == {"Kari": 2, "Walk In": 2, "Ola": 2}


def test_export_results_as_csv_and_json(store: Store) -> None:
    finished(store, "t1", 5)
    text = store.export_results("t1", "csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [int(r["place"]) for r in rows] == [1, 2, 3, 4, 5]
    assert set(rows[0]) == {"place", "name", "points", "knockouts", "player_id"}
    data = json.loads(store.export_results("Fredagspoker", "json"))
    assert data["tournament"] == "t1" and data["status"] == "finished"
    assert [r["place"] for r in data["rows"]] == [1, 2, 3, 4, 5]
    assert data["rows"][0]["knockouts"] == 4


def test_export_of_a_running_tournament_lists_who_is_still_in(store: Store) -> None:
    night = Night(store, "t1").started(players(6))
    active = sorted(e.player_id for e in night.state.active())
    from rules.commands import BustPlayers

    night.do(BustPlayers((active[0],), by=active[1]))
    data = json.loads(store.export_results("t1", "json"))
    assert [r["place"] for r in data["rows"]] == [6, None, None, None, None, None]
    assert data["status"] == "running"


def test_export_standings_as_csv_and_json(store: Store) -> None:
    finished(store, "t1", 4)
    season = store.tournament("t1").season
    rows = list(csv.DictReader(io.StringIO(store.export_standings(season, "csv"))))
    assert [int(r["rank"]) for r in rows] == [1, 2, 3, 4]
    assert rows[0]["placings"] == "1"
    data = json.loads(store.export_standings(season, "json"))
    assert data["season"] == season and data["rows"][0]["placings"] == [1]


def test_seasons_can_be_named(store: Store) -> None:
    finished(store, "t1", 3)
    store.set_season("t1", "Vår 2025")
    assert json.loads(store.export_standings("Vår 2025", "json"))["rows"]


def test_unknown_names_are_translated_errors(store: Store) -> None:
    with pytest.raises(UnknownTournament) as t:
        store.export_results("nope", "csv")
    assert "nope" in t.value.translate("nn")
    with pytest.raises(UnknownSeason):
        store.export_standings("1999", "json")
