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


def test_pages_break_between_letters_and_say_their_range() -> None:
    state = _room().state
    first = seat_finder_view(state, 0.0, "en", page=0)
    titles = [seat_finder_view(state, 0.0, "en", page=p).title for p in range(first.pages)]
    # A, B and C hold 15 names each: A alone fills 15 of 24 rows, so B starts a page.
    assert titles[:3] == ["Find your seat A", "Find your seat B", "Find your seat C"]
    # K holds 60 names: more than a page, so it is cut inside the letter.
    assert titles.count("Find your seat K") == 3
    assert titles[-3:] == ["Find your seat Æ", "Find your seat Ø", "Find your seat Å"]
    assert seat_finder_view(state, 0.0, "da", page=0).title == "Find din plads A"
