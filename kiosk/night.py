"""The TD's night on the appliance: power-on, check-in, the next tournament, help.

:func:`night_for` gives :func:`kiosk.bootstrap.bootstrap` this flow to build a
kiosk with, and :func:`start_night` powers it on (the ``pubpoker kiosk``
command does both for a config):

- **Power-on**: with no open tournament (none yet, or the last one finished
  or closed) the TD's box (console role) first waits :data:`JOIN_WAIT`
  seconds for its peers: a box switched on while the display runs tonight's
  (a spare box, a wiped card) joins that one. Only when none brought an open
  tournament does it create tonight's from the config, so the TV shows the
  check-in screen. A volunteer TD expects the box to be ready when players
  arrive, not to have to remember a button; a wrong preset is fixed from the
  terminal before the draw. Two boxes that each made one while cut off show
  the same one once they meet (:func:`kiosk.tonight.choose`).
- **Check-in**: a known card checks in (the role's controller). An unknown
  card opens "New card – enter a name": typed letters and Enter on a USB
  keyboard make a player with that card; with no typing for
  :data:`GUEST_AFTER` seconds (no keyboard attached) the card becomes
  "Guest N", to be named later (``pubpoker players link``). ``n`` opens a
  "Name:" prompt for a walk-in without a card. Escape closes a prompt.
- **The end**: when a tournament has its winner, it is closed with a
  ``TournamentClosed`` in the log, as ``pubpoker tournament close`` does (N1),
  so the CLI and every peer refuse changes too; the results go into the
  standings and ``exports/results-<id>.csv|json`` in the data dir, once.
- **NEW (long)** starts the next tournament; while one is still running it
  needs a second long press within :data:`NEW_CONFIRM_SECONDS`, after an
  on-screen warning. The running tournament stays in the store, untouched,
  and UNDO (held) on the new, empty one switches back to it (N3), as
  ``pubpoker undo`` does.
- **Help**: two buttons held for 3 s show what each configured button does.
- **Sit & Go's beside the main event** (G1–G3): a busted player taps their card
  at the TD's desk to go on the waiting list; the side panel over the clock
  shows the list and the last start (an hour before closing, 23:00 at the
  latest). With seven or more listed and a table free, ``g`` on the keyboard
  starts one: its own tournament (preset ``sit-and-go``) whose clock shows on
  the side panel.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from hardware.inputs import Action, ButtonPressed, CardRead
from kiosk.app import App, Core, FlowParts
from kiosk.config import TournamentConfig
from kiosk.controls import Popup, Say
from kiosk.controls.dispatch import TD, Route, Rows
from kiosk.controls.effects import Dismiss, FreshNight, Settle, ShowScreen
from kiosk.controls.help import help_lines
from kiosk.controls.prompts import Prompt, Prompts
from kiosk.controls.typed import KeyTyped
from kiosk.display.parts import LoopParts
from kiosk.station import Station
from kiosk.store import CardMatch, CardResult, RefusedCard
from kiosk.sync.auth import Seal
from kiosk.tonight import Tonight, auto_id, tonight
from rules import clock as clocks
from rules import sitandgo, sitandgo_game, sitandgo_start
from rules.commands import (
    CheckIn,
    CloseTournament,
    ListForSitAndGo,
    StartNextSitAndGo,
)
from rules.errors import RulesError
from rules.events import PlayersBusted, Record, SitAndGoStarted, TournamentClosed
from rules.i18n import LANGUAGES, format_time
from rules.name_match import fold
from rules.records import RecordMethods, record
from rules.refusals import NothingToUndo, TournamentClosedError
from rules.roles import TD_ROLES, Role, parse_roles
from rules.state import Phase

__all__ = ["CLOSE_GRACE", "GUEST_AFTER", "JOIN_PATIENCE", "JOIN_WAIT", "NEW_CONFIRM_SECONDS",
           "Night", "Prompt", "help_lines", "night_for", "start_night"]

log = logging.getLogger(__name__)

#: Seconds an unknown card waits for a typed name before it becomes "Guest N".
GUEST_AFTER: Final = 20.0
#: Seconds a walk-in's "Name:" prompt stays open without a key.
WALK_IN_SECONDS: Final = 60.0
#: The second long press of NEW must come within this many seconds.
NEW_CONFIRM_SECONDS: Final = 5.0
#: Seconds the TD's box waits at power-on for a peer to bring tonight's
#: tournament before it creates one. Peer sync is already running then; on a
#: LAN the display is found by mDNS, linked and caught up about 1.3 s after
#: sync starts (tests/night/test_power_on_join.py, namespaces on one
#: machine), so this leaves room for a slow Wi-Fi or a busy Pi Zero. A box
#: whose network comes up later still is put right when it meets its peers
#: (kiosk/tonight.py).
JOIN_WAIT: Final = 10.0
#: While a linked peer says it runs a tournament this box has not received
#: yet, the box waits for it up to this long before creating one.
JOIN_PATIENCE: Final = 60.0
#: Seconds a TD device that did not write the winning bust waits for the close
#: of the device that did (it arrives by peer sync within about a second)
#: before it closes the night itself.
CLOSE_GRACE: Final = 15.0

WORDS: Final[Mapping[str, Mapping[str, str]]] = {
    "guest": {"nn": "Gjest {n}", "nb": "Gjest {n}", "da": "Gæst {n}", "en": "Guest {n}"},
    "new-card": {"nn": "Nytt kort – skriv namnet", "nb": "Nytt kort – skriv navnet",
                 "da": "Nyt kort – skriv navnet", "en": "New card – enter a name"},
    "walk-in": {"nn": "Ny spelar – skriv namnet", "nb": "Ny spiller – skriv navnet",
                "da": "Ny spiller – skriv navnet", "en": "New player – enter a name"},
    # The key is not named: a TD's keyboard may say Enter, Return or ↵.
    "did-you-mean": {"nn": "Meinte du {names}? Same namn ein gong til: ny spelar",
                     "nb": "Mente du {names}? Samme navn en gang til: ny spiller",
                     "da": "Mente du {names}? Samme navn en gang til: ny spiller",
                     "en": "Did you mean {names}? The same name again: a new player"},
    "new-confirm": {"nn": "{name} er ikkje ferdig!", "nb": "{name} er ikke ferdig!",
                    "da": "{name} er ikke færdig!", "en": "{name} is not over!"},
    "new-confirm-hint": {"nn": "Hald NY inne ein gong til for ny turnering",
                         "nb": "Hold NY inne en gang til for ny turnering",
                         "da": "Hold NY inde en gang til for ny turnering",
                         "en": "Hold NEW again for a new tournament"},
    "new-started": {"nn": "Ny turnering: {name}", "nb": "Ny turnering: {name}",
                    "da": "Ny turnering: {name}", "en": "New tournament: {name}"},
    "kept": {"nn": "Ny turnering: {name} ({old} er lagra – ingenting er tapt)",
             "nb": "Ny turnering: {name} ({old} er lagret – ingenting er tapt)",
             "da": "Ny turnering: {name} ({old} er gemt – intet er tabt)",
             "en": "New tournament: {name} ({old} is kept – nothing is lost)"},
    "sng-listed": {"nn": "{name} står på ventelista ({n})",
                   "nb": "{name} står på ventelisten ({n})",
                   "da": "{name} er på ventelisten ({n})",
                   "en": "{name} is on the waiting list ({n})"},
    "sng-started": {"nn": "Sit & Go {n} startar: {names}", "nb": "Sit & Go {n} starter: {names}",
                    "da": "Sit & Go {n} starter: {names}", "en": "Sit & Go {n} starts: {names}"},
    "joining": {"nn": "Ser etter kveldens turnering …", "nb": "Ser etter kveldens turnering …",
                "da": "Leder efter aftenens turnering …",
                "en": "Looking for tonight's tournament…"},
    # N3: UNDO on a new, empty night the TD held NEW twice for.
    "new-undone": {"nn": "Den nye turneringa {new}. Kveldens turnering er att {what}",
                   "nb": "Den nye turneringen {new}. Kveldens turnering er igjen {what}",
                   "da": "Den nye turnering {new}. Aftenens turnering er igen {what}",
                   "en": "The new tournament {new}. Tonight's tournament is again {what}"},
    # N1: UNDO held on a closed night asks before it opens the night again.
    "reopen-confirm": {"nn": "{name} er avslutta – resultata står",
                       "nb": "{name} er avsluttet – resultatene står",
                       "da": "{name} er afsluttet – resultaterne står",
                       "en": "{name} is closed – its results stand"},
    "reopen-confirm-hint": {"nn": "Hald ANGRE inne ein gong til for å opne ho att",
                            "nb": "Hold ANGRE inne en gang til for å åpne den igjen",
                            "da": "Hold FORTRYD inde en gang til for at åbne den igen",
                            "en": "Hold UNDO again to open it again"},
    "reopened": {"nn": "{name} er open att: rett det som skal rettast, så avslutt",
                 "nb": "{name} er åpen igjen: rett det som skal rettes, så avslutt",
                 "da": "{name} er åben igen: ret det, der skal rettes, og afslut så",
                 "en": "{name} is open again: correct what needs correcting, then close"},
    "check-in-failed": {"nn": "Kunne ikkje sjekke inn: noko gjekk gale; ingenting er endra, "
                               "prøv igjen",
                        "nb": "Kunne ikke sjekke inn: noe gikk galt; ingenting er endret, "
                              "prøv igjen",
                        "da": "Kunne ikke tjekke ind: noget gik galt; intet er ændret, "
                              "prøv igen",
                        "en": "Could not check in: something went wrong; nothing was changed, "
                              "try again"},
    "closed": {"nn": "Resultata er lagra", "nb": "Resultatene er lagret",
               "da": "Resultaterne er gemt", "en": "The results are saved"},
}

@record
class Words(RecordMethods):
    """A message of this module, translated when drawn (like :class:`Say`)."""

    key: str
    params: Mapping[str, object]
    popup: bool = True

    def translate(self, lang: str = "nn") -> str:
        template = WORDS[self.key].get(lang) or WORDS[self.key]["en"]
        return template.format(**self.params)


class Night:
    """The night's flow around one app; see the module's docstring."""

    def __init__(self, core: Core, tournament: TournamentConfig, *,
                 buttons: Sequence[str] = (), today: Callable[[], dt.date] = dt.date.today,
                 guest_after: float = GUEST_AFTER, closing: dt.time = dt.time(1, 0),
                 clock_of_day: Callable[[], dt.time] = lambda: dt.datetime.now().time(),
                 join_wait: float = JOIN_WAIT) -> None:
        self.core = core
        self.tournament = tournament
        self.buttons = tuple(buttons)
        self.today = today
        self.guest_after = guest_after
        self.prompts = Prompts(
            core.monotonic,
            title=self._prompt_title,
            on_name=self._register)
        #: The typed name (folded) and card a "Did you mean …?" was asked about:
        #: Enter on the same name again is the TD's OK to add a new player (N2).
        self._asked: tuple[str, str | None] | None = None
        self._confirm_until = 0.0
        #: Until when a second held UNDO opens the closed night again (N1).
        self._reopen_until = 0.0
        self._closed: set[str] = set()
        #: Monotonic time each tournament was first seen won, for :data:`CLOSE_GRACE`.
        self._won_at: dict[str, float] = {}
        #: The closed night's log as last checked for its files (tournament, rowid).
        self._closed_checked: tuple[str, int] | None = None
        #: The log row up to which merges were followed, per night (None: not yet).
        self._merges_seen: dict[str, int] = {}
        self.closing = closing
        self.clock_of_day = clock_of_day
        self.join_wait = join_wait
        #: Monotonic time power-on began waiting for peers; None when not waiting.
        self.joining_since: float | None = None
        self._tonight: Tonight | None = None
        #: The Sit & Go's started tonight, each on its own station (the same store).
        self.sit_and_gos: dict[str, Station] = {}
        #: What power-on has for the wall, returned by the next :meth:`tick`.
        self._later: list[Any] = []

    # --- wiring ---------------------------------------------------------------------

    def parts(self) -> FlowParts:
        """What the kiosk is built with for the night (:func:`kiosk.bootstrap.bootstrap`):
        the check-in screen, the side panel, typed names, its rows, and its tick."""
        return FlowParts(LoopParts(check_in_screen=True, side_panel=self.side_lines,
                                   key_filters=(self.key,)),
                         rows=self.rows(), buttons=self.buttons, tick=self.tick,
                         close=lambda: self._tonight.close() if self._tonight else None)

    def rows(self) -> Rows:
        """The night's rows for the controls: NEW, UNDO on a new night, walk-in,
        Sit & Go, and what a card means at the TD's desk."""
        return Rows(routes={
            Action.new: (Route(TD, lambda ctl, press: self._new(press), hold=True),),
            Action.undo: (Route(TD, lambda ctl, press: self._undo_new(), hold=True),),
            Action.walk_in: (Route(TD, lambda ctl, press: self._walk_in()),),
            Action.sit_and_go: (Route(TD, lambda ctl, press: self._sit_and_go()),),
        }, card=self._card)

    # --- the tournament -------------------------------------------------------------

    def running(self) -> bool:
        """A tournament is open: created, not finished, not closed."""
        station = self.core.station
        state = station.state
        if station.tournament_id is None or state.config is None or state.finished:
            return False
        return self._status(station.tournament_id) != "closed"

    def _status(self, tid: str) -> str:
        try:
            return self.core.store.tournament(tid).status
        except Exception:  # a missing row is as good as open
            return "open"

    def power_on(self) -> bool:
        """Tonight's tournament in check-in, unless one is open; True if created now.

        With peer sync running, the box waits for its peers first (see
        :meth:`_join`); without it (the demo, a lone test kiosk) nobody could
        bring one, so it is created at once.

        What the wall shows of it (the "joining" pop-up, or the new night's
        clock) waits in :meth:`take_effects` for :func:`start_night`, or for
        the next :meth:`tick`, to hand to the loop.
        """
        if self.running():
            return False
        if self.core.sync() is None:
            self._later += self._start_next(auto=True)[1]
            return True
        self.joining_since = self.core.monotonic()
        self._later.append(Popup(Words("joining", {}), None, kind="joining",
                                 seconds=self.join_wait))
        return False

    def take_effects(self) -> list[Any]:
        """What the night has for the wall and has not handed over yet (power-on's)."""
        effects, self._later = self._later, []
        return effects

    def _join(self, mono: float) -> list[Any]:
        """Power-on, waiting: join what peers bring, or create tonight's once the wait is over."""
        assert self.joining_since is not None
        waited = mono - self.joining_since
        running = self.running()
        if not running and waited < self.join_wait:
            return []
        if self._tonight is None:
            self._tonight = Tonight(self.core.store, self.core.station)
        pick = self._tonight.pick()
        if pick is None and not running:
            if waited < JOIN_PATIENCE and self._promised():
                return []
            joined = self._joined()
            name, started = self._start_next(auto=True)
            log.info("no peer brought tonight's tournament in %.1f s: created %s (%s)",
                     waited, self.core.station.tournament_id, name)
            return [*joined, *started]
        if pick is not None and pick != self.core.station.tournament_id:
            # What sync folded first may be a Sit & Go or last week's: tonight's is the
            # log's pick (kiosk.tonight's follower would switch to it too, a little later).
            self.core.station.switch(pick)
        log.info("joined %s from peers %.1f s after power-on", self.core.station.tournament_id,
                 waited)
        # The tournament as it stands, not a pop-up for each player checked in so far.
        return [*self._joined(), Settle()]

    def _joined(self) -> list[Any]:
        self.joining_since = None
        if self._tonight is not None:
            self._tonight.close()
            self._tonight = None
        return [Dismiss("joining")]

    def _promised(self) -> bool:
        """A linked peer runs a tournament this store does not have yet (it is on its way)."""
        announced = getattr(self.core.sync(), "peer_tournaments", None)
        if announced is None:
            return False
        have = {row.id for row in self.core.store.tournaments()}
        return bool(set(announced()) - have)

    def _start_next(self, *, auto: bool = False) -> tuple[str, list[Any]]:
        """Tonight's tournament created now: its name, and what the wall shows of it."""
        command = tonight(self.tournament, self.today(), self.core.lang())
        # Made by the box at power-on, not by the TD: its id says so, for when
        # peers that ran one meet (kiosk.tonight.choose).
        tid = auto_id(self.core.station.rng) if auto else None
        outcome = self.core.station.create(command, tid)
        if not outcome.ok:
            raise RuntimeError(f"tonight's tournament was refused: {outcome.message('en')}")
        self.prompts.open_prompt = None
        # Last night's winner and busts are over; the new night's clock, as it stands.
        return command.name, [FreshNight(), Settle(), ShowScreen("clock")]

    def tick(self) -> list[Any]:
        """Each loop turn: power-on's wait, the guest fallback, closing a finished one once;
        returns what the wall shows of it (the loop carries it out)."""
        effects = self.take_effects()
        mono = self.core.monotonic()
        if self.joining_since is not None:
            effects += self._join(mono)
        prompt = self.prompts.expired()
        if prompt is not None:
            effects.append(Dismiss("prompt"))
            if prompt.card is not None and not prompt.typed.strip():
                effects += self._register(self._guest_name(), prompt.card, ask=False)
        self._follow_merges()
        self._close_when_won(mono)
        return effects

    def _follow_merges(self) -> None:
        """A ``players merge`` (or the undo of one) that reached the log from the CLI,
        a peer or the UNDO button: this store's players, cards and standings follow
        it (issue 44). Only the rows new since the last look are read; the list is
        brought up to date once a night at first, for what came while switched off."""
        station = self.core.station
        tid = station.tournament_id
        if tid is None:
            return
        top = station.folded_rowid
        seen = self._merges_seen.get(tid)
        if seen == top:
            return
        self._merges_seen[tid] = top
        if seen is not None and not any(
                row.kind in ("players-merged", "action-undone")
                for row in self.core.store.log.rows(tid, after_rowid=seen, upto_rowid=top)):
            return
        from kiosk.store.reconcile import reconcile

        try:
            reconcile(self.core.store.conn)
        except RulesError as err:  # a full card: said, not a traceback; the next merge retries
            log.warning("following the players merges failed: %s", err.translate("en"))
        except Exception:  # the wall stays up; `pubpoker players list` shows the list as is
            log.exception("following the players merges failed")

    def _close_when_won(self, mono: float) -> None:
        """A winner: the night closed once, in the log, as ``pubpoker tournament close`` does.

        Every TD device runs this, and each sees the winner when the last bust
        reaches it; two closes would leave the second rejected in every fold.
        So one device closes at once (:meth:`_closes_first`) and the others
        only after :data:`CLOSE_GRACE` seconds without its close (that box
        switched off, say). A night closed before and reopened is the TD's to
        close again: never closed behind their back.
        """
        station = self.core.station
        tid = station.tournament_id
        state = station.state
        if tid is None:
            return
        if state.closed:
            # Closed in the log by the CLI, a peer or an UNDO of a reopen: this
            # store's results and files follow it. Looked at once per change.
            seen_log = (tid, station.folded_rowid)
            if seen_log != self._closed_checked:
                self._closed_checked = seen_log
                self._closed.add(tid)
                if self._status(tid) != "closed":
                    self._try_close(tid)
            return
        if tid in self._closed:
            seen_log = (tid, station.folded_rowid)
            if seen_log != self._closed_checked:
                # Open in the log again (a reopen from a peer, or the UNDO of a
                # close): this store's status, results and files follow it.
                self._closed_checked = seen_log
                if self._status(tid) == "closed":
                    self._reopened(tid)
            return
        if not state.finished:
            return
        records = self.core.store.records(tid)
        if any(isinstance(r.event, TournamentClosed) for r in records):
            self._closed.add(tid)  # reopened by the TD: theirs to close
            return
        seen = self._won_at.setdefault(tid, mono)
        busts = [r for r in records if isinstance(r.event, PlayersBusted)]
        if mono - seen >= CLOSE_GRACE or self._closes_first(busts[-1] if busts else None):
            self._closed.add(tid)
            self._try_close(tid)

    def _closes_first(self, bust: Record | None) -> bool:
        """Whether this device closes the night at once, not after :data:`CLOSE_GRACE`.

        The TD device that wrote the winning bust does (the CLI on this store
        writes as this device); for a bust from a table device, which never
        closes, the TD's desk (the console role) does.
        """
        if bust is None or bust.device_id == self.core.store.device_id:
            return True
        row = self.core.store.log.get(bust.device_id, bust.seq)
        seal = Seal.stored(row.mac) if row is not None else None
        if seal is not None and _td_device(seal.role):
            return False
        role = self.core.station.role
        return role is None or Role.CONSOLE in _roles(role)

    def _try_close(self, tid: str) -> None:
        try:
            self.close(tid)
        except Exception:  # the wall stays up; `pubpoker tournament close` can redo it
            log.exception("closing %s failed", tid)

    def close(self, tid: str) -> list[str]:
        """The tournament closed (N1: a ``TournamentClosed`` in the log, so the CLI and
        every peer refuse changes too), its results in the standings, exports written.

        Closing a closed night again writes no second event, only its files.
        """
        station = self.core.station
        if tid == station.tournament_id and not station.state.closed:
            outcome = station.submit(CloseTournament())
            if not outcome.ok:
                raise RuntimeError(f"closing {tid} was refused: {outcome.message('en')}")
        written = self.core.store.close_tournament(tid, station.state,
                                                  self.core.data_dir / "exports")
        files = [str(path) for path in written]
        log.info("closed %s: %s", tid, ", ".join(files))
        return files

    # --- inputs ---------------------------------------------------------------------

    def _new(self, press: ButtonPressed) -> Sequence[Any]:
        mono = self.core.monotonic()
        state = self.core.station.state
        if self.running():
            old = state.config.name if state.config is not None else ""
            if self._confirm_until <= mono:
                self._confirm_until = mono + NEW_CONFIRM_SECONDS
                # A warning at once, over anything showing, for as long as it holds.
                return [Popup(Words("new-confirm", {"name": old}), Words("new-confirm-hint", {}),
                              kind="confirm", seconds=NEW_CONFIRM_SECONDS, front=True)]
            self._confirm_until = 0.0
            name, started = self._start_next()
            return [Dismiss("confirm"), *started, Words("kept", {"name": name, "old": old})]
        name, started = self._start_next()
        return [*started, Words("new-started", {"name": name})]

    def _undo_new(self) -> Sequence[Any] | None:
        """UNDO on a new, empty night NEW made over a running one: back to that one,
        as ``pubpoker undo`` does (N3). None leaves the press to the usual UNDO."""
        from kiosk.controls.undo import Undone
        from kiosk.tonight_switch import choose, describe, replaced_by

        station = self.core.station
        try:
            station.newest_action()
        except NothingToUndo:
            pass
        except TournamentClosedError:
            return self._reopen()
        except RulesError:
            return None  # the usual UNDO says why
        else:
            return None
        replaced = replaced_by(station)
        if replaced is None or station.state.config is None:
            return None
        new = station.state.config.name
        try:
            choose(station, replaced)
        except RulesError as err:
            return [Say("refused", error=err)]
        self.prompts.open_prompt = None
        now = station.now()
        what = {lang: WORDS["new-undone"][lang].format(
            new=new, what=describe(station.state, now, lang)) for lang in LANGUAGES}
        # The night as it stands, not a pop-up per player in it.
        return [Settle(), Undone(params={"what": what})]

    def _reopen(self) -> Sequence[Any]:
        """UNDO held on a closed night: the first press says it is closed and how to
        open it; a second within :data:`NEW_CONFIRM_SECONDS` opens it (N1), as
        ``pubpoker tournament reopen --yes`` does. UNDO after takes the reopen back."""
        from rules.commands import ReopenTournament

        station = self.core.station
        mono = self.core.monotonic()
        tid, config = station.tournament_id, station.state.config
        assert tid is not None and config is not None  # closed: there is a night
        if self._reopen_until <= mono:
            self._reopen_until = mono + NEW_CONFIRM_SECONDS
            return [Popup(Words("reopen-confirm", {"name": config.name}),
                          Words("reopen-confirm-hint", {}), kind="confirm",
                          seconds=NEW_CONFIRM_SECONDS, front=True)]
        self._reopen_until = 0.0
        outcome = station.submit(ReopenTournament())
        if not outcome.ok:
            return [Dismiss("confirm"), Say("refused", error=outcome.refusal)]
        self._reopened(tid)
        return [Dismiss("confirm"), Words("reopened", {"name": config.name})]

    def _reopened(self, tid: str) -> None:
        """The store follows a reopen in the log: the night's status, results and
        files as ``pubpoker tournament reopen`` leaves them."""
        try:
            self.core.store.reopen_tournament(tid, self.core.station.state,
                                             self.core.data_dir / "exports")
        except Exception:  # the wall stays up; the CLI's reopen can redo it
            log.exception("reopening %s failed", tid)

    def _card(self, read: CardRead, found: CardResult) -> Sequence[Any] | None:
        if isinstance(found, CardMatch):
            entry = self.core.station.state.players.get(found.player.id)
            if entry is not None and entry.place is not None:
                return self._list(entry.player_id, entry.name)
            return None  # the controller checks in
        if isinstance(found, RefusedCard):
            return None  # the controller refuses a payment card
        state = self.core.station.state
        if state.config is None or state.phase is Phase.FINISHED:
            return None
        if self.core.station.state.by_card(read.uid) is not None:
            return None
        if self.prompt is not None and self.prompt.card == read.uid:
            return []  # the same card again while its name is typed
        if self.guest_after <= 0:
            return self._register(self._guest_name(), read.uid, ask=False)
        self._asked = None
        return self.prompts.open(read.uid, self.guest_after)

    @property
    def prompt(self) -> Prompt | None:
        """The name prompt open now, if any."""
        return self.prompts.open_prompt

    def _walk_in(self) -> Sequence[Any]:
        """``n``: a "Name:" prompt for a player without a card."""
        if self.core.station.state.config is None:
            return []
        self._asked = None
        return self.prompts.open(None, WALK_IN_SECONDS)

    def _sit_and_go(self) -> Sequence[Any]:
        """``g``: the next Sit & Go, if the rules allow it now."""
        if self.core.station.state.config is None:
            return []
        return self.start_sit_and_go()

    def key(self, key: KeyTyped) -> Sequence[Any] | None:
        """A key for an open prompt, and what the wall shows of it; None leaves it
        to the keyboard's keys."""
        return self.prompts.key(key)

    # --- Sit & Go's ------------------------------------------------------------------

    def _list(self, player_id: str, name: str) -> Sequence[Any]:
        state = self.core.station.state
        if player_id in state.sit_and_go_list or any(
                player_id in players for players in state.sit_and_gos.values()):
            return [Say("refused", error=sitandgo.AlreadyListed(player=name))]
        outcome = self.core.station.submit(ListForSitAndGo(player_id))
        if not outcome.ok:
            return [Say("refused", error=outcome.refusal)]
        return [Words("sng-listed", {"name": name,
                                     "n": len(self.core.station.state.sit_and_go_list)})]

    def finished_games(self) -> frozenset[str]:
        return frozenset(sid for sid, s in self.sit_and_gos.items() if s.state.finished)

    def free_tables(self) -> int:
        """Tables nobody sits at: the main event's limit less its tables and the games'."""
        return sitandgo_start.free_tables(self.core.station.state, finished=self.finished_games())

    def start_sit_and_go(self) -> list[Any]:
        """Start the next Sit & Go, if the rules allow it now (G1, G2; the rules pick
        the players and name the game); returns what the wall says of it."""
        main = self.core.station
        assert main.tournament_id is not None
        outcome = main.submit(StartNextSitAndGo(main.tournament_id, self.clock_of_day(),
                                                self.closing, self.finished_games()))
        if outcome.refusal is not None:
            return [Popup(outcome.refusal, None, kind="refusal", seconds=3.0, front=True)]
        started = outcome.records[0].event
        assert isinstance(started, SitAndGoStarted)
        names = {p: main.state.players[p].name for p in started.player_ids}
        create, commands = sitandgo_game.game_commands(started, names)
        station = Station(self.core.store, self.core.clock, main.rng, role=main.role)
        station.create(create, tournament_id=started.sit_and_go_id)
        # The wall stays with the main event; the game's clock goes to the side panel.
        self.core.store.set_current_tournament(main.tournament_id)
        for command in commands:
            station.submit(command)
        self.sit_and_gos[started.sit_and_go_id] = station
        number = started.sit_and_go_id.rpartition("-sng")[2]
        return [Words("sng-started", {"n": number, "names": ", ".join(names.values())})]

    def side_lines(self, lang: str) -> list[str]:
        """The side panel: the waiting list and the last start, then each game's clock."""
        from kiosk.display.messages import text

        state = self.core.station.state
        lines: list[str] = []
        if state.sit_and_go_list:
            names = [state.players[p].name for p in state.sit_and_go_list if p in state.players]
            deadline = sitandgo.start_deadline(self.closing).strftime("%H:%M")
            lines = [f"{text('sng_title', lang)} ({len(names)})", ", ".join(names),
                     text("sng_deadline", lang, time=deadline)]
        now = self.core.station.now()
        for station in self.sit_and_gos.values():
            game = station.state
            if game.config is None or game.finished:
                continue
            reading = clocks.read(game.config.structure, game.clock, now)
            remaining = reading.remaining or 0.0
            lines.append(text("sng_clock", lang, level=reading.level_number or "",
                              digits=format_time(remaining - remaining % 60)))
        return lines

    # --- players --------------------------------------------------------------------

    def _guest_name(self) -> str:
        lang = self.core.lang()
        template = WORDS["guest"].get(lang) or WORDS["guest"]["en"]
        players = self.core.store.players
        taken = {e.name for e in self.core.station.state.players.values()}
        n = 1
        while template.format(n=n) in taken or players.find(template.format(n=n)) is not None:
            n += 1
        return template.format(n=n)

    def _prompt_title(self, prompt: Prompt) -> Words:
        if prompt.near:
            return Words("did-you-mean", {"names": ", ".join(prompt.near)})
        return Words("new-card" if prompt.card else "walk-in", {})

    def _register(self, name: str, card: str | None, *, ask: bool = True) -> list[Any]:
        """A player for a typed name (with the card, if any), checked in at once;
        returns what the wall says (a refusal, or the prompt asking again).

        The same name in any case or accents is the known player (N2). A name
        near a known one opens the prompt again, asking "Did you mean …?": Enter
        on it unchanged adds the new player, an edit to the known name checks
        them in. A guest's name (``ask=False``) is the box's own, never asked.
        """
        players = self.core.store.players
        try:
            match = players.checkin_match(name)
            if match.exact is not None:
                player = players.get(match.exact)
                if card:
                    player = players.link_card(player.id, card)
            elif ask and match.near and self._asked != (fold(name), card):
                self._asked = (fold(name), card)
                seconds = WALK_IN_SECONDS if card is None else self.guest_after
                return self.prompts.open(card, seconds, typed=name,
                                         near=tuple(known for _, known in match.near))
            else:
                player = players.add(name, card=card)
        except RulesError as err:  # a taken card or name: say so, change nothing
            return [Popup(name, err, kind="refusal", seconds=3.0)]
        except Exception:
            # Not a refusal but a fault: the night goes on, the room reads that nothing
            # changed, and the exception's own English goes to the log, not the wall.
            log.exception("check-in of %r failed", name)
            return [Popup(name, Words("check-in-failed", {}), kind="refusal", seconds=3.0)]
        self._asked = None
        outcome = self.core.station.submit(CheckIn(player.id, player.name, player.cards))
        if outcome.refusal is not None:
            return [Popup(player.name, outcome.refusal, kind="refusal", seconds=3.0)]
        return []


def _roles(text: str) -> frozenset[Role]:
    try:
        return parse_roles(text)
    except ValueError:  # an unknown role is no TD device
        return frozenset()


def _td_device(role: str) -> bool:
    return bool(_roles(role) & TD_ROLES)


def night_for(config: Any = None, **kwargs: Any) -> Callable[[Core], Night]:
    """The night's flow for a loaded :class:`kiosk.config.Config`, or None for none,
    made by :func:`kiosk.bootstrap.bootstrap` (``flow=``) before the loop it is handed to.

    Without a config (``pubpoker kiosk --role display``) the night is the one a
    ``pubpoker.toml`` with no ``[tournament]`` or ``[buttons]`` gives: the same
    check-in screen, walk-in prompt and keys, never a flow of its own.
    """
    buttons = config.buttons.as_dict() if getattr(config, "buttons", None) else {}
    tournament = getattr(config, "tournament", None) or TournamentConfig()

    def make(core: Core) -> Night:
        return Night(core, tournament, buttons=tuple(buttons), **kwargs)

    return make


def start_night(app: App) -> Night | None:
    """Power-on of the night the app was built with (:func:`night_for`); None without one.

    Tonight's tournament is created at power-on if none is open, but only on
    the TD's box (a device with the console role), and only if no peer brings
    one within :data:`JOIN_WAIT` seconds; the wall screens wait for the
    tournament peer sync brings and never start one of their own. A lone
    display box starts tonight's with a long press of NEW.
    """
    if not isinstance(app.flow, Night):
        return None
    night = app.flow
    if "console" in str(app.station.role or "").split("+"):
        night.power_on()
        # Shown at once, as before any input is acted on: a card read in the
        # first turn must not be settled away with the night made before it.
        app.loop.carry_out(night.take_effects())
    return night
