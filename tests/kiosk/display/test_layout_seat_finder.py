"""The seat finder's pages: every seated player once, in Nordic order, by letter range."""

from __future__ import annotations

import doctest

from kiosk.display import seat_finder
from kiosk.display.seat_finder import FINDER_ROWS, seat_finder_view, sort_key
from rules.commands import BustPlayers, CheckIn, DrawSeats, StartClock
from tests.rules.tournament_kit import Night

_NAMES = [f"{first} {last}" for first in ("Anne", "Bjørn", "Cato", "Øystein", "Åse", "Ærlig",
                                           "Kari", "Kjell", "Knut", "Kristin")
          for last in ("Aasen", "Berg", "Dahl", "Lund", "Moen", "Vik", "Holm", "Kvam",
                       "Strand", "Fjeld", "Brekke", "Myhre", "Hagen", "Olsen", "Nilsen")]


def _room() -> Night:
    night = Night()
    for index, name in enumerate(_NAMES, start=1):
        night.do(CheckIn(f"p{index}", name))
    night.do(DrawSeats())
    night.do(StartClock())
    return night


def test_docstring_examples() -> None:
    assert doctest.testmod(seat_finder).failed == 0


def test_every_seated_player_is_on_one_page_in_nordic_order_with_their_seat() -> None:
    night = _room()
    night.do(BustPlayers(("p1",)))
    state = night.state
    first = seat_finder_view(state, 0.0, "nn", page=0)
    pages = [seat_finder_view(state, 0.0, "nn", page=p) for p in range(first.pages)]
    rows = [row for page in pages for row in page.rows]
    seated = {e.name: e.seat for e in state.players.values() if e.place is None}
    assert sorted(r.name for r in rows) == sorted(seated)
    assert [r.name for r in rows] == sorted(seated, key=sort_key)
    assert all(len(page.rows) <= FINDER_ROWS for page in pages)
    for row in rows:
        seat = seated[row.name]
        assert seat is not None and (row.table_text, row.seat_text) == (str(seat.table),
                                                                        str(seat.seat))
    assert _NAMES[0] not in {r.name for r in rows}  # busted: no seat to find
    assert rows[-1].name.startswith("Åse")
    assert (first.table_label, first.seat_label) == ("Bord", "Sete")
    assert first.page_text == f"Side 1 av {first.pages}"


def _titles(names: list[str], lang: str = "en") -> list[str]:
    night = Night()
    for index, name in enumerate(names, start=1):
        night.do(CheckIn(f"p{index}", name))
    night.do(DrawSeats())
    state = night.state
    first = seat_finder_view(state, 0.0, lang, page=0)
    return [seat_finder_view(state, 0.0, lang, page=p).title for p in range(first.pages)]


def test_pages_break_between_letters_where_that_costs_no_page() -> None:
    # Six letters of twelve names: two letters fill a page of 24 exactly.
    names = [f"{first}{n}" for first in ("Anne", "Bo", "Cato", "Dag", "Eli", "Frode")
             for n in range(12)]
    assert _titles(names) == ["Find your seat A–B", "Find your seat C–D", "Find your seat E–F"]
    # Eleven a letter: a page for two letters leaves two rows empty, still three pages.
    assert _titles([n for n in names if not n.endswith("11")]) == _titles(names)
    assert _titles(names, "da")[0] == "Find din plads A–B"


def test_a_letter_runs_on_to_the_next_page_where_whole_letters_would_cost_one() -> None:
    state = _room().state
    first = seat_finder_view(state, 0.0, "en", page=0)
    pages = [seat_finder_view(state, 0.0, "en", page=p) for p in range(first.pages)]
    # A, B and C hold 15 names each and K 60: whole letters would take 9 pages of 24
    # for 150 names, so every page is filled and 7 do.
    assert len(pages) == -(-len(_NAMES) // FINDER_ROWS) == 7
    assert [len(page.rows) for page in pages] == [24] * 6 + [6]
    assert [page.title for page in pages] == [
        "Find your seat A–B", "Find your seat B–K", "Find your seat K", "Find your seat K",
        "Find your seat K–Æ", "Find your seat Ø–Å", "Find your seat Å"]
