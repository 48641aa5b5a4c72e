"""Events become state: one handler per event kind.

Each handler first checks that the event fits the state it folds into and
raises a :class:`~rules.errors.RulesError` if not, and only then changes the
state. So a refused event changes nothing, on every peer alike, and
:func:`rules.fold.fold` can record it as rejected and go on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from rules import button as buttons
from rules import clock as clocks
from rules.events import (
    ActionUndone,
    BreakOrderSet,
    ButtonDrawn,
    ClockCalled,
    ClockPaused,
    ClockRestored,
    ClockResumed,
    ClockStarted,
    Event,
    EventKind,
    FinalTableDrawn,
    HandFinished,
    HandForHandSet,
    HandStarted,
    LateRegistrationClosed,
    LevelJumped,
    MoveCancelled,
    MoveConfirmed,
    MoveProposed,
    PlayerAbsent,
    PlayerCheckedIn,
    PlayerRegistered,
    PlayerRenamed,
    PlayerReturned,
    PlayersBusted,
    PlayerSeated,
    PlayersMerged,
    PlayerUnwaitlisted,
    PlayerWaitlisted,
    SeatsDrawn,
    SitAndGoListed,
    SitAndGoStarted,
    SitAndGoUnlisted,
    TimeAdjusted,
    TonightChosen,
    TournamentClosed,
    TournamentCreated,
    TournamentReopened,
    WaitlistAdmitted,
)
from rules.refusals import (
    AlreadyCheckedIn,
    AlreadyCreated,
    BothPlaying,
    CannotReenter,
    DuplicateName,
    DuplicatePlayer,
    LateRegistrationClosedError,
    MoveNotProposed,
    MoveNotValid,
    NamedTwice,
    NoOneLeftToWin,
    NotEnoughPlayers,
    NotHandForHand,
    NoTournament,
    NotSeated,
    PlayerAlreadyOut,
    SamePlayer,
    SeatingNotValid,
    SeatsAlreadyDrawn,
    SeatsNotDrawn,
    SeatTaken,
    SitAndGoNotValid,
    TournamentClosedError,
    TournamentFinished,
    TournamentNotClosed,
    UnknownPlayer,
    UnknownTable,
    WinnerOfPotOut,
    WrongTable,
)
from rules.state import Entry, Phase, Table, Tournament
from rules.structure import Structure
from rules.values import Move, SeatAssignment, SeatRef

__all__ = ["apply", "late_registration_open", "verify", "walking_chain"]

EV = TypeVar("EV", bound=Event)
_HANDLERS: dict[EventKind, Callable[[Tournament, Any, bool], None]] = {}

#: A Sit & Go table holds this many (G1).
SIT_AND_GO_MIN, SIT_AND_GO_MAX = 7, 9


_Handler = Callable[[Tournament, EV, bool], None]


def _on(kind: EventKind) -> Callable[[_Handler[EV]], _Handler[EV]]:
    def register(fn: _Handler[EV]) -> _Handler[EV]:
        _HANDLERS[kind] = fn
        return fn
    return register


def apply(state: Tournament, event: Event) -> None:
    """Fold one event into ``state``, or raise and leave ``state`` untouched."""
    _open_for(state, event)
    # Handlers check before they change anything, so one pass does both.
    _HANDLERS[event.kind](state, event, True)
    state.last_at = max(state.last_at, event.at)


def verify(state: Tournament, event: Event) -> None:
    """Raise if ``event`` would be refused in ``state``; change nothing.

    Every handler runs its checks, then stops here unless committing, so the
    checks a command meets are exactly the ones its event meets in the fold.
    """
    _open_for(state, event)
    _HANDLERS[event.kind](state, event, False)


def _open_for(state: Tournament, event: Event) -> None:
    if event.kind is not EventKind.TOURNAMENT_CREATED and state.config is None:
        raise NoTournament()
    # A closed night's results are the league's: nothing but a reopen folds.
    if state.closed and event.kind is not EventKind.TOURNAMENT_REOPENED:
        raise TournamentClosedError()


# --- helpers -----------------------------------------------------------------

def _structure(state: Tournament) -> Structure:
    assert state.config is not None
    return state.config.structure


def _entry(state: Tournament, player_id: str) -> Entry:
    entry = state.players.get(player_id)
    if entry is None:
        raise UnknownPlayer(player=player_id)
    return entry


def _active_entry(state: Tournament, player_id: str) -> Entry:
    entry = _entry(state, player_id)
    if entry.place is not None:
        raise PlayerAlreadyOut(player=entry.name)
    if not entry.checked_in:
        raise NotSeated(player=entry.name)
    return entry


def _not_finished(state: Tournament) -> None:
    if state.phase is Phase.FINISHED:
        raise TournamentFinished()


def _seats_per_table(state: Tournament) -> int:
    assert state.config is not None
    return state.config.house.seats_per_table


def _check_seat(state: Tournament, seat: SeatRef, *, tables_may_open: bool) -> None:
    if not 1 <= seat.seat <= _seats_per_table(state):
        raise SeatingNotValid(reason=f"seat {seat.seat} does not exist")
    table = state.tables.get(seat.table)
    if table is None:
        if not tables_may_open or seat.table < 1:
            raise UnknownTable(table=seat.table)
        return
    if seat.seat in table.seats:
        raise SeatTaken(table=seat.table, seat=seat.seat)


def _reserved(state: Tournament, seat: SeatRef) -> bool:
    return any(m.target == seat for m in state.moves.values())


def _vacating(state: Tournament, seat: SeatRef) -> bool:
    """The seat's player has a pending move away from it."""
    table = state.tables.get(seat.table)
    occupant = table.seats.get(seat.seat) if table is not None else None
    if occupant is None:
        return False
    move = state.moves.get(occupant)
    return move is not None and move.source == seat


def _sit(state: Tournament, entry: Entry, seat: SeatRef) -> None:
    table = state.tables.setdefault(seat.table, Table(seat.table))
    table.seats[seat.seat] = entry.player_id
    entry.seat = seat
    if table.button is not None and buttons.sitting_out(
            table.button, seat.seat, occupied=tuple(table.seats),
            seats_per_table=_seats_per_table(state)):
        table.sitting_out.append(seat.seat)


def _stand(state: Tournament, entry: Entry, *, tidy: bool = True) -> None:
    if entry.seat is None:
        return
    table = state.tables.get(entry.seat.table)
    if table is not None:
        table.seats.pop(entry.seat.seat, None)
        if entry.seat.seat in table.sitting_out:
            table.sitting_out.remove(entry.seat.seat)
    entry.seat = None
    if tidy:
        _drop_empty_tables(state)


def _drop_empty_tables(state: Tournament) -> None:
    """A table nobody sits at, and nobody is bound for, is broken."""
    bound = {m.target.table for m in state.moves.values()}
    for number in [n for n, t in state.tables.items() if not t.seats and n not in bound]:
        del state.tables[number]


def _check_assignments(state: Tournament, seats: tuple[SeatAssignment, ...],
                       players: set[str]) -> None:
    given = [a.player_id for a in seats]
    if len(set(given)) != len(given) or set(given) != players:
        raise SeatingNotValid(reason="the draw must seat each player in play exactly once")
    refs = [a.ref for a in seats]
    if len(set(refs)) != len(refs):
        raise SeatingNotValid(reason="two players drawn to one seat")
    per_table = _seats_per_table(state)
    if any(not (1 <= r.seat <= per_table and r.table >= 1) for r in refs):
        raise SeatingNotValid(reason="a drawn seat does not exist")


def late_registration_open(state: Tournament, at: float) -> bool:
    """F2: open while the TD has not closed it and the level allows it."""
    if state.config is None or state.late_registration_closed:
        return False
    if state.phase in (Phase.CHECK_IN, Phase.SEATED):
        return True
    if state.phase is Phase.FINISHED:
        return False
    reading = clocks.read(state.config.structure, state.clock, at)
    passed = sum(1 for _ in list(_structure(state).levels())[: reading.level_number or 0])
    if reading.level_number is None:
        # On a break: the levels already played decide.
        passed = sum(1 for p in _structure(state).periods[: reading.period_index]
                     if p.type == "level")
        return passed < state.config.late_registration_levels
    return passed <= state.config.late_registration_levels


def _assign_places(state: Tournament) -> None:
    """F3: places from elimination order over all entrants, as the log stands now.

    A bust's place is the number of entrants less those out before it; in one
    hand the best group takes the best of the places freed, a group shares it,
    and the next place skips accordingly.
    """
    out_before = 0
    for groups in state.eliminations:
        out = sum(len(g) for g in groups)
        place = state.entrants - out_before - out + 1
        for group in groups:
            for player_id in group:
                state.players[player_id].place = place
            place += len(group)
        out_before += out


# --- set-up and entry ----------------------------------------------------------

@_on(EventKind.TOURNAMENT_CREATED)
def _created(state: Tournament, event: TournamentCreated, commit: bool) -> None:
    if state.config is not None:
        raise AlreadyCreated()
    if not commit:
        return
    state.config = event
    if not event.resume_after_break:
        # After each break the clock stands still until the TD resumes play.
        state.clock = replace(state.clock,
                              holds=clocks.break_ends(event.structure, state.clock))


@_on(EventKind.PLAYER_REGISTERED)
def _registered(state: Tournament, event: PlayerRegistered, commit: bool) -> None:
    _not_finished(state)
    existing = state.players.get(event.player_id)
    if existing is not None:
        if existing.place is not None:
            raise CannotReenter(player=existing.name)
        raise DuplicatePlayer(player=existing.name)
    name = " ".join(event.name.split())
    if not name:
        raise UnknownPlayer(player="''")
    if state.find(name) is not None:
        raise DuplicateName(name=name)
    if not commit:
        return
    state.players[event.player_id] = Entry(event.player_id, name, cards=event.cards)


@_on(EventKind.PLAYER_RENAMED)
def _renamed(state: Tournament, event: PlayerRenamed, commit: bool) -> None:
    entry = _entry(state, event.player_id)
    name = " ".join(event.name.split())
    if not name:
        raise UnknownPlayer(player="''")
    other = state.find(name)
    if other is not None and other is not entry:
        raise DuplicateName(name=name)
    if not commit:
        return
    entry.name = name


@_on(EventKind.PLAYERS_MERGED)
def _merged(state: Tournament, event: PlayersMerged, commit: bool) -> None:
    # The venue's list is the store's; tonight only has to allow it. Two players
    # in one running night are two people, whatever their names.
    if event.keep == event.merged:
        raise SamePlayer(name=event.name)
    keep, merged = state.players.get(event.keep), state.players.get(event.merged)
    if keep is not None and merged is not None and not state.finished and (
            keep.checked_in and merged.checked_in):
        raise BothPlaying(keep=keep.name, name=merged.name)


def _newcomer(state: Tournament, player_id: str) -> Entry:
    """A player who may check in or wait for a seat: not out before, not in already."""
    _not_finished(state)
    entry = _entry(state, player_id)
    if entry.place is not None:
        raise CannotReenter(player=entry.name)
    if entry.checked_in:
        raise AlreadyCheckedIn(player=entry.name)
    return entry


@_on(EventKind.PLAYER_CHECKED_IN)
def _checked_in(state: Tournament, event: PlayerCheckedIn, commit: bool) -> None:
    entry = _newcomer(state, event.player_id)
    late = state.phase is not Phase.CHECK_IN
    if late and not late_registration_open(state, event.at):
        raise LateRegistrationClosedError()
    if not commit:
        return
    if event.player_id in state.waiting:
        # Checked in by the TD while a place is free: off the waiting list.
        state.waiting.remove(event.player_id)
    entry.checked_in = True
    entry.late = late
    state.entrants += 1
    state.remaining += 1
    # F3: a late entry moves everyone already out one place down.
    _assign_places(state)


@_on(EventKind.LATE_REGISTRATION_CLOSED)
def _late_closed(state: Tournament, event: LateRegistrationClosed, commit: bool) -> None:
    if not commit:
        return
    state.late_registration_closed = True


@_on(EventKind.SEATS_DRAWN)
def _seats_drawn(state: Tournament, event: SeatsDrawn, commit: bool) -> None:
    _not_finished(state)
    if state.phase is not Phase.CHECK_IN:
        raise SeatsAlreadyDrawn()
    active = {e.player_id for e in state.active()}
    if len(active) < 2:
        raise NotEnoughPlayers(count=len(active), needed=2)
    _check_assignments(state, event.seats, active)
    if not commit:
        return
    for a in event.seats:
        _sit(state, state.players[a.player_id], a.ref)
    state.phase = Phase.SEATED


@_on(EventKind.PLAYER_SEATED)
def _player_seated(state: Tournament, event: PlayerSeated, commit: bool) -> None:
    _not_finished(state)
    if state.phase is Phase.CHECK_IN:
        raise SeatsNotDrawn()
    entry = _active_entry(state, event.seat.player_id)
    if entry.seat is not None:
        raise SeatingNotValid(reason=f"{entry.name} already has a seat")
    ref = event.seat.ref
    _check_seat(state, ref, tables_may_open=True)
    if _reserved(state, ref):
        raise SeatTaken(table=ref.table, seat=ref.seat)
    if not commit:
        return
    _sit(state, entry, ref)


# --- the waiting list (F2) -------------------------------------------------------

def _waiting_entry(state: Tournament, player_id: str) -> Entry:
    from rules.waitlist import NotWaiting

    entry = _entry(state, player_id)
    if player_id not in state.waiting:
        raise NotWaiting(player=entry.name)
    return entry


@_on(EventKind.PLAYER_WAITLISTED)
def _waitlisted(state: Tournament, event: PlayerWaitlisted, commit: bool) -> None:
    from rules.waitlist import AlreadyWaiting, place

    entry = _newcomer(state, event.player_id)
    waiting = place(state, event.player_id)
    if waiting is not None:
        raise AlreadyWaiting(player=entry.name, place=waiting)
    if state.phase is not Phase.CHECK_IN and not late_registration_open(state, event.at):
        raise LateRegistrationClosedError()
    if not commit:
        return
    state.waiting.append(event.player_id)


@_on(EventKind.PLAYER_UNWAITLISTED)
def _unwaitlisted(state: Tournament, event: PlayerUnwaitlisted, commit: bool) -> None:
    _waiting_entry(state, event.player_id)
    if not commit:
        return
    state.waiting.remove(event.player_id)


@_on(EventKind.WAITLIST_ADMITTED)
def _admitted(state: Tournament, event: WaitlistAdmitted, commit: bool) -> None:
    _not_finished(state)
    entry = _waiting_entry(state, event.seat.player_id)
    if state.phase is Phase.CHECK_IN:
        raise SeatsNotDrawn()
    if not late_registration_open(state, event.at):
        raise LateRegistrationClosedError()
    ref = event.seat.ref
    _check_seat(state, ref, tables_may_open=True)
    if _reserved(state, ref):
        raise SeatTaken(table=ref.table, seat=ref.seat)
    if not commit:
        return
    state.waiting.remove(entry.player_id)
    entry.checked_in = True
    entry.late = True
    state.entrants += 1
    state.remaining += 1
    _assign_places(state)
    _sit(state, entry, ref)


# --- the clock ---------------------------------------------------------------

@_on(EventKind.CLOCK_STARTED)
def _clock_started(state: Tournament, event: ClockStarted, commit: bool) -> None:
    _not_finished(state)
    if state.phase is Phase.CHECK_IN:
        raise SeatsNotDrawn()
    new_clock = clocks.start(state.clock, at=event.at)
    if not commit:
        return
    state.clock = new_clock
    state.phase = Phase.RUNNING


@_on(EventKind.CLOCK_PAUSED)
def _clock_paused(state: Tournament, event: ClockPaused, commit: bool) -> None:
    new_clock = clocks.pause(state.clock, at=event.at)
    if not commit:
        return
    state.clock = new_clock


@_on(EventKind.CLOCK_RESUMED)
def _clock_resumed(state: Tournament, event: ClockResumed, commit: bool) -> None:
    _not_finished(state)
    new_clock = clocks.resume(state.clock, at=event.at)
    if not commit:
        return
    state.clock = new_clock


@_on(EventKind.LEVEL_JUMPED)
def _level_jumped(state: Tournament, event: LevelJumped, commit: bool) -> None:
    _not_finished(state)
    if not state.clock.started:
        raise clocks.ClockNotStarted()
    new_clock = clocks.jump(_structure(state), state.clock, event.period_index, at=event.at)
    if not commit:
        return
    state.clock = new_clock


@_on(EventKind.TIME_ADJUSTED)
def _time_adjusted(state: Tournament, event: TimeAdjusted, commit: bool) -> None:
    _not_finished(state)
    if not state.clock.started:
        raise clocks.ClockNotStarted()
    new_clock = clocks.adjust(_structure(state), state.clock, event.seconds, at=event.at)
    if not commit:
        return
    state.clock = new_clock


@_on(EventKind.CLOCK_RESTORED)
def _clock_restored(state: Tournament, event: ClockRestored, commit: bool) -> None:
    if not state.clock.started:
        raise clocks.ClockNotStarted()
    new_clock = clocks.restore(state.clock, event.position)
    if not commit:
        return
    state.clock = new_clock


# --- busts, moves and tables -------------------------------------------------------

@_on(EventKind.PLAYERS_BUSTED)
def _busted(state: Tournament, event: PlayersBusted, commit: bool) -> None:
    _not_finished(state)
    if state.phase is Phase.CHECK_IN:
        raise SeatsNotDrawn()
    out = [p for group in event.groups for p in group]
    if not out or any(not g for g in event.groups):
        raise UnknownPlayer(player="''")
    entries = [_active_entry(state, p) for p in out]
    if len(set(out)) != len(out):
        dup = next(e for e in entries if out.count(e.player_id) > 1)
        raise NamedTwice(player=dup.name)
    if len(out) >= state.remaining:
        # F4: the last player standing is the winner, not a bust.
        raise NoOneLeftToWin(left=state.remaining)
    if event.table is not None:
        for e in entries:
            if e.seat is None or e.seat.table != event.table:
                raise WrongTable(player=e.name, table=event.table)
    winner_of_pot = None
    if event.by is not None:
        winner_of_pot = _active_entry(state, event.by)
        if event.by in out:
            raise WinnerOfPotOut(player=winner_of_pot.name)
    if not commit:
        return
    for player_id in out:
        entry = state.players[player_id]
        entry.busted_at = event.at
        state.moves.pop(player_id, None)
        _stand(state, entry)
    state.eliminations.append(event.groups)
    if winner_of_pot is not None:
        winner_of_pot.knockouts += len(out)
    state.remaining -= len(out)
    _assign_places(state)
    if state.remaining == 2:
        state.clock = clocks.heads_up_begins(_structure(state), state.clock, at=event.at)
    if state.remaining == 1:
        last = state.active()[0]
        last.place = 1
        state.moves.clear()
        if state.clock.running:
            state.clock = clocks.pause(state.clock, at=event.at)
        state.phase = Phase.FINISHED


@_on(EventKind.PLAYER_ABSENT)
def _absent(state: Tournament, event: PlayerAbsent, commit: bool) -> None:
    entry = _active_entry(state, event.player_id)
    if not commit:
        return
    if entry.absent_since is None:
        entry.absent_since = event.at


@_on(EventKind.PLAYER_RETURNED)
def _returned(state: Tournament, event: PlayerReturned, commit: bool) -> None:
    entry = _active_entry(state, event.player_id)
    if not commit:
        return
    entry.absent_since = None


@_on(EventKind.MOVE_PROPOSED)
def _move_proposed(state: Tournament, event: MoveProposed, commit: bool) -> None:
    _not_finished(state)
    move = event.move
    entry = _active_entry(state, move.player_id)
    if entry.seat != move.source:
        raise MoveNotValid(player=entry.name, reason="the player is not in the source seat")
    if move.player_id in state.moves:
        raise MoveNotValid(player=entry.name, reason="a move is already pending")
    if move.target.table == move.source.table:
        raise MoveNotValid(player=entry.name, reason="the target is the same table")
    if not _vacating(state, move.target):
        # A seat whose player is already told to move on may be promised
        # onward; the newcomer sits once it is empty (see MoveConfirmed).
        _check_seat(state, move.target, tables_may_open=False)
    if _reserved(state, move.target):
        raise SeatTaken(table=move.target.table, seat=move.target.seat)
    if not commit:
        return
    state.moves[move.player_id] = move


@_on(EventKind.MOVE_CONFIRMED)
def _move_confirmed(state: Tournament, event: MoveConfirmed, commit: bool) -> None:
    entry = _entry(state, event.player_id)
    move = state.moves.get(event.player_id)
    if move is None:
        raise MoveNotProposed(player=entry.name)
    chain = walking_chain(state, move)
    if not commit:
        return
    # Everyone in the chain gets up, then everyone sits: a player cannot take a
    # seat until its player has gone, and two players may simply swap.
    for step in chain:
        del state.moves[step.player_id]
        source = state.tables.get(step.source.table)
        if source is not None:
            source.moved_out.append(step.source.seat)
        _stand(state, state.players[step.player_id], tidy=False)
    for step in chain:
        _sit(state, state.players[step.player_id], step.target)
    _drop_empty_tables(state)


def walking_chain(state: Tournament, move: Move) -> list[Move]:
    """The moves that confirming ``move`` completes: whoever still sits in its
    target seat leaves for their own target, and so on, until a free seat or
    back to where the chain began (a swap or a ring)."""
    chain = [move]
    seen = {move.player_id}
    target = move.target
    while True:
        table = state.tables.get(target.table)
        occupant = table.seats.get(target.seat) if table is not None else None
        if occupant is None or occupant in seen:
            return chain
        onward = state.moves.get(occupant)
        if onward is None or onward.source != target:
            raise SeatTaken(table=target.table, seat=target.seat)
        chain.append(onward)
        seen.add(occupant)
        target = onward.target


@_on(EventKind.MOVE_CANCELLED)
def _move_cancelled(state: Tournament, event: MoveCancelled, commit: bool) -> None:
    entry = _entry(state, event.player_id)
    if event.player_id not in state.moves:
        raise MoveNotProposed(player=entry.name)
    if not commit:
        return
    del state.moves[event.player_id]
    # A table kept only for this arrival goes once nobody sits or is bound there.
    _drop_empty_tables(state)


@_on(EventKind.FINAL_TABLE_DRAWN)
def _final_table(state: Tournament, event: FinalTableDrawn, commit: bool) -> None:
    _not_finished(state)
    active = {e.player_id for e in state.active()}
    _check_assignments(state, event.seats, active)
    if len({a.table for a in event.seats}) != 1:
        raise SeatingNotValid(reason="a final table is one table")
    if not commit:
        return
    state.moves.clear()
    state.tables.clear()
    for a in event.seats:
        entry = state.players[a.player_id]
        entry.seat = None
        _sit(state, entry, a.ref)
    state.final_table = True
    # C6: the clock stops for the redraw; the TD announces the restart.
    if state.clock.running:
        state.clock = clocks.pause(state.clock, at=event.at)


@_on(EventKind.BREAK_ORDER_SET)
def _break_order(state: Tournament, event: BreakOrderSet, commit: bool) -> None:
    if not commit:
        return
    state.break_order = event.tables


@_on(EventKind.BUTTON_DRAWN)
def _button_drawn(state: Tournament, event: ButtonDrawn, commit: bool) -> None:
    table = state.tables.get(event.table)
    if table is None:
        raise UnknownTable(table=event.table)
    if event.seat not in table.seats:
        raise SeatingNotValid(reason=f"seat {event.seat} is empty")
    if not commit:
        return
    table.button = buttons.first_position(event.seat, tuple(table.seats),
                                          seats_per_table=_seats_per_table(state))
    table.button_fresh = True
    table.sitting_out.clear()


@_on(EventKind.HAND_STARTED)
def _hand_started(state: Tournament, event: HandStarted, commit: bool) -> None:
    _not_finished(state)
    table = state.tables.get(event.table)
    if table is None:
        raise UnknownTable(table=event.table)
    if not commit:
        return
    table.hands += 1
    table.hand_done = False
    table.clock_called_at = table.clock_called_seat = None
    if table.button is None:
        return
    if table.button_fresh:
        table.button_fresh = False
        return
    assert state.config is not None
    if len(table.seats) < 2:
        return
    table.button = buttons.next_position(
        table.button, tuple(table.seats), seats_per_table=_seats_per_table(state),
        moved=tuple(table.moved_out),
        dead_button_on_move=state.config.house.dead_button_on_move)
    table.moved_out.clear()
    # B5: a newcomer is dealt in from the first hand the button has passed them.
    table.sitting_out = [s for s in table.sitting_out
                         if s in table.seats and buttons.sits_out(table.button, s)]


@_on(EventKind.HAND_FOR_HAND_SET)
def _hand_for_hand(state: Tournament, event: HandForHandSet, commit: bool) -> None:
    _not_finished(state)
    if not commit:
        return
    state.hand_for_hand = event.on
    for table in state.tables.values():
        table.hand_done = False


@_on(EventKind.HAND_FINISHED)
def _hand_finished(state: Tournament, event: HandFinished, commit: bool) -> None:
    _not_finished(state)
    table = state.tables.get(event.table)
    if table is None:
        raise UnknownTable(table=event.table)
    if not state.hand_for_hand:
        raise NotHandForHand()
    if not commit:
        return
    table.hand_done = True


@_on(EventKind.CLOCK_CALLED)
def _clock_called(state: Tournament, event: ClockCalled, commit: bool) -> None:
    _not_finished(state)
    table = state.tables.get(event.table)
    if table is None:
        raise UnknownTable(table=event.table)
    if event.seat is not None and event.seat not in table.seats:
        raise SeatingNotValid(reason=f"seat {event.seat} is empty")
    if not commit:
        return
    table.clock_called_at = event.at
    table.clock_called_seat = event.seat


# --- Sit & Go ------------------------------------------------------------------

@_on(EventKind.SIT_AND_GO_LISTED)
def _sng_listed(state: Tournament, event: SitAndGoListed, commit: bool) -> None:
    entry = _entry(state, event.player_id)
    if entry.place is None:
        raise SitAndGoNotValid(reason=f"{entry.name} is still in the main event")
    if event.player_id in state.sit_and_go_list:
        raise SitAndGoNotValid(reason=f"{entry.name} is already on the list")
    if not commit:
        return
    state.sit_and_go_list.append(event.player_id)


@_on(EventKind.SIT_AND_GO_UNLISTED)
def _sng_unlisted(state: Tournament, event: SitAndGoUnlisted, commit: bool) -> None:
    entry = _entry(state, event.player_id)
    if event.player_id not in state.sit_and_go_list:
        raise SitAndGoNotValid(reason=f"{entry.name} is not on the list")
    if not commit:
        return
    state.sit_and_go_list.remove(event.player_id)


@_on(EventKind.SIT_AND_GO_STARTED)
def _sng_started(state: Tournament, event: SitAndGoStarted, commit: bool) -> None:
    players = event.player_ids
    if not SIT_AND_GO_MIN <= len(players) <= SIT_AND_GO_MAX:
        raise SitAndGoNotValid(reason=f"{len(players)} players; a table needs 7 to 9")
    if event.sit_and_go_id in state.sit_and_gos:
        raise SitAndGoNotValid(reason="that Sit & Go has already started")
    if len(set(players)) != len(players) or not set(players) <= set(state.sit_and_go_list):
        raise SitAndGoNotValid(reason="every player must be on the waiting list once")
    if not commit:
        return
    state.sit_and_go_list = [p for p in state.sit_and_go_list if p not in players]
    state.sit_and_gos[event.sit_and_go_id] = players


@_on(EventKind.TOURNAMENT_CLOSED)
def _closed(state: Tournament, event: TournamentClosed, commit: bool) -> None:
    # A second close is refused by _open_for before it gets here.
    if commit:
        state.closed = True


@_on(EventKind.TOURNAMENT_REOPENED)
def _reopened(state: Tournament, event: TournamentReopened, commit: bool) -> None:
    if not state.closed:
        raise TournamentNotClosed()
    if commit:
        state.closed = False


@_on(EventKind.TONIGHT_CHOSEN)
def _tonight_chosen(state: Tournament, event: TonightChosen, commit: bool) -> None:
    # Which tournament is tonight's is read from the log, not from the state.
    pass


@_on(EventKind.ACTION_UNDONE)
def _undone(state: Tournament, event: ActionUndone, commit: bool) -> None:
    # The fold resolves undos before folding (see rules.fold); one that gets
    # here named nothing the fold could find.
    raise MoveNotValid(player=event.device_id, reason=f"nothing to undo at seq {event.seq}")
