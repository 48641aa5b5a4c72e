"""Tonight's tournament: the command that makes it, and which one it is once peers meet.

:func:`tonight` is the ``CreateTournament`` the venue's config describes.

Which tournament is tonight's is decided from the log alone, so every device
with the same events picks the same one (:func:`choose`, applied to a store
by :class:`Tonight`). A box that powered on alone and made its own
(:func:`auto_id`: its id says so) must not keep a second "tonight" on the wall
once it meets the peers that were running one. Sit & Go's
(``<main>-sng<n>``) run beside their main event and are never tonight's.
"""

from __future__ import annotations

import datetime as dt
import logging
import random
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Final

from kiosk.config import TournamentConfig
from kiosk.store.looks import LookSchedule
from rules.commands import CreateTournament
from rules.house import profile
from rules.i18n import DEFAULT_LANGUAGE, day_name, month_name
from rules.records import RecordMethods, record
from rules.structure import preset

if TYPE_CHECKING:
    from kiosk.app import App
    from kiosk.station import Station
    from kiosk.store import Folded, Store
    from rules.state import Tournament

__all__ = ["AUTO_PREFIX", "FOLLOW_EVERY", "Candidate", "Tonight", "auto_id", "choose",
           "follow_tonight", "is_auto", "is_side_game", "tonight"]

log = logging.getLogger(__name__)

#: The id of a tournament a box made by itself at power-on starts with this.
AUTO_PREFIX: Final = "auto-"
#: Seconds (monotonic) between looks at which tournament is tonight's.
FOLLOW_EVERY: Final = 2.0

_SIDE_GAME = re.compile(r"^(?P<main>.+)-sng\d+$")


def tonight(config: TournamentConfig, today: dt.date, lang: str = DEFAULT_LANGUAGE
            ) -> CreateTournament:
    """The command that creates tonight's tournament.

    The name pattern may use ``{date}`` (29.11.2026), ``{weekday}`` and
    ``{month}``, named in the room's language ``lang`` from the catalogue
    (:data:`rules.i18n.WEEKDAYS`), never the C locale's English. A name that
    starts with one is written with a capital.

    >>> cmd = tonight(TournamentConfig(name="Fredagspoker {date}"), dt.date(2026, 11, 27))
    >>> cmd.name, cmd.structure.name, cmd.house.seats_per_table
    ('Fredagspoker 27.11.2026', 'pubpoker', 10)
    >>> thursday = dt.date(2026, 12, 3)
    >>> [tonight(TournamentConfig(name="{weekday}spoker i {month}"), thursday, lang).name
    ...  for lang in ("nn", "da", "en")]
    ['Torsdagspoker i desember', 'Torsdagspoker i december', 'Thursdayspoker i December']
    """
    house = profile(config.house)
    if house.seats_per_table != config.seats_per_table:
        from dataclasses import replace

        house = replace(house, seats_per_table=config.seats_per_table)
    name = config.name.format(date=f"{today.day:02}.{today.month:02}.{today.year}",
                              weekday=day_name(today.weekday(), lang),
                              month=month_name(today.month, lang))
    name = name[:1].upper() + name[1:]
    return CreateTournament(name, preset(config.preset), house, max_tables=config.tables,
                            resume_after_break=config.resume_after_break)


def auto_id(rng: random.Random) -> str:
    """A fresh id for a tournament made at power-on, not by the TD.

    >>> auto_id(random.Random(1))
    'auto-91b72265b1f5'
    >>> is_auto(auto_id(random.Random(1))), is_auto("t224f2a6c2a5d")
    (True, False)
    """
    return f"{AUTO_PREFIX}{rng.getrandbits(48):012x}"


def is_auto(tournament_id: str) -> bool:
    """Made by a box at power-on (:func:`auto_id`), not asked for by the TD."""
    return tournament_id.startswith(AUTO_PREFIX)


def is_side_game(tournament_id: str, known: Iterable[str]) -> bool:
    """A Sit & Go beside one of the ``known`` tournaments (``<main>-sng<n>``).

    >>> is_side_game("t1-sng2", {"t1"}), is_side_game("t1-sng2", {"t9"})
    (True, False)
    """
    found = _SIDE_GAME.match(tournament_id)
    return found is not None and found["main"] in set(known)


@record
class Candidate(RecordMethods):
    """A main event as the log tells it, for :func:`choose`."""

    id: str
    #: Where its ``TournamentCreated`` sits in the fold order: (lamport, device, seq).
    created: tuple[int, str, int]
    #: Made at power-on by a box (:func:`is_auto`), not by the TD.
    auto: bool = False
    #: Not finished (and not closed on this device).
    open: bool = True
    #: Players checked in.
    players: int = 0
    #: The clock was started.
    started: bool = False
    #: Where the TD last made it tonight's (``TonightChosen``: a switch back, an
    #: undone NEW) sits in the fold order; None if never.
    chosen: tuple[int, str, int] | None = None

    @property
    def mark(self) -> tuple[int, str, int]:
        """Its place among the others: its creation, or the TD's later choice of it."""
        return self.created if self.chosen is None else max(self.created, self.chosen)

    @property
    def deliberate(self) -> bool:
        """Made or chosen by the TD, not only by a box at power-on."""
        return not self.auto or self.chosen is not None


def choose(candidates: Iterable[Candidate]) -> str | None:
    """Tonight's tournament, the same on every device with the same log; None if none is open.

    A tournament the TD made (NEW, ``pubpoker tournament new``) replaces every
    one made before it, whether those are over or not: that is what asking for
    a new one means. A box makes one by itself only when it found none open,
    so those after the TD's last are the ones that compete. Of the open ones
    the one that is being played wins: a started clock first, then more
    players checked in; then the TD's own over a box's; then the first made.

    A box that powered on cut off from the display made its own; the display's
    (made by the TD's box earlier tonight) has players, so the empty one loses:

    >>> display = Candidate("auto-1", (3, "d", 1), auto=True, players=12)
    >>> console = Candidate("auto-2", (1, "c", 1), auto=True)
    >>> choose([display, console])
    'auto-1'

    With nobody in either yet, the first made (in the log's order) wins:

    >>> choose([Candidate("auto-a", (1, "b", 1), auto=True),
    ...         Candidate("auto-b", (1, "a", 1), auto=True)])
    'auto-b'

    The TD's NEW replaces the running one, players and all; an earlier one that
    is over is nobody's tonight:

    >>> running = Candidate("t1", (1, "c", 1), players=30, started=True)
    >>> choose([running, Candidate("t2", (40, "c", 90))])
    't2'
    >>> choose([Candidate("t1", (1, "c", 1), open=False)]) is None
    True

    N3: the TD switches back to the running one (``TonightChosen``, after the
    new one was made): it replaces the new one as the new one replaced it:

    >>> choose([Candidate("t1", (1, "c", 1), players=30, started=True, chosen=(41, "c", 91)),
    ...         Candidate("t2", (40, "c", 90))])
    't1'
    """
    ordered = sorted(candidates, key=lambda c: c.mark)
    last_deliberate = max((i for i, c in enumerate(ordered) if c.deliberate), default=0)
    open_ = [c for c in ordered[last_deliberate:] if c.open]
    if not open_:
        return None
    best = min(open_, key=lambda c: (not c.started, -c.players, not c.deliberate, c.mark))
    return best.id


class Tonight:
    """:func:`choose` over one store's log, for the main loop only.

    Only the TD's last tournament and the boxes' after it are folded (kept
    folded between looks); the station's own is read from the station.
    """

    def __init__(self, store: Store, station: Station | None = None) -> None:
        self.store = store
        self.station = station
        self._created: dict[str, tuple[int, str, int]] = {}
        self._folds: dict[str, Folded] = {}

    def _order(self, tid: str) -> tuple[int, str, int] | None:
        found = self._created.get(tid)
        if found is None:
            # The fold index leads with the tournament: one short range read.
            row = self.store.conn.execute(
                "SELECT lamport, device_id, seq FROM events WHERE tournament_id = ?"
                " AND kind = 'tournament-created' AND unreadable IS NULL"
                " ORDER BY lamport, device_id, seq LIMIT 1", (tid,)).fetchone()
            if row is None:
                return None
            found = self._created[tid] = (int(row[0]), str(row[1]), int(row[2]))
        return found

    def _chosen(self, tid: str) -> tuple[int, str, int] | None:
        # Not kept: a switch on any device may add one at any time.
        row = self.store.conn.execute(
            "SELECT lamport, device_id, seq FROM events WHERE tournament_id = ?"
            " AND kind = 'tonight-chosen' AND unreadable IS NULL"
            " ORDER BY lamport DESC, device_id DESC, seq DESC LIMIT 1", (tid,)).fetchone()
        return None if row is None else (int(row[0]), str(row[1]), int(row[2]))

    def _state(self, tid: str) -> Tournament:
        station = self.station
        if station is not None and station.tournament_id == tid:
            return station.state
        folded = self._folds.get(tid)
        if folded is None:
            folded = self._folds[tid] = self.store.fold(tid)
        else:
            folded.catch_up()
        return folded.state

    def candidates(self, before: tuple[int, str, int] | None = None) -> list[Candidate]:
        """The main events that may be tonight's: the TD's last and the boxes' after it.

        ``before`` (a place in the fold order): as the log stood then, e.g. just
        before the TD made a new one (N3: undo of NEW switches back to it).
        """
        rows = self.store.tournaments()
        ids = {row.id for row in rows}
        closed = {row.id for row in rows if row.status == "closed"}
        mains = []
        for row in rows:
            order = self._order(row.id)
            if order is not None and before is not None and order >= before:
                continue
            if order is not None and not is_side_game(row.id, ids):
                chosen = self._chosen(row.id)
                if before is not None and chosen is not None and chosen >= before:
                    chosen = None
                mains.append(Candidate(row.id, order, auto=is_auto(row.id), chosen=chosen))
        mains.sort(key=lambda c: c.mark)
        last = max((i for i, c in enumerate(mains) if c.deliberate), default=0)
        out = []
        for candidate in mains[last:]:
            if candidate.id in closed:
                out.append(Candidate(candidate.id, candidate.created, candidate.auto,
                                     open=False, chosen=candidate.chosen))
                continue
            state = self._state(candidate.id)
            out.append(Candidate(candidate.id, candidate.created, candidate.auto,
                                 open=state.config is not None and not state.finished,
                                 players=state.entrants, started=state.clock.started,
                                 chosen=candidate.chosen))
        for tid in set(self._folds) - {c.id for c in out}:
            self._folds.pop(tid).close()
        return out

    def pick(self) -> str | None:
        """Tonight's tournament in this store, or None if none is open."""
        return choose(self.candidates())

    def close(self) -> None:
        for folded in self._folds.values():
            folded.close()
        self._folds.clear()

    def __enter__(self) -> Tonight:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def follow_tonight(app: App, every: float = FOLLOW_EVERY) -> Callable[[], list[object] | None]:
    """Keep the app's station on tonight's tournament as peers' events arrive.

    Two boxes that each made one while cut off meet: every device switches to
    the one :func:`choose` picks, so the wall shows one tonight. A device on a
    finished tournament (last night's winner) with none open stays on it.

    Which one is tonight's changes only with the log: it is looked at after
    peers' rows are stored, after this device's own events, and after another
    process's commit where the store's change signal is wired in (else every
    ``every`` seconds); not every 2 s of a running clock.
    """
    from kiosk.controls.effects import Settle  # the kiosk's, not the CLI's, import

    tonight_ = Tonight(app.store, app.station)
    looks = LookSchedule(every=every, signalled=app.station.looks.signalled)
    app.station.on_store_changed.append(looks.changed)
    app.station.on_accepted.append(lambda _added: looks.changed())
    app.station.on_local.append(lambda _records: looks.changed())

    def look() -> list[object] | None:
        if not looks.due(app.loop.monotonic()):
            return None
        pick = tonight_.pick()
        current = app.station.tournament_id
        if pick is None or pick == current:
            return None
        log.info("tonight's tournament is %s (this device was on %s)", pick, current)
        app.station.switch(pick)
        # No pop-ups for what happened before on tonight's: the loop carries it out.
        return [Settle()]

    app.hooks.on_tick.append(look)
    app.on_close.insert(0, tonight_.close)
    return look
