"""Season standings and the season final (Q2).

Players are ranked by total points; ties go to the better best placing, then
the better second-best placing, and so on; a tie that still stands is broken
by a high-card draw, ace high. The draw is either made here with a passed-in
``RandomSource`` or entered as the cards the TD actually drew.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Final

from rules.errors import RulesError
from rules.records import RecordMethods, record
from rules.rng import RandomSource

__all__ = [
    "FINAL_SIZE",
    "BadDrawCard",
    "BadResult",
    "DrawNeeded",
    "Result",
    "Standing",
    "season_final",
    "standings",
]

#: Q2: the ten best on the standings are invited to the season final.
FINAL_SIZE: Final = 10

_RANKS: Final = "23456789TJQKA"  # ace high
_SUITS: Final = "cdhs"  # bridge order breaks equal ranks: spades highest


class BadResult(RulesError, ValueError):
    messages = {
        "nn": "Ugyldig resultat for {player} i {tournament}: {reason}",
        "nb": "Ugyldig resultat for {player} i {tournament}: {reason}",
        "da": "Ugyldigt resultat for {player} i {tournament}: {reason}",
        "en": "Invalid result for {player} in {tournament}: {reason}",
    }


class DrawNeeded(RulesError, LookupError):
    messages = {
        "nn": "Poenglikt mellom {players}: trekk eitt kort kvar, høgaste kort vinn (ess høgast)",
        "nb": "Poenglikt mellom {players}: trekk ett kort hver, høyeste kort vinner (ess høyest)",
        "da": "Pointlighed mellem {players}: træk et kort hver, højeste kort vinder (es er højest)",
        "en": "Tie between {players}: each draws a card, the highest wins (ace high)",
    }


class BadDrawCard(RulesError, ValueError):
    messages = {
        "nn": "Ugyldig kort i trekkinga: «{card}»",
        "nb": "Ugyldig kort i trekningen: «{card}»",
        "da": "Ugyldigt kort i lodtrækningen: «{card}»",
        "en": "Invalid card in the draw: '{card}'",
    }


@record
class Result(RecordMethods):
    """One player's official result in one tournament."""

    player_id: str
    tournament_id: str
    place: int
    points: int


@record
class Standing(RecordMethods):
    """One line of the standings; ``card`` is set when a draw decided the order."""

    rank: int
    player_id: str
    points: int
    placings: tuple[int, ...]
    card: str | None = None


def _card_key(card: str) -> tuple[int, int]:
    if len(card) != 2 or card[0].upper() not in _RANKS or card[1].lower() not in _SUITS:
        raise BadDrawCard(card=card)
    return _RANKS.index(card[0].upper()), _SUITS.index(card[1].lower())


def standings(
    results: Iterable[Result],
    draw: RandomSource | Mapping[str, str] | None = None,
) -> tuple[Standing, ...]:
    """Q2: the season standings, best first.

    ``draw`` settles ties that placings cannot: a ``RandomSource`` deals one
    card each from a shuffled deck, or a mapping gives the card each tied
    player drew (``"As"``, ``"Td"``...). Without it, such players share a rank.

    >>> rs = [Result("ann", "t1", 1, 21), Result("bo", "t1", 2, 18),
    ...       Result("bo", "t2", 3, 3), Result("ann", "t2", 9, 0),
    ...       Result("cy", "t1", 9, 14), Result("cy", "t2", 1, 7)]
    >>> [(s.rank, s.player_id, s.points, s.placings) for s in standings(rs)]
    [(1, 'ann', 21, (1, 9)), (1, 'cy', 21, (1, 9)), (3, 'bo', 21, (2, 3))]
    >>> [(s.rank, s.player_id, s.card) for s in standings(rs, {"ann": "Kh", "cy": "As"})]
    [(1, 'cy', 'As'), (2, 'ann', 'Kh'), (3, 'bo', None)]
    """
    totals: dict[str, int] = {}
    placings: dict[str, list[int]] = {}
    seen: set[tuple[str, str]] = set()
    for r in results:
        if (r.player_id, r.tournament_id) in seen:
            raise BadResult(player=r.player_id, tournament=r.tournament_id, reason="twice")
        if r.place < 1:
            raise BadResult(player=r.player_id, tournament=r.tournament_id, reason="place < 1")
        seen.add((r.player_id, r.tournament_id))
        totals[r.player_id] = totals.get(r.player_id, 0) + r.points
        placings.setdefault(r.player_id, []).append(r.place)
    if not totals:
        return ()

    # A missing placing is worse than any real one: (1, 5) loses to (1, 5, 9).
    worst = max(p for ps in placings.values() for p in ps) + 1
    longest = max(len(ps) for ps in placings.values())

    def key(player: str) -> tuple[int, tuple[int, ...]]:
        ps = sorted(placings[player])
        return -totals[player], tuple(ps + [worst] * (longest - len(ps)))

    ordered = sorted(totals, key=lambda p: (key(p), p))
    groups: list[list[str]] = []
    for player in ordered:
        if groups and key(groups[-1][0]) == key(player):
            groups[-1].append(player)
        else:
            groups.append([player])

    deck: list[str] = []
    if draw is not None and not isinstance(draw, Mapping):
        deck = [r + s for r in _RANKS for s in _SUITS]
        draw.shuffle(deck)

    lines: list[Standing] = []
    for group in groups:
        cards: dict[str, str] = {}
        if len(group) > 1 and draw is not None:
            if isinstance(draw, Mapping):
                missing = [p for p in group if p not in draw]
                if missing:
                    raise DrawNeeded(players=", ".join(group))
                cards = {p: draw[p] for p in group}
                if len({_card_key(c) for c in cards.values()}) != len(group):
                    raise BadDrawCard(card=", ".join(cards.values()))
            else:
                cards = {p: deck.pop() for p in group}
            group = sorted(group, key=lambda p: _card_key(cards[p]), reverse=True)
        first_rank = len(lines) + 1
        for i, player in enumerate(group):
            rank = first_rank + i if cards else first_rank
            lines.append(Standing(rank, player, totals[player], tuple(sorted(placings[player])),
                                  cards.get(player)))
    return tuple(lines)


def season_final(
    table: Iterable[Standing], present: Collection[str], size: int = FINAL_SIZE
) -> tuple[str, ...]:
    """Q2: the top ``size`` present players, filling up from further down the list.

    Raises :class:`DrawNeeded` when the last seat falls inside an unbroken tie.

    >>> rs = [Result(p, "t1", i, 30 - i) for i, p in enumerate("abcdefghijkl", 1)]
    >>> season_final(standings(rs), present=set("abcdefghijkl") - {"c"})
    ('a', 'b', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k')
    """
    here = [s for s in table if s.player_id in present]
    if len(here) > size and here[size - 1].rank == here[size].rank:
        tied = [s.player_id for s in here if s.rank == here[size].rank]
        raise DrawNeeded(players=", ".join(tied))
    return tuple(s.player_id for s in here[:size])
