"""The venue's players and their cards, kept from one night to the next.

A card read at check-in is looked up here. An unknown card gives an
:class:`UnknownCard` result, and a bank card a :class:`RefusedCard`, never an
exception: a reader in the TD's hand must not crash the kiosk. Payment card
numbers are refused before they reach the database (see :mod:`.cards`).
"""

from __future__ import annotations

import io
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import ClassVar, Literal

from kiosk.store.cards import contains_pan, normalise_uid
from kiosk.store.errors import (
    BadCard,
    CardInUse,
    DuplicatePlayer,
    EmptyName,
    PaymentCardRefused,
    PlayerHasResults,
    UnknownPlayer,
)
from kiosk.store.tx import retry_when_full, transaction
from rules.errors import RulesError
from rules.i18n import DEFAULT_LANGUAGE
from rules.name_match import NameMatch, match_name
from rules.names import PLAYER_NAME_MAX, AmbiguousPlayer, clean_name, pick_by_name
from rules.names import name_key as _key
from rules.records import RecordMethods, record

__all__ = [
    "CardMatch",
    "CardResult",
    "ImportReport",
    "LineError",
    "Player",
    "Players",
    "RefusedCard",
    "UnknownCard",
    "clean_uid",
    "name_key",
]


@record
class Player(RecordMethods):
    """A venue's player: id, name and cards."""

    id: str
    name: str
    cards: tuple[str, ...]
    created: str


@record
class CardMatch(RecordMethods):
    """A tapped card that belongs to a player."""

    player: Player
    ok: ClassVar[bool] = True


@record
class UnknownCard(RecordMethods):
    """A card no player has: check-in shows this and offers to link it."""

    uid: str
    ok: ClassVar[bool] = False
    messages: ClassVar[dict[str, str]] = {
        "nn": "Ukjend kort {uid}",
        "nb": "Ukjent kort {uid}",
        "da": "Ukendt kort {uid}",
        "en": "Unknown card {uid}",
    }

    def translate(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return (self.messages.get(lang) or self.messages["en"]).format(uid=self.uid)


@record
class RefusedCard(RecordMethods):
    """A payment card was read; its number is already forgotten."""

    ok: ClassVar[bool] = False

    def translate(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return PaymentCardRefused().translate(lang)


CardResult = CardMatch | UnknownCard | RefusedCard


@record
class LineError(RecordMethods):
    """One line of a players import that was not taken, and why."""

    line: int
    error: RulesError

    _WORD: ClassVar[dict[str, str]] = {"nn": "Linje", "nb": "Linje", "da": "Linje", "en": "Line"}

    def translate(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return f"{self._WORD.get(lang, 'Line')} {self.line}: {self.error.translate(lang)}"


@dataclass
class ImportReport:
    """What a players import added, linked and refused."""

    added: list[str] = field(default_factory=list)
    #: Players already known who were given a card.
    linked: list[str] = field(default_factory=list)
    #: Every card the import linked, to a new player or a known one.
    cards: list[str] = field(default_factory=list)
    unchanged: int = 0
    errors: list[LineError] = field(default_factory=list)


def name_key(name: str) -> str:
    """How two names are compared: case and spacing do not count.

    >>> name_key("  Kari   NORDMANN ") == name_key("kari nordmann")
    True
    """
    return _key(name)


def _clean_name(name: str) -> str:
    # A card swiped into the name field first: the other refusals quote the name.
    if contains_pan(name):
        raise PaymentCardRefused()
    # The same limits as the rules core's, so a name the list takes can check in.
    cleaned = clean_name(name, PLAYER_NAME_MAX)
    if not cleaned:
        raise EmptyName()
    return cleaned


def clean_uid(raw: str) -> str:
    """The stored spelling of a tag UID; refuses bank cards without echoing them."""
    if contains_pan(raw):
        raise PaymentCardRefused()
    uid = normalise_uid(raw)
    if uid is None:
        # Only a short, harmless excerpt goes into the message.
        raise BadCard(uid=raw.strip()[:12])
    return uid


_HEADER_NAME = {"name", "namn", "navn", "spelar", "spiller"}
_HEADER_CARD = {"card", "kort", "uid", "card_uid", "kortnummer"}


class Players:
    """The ``players`` and ``cards`` tables of an open store."""

    def __init__(self, conn: sqlite3.Connection, *, wall: Callable[[], float] = time.time,
                 # 48 random bits, as the first 12 hex digits of a uuid4 (uuid costs an
                 # import of platform on every CLI command).
                 new_id: Callable[[], str] = lambda: os.urandom(6).hex()) -> None:
        self.conn = conn
        self._wall = wall
        self._new_id = new_id

    def _now(self) -> str:
        return datetime.fromtimestamp(self._wall()).isoformat(timespec="seconds")

    # --- reading ------------------------------------------------------------

    def list(self) -> list[Player]:
        cards: dict[str, list[str]] = {}
        for uid, player_id in self.conn.execute(
                "SELECT uid, player_id FROM cards ORDER BY linked, uid"):
            cards.setdefault(player_id, []).append(uid)
        return [Player(pid, name, tuple(cards.get(pid, ())), created)
                for pid, name, created in self.conn.execute(
                    "SELECT id, name, created FROM players ORDER BY name_key")]

    def find(self, name_or_id: str) -> Player | None:
        row = self.conn.execute(
            "SELECT id, name, created FROM players WHERE id = ? OR name_key = ?"
            " ORDER BY id = ? DESC LIMIT 1",
            (name_or_id, name_key(name_or_id), name_or_id)).fetchone()
        if row is None:
            return None
        cards = tuple(r[0] for r in self.conn.execute(
            "SELECT uid FROM cards WHERE player_id = ? ORDER BY linked, uid", (row[0],)))
        return Player(row[0], row[1], cards, row[2])

    def get(self, name_or_id: str) -> Player:
        player = self.find(name_or_id)
        if player is None:
            raise UnknownPlayer(name=name_or_id)
        return player

    def match(self, typed: str) -> Player | None:
        """The player the TD means by ``typed``: an id, else as
        :func:`rules.names.pick_by_name` finds a name (exact, any case, a unique
        start); :class:`~rules.names.AmbiguousPlayer` lists several."""
        found = self.find(typed)
        if found is not None:
            return found
        named = self.conn.execute("SELECT id, name FROM players ORDER BY name_key").fetchall()
        player_id = pick_by_name(typed, named, ambiguous=AmbiguousPlayer)
        return None if player_id is None else self.get(player_id)

    def checkin_match(self, typed: str) -> NameMatch[str]:
        """Who a name typed at check-in is (N2): an id, or the name as
        :func:`rules.name_match.match_name` finds it; else the players it is near.
        Never a unique start, unlike :meth:`match`: "Ola" is not "Ola Nordmann".

        A name no player could have (too long, a card number) is refused first,
        in the words :meth:`add` uses, so a refusal never quotes a card back."""
        typed = _clean_name(typed)
        found = self.find(typed)
        if found is not None:
            return NameMatch(found.id)
        named = self.conn.execute("SELECT id, name FROM players ORDER BY name_key").fetchall()
        return match_name(typed, named)

    def lookup(self, typed: str) -> Player:
        """:meth:`match`, refusing a name that fits nobody."""
        player = self.match(typed)
        if player is None:
            raise UnknownPlayer(name=typed)
        return player

    def has_results(self, player_id: str) -> bool:
        """Whether a recorded tournament placed this player (their row counts in standings)."""
        return self.conn.execute("SELECT 1 FROM results WHERE player_id = ? LIMIT 1",
                                 (player_id,)).fetchone() is not None

    def lookup_card(self, raw: str) -> CardResult:
        """Who owns the card just read. Never raises for what a reader may send."""
        if contains_pan(raw):
            return RefusedCard()
        uid = normalise_uid(raw)
        if uid is None:
            return UnknownCard(raw.strip()[:12])
        row = self.conn.execute("SELECT player_id FROM cards WHERE uid = ?", (uid,)).fetchone()
        if row is None:
            return UnknownCard(uid)
        return CardMatch(self.get(row[0]))

    # --- writing ------------------------------------------------------------

    @retry_when_full
    def add(self, name: str, card: str | None = None) -> Player:
        """A new player, optionally with a card; refuses a taken name or card."""
        with transaction(self.conn):
            player_id = self._add(name)
            if card:
                self._link(player_id, card)
        return self.get(player_id)

    @retry_when_full
    def rename(self, name_or_id: str, new_name: str) -> Player:
        """Give a player (a guest, say) their own name; refuses a name in use."""
        player = self.get(name_or_id)
        cleaned = _clean_name(new_name)
        other = self.find(cleaned)
        if other is not None and other.id != player.id:
            raise DuplicatePlayer(name=cleaned)
        with transaction(self.conn):
            self.conn.execute("UPDATE players SET name = ?, name_key = ? WHERE id = ?",
                              (cleaned, name_key(cleaned), player.id))
        return self.get(player.id)

    @retry_when_full
    def link_card(self, name_or_id: str, card: str) -> Player:
        """Give a player a card (a player may have several; a card has one owner).

        A bank card is refused before the name is looked at, so it is refused
        the same whoever it was meant for.
        """
        clean_uid(card)
        player = self.get(name_or_id)
        with transaction(self.conn):
            self._link(player.id, card)
        return self.get(player.id)

    @retry_when_full
    def remove(self, player_id: str) -> Player:
        """Take a player off the venue's list, their cards with them.

        Refused for a player with results: the standings name them, and a
        season's table must not lose a row because the list was tidied.
        """
        player = self.get(player_id)
        with transaction(self.conn):
            if self.has_results(player.id):
                raise PlayerHasResults(name=player.name)
            self.conn.execute("DELETE FROM cards WHERE player_id = ?", (player.id,))
            self.conn.execute("DELETE FROM players WHERE id = ?", (player.id,))
        return player

    @retry_when_full
    def import_csv(self, source: str | Path) -> ImportReport:
        """Import ``name,card`` rows; good lines are kept, each bad one is reported.

        ``source`` is a path or the CSV text. A header row is optional;
        semicolon-separated files (as Excel writes them here) work too.
        """
        import csv  # here: only an import needs it

        text = (Path(source).read_text(encoding="utf-8-sig") if isinstance(source, Path)
                else source.removeprefix("\ufeff"))
        report = ImportReport()
        first = text.splitlines()[0] if text.strip() else ""
        delimiter = ";" if ";" in first and "," not in first else (
            "\t" if "\t" in first and "," not in first else ",")
        name_col, card_col = 0, 1
        with transaction(self.conn):
            for number, cells in enumerate(csv.reader(io.StringIO(text), delimiter=delimiter), 1):
                cells = [c.strip() for c in cells]
                if not any(cells):
                    continue
                lowered = [c.casefold() for c in cells]
                if number == 1 and lowered[0] in _HEADER_NAME:
                    name_col = 0
                    card_col = next((i for i, c in enumerate(lowered) if c in _HEADER_CARD), -1)
                    continue
                name = cells[name_col] if name_col < len(cells) else ""
                card = cells[card_col] if 0 <= card_col < len(cells) else ""
                # A bad line leaves nothing behind: not even the player of a
                # line whose card was refused.
                self.conn.execute("SAVEPOINT line")
                try:
                    outcome, linked_uid = self._import_line(name, card)
                except RulesError as err:  # the store's refusals and the names rules'
                    self.conn.execute("ROLLBACK TO line")
                    report.errors.append(LineError(number, err))
                else:
                    if linked_uid is not None:
                        report.cards.append(linked_uid)
                    if outcome == "added":
                        report.added.append(_clean_name(name))
                    elif outcome == "linked":
                        report.linked.append(self.get(_clean_name(name)).name)
                    else:
                        report.unchanged += 1
                self.conn.execute("RELEASE line")
        return report

    def _import_line(self, name: str, card: str
                     ) -> tuple[Literal["added", "linked", "unchanged"], str | None]:
        """What the line did to its player, and the card it linked (None: none)."""
        uid = clean_uid(card) if card else None
        cleaned = _clean_name(name)
        existing = self.find(cleaned)
        player_id = existing.id if existing is not None else self._add(cleaned)
        linked = False
        if uid is not None and self._owner(uid) != player_id:
            self._link(player_id, uid)
            linked = True
        linked_uid = uid if linked else None
        if existing is None:
            return "added", linked_uid
        return ("linked" if linked else "unchanged"), linked_uid

    def _add(self, name: str) -> str:
        cleaned = _clean_name(name)
        if self.find(cleaned) is not None:
            raise DuplicatePlayer(name=cleaned)
        player_id = self._new_id()
        self.conn.execute(
            "INSERT INTO players (id, name, name_key, created) VALUES (?, ?, ?, ?)",
            (player_id, cleaned, name_key(cleaned), self._now()))
        return player_id

    def _owner(self, uid: str) -> str | None:
        row = self.conn.execute("SELECT player_id FROM cards WHERE uid = ?", (uid,)).fetchone()
        return None if row is None else str(row[0])

    def _link(self, player_id: str, card: str) -> None:
        uid = clean_uid(card)
        owner = self._owner(uid)
        if owner == player_id:
            return
        if owner is not None:
            raise CardInUse(uid=uid, owner=self.get(owner).name)
        self.conn.execute("INSERT INTO cards (uid, player_id, linked) VALUES (?, ?, ?)",
                          (uid, player_id, self._now()))

