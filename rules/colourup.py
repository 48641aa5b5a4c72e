"""Colour-up: taking a small denomination out of play (K1).

The pubpoker house rule (:func:`colour_up`) exchanges each player's removed
chips at face value and rounds the remainder UP to the smallest chip still in
play, so nobody can bust through a colour-up. The TDA chip race
(:func:`chip_race`) is the alternative for houses that set
``ColourUpMethod.CHIP_RACE``. :func:`colour_up_notices` and
:func:`announcement` tell the room ahead of time.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from math import gcd
from typing import Final

from rules.chips import BadDenomination, ChipSet, colour_name, make_change
from rules.errors import RulesError
from rules.house import ColourUpMethod
from rules.i18n import DEFAULT_LANGUAGE, format_int
from rules.records import RecordMethods, record
from rules.rng import RandomSource

__all__ = [
    "BadColourUp",
    "ChipRace",
    "ColourUpNotice",
    "ColourUpResult",
    "RaceTooLarge",
    "announcement",
    "chip_race",
    "colour_up",
    "colour_up_notices",
    "colour_up_table",
]


class BadColourUp(RulesError, ValueError):
    messages = {
        "nn": "Ugyldig fargebyte: {reason}",
        "nb": "Ugyldig fargebytte: {reason}",
        "da": "Ugyldigt farveskift: {reason}",
        "en": "Invalid colour-up: {reason}",
    }


class RaceTooLarge(RulesError, ValueError):
    messages = {
        "nn": "Chip race treng {cards} kort, men kortstokken har 52. Byt i to omgangar.",
        "nb": "Chip race trenger {cards} kort, men kortstokken har 52. Bytt i to omganger.",
        "da": "Chip race kræver {cards} kort, men kortspillet har 52. Skift i to omgange.",
        "en": "The chip race needs {cards} cards but the deck has 52. Colour up in two steps.",
    }


@record
class ColourUpResult(RecordMethods):
    """What one player hands in and gets back.

    ``chips`` are ``(value, count)`` pairs, largest first.
    """

    removed: tuple[int, ...]
    amount_in: int
    amount_out: int
    chips: tuple[tuple[int, int], ...]

    @property
    def gained(self) -> int:
        """Value added by rounding up or by winning the race (negative if lost)."""
        return self.amount_out - self.amount_in


def _checked(
    removed: int | Collection[int], remaining: Collection[int]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    gone = (removed,) if isinstance(removed, int) else tuple(sorted({*removed}))
    left = tuple(sorted({*remaining}))
    for value in (*gone, *left):
        if value <= 0:
            raise BadDenomination(value=value)
    if not gone:
        raise BadColourUp(reason="no denomination to remove")
    if not left:
        raise BadColourUp(reason="no denomination left in play")
    if set(gone) & set(left):
        raise BadColourUp(reason="a removed denomination is still in play")
    return gone, left


def _verify_amount(amount: int, gone: tuple[int, ...]) -> None:
    step = 0
    for value in gone:
        step = gcd(step, value)
    if amount < 0 or amount % step:
        raise BadColourUp(reason=f"{amount} cannot be held in {gone} chips")


def colour_up(
    amount_in_removed: int, removed: int | Collection[int], remaining: Collection[int]
) -> ColourUpResult:
    """K1, pubpoker: exchange one player's removed chips, rounding the rest UP.

    ``amount_in_removed`` is the total value of the player's chips of the
    removed denomination(s); several may go at one break (pass them all).

    >>> r = colour_up(1200, 100, (500, 1000, 5000))
    >>> r.amount_out, r.chips
    (1500, ((1000, 1), (500, 1)))
    >>> colour_up(1000, 100, (500, 1000)).amount_out   # exact: unchanged
    1000
    >>> colour_up(100, 100, (500, 1000)).amount_out    # nobody busts
    500
    >>> colour_up(700, (100, 200), (500, 1000)).amount_out
    1000
    """
    gone, left = _checked(removed, remaining)
    _verify_amount(amount_in_removed, gone)
    smallest = left[0]
    # Whole amounts at face value, and any remainder up to one smallest chip:
    # together that is the next multiple of the smallest chip.
    amount_out = -(-amount_in_removed // smallest) * smallest
    return ColourUpResult(gone, amount_in_removed, amount_out, make_change(amount_out, left))


# A deck for the race's card draw, in a fixed order so a seed replays exactly.
_RANKS: Final = "23456789TJQKA"
_SUITS: Final = "cdhs"  # bridge order, clubs lowest: breaks ties between equal ranks


def _card_key(card: str) -> tuple[int, int]:
    return _RANKS.index(card[0]), _SUITS.index(card[1])


@record
class ChipRace(RecordMethods):
    """The outcome of a TDA chip race at one table.

    ``cards`` is the deal, in order: ``(player_id, card)`` such as ``"As"``.
    ``winners`` got a raced chip; ``protected`` got one chip so as not to be
    raced out.
    """

    results: tuple[tuple[str, ColourUpResult], ...]
    cards: tuple[tuple[str, str], ...]
    chips_raced: int
    winners: tuple[str, ...]
    protected: tuple[str, ...]

    def as_dict(self) -> dict[str, ColourUpResult]:
        return dict(self.results)


def chip_race(
    removed_values: Mapping[str, int],
    removed: int | Collection[int],
    remaining: Collection[int],
    rng: RandomSource,
    *,
    kept: Mapping[str, int] | None = None,
) -> ChipRace:
    """K1 alternative, TDA chip race: whole amounts exchange, odd chips are raced.

    ``removed_values`` maps each player, in seat order from seat 1 (the deal
    order), to the value of their removed chips; ``kept`` is the value of the
    chips they keep (a player missing there is taken to have none). Odd chips
    are pooled into chips of the smallest remaining value, rounding a half or
    more up; each odd chip gets a card, the highest cards (ace high, then
    spades, hearts, diamonds, clubs) win one chip each, at most one per player;
    a player left with nothing gets one smallest chip.

    >>> import random
    >>> race = chip_race({"ann": 300, "bo": 300, "cy": 1100}, 100, (500,), random.Random(7),
    ...                  kept={"ann": 5000, "bo": 0, "cy": 2000})
    >>> race.chips_raced, len(race.cards)
    (1, 7)
    >>> race.as_dict()["cy"].amount_out >= 1000, race.as_dict()["bo"].amount_out
    (True, 500)
    """
    gone, left = _checked(removed, remaining)
    new = left[0]
    step = 0
    for value in gone:
        step = gcd(step, value)
    if new % step:
        raise BadColourUp(reason=f"{new} is not a whole number of {gone} chips")
    kept = kept or {}

    whole: dict[str, int] = {}
    odd_chips: dict[str, int] = {}
    for player, value in removed_values.items():
        _verify_amount(value, gone)
        whole[player] = value - value % new
        odd = value % new
        odd_chips[player] = sum(n for _, n in make_change(odd, gone)) if odd else 0

    total_odd = sum(v % new for v in removed_values.values())
    raced, rest = divmod(total_odd, new)
    if 2 * rest >= new:  # half a new chip or more is worth one more chip
        raced += 1

    needed = sum(odd_chips.values())
    if needed > len(_RANKS) * len(_SUITS):
        raise RaceTooLarge(cards=needed)
    deck = [r + s for r in _RANKS for s in _SUITS]
    rng.shuffle(deck)
    # Each player gets all their cards before the next player, from seat 1.
    cards: list[tuple[str, str]] = []
    for player, count in odd_chips.items():
        for _ in range(count):
            cards.append((player, deck.pop()))

    winners: list[str] = []
    for player, _card in sorted(cards, key=lambda pc: _card_key(pc[1]), reverse=True):
        if len(winners) == raced:
            break
        if player not in winners:
            winners.append(player)

    protected: list[str] = []
    results: list[tuple[str, ColourUpResult]] = []
    for player, value in removed_values.items():
        out = whole[player] + (new if player in winners else 0)
        if out == 0 and value > 0 and kept.get(player, 0) <= 0:
            protected.append(player)
            out = new
        results.append((player, ColourUpResult(gone, value, out, make_change(out, left))))
    return ChipRace(tuple(results), tuple(cards), raced, tuple(winners), tuple(protected))


def colour_up_table(
    removed_values: Mapping[str, int],
    removed: int | Collection[int],
    remaining: Collection[int],
    *,
    method: ColourUpMethod = ColourUpMethod.ROUND_UP,
    rng: RandomSource | None = None,
    kept: Mapping[str, int] | None = None,
) -> dict[str, ColourUpResult]:
    """A whole table's colour-up by the house's method (``HouseRules.colour_up``).

    >>> colour_up_table({"ann": 1200, "bo": 0}, 100, (500, 1000))["ann"].amount_out
    1500
    """
    if method is ColourUpMethod.CHIP_RACE:
        if rng is None:
            raise TypeError("a chip race needs an rng for the card draw")
        return chip_race(removed_values, removed, remaining, rng, kept=kept).as_dict()
    return {p: colour_up(v, removed, remaining) for p, v in removed_values.items()}


_ANNOUNCEMENT: Final = {
    "nn": "Fargebyte i pausen: {removed}-sjetongane{colours} blir fjerna. "
          "Minste sjetong etter pausen: {smallest}.",
    "nb": "Fargebytte i pausen: {removed}-sjetongene{colours} blir fjernet. "
          "Minste sjetong etter pausen: {smallest}.",
    "da": "Farveskift i pausen: {removed}-jetonerne{colours} bliver fjernet. "
          "Mindste jeton efter pausen: {smallest}.",
    "en": "Colour-up at the break: the {removed} chips{colours} are removed. "
          "Smallest chip after the break: {smallest}.",
}
_AND: Final = {"nn": "og", "nb": "og", "da": "og", "en": "and"}


def announcement(
    removed: int | Collection[int],
    remaining: Collection[int],
    lang: str = DEFAULT_LANGUAGE,
    chipset: ChipSet | None = None,
) -> str:
    """The notice for the screen, shown before the break in which chips go.

    With a ``chipset`` the colours are named too, so the notice is carried
    neither by colour alone on the screen nor by number alone in the room.

    >>> announcement(100, (500, 1000))
    'Fargebyte i pausen: 100-sjetongane blir fjerna. Minste sjetong etter pausen: 500.'
    >>> announcement((100, 200), (500, 1000, 5000), "da")
    'Farveskift i pausen: 100- og 200-jetonerne bliver fjernet. Mindste jeton efter pausen: 500.'
    >>> from rules.chips import PF_POKERKLUB_CHIPS
    >>> print(announcement((100, 200), (500, 1000), "en", PF_POKERKLUB_CHIPS))
    ... # doctest: +NORMALIZE_WHITESPACE
    Colour-up at the break: the 100 and 200 chips (green, red) are removed.
    Smallest chip after the break: 500 (blue).
    """
    gone, left = _checked(removed, remaining)
    lang = lang if lang in _ANNOUNCEMENT else "en"
    numbers = [format_int(v, lang) for v in gone]
    # "100- og 200-sjetongane" in the Scandinavian languages, "100 and 200" in English.
    dash = "" if lang == "en" else "-"
    joined = numbers[-1]
    if len(numbers) > 1:
        head = f"{dash}, ".join(numbers[:-1])
        joined = f"{head}{dash} {_AND[lang]} {numbers[-1]}"
    colours, smallest = "", format_int(left[0], lang)
    if chipset is not None:
        names = [colour_name(chipset.colour(v), lang) for v in gone if v in chipset.denominations]
        colours = f" ({', '.join(names)})" if names else ""
        if left[0] in chipset.denominations:
            smallest += f" ({colour_name(chipset.colour(left[0]), lang)})"
    return _ANNOUNCEMENT[lang].format(removed=joined, colours=colours, smallest=smallest)


@record
class ColourUpNotice(RecordMethods):
    """Which chips go at which break, and from when the screen announces it.

    Indexes are positions in a structure's ``periods``. The notice shows from
    ``announce_from`` (the break before, or the start) through the colour-up
    break itself.

    >>> n = ColourUpNotice(break_index=8, removed=(100, 200), remaining=(500, 1000, 5000),
    ...                    announce_from=5)
    >>> n.is_due(4), n.is_due(5), n.is_due(8), n.is_due(9)
    (False, True, True, False)
    """

    break_index: int
    removed: tuple[int, ...]
    remaining: tuple[int, ...]
    announce_from: int

    def is_due(self, period_index: int) -> bool:
        return self.announce_from <= period_index <= self.break_index

    def text(self, lang: str = DEFAULT_LANGUAGE, chipset: ChipSet | None = None) -> str:
        return announcement(self.removed, self.remaining, lang, chipset)


def colour_up_notices(
    periods: Sequence[object], denominations: Collection[int]
) -> tuple[ColourUpNotice, ...]:
    """Notices for every break of a structure whose ``colour_up`` removes chips.

    ``periods`` are a structure's levels and breaks; anything with a
    non-empty ``colour_up`` tuple is a colour-up break. ``denominations`` are
    the chips in play at the start.

    >>> from rules.structure import Break, Level
    >>> periods = [Level(100, 200), Break(600), Level(200, 400), Break(600, colour_up=(100,))]
    >>> [(n.break_index, n.removed, n.remaining, n.announce_from)
    ...  for n in colour_up_notices(periods, (100, 500, 1000))]
    [(3, (100,), (500, 1000), 1)]
    """
    in_play = set(denominations)
    notices: list[ColourUpNotice] = []
    last_break = 0
    for index, period in enumerate(periods):
        removed = tuple(sorted(getattr(period, "colour_up", ()) or ()))
        if removed:
            in_play -= set(removed)
            notices.append(ColourUpNotice(index, removed, tuple(sorted(in_play)), last_break))
        if hasattr(period, "colour_up"):
            last_break = index
    return tuple(notices)
