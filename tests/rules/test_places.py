"""F3: places follow elimination order over all entrants, late entries included."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.commands import BustPlayers, CheckIn, DrawSeats, StartClock, Undo
from rules.errors import RulesError
from rules.events import EventKind, PlayersBusted, Record
from rules.fold import fold
from rules.state import Tournament
from tests.rules.tournament_kit import Night

NAMES = ("Ada", "Bo", "Cy", "Di", "Eli", "Fay", "Gu")


def _seven() -> Night:
    night = Night()
    for name in NAMES:
        night.do(CheckIn(name.lower(), name))
    night.do(DrawSeats())
    night.do(StartClock())
    return night


def _places(state: Tournament) -> dict[str, int | None]:
    return {e.name: e.place for e in state.players.values()}


def _seq_of(night: Night, kind: EventKind, **fields: object) -> int:
    """The log position of the last event of ``kind`` whose fields match."""
    return next(r.seq for r in reversed(night.records) if r.event.kind is kind
                and all(getattr(r.event, k) == v for k, v in fields.items()))


def test_F3_late_entry_moves_an_earlier_bust_down() -> None:
    night = _seven()
    night.do(BustPlayers(("ada",)))
    assert night.state.players["ada"].place == 7
    night.do(CheckIn("late", "Late Larsen"))
    night.do(BustPlayers(("bo",)))
    places = _places(night.state)
    assert (places["Ada"], places["Bo"]) == (8, 7)
    # A fresh fold of the same log agrees with the one kept up to date.
    assert _places(fold(night.records)) == places


def test_F3_undone_late_entry_moves_the_busts_back_up() -> None:
    night = _seven()
    night.do(BustPlayers(("ada",)))
    night.do(CheckIn("late", "Late Larsen"))
    night.do(BustPlayers(("bo",)))
    night.do(Undo("td", _seq_of(night, EventKind.PLAYER_CHECKED_IN, player_id="late")))
    places = _places(night.state)
    assert (places["Ada"], places["Bo"]) == (7, 6)
    assert night.state.entrants == 7


def test_F3_undone_bust_moves_later_busts_down() -> None:
    night = _seven()
    night.do(BustPlayers(("ada",)))
    night.do(BustPlayers(("bo",)))
    assert _places(night.state)["Bo"] == 6
    night.do(Undo("td", _seq_of(night, EventKind.PLAYERS_BUSTED, groups=(("ada",),))))
    places = _places(night.state)
    assert places["Ada"] is None and places["Bo"] == 7


def test_F3_simultaneous_busts_keep_ties_after_a_late_entry() -> None:
    night = _seven()
    night.do(BustPlayers(("ada", "bo", "cy"), start_stacks={"ada": 500, "bo": 900, "cy": 500}))
    places = _places(night.state)
    assert (places["Bo"], places["Ada"], places["Cy"]) == (5, 6, 6)
    night.do(CheckIn("late", "Late Larsen"))
    night.do(BustPlayers(("di",)))
    places = _places(night.state)
    # Bo first of the three, Ada and Cy share the next place, and 8 is skipped.
    assert (places["Bo"], places["Ada"], places["Cy"], places["Di"]) == (6, 7, 7, 5)


def test_F3_a_finished_night_with_late_entries_places_everyone_once() -> None:
    night = _seven()
    night.do(BustPlayers(("ada",)))
    night.do(CheckIn("late", "Late Larsen"))
    for pid in ("bo", "cy", "di", "eli", "fay", "gu"):
        night.do(BustPlayers((pid,)))
    assert night.state.finished
    assert sorted(p for p in _places(night.state).values() if p) == list(range(1, 9))
    assert night.state.winner is not None and night.state.winner.name == "Late Larsen"


# --- the property ----------------------------------------------------------------

steps = st.lists(
    st.one_of(
        st.tuples(st.just("bust"), st.integers(1, 3), st.integers(0, 10**6)),
        st.tuples(st.just("late"), st.just(1), st.integers(0, 10**6)),
        st.tuples(st.just("undo"), st.just(1), st.integers(0, 10**6)),
    ),
    min_size=1, max_size=40,
)


def _competition_ranking(places: list[int], first: int) -> bool:
    """1, 2, 2, 4, … from ``first``: a tie of k takes a place and skips k−1."""
    ordered = sorted(places)
    return all(p == (ordered[i - 1] if i else first) or p == first + i
               for i, p in enumerate(ordered))


def _tied_in_one_group(records: list[Record], a: str, b: str) -> bool:
    return any(isinstance(r.event, PlayersBusted)
               and any(a in g and b in g for g in r.event.groups) for r in records)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 12), seed=st.integers(0, 1000), script=steps)
def test_F3_places_are_a_ranking_over_all_entrants_whatever_the_order(
        players: int, seed: int, script: list[tuple[str, int, int]]) -> None:
    night = Night(seed=seed).started(players)
    late = 0
    for action, size, pick in script:
        rng = random.Random(pick)
        state = night.state
        active = sorted(e.player_id for e in state.active())
        try:
            if action == "bust" and len(active) > size:
                out = tuple(rng.sample(active, size))
                # Two stack sizes only, so equal-stack busts (shared places) are common.
                night.do(BustPlayers(out, start_stacks={p: rng.choice((500, 900)) for p in out}))
            elif action == "late":
                late += 1
                night.do(CheckIn(f"late{late}", f"Late {late}"))
            elif action == "undo":
                undoable = [r for r in night.records if r.event.kind in (
                    EventKind.PLAYERS_BUSTED, EventKind.PLAYER_CHECKED_IN, EventKind.ACTION_UNDONE)]
                if undoable:
                    target = rng.choice(undoable)
                    night.do(Undo(target.device_id, target.seq))
        except RulesError:
            continue  # a refused command writes nothing; the night goes on

    state = night.state
    entrants = [e for e in state.players.values() if e.checked_in]
    assert state.entrants == len(entrants)
    out = [e.place for e in entrants if e.place is not None]
    assert len(out) == len(entrants) - state.remaining + (1 if state.finished else 0)
    if state.finished:
        assert _competition_ranking(out, 1)
    elif out:
        assert _competition_ranking(out, state.remaining + 1)
    assert max(out, default=0) <= len(entrants)
    # Ties only where one hand busted players with equal stacks.
    for a in entrants:
        for b in entrants:
            if a is not b and a.place is not None and a.place == b.place and a.place != 1:
                assert _tied_in_one_group(night.records, a.player_id, b.player_id)
    # A peer folding the whole log from scratch gets the same places.
    assert _places(fold(night.records)) == _places(state)
