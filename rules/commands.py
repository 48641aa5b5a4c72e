"""Commands become events.

A command is an order (``BustPlayers``); :func:`decide` checks it against the
state and returns the events it causes, or raises a translated
:class:`~rules.errors.RulesError` and returns nothing. Work that needs
randomness (seat draws, a moved player's new seat) happens here, with the
RNG passed in, so the events hold the outcome and replay needs no RNG.

The caller makes the events durable first and only then folds them with
:func:`rules.reducer.apply`, so the state never runs ahead of the log.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import field
from typing import Any, TypeVar

from rules import balancing, seating, waitlist
from rules import button as buttons
from rules import clock as clocks
from rules.events import (
    ActionUndone,
    BreakOrderSet,
    ButtonDrawn,
    ClockCalled,
    ClockPaused,
    ClockResumed,
    ClockStarted,
    Event,
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
    TimeAdjusted,
    TonightChosen,
    TournamentClosed,
    TournamentCreated,
    TournamentReopened,
    WaitlistAdmitted,
)
from rules.house import HouseRules
from rules.names import PLAYER_NAME_MAX, TOURNAMENT_NAME_MAX, clean_name
from rules.records import RecordMethods, record
from rules.reducer import apply, verify
from rules.refusals import (
    NothingToUndo,
    NoTournament,
    SeatTaken,
    TournamentClosedError,
    UnknownPlayer,
)
from rules.rng import RandomSource
from rules.sitandgo import TimeOfDay
from rules.state import Phase, Tournament
from rules.structure import Structure
from rules.values import Move, SeatAssignment

__all__ = [
    "AdjustTime",
    "BreakTable",
    "BustPlayers",
    "CallClock",
    "CancelMove",
    "CheckIn",
    "ChooseTonight",
    "CloseLateRegistration",
    "CloseTournament",
    "Command",
    "ConfirmMove",
    "CreateTournament",
    "DrawButton",
    "DrawSeats",
    "FinishHand",
    "JumpToLevel",
    "ListForSitAndGo",
    "MarkAbsent",
    "MarkReturned",
    "MergePlayers",
    "MovePlayer",
    "NextLevel",
    "PauseClock",
    "PreviousLevel",
    "RegisterPlayer",
    "RemoveFromWaitingList",
    "RenamePlayer",
    "ReopenTournament",
    "ResumeClock",
    "SetBreakOrder",
    "SetHandForHand",
    "Start",
    "StartClock",
    "StartHand",
    "StartNextSitAndGo",
    "StartSitAndGo",
    "TogglePause",
    "Undo",
    "UndoAction",
    "decide",
    "execute",
    "start_means",
]


class Command(RecordMethods):
    """Base of every command: a frozen record named as an order."""


@record
class CreateTournament(Command):
    """Start a tournament in check-in with this structure and these house rules."""

    name: str
    structure: Structure
    house: HouseRules = field(default_factory=HouseRules)
    max_tables: int | None = None
    late_registration_levels: int = 4
    final_table_size: int = 9
    balance_tolerance: int = 1
    resume_after_break: bool = True
    #: F2: players in at once (None: the venue's seats); more wait on the list.
    capacity: int | None = None


@record
class RegisterPlayer(Command):
    """Put a player on tonight's list."""

    player_id: str
    name: str
    cards: tuple[str, ...] = ()


@record
class RenamePlayer(Command):
    """Give a registered player (a guest) their own name."""

    player_id: str
    name: str


@record
class MergePlayers(Command):
    """Two of the venue's players are one person: ``merged`` becomes ``keep``."""

    keep: str
    keep_name: str
    merged: str
    name: str
    cards: tuple[str, ...] = ()
    created: str = ""


@record
class CheckIn(Command):
    """Check a player in; a walk-in (not registered) gives a ``name`` too.

    After the draw this is late registration (F2): the player is drawn into
    a seat at a table that needs one.
    """

    player_id: str
    name: str | None = None
    cards: tuple[str, ...] = ()


@record
class RemoveFromWaitingList(Command):
    """The TD takes a player off the waiting list (F2)."""

    player_id: str


@record
class CloseLateRegistration(Command):
    """Take no more entries (F2)."""


@record
class DrawSeats(Command):
    """Draw the seats (S1); ``pinned`` players keep the seats given."""

    #: Volunteer dealers pinned to their seats (S1): player → (table, seat).
    pinned: Mapping[str, tuple[int, int]] = field(default_factory=dict)


@record
class Start(Command):
    """The TD's START (a long press): what it means depends on the night.

    In check-in it draws the seats; at the end of a break the clock waits at,
    it plays on; otherwise it starts the clock (see :func:`start_means`).
    """


@record
class StartClock(Command):
    """Start the clock at the first level."""


@record
class PauseClock(Command):
    """Stop the clock where it is."""


@record
class ResumeClock(Command):
    """Let a paused clock run on."""


@record
class TogglePause(Command):
    """The TD's one pause/resume button."""


@record
class NextLevel(Command):
    """Move the clock to the start of the next period."""


@record
class PreviousLevel(Command):
    """Move the clock back to the start of the previous period."""


@record
class JumpToLevel(Command):
    """Move the clock to the start of period ``period_index``."""

    period_index: int


@record
class AdjustTime(Command):
    """Add seconds to the current level (negative: take them off)."""

    seconds: float


@record
class BustPlayers(Command):
    """One or more players out in one hand (F3).

    With ``start_stacks`` the player who started the hand with more chips
    finishes higher and equal stacks share a place; without them the order
    given is the TD's order, best placed first.
    """

    player_ids: tuple[str, ...]
    start_stacks: Mapping[str, int] | None = None
    table: int | None = None
    by: str | None = None


@record
class MarkAbsent(Command):
    """A seated player is away."""

    player_id: str


@record
class MarkReturned(Command):
    """An absent player is back."""

    player_id: str


@record
class ConfirmMove(Command):
    """The moved player has sat down."""

    player_id: str


@record
class CancelMove(Command):
    """Call off a player's proposed move."""

    player_id: str


@record
class MovePlayer(Command):
    """The TD sends a player to another table (S2, S4): to ``seat``, or the worst
    free seat there. ``seated`` confirms it at once (the player already sat down)."""

    player_id: str
    table: int
    seat: int | None = None
    seated: bool = False


@record
class BreakTable(Command):
    """The TD breaks a table (S3): its players are drawn into the emptiest tables
    left, and balancing evens out the rest."""

    table: int


@record
class SetBreakOrder(Command):
    """Set the order in which tables are broken."""

    tables: tuple[int, ...]


@record
class DrawButton(Command):
    """Draw for the button at a table (B1)."""

    table: int


@record
class StartHand(Command):
    """A new hand at a table: the button moves on."""

    table: int


@record
class SetHandForHand(Command):
    """Switch hand-for-hand play (C7) on or off."""

    on: bool


@record
class FinishHand(Command):
    """Hand for hand: a table device's HAND DONE."""

    table: int


@record
class CallClock(Command):
    """C5: a table device's CLOCK button, optionally naming the seat."""

    table: int
    seat: int | None = None


@record
class ListForSitAndGo(Command):
    """Put a player's name down for the next sit-and-go."""

    player_id: str


@record
class StartSitAndGo(Command):
    """Start a sit-and-go with the players listed for it."""

    sit_and_go_id: str
    player_ids: tuple[str, ...]


@record
class StartNextSitAndGo(Command):
    """The TD starts the next Sit & Go, if the rules allow it now (G1, G2).

    The rules pick the players (the first nine listed) and name the game
    (:mod:`rules.sitandgo_start`); the time of day and the venue's closing
    are passed in, and ``finished`` names the games already over.
    """

    tournament_id: str
    time_of_day: TimeOfDay
    closing: TimeOfDay
    finished: frozenset[str] = frozenset()


@record
class CloseTournament(Command):
    """The night's results go to the league; nothing changes them after (see ReopenTournament)."""


@record
class ReopenTournament(Command):
    """Open a closed night again to correct it (the TD is asked twice first)."""


@record
class ChooseTonight(Command):
    """Make this tournament tonight's on every device (N3: the TD switches back to it)."""


@record
class Undo(Command):
    """Cancel an earlier event by its identity in the log."""

    device_id: str
    seq: int


@record
class UndoAction(Command):
    """Cancel every event of one earlier action, in the order given (newest first).

    One command, so the undo is one action too: it is written in one go and
    a redo can take it back whole. :func:`rules.undo.undo` builds it.
    """

    targets: tuple[tuple[str, int], ...]


C = TypeVar("C", bound=Command)
_Decider = Callable[[Tournament, Any, float, "RandomSource"], list[Event]]
_DECIDERS: dict[type[Command], _Decider] = {}


_Decides = Callable[[Tournament, C, float, RandomSource], list[Event]]


def _decides(cls: type[C]) -> Callable[[_Decides[C]], _Decides[C]]:
    def register(fn: _Decides[C]) -> _Decides[C]:
        _DECIDERS[cls] = fn
        return fn
    return register


def decide(state: Tournament, command: Command, *, now: float,
           rng: RandomSource) -> tuple[Event, ...]:
    """The events ``command`` causes in ``state`` at shared time ``now``.

    The state is not changed. A refused command raises and yields nothing.

    >>> import random
    >>> from rules.structure import preset
    >>> t = Tournament()
    >>> [e.kind.value for e in decide(t, CreateTournament("Fredag", preset("pubpoker")),
    ...                               now=0.0, rng=random.Random(1))]
    ['tournament-created']
    >>> decide(t, StartClock(), now=0.0, rng=random.Random(1))
    Traceback (most recent call last):
    ...
    rules.refusals.NoTournament: There is no tournament to do this in
    """
    decider = _DECIDERS[type(command)]
    if state.config is None and not isinstance(command, CreateTournament):
        raise NoTournament()
    # N1: a closed night's results stand. Undos are refused here too: the
    # reducer never sees them (the fold resolves undos first).
    if state.closed and not isinstance(command, ReopenTournament):
        raise TournamentClosedError()
    _check_names(state, command)
    return tuple(decider(state, command, now, rng))


def _check_names(state: Tournament, command: Command) -> None:
    """A new name must fit the screens (:mod:`rules.names`).

    Checked here and not in the reducer, so a log written before the limits
    folds as it did, on every version. A check-in's name is new only for a
    player not yet in the tournament; for one already in, it is not used.
    """
    if isinstance(command, CreateTournament):
        clean_name(command.name, TOURNAMENT_NAME_MAX)
    elif isinstance(command, CheckIn):
        if command.name and command.player_id not in state.players:
            clean_name(command.name, PLAYER_NAME_MAX)
    elif isinstance(command, (RegisterPlayer, RenamePlayer)):
        clean_name(command.name, PLAYER_NAME_MAX)


def execute(state: Tournament, command: Command, *, now: float, rng: RandomSource
            ) -> tuple[Event, ...]:
    """Decide and fold at once: for tests and tools without a log.

    The events are checked against a scratch fold first, so a command whose
    later events would be refused changes nothing.
    """
    events = decide(state, command, now=now, rng=rng)
    for event in events:
        apply(state, event)
    return events


# --- the deciders --------------------------------------------------------------------

def _probe(state: Tournament, event: Event) -> None:
    """Refuse now, not at fold time, with the reducer's own checks."""
    verify(state, event)


@_decides(CreateTournament)
def _create(state: Tournament, cmd: CreateTournament, now: float, rng: RandomSource) -> list[Event]:
    event = TournamentCreated(
        at=now, name=cmd.name, structure=cmd.structure, house=cmd.house,
        max_tables=cmd.max_tables, late_registration_levels=cmd.late_registration_levels,
        final_table_size=cmd.final_table_size, balance_tolerance=cmd.balance_tolerance,
        resume_after_break=cmd.resume_after_break, capacity=cmd.capacity)
    _probe(state, event)
    return [event]


@_decides(CheckIn)
def _check_in(state: Tournament, cmd: CheckIn, now: float, rng: RandomSource) -> list[Event]:
    events: list[Event] = []
    registered: PlayerRegistered | None = None
    if cmd.player_id not in state.players:
        if cmd.name is None:
            raise UnknownPlayer(player=cmd.player_id)
        registered = PlayerRegistered(at=now, player_id=cmd.player_id, name=cmd.name,
                                      cards=cmd.cards)
        _probe(state, registered)
        events.append(registered)
    if cmd.player_id in state.waiting and waitlist.is_full(state):
        raise waitlist.AlreadyWaiting(player=state.players[cmd.player_id].name,
                                      place=waitlist.place(state, cmd.player_id))
    if waitlist.is_full(state) or (state.waiting and cmd.player_id not in state.waiting):
        # F2: every place is taken (or others wait already): last on the list.
        return _waitlist(state, cmd, now, registered)
    checked_in = PlayerCheckedIn(at=now, player_id=cmd.player_id)
    if registered is not None:
        # A walk-in is not on the list yet: check against the list with them on it.
        _verify_check_in_of_new(state, registered, checked_in)
    else:
        _probe(state, checked_in)
    seated: list[PlayerSeated] = []
    if state.phase is not Phase.CHECK_IN:
        try:
            seated = _seat_late(state, cmd.player_id, now, rng)
        except seating.NotEnoughSeats:
            # F2: places are left, but every free seat is held by a player on
            # the way to it (a pending move holds both ends): no seat is free
            # until they sit down, and the confirmation admits from the list.
            return _waitlist(state, cmd, now, registered)
    events.append(checked_in)
    events.extend(seated)
    # A newcomer who had to open a table leaves the others lopsided. Before the
    # clock starts nobody balances yet: each late arrival would move players the
    # next one makes needless (issue 45); the start does it once.
    if state.phase not in (Phase.CHECK_IN, Phase.SEATED):
        seatmap = state.seatmap()
        for event in seated:
            seatmap.setdefault(event.seat.table, {})[event.seat.seat] = event.seat.player_id
        events.extend(_balance(state, seatmap, now, rng, set(), prefix=events))
    return events


def _verify_check_in_of_new(state: Tournament, registered: PlayerRegistered,
                            event: PlayerCheckedIn | PlayerWaitlisted) -> None:
    """The reducer's own checks of the check-in, on a state with the walk-in registered.

    Only the players dict is copied: registering adds an entry to it and
    changes nothing else a check-in's checks read.
    """
    from rules.reducer import apply, verify

    trial = dataclasses.replace(state, players=dict(state.players))
    apply(trial, registered)
    verify(trial, event)


def _waitlist(state: Tournament, cmd: CheckIn, now: float,
              registered: PlayerRegistered | None) -> list[Event]:
    """The check-in puts the player last on the waiting list (F2)."""
    waits = PlayerWaitlisted(at=now, player_id=cmd.player_id)
    if registered is None:
        _probe(state, waits)
        return [waits]
    _verify_check_in_of_new(state, registered, waits)
    return [registered, waits]


def _config(state: Tournament) -> TournamentCreated:
    assert state.config is not None
    return state.config


def _seat_late(state: Tournament, player_id: str, now: float,
               rng: RandomSource) -> list[PlayerSeated]:
    """F2/S3: draw a late registrant into the table that needs a player most."""
    return [PlayerSeated(at=now, seat=a)
            for a in _draw_late(state, state.seatmap(), (player_id,), set(), rng)]


def _draw_late(state: Tournament, seatmap: dict[int, dict[int, str]],
               players: Sequence[str], gone: set[str], rng: RandomSource
               ) -> tuple[SeatAssignment, ...]:
    config = _config(state)
    # A newcomer sits down at once, so both ends of every pending move are
    # taken: the seat a mover still sits in, and the one promised to them.
    seatmap = {t: dict(seats) for t, seats in seatmap.items()}
    for move in state.moves.values():
        if move.player_id not in gone:
            seatmap.setdefault(move.target.table, {})[move.target.seat] = f"→{move.player_id}"
    return seating.draw_into(
        seatmap, tuple(players), config.house.seats_per_table, rng,
        max_tables=config.max_tables)


def _admit_waiting(state: Tournament, seatmap: dict[int, dict[int, str]], remaining: int,
                   now: float, rng: RandomSource, gone: set[str]) -> list[Event]:
    """F2: seats came free while late registration is open: the first on the
    waiting list, as many as there are places, are drawn into them (S3).
    ``seatmap`` and ``remaining`` are the night after the bust; the seats
    drawn are added to ``seatmap``."""
    from rules.reducer import late_registration_open

    limit = waitlist.capacity(state)
    if not state.waiting or limit is None or not late_registration_open(state, now):
        return []
    admitted = state.waiting[:max(0, limit - remaining)]
    while admitted:
        try:
            drawn = _draw_late(state, seatmap, admitted, gone, rng)
        except seating.NotEnoughSeats:
            # Pending moves hold both their seats: one fewer until they sit down.
            admitted = admitted[:-1]
            continue
        order = {p: i for i, p in enumerate(admitted)}
        for a in drawn:
            seatmap.setdefault(a.table, {})[a.seat] = a.player_id
        return [WaitlistAdmitted(at=now, seat=a)
                for a in sorted(drawn, key=lambda a: order[a.player_id])]
    return []


@_decides(DrawSeats)
def _draw_seats(state: Tournament, cmd: DrawSeats, now: float, rng: RandomSource) -> list[Event]:
    from rules.values import SeatRef

    config = _config(state)
    active = sorted(e.player_id for e in state.active())
    if state.phase is Phase.CHECK_IN and len(active) >= 2:
        drawn = seating.draw_seats(
            active, config.house.seats_per_table, rng, max_tables=config.max_tables,
            pinned={p: SeatRef(t, s) for p, (t, s) in cmd.pinned.items()})
    else:
        drawn = ()
    event = SeatsDrawn(at=now, seats=tuple(drawn))
    _probe(state, event)
    return [event]


@_decides(StartClock)
def _start_clock(state: Tournament, cmd: StartClock, now: float,
                 rng: RandomSource) -> list[Event]:
    started = ClockStarted(at=now)
    _probe(state, started)
    events: list[Event] = [started]
    if state.phase is Phase.SEATED:
        # S1/S2: the players drawn in late before the start are balanced once,
        # now that the room is known: as few moves as the final count needs.
        events.extend(_balance(state, state.seatmap(), now, rng, set(), prefix=events))
    return events


def start_means(state: Tournament, now: float) -> DrawSeats | ResumeClock | StartClock:
    """The command START is in ``state`` at shared time ``now``.

    >>> from rules.clock import ClockState
    >>> t = Tournament()
    >>> start_means(t, 0.0)
    DrawSeats(pinned={})
    >>> t.phase = Phase.RUNNING
    >>> start_means(t, 0.0)
    StartClock()
    >>> t.clock = ClockState(started=True, running=True, since=0.0, holds=(100.0,))
    >>> start_means(t, 50.0), start_means(t, 100.0)
    (StartClock(), ResumeClock())
    """
    if state.phase is Phase.CHECK_IN:
        return DrawSeats()
    if state.clock.started and state.clock.waiting_at(now):
        return ResumeClock()  # the break is over: play on
    return StartClock()


@_decides(Start)
def _start(state: Tournament, cmd: Start, now: float, rng: RandomSource) -> list[Event]:
    meaning = start_means(state, now)
    return _DECIDERS[type(meaning)](state, meaning, now, rng)


@_decides(TogglePause)
def _toggle(state: Tournament, cmd: TogglePause, now: float, rng: RandomSource) -> list[Event]:
    if not state.clock.started:
        return _start_clock(state, StartClock(), now, rng)
    if state.clock.waiting_at(now):
        return _resume_after_break(state, now)
    if state.clock.running:
        return _one_event(state, PauseClock(), now, rng)
    return _one_event(state, ResumeClock(), now, rng)


def _resume_after_break(state: Tournament, now: float) -> list[Event]:
    """The TD ends a break the clock waits at: stop it at the break's end, and
    run on from there at once (two events, so every device folds the same)."""
    paused = ClockPaused(at=now)
    _probe(state, paused)
    return [paused, ClockResumed(at=now)]


@_decides(ResumeClock)
def _resume(state: Tournament, cmd: ResumeClock, now: float, rng: RandomSource) -> list[Event]:
    if state.clock.waiting_at(now):
        return _resume_after_break(state, now)
    return _one_event(state, cmd, now, rng)


def _jump(state: Tournament, index: int, now: float) -> list[Event]:
    event = LevelJumped(at=now, period_index=index)
    _probe(state, event)
    return [event]


def _current_period(state: Tournament, now: float) -> int:
    config = _config(state)
    return clocks.read(config.structure, state.clock, now).period_index


@_decides(NextLevel)
def _next_level(state: Tournament, cmd: NextLevel, now: float, rng: RandomSource) -> list[Event]:
    return _jump(state, _current_period(state, now) + 1, now)


@_decides(PreviousLevel)
def _previous_level(state: Tournament, cmd: PreviousLevel, now: float,
                    rng: RandomSource) -> list[Event]:
    return _jump(state, _current_period(state, now) - 1, now)


@_decides(JumpToLevel)
def _jump_to(state: Tournament, cmd: JumpToLevel, now: float, rng: RandomSource) -> list[Event]:
    return _jump(state, cmd.period_index, now)


def bust_groups(player_ids: tuple[str, ...], start_stacks: Mapping[str, int] | None
                ) -> tuple[tuple[str, ...], ...]:
    """F3: order players out in one hand, best placed first.

    >>> bust_groups(("a", "b", "c"), {"a": 500, "b": 900, "c": 500})
    (('b',), ('a', 'c'))
    >>> bust_groups(("a", "b"), None)
    (('a',), ('b',))
    """
    if not start_stacks or not all(p in start_stacks for p in player_ids):
        return tuple((p,) for p in player_ids)
    by_stack: dict[int, list[str]] = {}
    for p in player_ids:
        by_stack.setdefault(start_stacks[p], []).append(p)
    return tuple(tuple(sorted(by_stack[s])) for s in sorted(by_stack, reverse=True))


@_decides(ConfirmMove)
def _confirm(state: Tournament, cmd: ConfirmMove, now: float, rng: RandomSource) -> list[Event]:
    confirmed = MoveConfirmed(at=now, player_id=cmd.player_id)
    _probe(state, confirmed)
    events: list[Event] = [confirmed]
    if len(state.moves) > 1 or state.waiting:
        # Balancing that had to wait for walking players can go on now, and a
        # seat the mover left may take the first on the waiting list (F2). The
        # confirmation may seat a whole chain, so plan on the state after it
        # (a copy: confirmations come at the pace of people sitting down).
        import copy

        after = copy.deepcopy(state)
        apply(after, confirmed)
        admitted = _admit_waiting(after, after.seatmap(), after.remaining, now, rng, set())
        for event in admitted:
            apply(after, event)
        events.extend(admitted)
        events.extend(_balance(after, after.seatmap(), now, rng, set()))
    return events


@_decides(MovePlayer)
def _move_player(state: Tournament, cmd: MovePlayer, now: float,
                 rng: RandomSource) -> list[Event]:
    from rules.table_moves import move_to

    proposed = MoveProposed(at=now, move=move_to(state, cmd.player_id, cmd.table, cmd.seat, rng))
    _probe(state, proposed)
    if not cmd.seated:
        return [proposed]
    import copy

    after = copy.deepcopy(state)
    apply(after, proposed)
    return [proposed, *_confirm(after, ConfirmMove(cmd.player_id), now, rng)]


@_decides(BreakTable)
def _break_table(state: Tournament, cmd: BreakTable, now: float,
                 rng: RandomSource) -> list[Event]:
    from rules.table_moves import verify_break

    verify_break(state, cmd.table)
    events = _balance(state, state.seatmap(), now, rng, set(), break_tables=(cmd.table,))
    import copy

    # Every event checked in order on a scratch fold: nothing half-done is stored.
    after = copy.deepcopy(state)
    for event in events:
        apply(after, event)  # raises, as the fold would, before anything is stored
    return events


@_decides(BustPlayers)
def _bust(state: Tournament, cmd: BustPlayers, now: float, rng: RandomSource) -> list[Event]:
    busted = PlayersBusted(at=now, groups=bust_groups(cmd.player_ids, cmd.start_stacks),
                           table=cmd.table, by=cmd.by)
    _probe(state, busted)
    events: list[Event] = [busted]
    config = _config(state)
    remaining = state.remaining - len(cmd.player_ids)
    if remaining <= 1:
        return events
    gone = set(cmd.player_ids)
    seatmap = {n: {s: p for s, p in seats.items() if p not in gone}
               for n, seats in state.seatmap().items()}
    seatmap = {n: seats for n, seats in seatmap.items() if seats}
    admitted = _admit_waiting(state, seatmap, remaining, now, rng, gone)
    events.extend(admitted)
    remaining += len(admitted)
    crossed = remaining <= config.final_table_size < state.remaining
    spread = remaining <= config.final_table_size and len(seatmap) > 1
    fits = remaining <= config.house.seats_per_table
    if (crossed or spread) and fits and not state.final_table:
        # C6: one final table, a fresh draw, and the clock stops. With tables
        # of ten the last two merge at ten players, so the seed's "at nine
        # left" redraw must not wait for a second table to exist; with tables
        # of eight it waits until the players fit at one.
        players = sorted(p for seats in seatmap.values() for p in seats.values())
        drawn = seating.final_table_draw(
            players, rng, table=min(seatmap), seats_per_table=config.house.seats_per_table)
        events.append(FinalTableDrawn(at=now, seats=tuple(drawn)))
        return events
    events.extend(_balance(state, seatmap, now, rng, gone, prefix=events))
    return events


def _balance(state: Tournament, seatmap: dict[int, dict[int, str]], now: float,
             rng: RandomSource, gone: set[str], *,
             pending: Mapping[str, Move] | None = None, depth: int = 0,
             prefix: Sequence[Event] = (), break_tables: Sequence[int] = ()) -> list[Event]:
    """The moves balancing wants now, given the seats players really sit in.

    Movers not yet seated count at their targets (``pending``). When the plan
    sends such a mover elsewhere, the old move is cancelled first; if it sends
    them back to the table they sit at, cancelling is the whole change.
    """
    config = _config(state)
    walking = state.moves if pending is None else pending
    moves = balancing.plan_moves(
        seatmap, seats_per_table=config.house.seats_per_table,
        tolerance=config.balance_tolerance,
        buttons={n: t.button for n, t in state.tables.items()},
        pending=[m for m in walking.values() if m.player_id not in gone],
        rng=rng, break_order=state.break_order, break_tables=break_tables)
    # Every cancellation first: a new move may take a seat an old one held.
    events: list[Event] = [MoveCancelled(at=now, player_id=m.player_id)
                           for m in moves if m.player_id in walking]
    events.extend(MoveProposed(at=now, move=m) for m in moves
                  if m.target.table != m.source.table)
    # Only a plan that re-moves a walking player can strand another's move.
    if depth < 3 and any(m.player_id in walking for m in moves):
        events.extend(_drop_stale(state, [*prefix, *events], now, rng, gone, depth))
    return events


def _drop_stale(state: Tournament, events: list[Event], now: float, rng: RandomSource,
                gone: set[str], depth: int) -> list[Event]:
    """Cancel moves that could never be confirmed, and plan again without them.

    A player sent back to the seat they never left keeps it, so a move
    promised into that seat (and any chain ending there) is stale. Checked on
    a copy, only when moves were already pending: busts with everyone seated
    stay cheap.
    """
    import copy

    from rules.reducer import walking_chain

    # ``events`` begin with the command's own (the bust, the late seat).
    after = copy.deepcopy(state)
    for event in events:
        apply(after, event)
    stale = []
    for move in after.moves.values():
        try:
            walking_chain(after, move)
        except SeatTaken:
            stale.append(move.player_id)
    if not stale:
        return []
    cancels: list[Event] = [MoveCancelled(at=now, player_id=p) for p in sorted(stale)]
    for event in cancels:
        apply(after, event)
    return cancels + _balance(after, after.seatmap(), now, rng, gone, depth=depth + 1)


@_decides(DrawButton)
def _draw_button(state: Tournament, cmd: DrawButton, now: float, rng: RandomSource) -> list[Event]:
    from rules.refusals import UnknownTable

    table = state.tables.get(cmd.table)
    if table is None or not table.seats:
        raise UnknownTable(table=cmd.table)
    seat, cards = buttons.initial_button(tuple(table.seats), rng)
    event = ButtonDrawn(at=now, table=cmd.table, seat=seat, cards=tuple(cards))
    _probe(state, event)
    return [event]


# Commands that become exactly one event, checked by the reducer's own rules.
_ONE_EVENT: dict[type[Command], Callable[[Any, float], Event]] = {
    RegisterPlayer: lambda c, now: PlayerRegistered(at=now, player_id=c.player_id,
                                                    name=c.name, cards=c.cards),
    CloseLateRegistration: lambda c, now: LateRegistrationClosed(at=now),
    RemoveFromWaitingList: lambda c, now: PlayerUnwaitlisted(at=now, player_id=c.player_id),
    RenamePlayer: lambda c, now: PlayerRenamed(at=now, player_id=c.player_id, name=c.name),
    MergePlayers: lambda c, now: PlayersMerged(at=now, keep=c.keep, keep_name=c.keep_name,
                                               merged=c.merged, name=c.name, cards=c.cards,
                                               created=c.created),
    PauseClock: lambda c, now: ClockPaused(at=now),
    ResumeClock: lambda c, now: ClockResumed(at=now),  # decided by _resume
    AdjustTime: lambda c, now: TimeAdjusted(at=now, seconds=c.seconds),
    MarkAbsent: lambda c, now: PlayerAbsent(at=now, player_id=c.player_id),
    MarkReturned: lambda c, now: PlayerReturned(at=now, player_id=c.player_id),
    CancelMove: lambda c, now: MoveCancelled(at=now, player_id=c.player_id),
    SetBreakOrder: lambda c, now: BreakOrderSet(at=now, tables=c.tables),
    StartHand: lambda c, now: HandStarted(at=now, table=c.table),
    SetHandForHand: lambda c, now: HandForHandSet(at=now, on=c.on),
    FinishHand: lambda c, now: HandFinished(at=now, table=c.table),
    CallClock: lambda c, now: ClockCalled(at=now, table=c.table, seat=c.seat),
    ListForSitAndGo: lambda c, now: SitAndGoListed(at=now, player_id=c.player_id),
    CloseTournament: lambda c, now: TournamentClosed(at=now),
    ReopenTournament: lambda c, now: TournamentReopened(at=now),
    ChooseTonight: lambda c, now: TonightChosen(at=now),
    StartSitAndGo: lambda c, now: SitAndGoStarted(at=now, sit_and_go_id=c.sit_and_go_id,
                                                  player_ids=c.player_ids),
}


def _one_event(state: Tournament, cmd: Command, now: float, rng: RandomSource) -> list[Event]:
    event = _ONE_EVENT[type(cmd)](cmd, now)
    _probe(state, event)
    return [event]


for _command in _ONE_EVENT:
    _DECIDERS.setdefault(_command, _one_event)


@_decides(Undo)
def _undo(state: Tournament, cmd: Undo, now: float, rng: RandomSource) -> list[Event]:
    # Whether the target exists is for the fold to say: it holds the log.
    return [ActionUndone(at=now, device_id=cmd.device_id, seq=cmd.seq)]


@_decides(UndoAction)
def _undo_action(state: Tournament, cmd: UndoAction, now: float,
                 rng: RandomSource) -> list[Event]:
    if not cmd.targets:
        raise NothingToUndo()
    return [ActionUndone(at=now, device_id=d, seq=s) for d, s in cmd.targets]


@_decides(StartNextSitAndGo)
def _start_next_sng(state: Tournament, cmd: StartNextSitAndGo, now: float,
                    rng: RandomSource) -> list[Event]:
    from rules.sitandgo_start import verify_next

    game = verify_next(state, tournament_id=cmd.tournament_id, time_of_day=cmd.time_of_day,
                       closing=cmd.closing, finished=cmd.finished)
    event = SitAndGoStarted(at=now, sit_and_go_id=game.sit_and_go_id, player_ids=game.players)
    _probe(state, event)
    return [event]
