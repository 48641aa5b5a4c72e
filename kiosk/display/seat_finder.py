"""The seat finder: every seated player by name, "Name → table, seat", in big type.

With more tables than one seating page holds, a player would wait for the
page with their table; by name they find themselves at once (TD 3.7 shows
players by name for the same reason). The list is paged by letter range
(A–F, G–K, ...), breaking between letters where a page allows, and sorted
the Nordic way (Æ, Ø, Å after Z); a letter runs on to the next page only
where whole letters would take a page more. The seating screen shows one round of
the tables' pages and then the names' pages under one page count, the whole
round within a minute where it can (:func:`seating_slot`).

Pure like :mod:`.viewmodels`: no pygame, no clock, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from kiosk.display.messages import text
from kiosk.display.viewmodels import (
    PAGE_SECONDS,
    TABLES_PER_PAGE,
    SeatingView,
    seating_view,
    waiting_lines,
)
from rules.i18n import DEFAULT_LANGUAGE
from rules.state import Tournament

__all__ = ["CYCLE_SECONDS", "FINDER_ROWS", "MIN_PAGE_SECONDS", "Carousel", "FinderRow",
           "SeatFinderView", "carousel", "needs_finder", "seat_finder_view", "seating_slot",
           "sort_key"]

#: Names on one page: two columns of twelve keep the type at 4 % of the height.
FINDER_ROWS: Final = 24
#: A full room's whole round of tables and names takes at most this long...
CYCLE_SECONDS: Final = 60.0
#: ...but no page shows for less than this: time to find a name on a page of 24.
MIN_PAGE_SECONDS: Final = 5.0
#: Æ, Ø and Å come after Z in Norwegian and Danish (and so in every language here).
_NORDIC: Final = str.maketrans({"æ": "z{", "ä": "z{", "ø": "z|", "ö": "z|", "å": "z}"})


@dataclass(frozen=True)
class FinderRow:
    name: str
    #: The numbers alone ("3", "7"), under the headings "Bord" and "Sete": the
    #: words once a column leave the names room to be read whole.
    table_text: str
    seat_text: str
    #: "Flytt" when a pending move sends the player elsewhere: the numbers are then
    #: the table and seat to go to (as the moves screen and the phone say), marked.
    move_text: str = ""


@dataclass(frozen=True)
class SeatFinderView:
    """One page of the seat finder."""

    #: "Finn plassen din A–F"
    title: str
    #: "Bord", "Sete": the headings of the number columns.
    table_label: str
    seat_label: str
    rows: tuple[FinderRow, ...]
    page: int
    pages: int
    page_text: str
    #: "Venteliste: 2 – 1. Anna, 2. Bo" (F2); empty while nobody waits.
    waiting_text: str = ""


def sort_key(name: str) -> str:
    """The name as it sorts in a Nordic list.

    >>> sorted(["Åse", "Øystein", "Ærlig", "Zara", "Anne"], key=sort_key)
    ['Anne', 'Zara', 'Ærlig', 'Øystein', 'Åse']
    """
    return name.casefold().translate(_NORDIC)


def _initial(name: str) -> str:
    return name[:1].upper() or "?"


def _pages(names: list[str], per_page: int) -> list[list[int]]:
    """Indexes of sorted ``names`` cut into pages, between two letters where the pages
    allow without one page more than the names need.

    >>> _pages(["Anne", "Arne", "Bo", "Cato", "Cille"], 3)
    [[0, 1, 2], [3, 4]]
    >>> _pages(["Anne", "Arne", "Bo", "Cato", "Cille", "Dag"], 3)
    [[0, 1, 2], [3, 4, 5]]
    >>> _pages(["Anne", "Arne", "Bo", "Bård", "Cille", "Dag"], 3)
    [[0, 1, 2], [3, 4, 5]]
    """
    pages: list[list[int]] = []
    page: list[int] = []
    index = 0
    while index < len(names):
        end = index
        while end < len(names) and _initial(names[end]) == _initial(names[index]):
            end += 1
        group = list(range(index, end))
        if page and len(page) + len(group) > per_page:
            pages.append(page)
            page = []
        while len(group) > per_page:  # one letter fills more than a page
            pages.append(group[:per_page])
            group = group[per_page:]
        page.extend(group)
        index = end
    if page or not pages:
        pages.append(page)
    if len(pages) > -(-len(names) // per_page):
        # Whole letters would cost the round a page (and a room its minute): fill
        # every page instead; the titles ("R–S", "S–T") say where a letter runs on.
        return [list(range(start, min(start + per_page, len(names))))
                for start in range(0, len(names), per_page)]
    return pages


def seat_finder_view(state: Tournament, now: float, lang: str = DEFAULT_LANGUAGE, *,
                     page: int | None = None) -> SeatFinderView:
    """Every player with a seat, by name, one letter range a page."""
    # A pending move's target is where the player is to sit: the room reads the
    # same numbers here as on the moves screen and the phone (issue 49).
    seated = sorted(((e.name, move.target if move else e.seat, bool(move))
                     for e in state.players.values()
                     if e.seat is not None and e.place is None
                     for move in (state.moves.get(e.player_id),)),
                    key=lambda row: (sort_key(row[0]), row[1]))
    names = [name for name, _, _ in seated]
    pages = _pages(names, FINDER_ROWS)
    index = (int(now // PAGE_SECONDS) if page is None else page) % len(pages)
    rows = tuple(FinderRow(seated[i][0], str(seated[i][1].table), str(seated[i][1].seat),
                           text("move", lang) if seated[i][2] else "")
                 for i in pages[index])
    first, last = (_initial(rows[0].name), _initial(rows[-1].name)) if rows else ("", "")
    letters = first if first == last else f"{first}–{last}"
    return SeatFinderView(
        title=text("seat_finder", lang, letters=letters).strip(),
        table_label=text("table", lang, table="").strip(),
        seat_label=text("seat", lang, seat="").strip(),
        rows=rows,
        page=index,
        pages=len(pages),
        page_text=(text("page", lang, page=index + 1, pages=len(pages))
                   if len(pages) > 1 else ""),
        waiting_text=" – ".join(waiting_lines(state, lang)),
    )


def needs_finder(state: Tournament) -> bool:
    """Whether the tables take more than one seating page."""
    return len(state.tables) > TABLES_PER_PAGE


def _finder_page_count(state: Tournament) -> int:
    names = sorted((e.name for e in state.players.values()
                    if e.seat is not None and e.place is None), key=sort_key)
    return len(_pages(names, FINDER_ROWS))


@dataclass(frozen=True)
class Carousel:
    """The seating screen's one sequence: every page of tables, then every page of names."""

    table_pages: int
    finder_pages: int

    @property
    def pages(self) -> int:
        return self.table_pages + self.finder_pages

    @property
    def page_seconds(self) -> float:
        """How long each page shows: the whole round within :data:`CYCLE_SECONDS`
        where the pages allow, none shorter than :data:`MIN_PAGE_SECONDS`."""
        return max(MIN_PAGE_SECONDS, min(PAGE_SECONDS, CYCLE_SECONDS / max(self.pages, 1)))

    def index(self, now: float, since: float = 0.0) -> int:
        """The page at ``now`` of a round that began at ``since`` (shared time)."""
        # A hair past the boundary: a round started "now − 5 pages" is on page 6.
        return int((now - since) / self.page_seconds + 1e-9) % max(self.pages, 1)


def carousel(state: Tournament) -> Carousel:
    if not needs_finder(state):
        return Carousel(1, 0)
    return Carousel(-(-len(state.tables) // TABLES_PER_PAGE), _finder_page_count(state))


def seating_slot(state: Tournament, now: float, lang: str = DEFAULT_LANGUAGE, *,
                 since: float = 0.0) -> SeatingView | SeatFinderView:
    """The seating screen at ``now``: the tables, or, when they take more than a page,
    one round of the tables' pages and then the names' pages under one page count
    ("Side 7 av 12"), the round starting at ``since`` (when the screen was shown, so
    that a player who asks for it sees page 1 first).
    """
    if not needs_finder(state):
        return seating_view(state, now, lang)
    round_ = carousel(state)
    index = round_.index(now, since)
    page_text = text("page", lang, page=index + 1, pages=round_.pages)
    if index < round_.table_pages:
        return replace(seating_view(state, now, lang, page=index), page_text=page_text)
    return replace(seat_finder_view(state, now, lang, page=index - round_.table_pages),
                   page_text=page_text)
