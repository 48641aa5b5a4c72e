"""What each wall screen shows, computed from tournament state and shared time.

These are pure functions from ``(state, now, lang)`` to frozen records of
ready-made strings: no pygame, no clock reading, no I/O. The renderers in
:mod:`kiosk.display.screens` only place and draw these strings, so every word
and number format is decided (and tested) here.

Screens with more than fits (seating, moves, results) are split into pages.
The page shown is chosen from ``now`` so every screen in the room turns the
page at the same moment, unless the caller asks for a page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

from kiosk.display.messages import text
from rules import clock as clocks
from rules import waitlist
from rules.errors import RulesError
from rules.house import PointsScheme
from rules.i18n import DEFAULT_LANGUAGE, format_int, format_place, format_time
from rules.points import points
from rules.state import Tournament
from rules.structure import AnteKind, Break, Level

__all__ = [
    "PAGE_SECONDS",
    "BreakView",
    "CheckInView",
    "ClockView",
    "HelpView",
    "MovesView",
    "NotOnBreak",
    "ResultRow",
    "ResultsView",
    "SeatLine",
    "SeatingView",
    "TableView",
    "break_view",
    "check_in_view",
    "clock_view",
    "help_view",
    "move_to_text",
    "moves_view",
    "results_view",
    "seating_view",
    "waiting_lines",
]

#: How long each page of a multi-page screen stays up.
PAGE_SECONDS: Final = 10.0
#: Tables on one seating page: three ten-seat tables in a row keep names at 4 % of the
#: height; a bigger field gets the seat finder (:mod:`.seat_finder`) between the pages.
TABLES_PER_PAGE: Final = 3
#: Lines on one moves page and rows on one results page.
MOVES_PER_PAGE: Final = 10
RESULTS_PER_PAGE: Final = 10
#: Names on one check-in page: three columns of ten.
CHECK_IN_PER_PAGE: Final = 30
#: The clock warns in its last minute.
LAST_MINUTE: Final = 60.0

T = TypeVar("T")


class NotOnBreak(ValueError):
    """The break screen was asked for while a level is being played."""


# --- records ------------------------------------------------------------------


@dataclass(frozen=True)
class ClockView:
    """The main clock screen."""

    name: str
    level_text: str
    blinds_label: str
    blinds_text: str
    ante_text: str
    #: "Blindar 800 / 1 600 – Ante 100"; empty on a break.
    blinds_line: str
    digits: str
    next_level_label: str
    next_level_text: str
    #: "Neste nivå: Nivå 2 – 200 / 400", or "Siste nivå" when none follows.
    next_line: str
    until_break_label: str
    until_break_text: str
    #: "Til pause: 59:00"; empty when no break is ahead.
    until_break_line: str
    players_label: str
    players_text: str
    average_label: str
    average_text: str
    chips_label: str
    chips_text: str
    #: Badges such as "Finalebord" and "Hand for hand".
    badges: tuple[str, ...]
    paused: bool
    paused_text: str
    last_minute: bool
    on_break: bool


@dataclass(frozen=True)
class BreakView:
    """The break screen: countdown, what comes after, and any colour-up."""

    name: str
    title: str
    digits: str
    after_label: str
    after_text: str
    #: "Etter pausen: Nivå 7 – 2 000 / 4 000 – Ante 500"
    after_line: str
    colour_up: bool
    colour_up_text: str
    players_label: str
    players_text: str
    players_line: str
    paused: bool
    paused_text: str
    last_minute: bool


@dataclass(frozen=True)
class SeatLine:
    seat: int
    seat_text: str
    name: str
    button: bool
    #: "→ bord 14, sete 2" where a pending move sends the player; empty if none.
    moving_to: str = ""


@dataclass(frozen=True)
class TableView:
    number: int
    title: str
    seats: tuple[SeatLine, ...]


@dataclass(frozen=True)
class SeatingView:
    """One page of the seating screen."""

    title: str
    tables: tuple[TableView, ...]
    #: The most tables any page holds, so every page uses the same grid.
    tables_per_page: int
    button_mark: str
    page: int
    pages: int
    page_text: str
    #: "Venteliste: 2 – 1. Anna, 2. Bo" (F2); empty while nobody waits.
    waiting_text: str = ""


@dataclass(frozen=True)
class MovesView:
    title: str
    lines: tuple[str, ...]
    empty_text: str
    page: int
    pages: int
    page_text: str
    #: The clock as the room must know it while moving: "Klokka er stoppa", or
    #: "Nivå 5 – 12:34" while it runs; empty before the tournament is made.
    clock_text: str = ""
    #: Whether the clock stands (the line is drawn as a warning then).
    clock_paused: bool = False


@dataclass(frozen=True)
class ResultRow:
    place: int
    place_text: str
    name: str
    points_text: str


@dataclass(frozen=True)
class ResultsView:
    title: str
    winner_label: str
    winner_name: str
    points_label: str
    rows: tuple[ResultRow, ...]
    empty_text: str
    page: int
    pages: int
    page_text: str


@dataclass(frozen=True)
class CheckInView:
    """Who is in while the tournament is checking in, against the seats there are."""

    name: str
    title: str
    count_text: str
    names: tuple[str, ...]
    empty_text: str
    hint: str
    page: int
    pages: int
    page_text: str
    #: "Venteliste: 2 – 1. Anna, 2. Bo" (F2); empty while nobody waits.
    waiting_text: str = ""


@dataclass(frozen=True)
class HelpView:
    """What each of this device's buttons does (two buttons held for 3 s)."""

    title: str
    lines: tuple[str, ...]


# --- helpers ------------------------------------------------------------------


def _paging(count: int, per_page: int, now: float, page: int | None) -> tuple[int, int]:
    """(page index, page count); pages turn every PAGE_SECONDS of shared time."""
    pages = max(1, -(-count // per_page))
    index = int(now // PAGE_SECONDS) if page is None else page
    return index % pages, pages


def _page_text(page: int, pages: int, lang: str) -> str:
    return text("page", lang, page=page + 1, pages=pages) if pages > 1 else ""


def _slice(items: Sequence[T], page: int, per_page: int) -> tuple[T, ...]:
    return tuple(items[page * per_page:(page + 1) * per_page])


def _blinds(level: Level, lang: str) -> str:
    return text("blinds_value", lang, small=format_int(level.small_blind, lang),
                big=format_int(level.big_blind, lang))


def _ante(level: Level, lang: str) -> str:
    """ "Ante 100", or "BB-ante 1 000" where the big blind posts one for the table (B7):
    a plain "Ante" there makes the room think every player antes."""
    if not level.ante:
        return ""
    key = "bb_ante" if level.ante_kind is AnteKind.BIG_BLIND else "ante"
    return text(key, lang, ante=format_int(level.ante, lang))


def _break_line(period: Break, lang: str) -> str:
    """ "Pause 15 min", "Matpause 30 min" """
    return text("break_minutes", lang, name=text("meal_break" if period.meal else "break", lang),
                minutes=format_int(-(-period.seconds // 60), lang))


def _level_line(number: int, level: Level, lang: str) -> str:
    """ "Nivå 5 – 800 / 1 600 – Ante 100" """
    parts = [text("level", lang, number=number), _blinds(level, lang), _ante(level, lang)]
    return " – ".join(p for p in parts if p)


def _digits(reading: clocks.ClockReading, lang: str) -> str:
    return text("no_time", lang) if reading.remaining is None else format_time(reading.remaining)


def _paused_text(state: Tournament, power_cut: bool, lang: str) -> str:
    if state.clock.running:
        return ""
    if not state.clock.started:
        return text("not_started", lang)
    return text("power_cut" if power_cut else "paused", lang)


def _last_minute(reading: clocks.ClockReading) -> bool:
    return reading.remaining is not None and reading.remaining <= LAST_MINUTE


def _players(state: Tournament, lang: str) -> str:
    return text("players_value", lang, remaining=format_int(state.remaining, lang),
                entrants=format_int(state.entrants, lang))


def _reading(state: Tournament, now: float) -> clocks.ClockReading:
    if state.config is None:
        raise ValueError("the tournament has not been created")
    return clocks.read(state.config.structure, state.clock, now)


def _number_after(state: Tournament, reading: clocks.ClockReading) -> int:
    """The level number of ``reading.next_level``: one more than the levels played."""
    assert state.config is not None
    periods = state.config.structure.periods[:reading.period_index + 1]
    return sum(1 for p in periods if isinstance(p, Level)) + 1


def move_to_text(state: Tournament, player_id: str | None, lang: str) -> str:
    """ "→ bord 14, sete 2" where a pending move sends the player; "" without one."""
    move = state.moves.get(player_id) if player_id is not None else None
    if move is None:
        return ""
    return text("move_pending", lang, table=move.target.table, seat=move.target.seat)


def _labelled(label: str, value: str, lang: str) -> str:
    return text("label_value", lang, label=label, value=value) if label and value else value


def _and_list(values: Sequence[str], lang: str) -> str:
    """ "100 og 200", "25, 100 og 200" """
    if len(values) <= 1:
        return "".join(values)
    return f"{', '.join(values[:-1])} {text('and', lang)} {values[-1]}"


# --- screens ------------------------------------------------------------------


def clock_view(state: Tournament, now: float, lang: str = DEFAULT_LANGUAGE, *,
               power_cut: bool = False) -> ClockView:
    """The clock screen at shared time ``now``.

    ``power_cut`` says the clock was restored paused after a power cut, so
    the banner names the button (and the command) that resume it, not just "paused".
    """
    reading = _reading(state, now)
    assert state.config is not None
    structure = state.config.structure
    period = reading.period
    if isinstance(period, Level):
        level_text = text("level", lang, number=reading.level_number)
        blinds_label = text("blinds", lang)
        blinds_text, ante_text = _blinds(period, lang), _ante(period, lang)
    else:
        # No blinds are played in a break; the next level says what follows.
        level_text = text("meal_break" if period.meal else "break", lang)
        blinds_label = blinds_text = ante_text = ""
    blinds_line = " – ".join(p for p in (f"{blinds_label} {blinds_text}".strip(), ante_text) if p)
    following = structure.periods[reading.period_index + 1:reading.period_index + 2]
    if following and isinstance(following[0], Break) and isinstance(period, Level):
        # A break comes next: say so, not the level after it (issue 19).
        next_label, next_text = text("next", lang), _break_line(following[0], lang)
    elif reading.next_level is not None:
        next_label = text("next_level", lang)
        next_text = _level_line(_number_after(state, reading), reading.next_level, lang)
    else:
        next_label, next_text = "", text("last_level", lang)
    until_break = "" if reading.until_break is None else format_time(reading.until_break)
    until_label = text("until_break", lang) if until_break else ""
    chips = structure.starting_stack * state.entrants
    average = chips // state.remaining if state.remaining else 0
    badges = tuple(
        text(key, lang) for key, on in
        (("final_table", state.final_table), ("hand_for_hand", state.hand_for_hand)) if on)
    return ClockView(
        name=state.config.name,
        level_text=level_text,
        blinds_label=blinds_label,
        blinds_text=blinds_text,
        ante_text=ante_text,
        blinds_line=blinds_line,
        digits=_digits(reading, lang),
        next_level_label=next_label,
        next_level_text=next_text,
        next_line=_labelled(next_label, next_text, lang),
        until_break_label=until_label,
        until_break_text=until_break,
        until_break_line=_labelled(until_label, until_break, lang),
        players_label=text("players_left", lang),
        players_text=_players(state, lang),
        average_label=text("average_stack", lang),
        average_text=format_int(average, lang),
        chips_label=text("chips_in_play", lang),
        chips_text=format_int(chips, lang),
        badges=badges,
        paused=not state.clock.running,
        paused_text=_paused_text(state, power_cut, lang),
        last_minute=_last_minute(reading) and not reading.on_break,
        on_break=reading.on_break,
    )


def break_view(state: Tournament, now: float, lang: str = DEFAULT_LANGUAGE, *,
               power_cut: bool = False) -> BreakView:
    """The break screen; raises :class:`NotOnBreak` while a level is played."""
    reading = _reading(state, now)
    assert state.config is not None
    period = reading.period
    if not isinstance(period, Break):
        raise NotOnBreak(f"level {reading.level_number} is being played, not a break")
    after = ""
    if reading.next_level is not None:
        after = _level_line(_number_after(state, reading), reading.next_level, lang)
    chips = [format_int(c, lang) for c in sorted(period.colour_up)]
    colour_up_text = text("colour_up_notice", lang, chips=_and_list(chips, lang)) if chips else ""
    return BreakView(
        name=state.config.name,
        title=text("meal_break" if period.meal else "break", lang),
        digits=_digits(reading, lang),
        after_label=text("after_break", lang) if after else "",
        after_text=after,
        after_line=_labelled(text("after_break", lang), after, lang),
        colour_up=bool(chips),
        colour_up_text=colour_up_text,
        players_label=text("players_left", lang),
        players_text=_players(state, lang),
        players_line=_labelled(text("players_left", lang), _players(state, lang), lang),
        paused=not state.clock.running or reading.waiting,
        paused_text=(text("break_over", lang) if reading.waiting
                     else _paused_text(state, power_cut, lang)),
        last_minute=_last_minute(reading) and not reading.waiting,
    )


def seating_view(state: Tournament, now: float, lang: str = DEFAULT_LANGUAGE, *,
                 page: int | None = None) -> SeatingView:
    """Every table with its seats; busted players' seats are empty.

    The button is marked where a table device reported it or it was drawn.
    """
    seats_per_table = state.config.house.seats_per_table if state.config else 10
    tables: list[TableView] = []
    for number in sorted(state.tables):
        table = state.tables[number]
        button = table.button.button if table.button is not None else None
        last = max([seats_per_table, *table.seats])
        lines = []
        for seat in range(1, last + 1):
            player = table.seats.get(seat)
            name = state.players[player].name if player in state.players else ""
            lines.append(SeatLine(seat, str(seat), name, seat == button,
                                  move_to_text(state, player, lang) if name else ""))
        tables.append(TableView(number, text("table", lang, table=number), tuple(lines)))
    index, pages = _paging(len(tables), TABLES_PER_PAGE, now, page)
    per_page = -(-len(tables) // pages) if tables else 1
    return SeatingView(
        title=text("final_table" if state.final_table else "seating", lang),
        tables=_slice(tables, index, per_page),
        tables_per_page=per_page,
        button_mark=text("button_mark", lang),
        page=index,
        pages=pages,
        page_text=_page_text(index, pages, lang),
        waiting_text=" – ".join(waiting_lines(state, lang)),
    )


def moves_view(state: Tournament, now: float, lang: str = DEFAULT_LANGUAGE, *,
               page: int | None = None, power_cut: bool = False) -> MovesView:
    """Pending moves, in table and seat order of where the players sit now, and
    whether the clock stands (a move is made while it runs, or the room waits)."""
    lines = []
    for move in sorted(state.moves.values(), key=lambda m: (m.source, m.player_id)):
        entry = state.players.get(move.player_id)
        lines.append(text(
            "move_line", lang, name=entry.name if entry else move.player_id,
            from_table=move.source.table, from_seat=move.source.seat,
            to_table=move.target.table, to_seat=move.target.seat))
    index, pages = _paging(len(lines), MOVES_PER_PAGE, now, page)
    clock_text, clock_paused = "", False
    if state.config is not None:
        clock = clock_view(state, now, lang, power_cut=power_cut)
        clock_paused = clock.paused
        clock_text = clock.paused_text if clock.paused else f"{clock.level_text} – {clock.digits}"
    return MovesView(
        title=text("move", lang),
        lines=_slice(lines, index, MOVES_PER_PAGE),
        empty_text=text("no_moves", lang),
        page=index,
        pages=pages,
        page_text=_page_text(index, pages, lang),
        clock_text=clock_text,
        clock_paused=clock_paused,
    )


def _points_text(state: Tournament, place: int, lang: str) -> str:
    config = state.config
    if config is None or config.house.points is not PointsScheme.PF_POKERKLUB:
        # Other schemes need the league's table, which the tournament does not carry.
        return ""
    try:
        return format_int(points(place, max(state.entrants, place)), lang)
    except RulesError:
        return ""


def standings_view(season: str, rows: Sequence[tuple[int, str, int]], now: float,
                   lang: str = DEFAULT_LANGUAGE, *, page: int | None = None) -> ResultsView:
    """The league table (Q1, Q2): rank, name and points, in the results layout.

    >>> view = standings_view("2026", [(1, "Kari", 21), (2, "Ola", 17)], 0.0, "nn")
    >>> view.title, view.rows[0].place_text, view.rows[1].points_text
    ('Sesongpoeng 2026', '1.', '17')
    """
    lines = [ResultRow(rank, f"{rank}." if lang != "en" else f"{rank}", name,
                       format_int(points, lang)) for rank, name, points in rows]
    index, pages = _paging(len(lines), RESULTS_PER_PAGE, now, page)
    return ResultsView(
        title=text("standings", lang, season=season), winner_label="", winner_name="",
        points_label=text("points", lang), rows=_slice(lines, index, RESULTS_PER_PAGE),
        empty_text=text("no_results", lang), page=index, pages=pages,
        page_text=_page_text(index, pages, lang),
    )


def results_view(state: Tournament, now: float, lang: str = DEFAULT_LANGUAGE, *,
                 page: int | None = None) -> ResultsView:
    """Finishing places, best first, with league points where the house awards them."""
    rows = [ResultRow(e.place or 0, format_place(e.place or 0, lang), e.name,
                      _points_text(state, e.place or 0, lang)) for e in state.results()]
    winner = state.winner
    ended = max((e.busted_at for e in state.players.values() if e.busted_at is not None),
                default=None) if state.finished else None
    if page is None and ended is not None:
        # The night's end starts the results at page 1 (the winner's), not wherever
        # the room's page count stands; pages still turn at the same moment on every
        # screen, as the end is in the state.
        page = max(0, int((now - ended) // PAGE_SECONDS))
    index, pages = _paging(len(rows), RESULTS_PER_PAGE, now, page)
    return ResultsView(
        title=text("results", lang),
        winner_label=text("winner", lang) if winner else "",
        winner_name=winner.name if winner else "",
        points_label=text("points", lang) if any(r.points_text for r in rows) else "",
        rows=_slice(rows, index, RESULTS_PER_PAGE),
        empty_text=text("no_results", lang),
        page=index,
        pages=pages,
        page_text=_page_text(index, pages, lang),
    )


def check_in_view(state: Tournament, now: float, lang: str = DEFAULT_LANGUAGE, *,
                  page: int | None = None) -> CheckInView:
    """The check-in screen: names in the order they came, the count against the
    places (the TD's capacity, else ``max_tables × seats_per_table``; just the
    count without a limit), and the waiting list (F2) once they are all taken."""
    if state.config is None:
        raise ValueError("the tournament has not been created")
    names = [e.name for e in state.players.values() if e.checked_in and e.place is None]
    count = len(names)
    # The places there are: the TD's capacity, else the venue's seats (F2).
    seats = waitlist.capacity(state)
    if seats:
        count_text = text("check_in_count", lang, count=format_int(count, lang),
                          seats=format_int(seats, lang))
    else:
        count_text = text("check_in_count_open", lang, count=format_int(count, lang))
    index, pages = _paging(count, CHECK_IN_PER_PAGE, now, page)
    return CheckInView(
        name=state.config.name, title=text("check_in_title", lang), count_text=count_text,
        names=_slice(names, index, CHECK_IN_PER_PAGE), empty_text=text("check_in_empty", lang),
        # How to check in stays on the screen once names fill it (issue 49); the
        # TD's START once there is a field to draw.
        hint=" · ".join(line for line in (
            text("check_in_empty", lang) if count else "",
            text("check_in_hint", lang) if count >= 2 else "") if line),
        page=index, pages=pages, page_text=_page_text(index, pages, lang),
        waiting_text=" – ".join(waiting_lines(state, lang)))


def waiting_lines(state: Tournament, lang: str = DEFAULT_LANGUAGE) -> tuple[str, ...]:
    """The waiting list (F2) for the wall: its length, then the names in order; none if empty.

    >>> from rules.state import Entry
    >>> t = Tournament()
    >>> waiting_lines(t)
    ()
    >>> t.players = {p: Entry(p, n) for p, n in (("a", "Anna"), ("b", "Bo"))}
    >>> t.waiting = ["b", "a"]
    >>> waiting_lines(t, "en")
    ('Waiting list: 2', '1. Bo, 2. Anna')
    """
    names = [state.players[p].name for p in state.waiting if p in state.players]
    if not names:
        return ()
    return (text("waiting_count", lang, count=format_int(len(names), lang)),
            ", ".join(f"{n}. {name}" for n, name in enumerate(names, 1)))


def help_view(lines: Sequence[str], lang: str = DEFAULT_LANGUAGE) -> HelpView:
    return HelpView(title=text("help_title", lang), lines=tuple(lines))
