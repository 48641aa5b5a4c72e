"""What a button press or a card tap means on this device.

The hardware adapters only report what happened (``ButtonPressed``,
``CardRead``...). This controller decides, per role, which command that is,
submits it through the :class:`~kiosk.station.Station`, and answers with
:class:`Say` messages for the screen. It keeps the little UI state a button
box needs, such as "BUST pressed, waiting for the card".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum, unique

from hardware.inputs import (
    Action,
    ButtonHint,
    ButtonPressed,
    ButtonsHeld,
    CardRead,
    ReaderStatus,
    minutes_for,
)
from kiosk.role import Role
from kiosk.station import Station
from kiosk.store import CardMatch, RefusedCard, StoreError, normalise_uid
from rules.commands import (
    AdjustTime,
    BustPlayers,
    CallClock,
    CheckIn,
    Command,
    ConfirmMove,
    DrawButton,
    DrawSeats,
    FinishHand,
    NextLevel,
    PreviousLevel,
    ResumeClock,
    SetHandForHand,
    StartClock,
    StartHand,
    TogglePause,
    Undo,
)
from rules.errors import RulesError
from rules.events import ActionUndone, Record, TournamentCreated
from rules.i18n import DEFAULT_LANGUAGE, format_place
from rules.state import Phase

__all__ = ["Controller", "Mode", "Role", "Say"]

Input = ButtonPressed | ButtonHint | ButtonsHeld | CardRead | ReaderStatus



@unique
class Mode(StrEnum):
    IDLE = "idle"
    #: BUST was pressed: the next card tap (or a seat chosen with the buttons) is out.
    BUST = "bust"


MESSAGES: Mapping[str, Mapping[str, str]] = {
    "checked-in": {"nn": "{name} → Bord {table}, sete {seat}",
                   "nb": "{name} → Bord {table}, sete {seat}",
                   "da": "{name} → Bord {table}, sæde {seat}",
                   "en": "{name} → Table {table}, seat {seat}"},
    "checked-in-waiting": {"nn": "{name} er sjekka inn", "nb": "{name} er sjekket inn",
                           "da": "{name} er tjekket ind", "en": "{name} is checked in"},
    "already-in": {"nn": "{name} er allereie inne: bord {table}, sete {seat}",
                   "nb": "{name} er allerede inne: bord {table}, sete {seat}",
                   "da": "{name} er allerede med: bord {table}, sæde {seat}",
                   "en": "{name} is already in: table {table}, seat {seat}"},
    "already-checked-in": {"nn": "{name} er allereie sjekka inn",
                           "nb": "{name} er allerede sjekket inn",
                           "da": "{name} er allerede tjekket ind",
                           "en": "{name} is already checked in"},
    "new-card": {"nn": "Nytt kort – skriv namnet", "nb": "Nytt kort – skriv navnet",
                 "da": "Nyt kort – skriv navnet", "en": "New card – enter a name"},
    "unknown-card": {"nn": "Ukjent kort", "nb": "Ukjent kort", "da": "Ukendt kort",
                     "en": "Unknown card"},
    "payment-card": {"nn": "Det er eit bankkort – bruk spelarkortet",
                     "nb": "Det er et bankkort – bruk spillerkortet",
                     "da": "Det er et betalingskort – brug spillerkortet",
                     "en": "That is a payment card – use the player card"},
    "hold-to": {"nn": "Hald knappen inne for å {what}", "nb": "Hold knappen inne for å {what}",
                "da": "Hold knappen inde for at {what}", "en": "Hold the button to {what}"},
    "bust-tap": {"nn": "Slått ut: den utslåtte viser kortet sitt (eller vel sete)",
                 "nb": "Slått ut: den utslåtte viser kortet sitt (eller velg sete)",
                 "da": "Slået ud: den udslåede viser sit kort (eller vælg sæde)",
                 "en": "Bust: the busted player taps their card (or pick the seat)"},
    "bust-seat": {"nn": "Slå ut sete {seat}: {name}? Trykk OK",
                  "nb": "Slå ut sete {seat}: {name}? Trykk OK",
                  "da": "Slå sæde {seat} ud: {name}? Tryk OK",
                  "en": "Bust seat {seat}: {name}? Press OK"},
    "busted": {"nn": "{name} er slått ut", "nb": "{name} er slått ut",
               "da": "{name} er slået ud", "en": "{name} is eliminated"},
    "already-out": {"nn": "{name} er allereie slått ut ({place})",
                    "nb": "{name} er allerede slått ut ({place})",
                    "da": "{name} er allerede slået ud ({place})",
                    "en": "{name} is already out ({place})"},
    "not-here": {"nn": "{name} sit ikkje ved dette bordet",
                 "nb": "{name} sitter ikke ved dette bordet",
                 "da": "{name} sidder ikke ved dette bord", "en": "{name} is not at this table"},
    "moved": {"nn": "{name} sit no ved bord {table}, sete {seat}",
              "nb": "{name} sitter nå ved bord {table}, sete {seat}",
              "da": "{name} sidder nu ved bord {table}, sæde {seat}",
              "en": "{name} now sits at table {table}, seat {seat}"},
    "nothing-to-undo": {"nn": "Ingenting å angre", "nb": "Ingenting å angre",
                        "da": "Intet at fortryde", "en": "Nothing to undo"},
    "hand-for-hand-on": {"nn": "Hand for hand: bordet trykkjer FERDIG etter kvar hand",
                         "nb": "Hånd for hånd: bordet trykker FERDIG etter hver hånd",
                         "da": "Hånd for hånd: bordet trykker FÆRDIG efter hver hånd",
                         "en": "Hand for hand: each table presses HAND DONE after every hand"},
    "hand-for-hand-off": {"nn": "Hand for hand er slutt", "nb": "Hånd for hånd er slutt",
                          "da": "Hånd for hånd er slut", "en": "Hand for hand is over"},
    "help": {"nn": "Hjelp", "nb": "Hjelp", "da": "Hjælp", "en": "Help"},
    "next-screen": {"nn": "Neste skjerm", "nb": "Neste skjerm", "da": "Næste skærm",
                    "en": "Next screen"},
    "reader-lost": {"nn": "Kortlesaren er kopla frå", "nb": "Kortleseren er koblet fra",
                    "da": "Kortlæseren er frakoblet", "en": "Card reader disconnected"},
    "reader-back": {"nn": "Kortlesaren er tilbake", "nb": "Kortleseren er tilbake",
                    "da": "Kortlæseren er tilbage", "en": "Card reader connected"},
    "refused": {"nn": "{text}", "nb": "{text}", "da": "{text}", "en": "{text}"},
    "undone": {"nn": "Angra: {what}", "nb": "Angret: {what}", "da": "Fortrudt: {what}",
                    "en": "Undone: {what}"},
}

#: What an undo took back, for "Angra: Ola Nordmann slått ut".
UNDONE: Mapping[str, Mapping[str, str]] = {
    "players-busted": {"nn": "{name} slått ut", "nb": "{name} slått ut",
                       "da": "{name} slået ud", "en": "{name} eliminated"},
    "player-checked-in": {"nn": "{name} sjekka inn", "nb": "{name} sjekket inn",
                          "da": "{name} tjekket ind", "en": "{name} checked in"},
    "player-registered": {"nn": "{name} sjekka inn", "nb": "{name} sjekket inn",
                          "da": "{name} tjekket ind", "en": "{name} checked in"},
    "seats-drawn": {"nn": "bordtrekkinga", "nb": "bordtrekningen", "da": "bordtrækningen",
                    "en": "the seat draw"},
    "move-confirmed": {"nn": "flyttinga av {name}", "nb": "flyttingen av {name}",
                       "da": "flytningen af {name}", "en": "the move of {name}"},
    "clock": {"nn": "klokka", "nb": "klokken", "da": "uret", "en": "the clock"},
    "hand": {"nn": "handa på bord {table}", "nb": "hånden på bord {table}",
             "da": "hånden på bord {table}", "en": "the hand at table {table}"},
    "other": {"nn": "{kind}", "nb": "{kind}", "da": "{kind}", "en": "{kind}"},
}

_CLOCK_KINDS = frozenset({"clock-started", "clock-paused", "clock-resumed", "level-jumped",
                          "time-adjusted", "clock-restored"})


def undone_what(records: Sequence[Record], names: Mapping[str, str]) -> dict[str, str]:
    """What the records of one action were, in every language (names looked up first)."""
    events = [r.event for r in records]
    first = events[0]
    kind = first.kind.value
    params: dict[str, object] = {"kind": kind}
    key = "other"
    if kind == "players-busted":
        key = kind
        ids = [p for group in getattr(first, "groups", ()) for p in group]
        params["name"] = ", ".join(names.get(p, p) for p in ids)
    elif kind in ("player-checked-in", "player-registered", "move-confirmed"):
        key = kind
        pid = str(getattr(first, "player_id", ""))
        params["name"] = names.get(pid, pid)
    elif kind == "seats-drawn":
        key = kind
    elif kind in _CLOCK_KINDS:
        key = "clock"
    elif kind in ("hand-started", "hand-finished", "button-drawn", "clock-called"):
        key = "hand"
        params["table"] = getattr(first, "table", "")
    return {lang: template.format(**params) for lang, template in UNDONE[key].items()}

#: What a long press is needed for, said in the hint.
HOLD_FOR: Mapping[Action, Mapping[str, str]] = {
    Action.prev_level: {"nn": "gå tilbake eit nivå", "nb": "gå tilbake ett nivå",
                        "da": "gå et niveau tilbage", "en": "go back a level"},
    Action.undo: {"nn": "angre", "nb": "angre", "da": "fortryde", "en": "undo"},
    Action.new: {"nn": "starte ei ny turnering", "nb": "starte en ny turnering",
                 "da": "starte en ny turnering", "en": "start a new tournament"},
    Action.start: {"nn": "trekkje bord eller starte klokka",
                   "nb": "trekke bord eller starte klokken",
                   "da": "trække borde eller starte uret",
                   "en": "draw seats or start the clock"},
    Action.hand_for_hand: {"nn": "slå hand for hand på eller av",
                           "nb": "slå hånd for hånd på eller av",
                           "da": "slå hånd for hånd til eller fra",
                           "en": "turn hand for hand on or off"},
}


@dataclass(frozen=True)
class Say:
    """A message for the screen; translated when drawn, so a language switch applies."""

    key: str
    params: Mapping[str, object] = field(default_factory=dict)
    error: RulesError | StoreError | None = None
    #: A check-in pop-up or similar: shown big, for a few seconds.
    popup: bool = False

    def translate(self, lang: str = DEFAULT_LANGUAGE) -> str:
        if self.error is not None:
            return self.error.translate(lang)
        template = MESSAGES[self.key].get(lang) or MESSAGES[self.key]["en"]
        params = dict(self.params)
        if isinstance(params.get("what"), Mapping):
            what: Mapping[str, str] = params["what"]  # type: ignore[assignment]
            params["what"] = what.get(lang) or what["en"]
        if self.key == "already-out":
            params["place"] = format_place(int(str(params["place"])), lang)
        if self.key == "hold-to":
            action = Action(str(params["action"]))
            params["what"] = HOLD_FOR.get(action, {}).get(lang, action.value)
        return template.format(**params)


#: Actions that run the clock: console and display.
CLOCK_ACTIONS: Mapping[Action, Command] = {
    Action.pause: TogglePause(),
    Action.next_level: NextLevel(),
}


@dataclass
class Controller:
    station: Station
    roles: frozenset[Role]
    table: int | None = None
    #: A table device may undo its own last action within this many seconds.
    undo_window: float = 10.0
    mode: Mode = Mode.IDLE
    selected_seat: int | None = None
    #: This device's actions, newest last: each the records one command wrote.
    own: list[tuple[Record, ...]] = field(default_factory=list)
    #: The last card nobody owns, waiting for the TD to type a name.
    unnamed_card: str | None = None

    def __post_init__(self) -> None:
        self._undoing = False
        if Role.TABLE in self.roles and self.table is None:
            raise ValueError("a table device needs its table number")
        self.station.on_local.append(self._remember)

    def _remember(self, records: Sequence[Record]) -> None:
        if not self._undoing:
            self.own.append(tuple(records))

    # --- dispatch -------------------------------------------------------------------

    def handle(self, message: Input) -> list[Say]:
        if isinstance(message, ButtonHint):
            return [Say("hold-to", {"action": message.action.value})]
        if isinstance(message, ButtonsHeld):
            return [Say("help", popup=True)]
        if isinstance(message, ReaderStatus):
            return [Say("reader-back" if message.connected else "reader-lost")]
        if isinstance(message, CardRead):
            return self._card(message)
        return self._button(message)

    def _submit(self, command: Command, *ok: Say) -> list[Say]:
        outcome = self.station.submit(command)
        if not outcome.ok:
            return [Say("refused", error=outcome.refusal)]
        return list(ok)

    # --- buttons --------------------------------------------------------------------

    def _button(self, press: ButtonPressed) -> list[Say]:
        action = press.action
        if action is Action.undo:
            return self._undo(press)
        if action is Action.next_screen:
            return [Say("next-screen")]
        if Role.TABLE in self.roles:
            said = self._table_button(action)
            if said is not None:
                return said
        if self.roles & {Role.CONSOLE, Role.DISPLAY}:
            return self._td_button(press)
        return []

    def _td_button(self, press: ButtonPressed) -> list[Say]:
        action = press.action
        minutes = minutes_for(press)
        if minutes:
            # A long press is five minutes; more needs repeated long presses.
            sign = 1 if action is Action.add_minute else -1
            return self._submit(AdjustTime(sign * 60 * minutes))
        if action in CLOCK_ACTIONS:
            return self._submit(CLOCK_ACTIONS[action])
        if action is Action.prev_level:
            if not press.long:
                return [Say("hold-to", {"action": action.value})]
            return self._submit(PreviousLevel())
        if action is Action.start:
            if not press.long:
                return [Say("hold-to", {"action": action.value})]
            state = self.station.state
            if state.phase is Phase.CHECK_IN:
                return self._submit(DrawSeats())
            if state.clock.started and state.clock.waiting_at(self.station.now()):
                return self._submit(ResumeClock())  # the break is over: play on
            return self._submit(StartClock())
        if action is Action.hand_for_hand:
            # Every table waits for the others (C7): too much to trigger by a brush.
            if not press.long:
                return [Say("hold-to", {"action": action.value})]
            on = not self.station.state.hand_for_hand
            return self._submit(SetHandForHand(on),
                                Say("hand-for-hand-on" if on else "hand-for-hand-off",
                                    popup=True))
        return []

    def _table_button(self, action: Action) -> list[Say] | None:
        table = self.table
        assert table is not None
        if action is Action.bust:
            self.mode, self.selected_seat = Mode.BUST, None
            return [Say("bust-tap")]
        if action in (Action.seat_next, Action.seat_prev) and self.mode is Mode.BUST:
            return self._pick_seat(+1 if action is Action.seat_next else -1)
        if action is Action.ok and self.mode is Mode.BUST and self.selected_seat is not None:
            seats = self._my_seats()
            player = seats.get(self.selected_seat)
            self.mode, self.selected_seat = Mode.IDLE, None
            if player is None:
                return []
            return self._bust(player)
        if action is Action.new_hand:
            self.mode = Mode.IDLE
            here = self.station.state.tables.get(table)
            if here is not None and here.button is None and len(here.seats) > 1:
                # B8: the table's first hand starts with the high-card draw,
                # and from then on balancing knows who is due the big blind.
                drawn = self._submit(DrawButton(table))
                if drawn:
                    return drawn
            return self._submit(StartHand(table))
        if action is Action.clock:
            return self._submit(CallClock(table))
        if action is Action.hand_done:
            return self._submit(FinishHand(table))
        return None

    def _my_seats(self) -> dict[int, str]:
        table = self.station.state.tables.get(self.table or 0)
        return dict(table.seats) if table is not None else {}

    def _pick_seat(self, step: int) -> list[Say]:
        seats = sorted(self._my_seats())
        if not seats:
            return []
        if self.selected_seat not in seats:
            self.selected_seat = seats[0] if step > 0 else seats[-1]
        else:
            index = seats.index(self.selected_seat)
            self.selected_seat = seats[(index + step) % len(seats)]
        player = self._my_seats()[self.selected_seat]
        name = self.station.state.players[player].name
        return [Say("bust-seat", {"seat": self.selected_seat, "name": name})]

    def _bust(self, player_id: str) -> list[Say]:
        name = self.station.state.players[player_id].name
        return self._submit(BustPlayers((player_id,), table=self.table),
                            Say("busted", {"name": name}))

    def _undo(self, press: ButtonPressed) -> list[Say]:
        """Undo this device's last action, every event it wrote, newest first."""
        if not press.long:
            return [Say("hold-to", {"action": Action.undo.value})]
        td = bool(self.roles & {Role.CONSOLE, Role.DISPLAY})
        if td:
            # The TD's box undoes the night's newest action, whichever device did it
            # (a bust typed at table 3 is taken back at the desk).
            return self._undo_newest()
        if not self.own:
            return [Say("nothing-to-undo")]
        last = self.own[-1]
        # The window is the dealer's real seconds, also on a fast-forwarded clock.
        window = self.undo_window * self.station.clock.speed
        if not td and self.station.now() - last[-1].event.at > window:
            return [Say("nothing-to-undo")]
        names = {pid: e.name for pid, e in self.station.state.players.items()}
        what = undone_what(last, names)
        self._undoing = True
        try:
            for record in reversed(last):
                outcome = self.station.submit(Undo(record.device_id, record.seq))
                if not outcome.ok:
                    return [Say("refused", error=outcome.refusal)]
        finally:
            self._undoing = False
        self.own.pop()
        return [Say("undone", {"what": what}, popup=True)]

    def _undo_newest(self) -> list[Say]:
        station = self.station
        if station.tournament_id is None:
            return [Say("nothing-to-undo")]
        records = station.store.records(station.tournament_id)
        undone = {(r.event.device_id, r.event.seq) for r in records
                  if isinstance(r.event, ActionUndone)}
        live = [r for r in records
                if not isinstance(r.event, ActionUndone | TournamentCreated)
                and (r.device_id, r.seq) not in undone]
        if not live:
            return [Say("nothing-to-undo")]
        newest = live[-1]
        # One action's records: the same device, the same moment, back to back.
        group = [newest]
        for record in reversed(live[:-1]):
            if record.device_id != newest.device_id or record.event.at != newest.event.at:
                break
            group.insert(0, record)
        names = {pid: e.name for pid, e in station.state.players.items()}
        what = undone_what(group, names)
        self._undoing = True
        try:
            for record in reversed(group):
                outcome = station.submit(Undo(record.device_id, record.seq))
                if not outcome.ok:
                    return [Say("refused", error=outcome.refusal)]
        finally:
            self._undoing = False
        for action in list(self.own):
            if any((r.device_id, r.seq) == (g.device_id, g.seq) for r in action for g in group):
                self.own.remove(action)
        return [Say("undone", {"what": what}, popup=True)]

    # --- cards ----------------------------------------------------------------------

    def _card(self, read: CardRead) -> list[Say]:
        found = self.station.store.players.lookup_card(read.uid)
        if isinstance(found, RefusedCard):
            return [Say("payment-card")]
        uid = normalise_uid(read.uid)
        entrant = self.station.state.by_card(uid) if uid else None
        if entrant is not None and Role.TABLE in self.roles:
            # The log says whose card it is: table devices need no player list.
            said = self._table_card(entrant.player_id, entrant.name)
            if said is not None:
                return said
        if not isinstance(found, CardMatch):
            if self.roles & {Role.CONSOLE, Role.DISPLAY}:
                self.unnamed_card = read.uid
                return [Say("new-card", popup=True)]
            return [Say("unknown-card")]
        player = found.player
        if Role.TABLE in self.roles:
            said = self._table_card(player.id, player.name)
            if said is not None:
                return said
        if self.roles & {Role.CONSOLE, Role.DISPLAY}:
            return self.check_in(player.id, player.name, player.cards)
        return [Say("unknown-card")]

    def _table_card(self, player_id: str, name: str) -> list[Say] | None:
        state = self.station.state
        if self.mode is Mode.BUST:
            self.mode = Mode.IDLE
            entry = state.players.get(player_id)
            if entry is not None and entry.place is not None:
                return [Say("already-out", {"name": entry.name, "place": entry.place})]
            if entry is None or entry.seat is None or entry.seat.table != self.table:
                return [Say("not-here", {"name": name})]
            return self._bust(player_id)
        move = state.moves.get(player_id)
        if move is not None and move.target.table == self.table:
            return self._submit(ConfirmMove(player_id), Say("moved", {
                "name": name, "table": move.target.table, "seat": move.target.seat}))
        return None

    def check_in(self, player_id: str, name: str, cards: tuple[str, ...] = ()) -> list[Say]:
        """Check a player in (from a card, or a name typed for a new card or walk-in)."""
        entry = self.station.state.players.get(player_id)
        if entry is not None and entry.checked_in and entry.seat is not None:
            return [Say("already-in", {"name": entry.name, "table": entry.seat.table,
                                       "seat": entry.seat.seat}, popup=True)]
        if entry is not None and entry.checked_in and entry.place is None:
            return [Say("already-checked-in", {"name": entry.name}, popup=True)]
        outcome = self.station.submit(CheckIn(player_id, name, cards))
        if not outcome.ok:
            return [Say("refused", error=outcome.refusal)]
        seat = self.station.state.players[player_id].seat
        if seat is None:
            return [Say("checked-in-waiting", {"name": name}, popup=True)]
        return [Say("checked-in", {"name": name, "table": seat.table, "seat": seat.seat},
                    popup=True)]
