"""A card on a reader (or typed by a keyboard-wedge reader): check-in, bust, a move.

The log says whose card it is (``state.by_card``), so a table device needs
no player list; the TD's desk also knows the venue's players, and asks for a
name for a card nobody owns. A payment card is refused and never stored.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hardware.inputs import CardRead
from kiosk.controls.device import Device, Mode
from kiosk.controls.effects import Effect, Submit
from kiosk.controls.messages import Say
from kiosk.role import Role
from kiosk.station import Outcome
from kiosk.store import CardMatch, CardResult, RefusedCard, normalise_uid
from rules.commands import BustPlayers, CheckIn, ConfirmMove

__all__ = ["DeskCard", "bust", "card", "check_in", "pick_seat"]

#: What a card means at this desk before the usual check-in (the night's: a busted
#: player's card lists them for a Sit & Go, a new card asks for a name), given the
#: card and who owns it; None leaves the card to :func:`card`.
DeskCard = Callable[[CardRead, CardResult], Sequence[Effect] | None]


def card(ctl: Device, read: CardRead, desk: DeskCard | None = None) -> Sequence[Effect]:
    # Looked up once: the desk's answer and the check-in read the same owner.
    found = ctl.station.store.players.lookup_card(read.uid)
    taken = desk(read, found) if desk is not None else None
    if taken is not None:
        return taken
    if isinstance(found, RefusedCard):
        return [Say("payment-card")]
    uid = normalise_uid(read.uid)
    entrant = ctl.station.state.by_card(uid) if uid else None
    table = Role.TABLE in ctl.roles
    if entrant is not None and table:
        said = _table_card(ctl, entrant.player_id, entrant.name)
        if said is not None:
            return said
    if not isinstance(found, CardMatch):
        if ctl.td:
            ctl.unnamed_card = read.uid
            return [Say("new-card", popup=True)]
        return [Say("unknown-card")]
    player = found.player
    if table:
        said = _table_card(ctl, player.id, player.name)
        if said is not None:
            return said
    if ctl.td:
        return check_in(ctl, player.id, player.name, player.cards)
    return [Say("unknown-card")]


def _table_card(ctl: Device, player_id: str, name: str) -> list[Effect] | None:
    state = ctl.station.state
    if ctl.mode is Mode.BUST:
        ctl.mode = Mode.IDLE
        entry = state.players.get(player_id)
        if entry is not None and entry.place is not None:
            return [Say("already-out", {"name": entry.name, "place": entry.place})]
        if entry is None or entry.seat is None or entry.seat.table != ctl.table:
            return [Say("not-here", {"name": name})]
        return bust(ctl, player_id)
    move = state.moves.get(player_id)
    if move is not None and move.target.table == ctl.table:
        return [Submit(ConfirmMove(player_id), ok=(Say("moved", {
            "name": name, "table": move.target.table, "seat": move.target.seat}),))]
    return None


def bust(ctl: Device, player_id: str) -> list[Effect]:
    name = ctl.station.state.players[player_id].name
    return [Submit(BustPlayers((player_id,), table=ctl.table), ok=(Say("busted", {"name": name}),))]


def pick_seat(ctl: Device, step: int) -> list[Effect]:
    seats = sorted(ctl.my_seats())
    if not seats:
        return []
    if ctl.selected_seat not in seats:
        ctl.selected_seat = seats[0] if step > 0 else seats[-1]
    else:
        index = seats.index(ctl.selected_seat)
        ctl.selected_seat = seats[(index + step) % len(seats)]
    player = ctl.my_seats()[ctl.selected_seat]
    name = ctl.station.state.players[player].name
    return [Say("bust-seat", {"seat": ctl.selected_seat, "name": name})]


def check_in(ctl: Device, player_id: str, name: str, cards: tuple[str, ...] = ()
             ) -> list[Effect]:
    """Check a player in; a second tap shows the seat again and adds nothing."""
    entry = ctl.station.state.players.get(player_id)
    if entry is not None and entry.checked_in and entry.seat is not None:
        return [Say("already-in", {"name": entry.name, "table": entry.seat.table,
                                   "seat": entry.seat.seat}, popup=True)]
    if entry is not None and entry.checked_in and entry.place is None:
        return [Say("already-checked-in", {"name": entry.name}, popup=True)]
    from rules.waitlist import place

    def seated(outcome: Outcome) -> list[Effect]:
        waiting = place(ctl.station.state, player_id)
        if waiting is not None:
            return [Say("waitlisted", {"name": name, "place": waiting}, popup=True)]
        # The room tells every check-in, this desk's, a peer's or the terminal's
        # (kiosk/display/room.py): words of our own would be a second pop-up,
        # replaced by the room's before it is drawn (issue 50).
        return []

    return [Submit(CheckIn(player_id, name, cards), then=seated)]
