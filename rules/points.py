"""League points for a finishing place (Q1, Q3).

Points depend on the finishing place and the number of entrants, and on
nothing else: a private deal (Q3) never changes them. Other leagues describe
their scheme as data, a :class:`PointsTable`, which is validated and never
evaluated as code.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from rules.codec import CodecError, from_jsonable, to_jsonable
from rules.errors import RulesError
from rules.house import PointsScheme
from rules.records import RecordMethods, record

__all__ = [
    "MAX_ENTRANTS",
    "PF_POKERKLUB_BASE",
    "BadEntrants",
    "BadPlace",
    "BadPointsTable",
    "Deal",
    "NegativePoints",
    "NoPointsTable",
    "PointsTable",
    "TooManyEntrants",
    "award",
    "group_points",
    "points",
    "points_table",
]

#: Q1: pf-pokerklub's base points for places 1 to 10.
PF_POKERKLUB_BASE: Final = (15, 12, 10, 8, 7, 6, 5, 4, 3, 2)


class BadEntrants(RulesError, ValueError):
    messages = {
        "nn": "Talet på påmelde må vere minst 1, ikkje {entrants}",
        "nb": "Antall påmeldte må være minst 1, ikke {entrants}",
        "da": "Antallet tilmeldte skal være mindst 1, ikke {entrants}",
        "en": "The number of entrants must be at least 1, not {entrants}",
    }


#: The longest points table printed: a league's biggest night is a few hundred
#: entrants (15 tables of 11 is 165 seats); a table of N rows costs memory in N,
#: and 99 999 999 999 rows would never finish.
MAX_ENTRANTS: Final = 10_000


class TooManyEntrants(RulesError, ValueError):
    messages = {
        "nn": "Ein poengtabell går opp til {limit} påmelde, ikkje {entrants}",
        "nb": "En poengtabell går opp til {limit} påmeldte, ikke {entrants}",
        "da": "En pointtabel går op til {limit} tilmeldte, ikke {entrants}",
        "en": "A points table goes up to {limit} entrants, not {entrants}",
    }


class BadPlace(RulesError, ValueError):
    messages = {
        "nn": "Plass {place} finst ikkje med {entrants} påmelde",
        "nb": "Plass {place} finnes ikke med {entrants} påmeldte",
        "da": "Plads {place} findes ikke med {entrants} tilmeldte",
        "en": "Place {place} does not exist with {entrants} entrants",
    }


class NegativePoints(RulesError, ValueError):
    messages = {
        "nn": "Poengtabellen kan ikkje ha negative tal ({field}: {value})",
        "nb": "Poengtabellen kan ikke ha negative tall ({field}: {value})",
        "da": "Pointtabellen må ikke have negative tal ({field}: {value})",
        "en": "The points table cannot hold negative numbers ({field}: {value})",
    }


class BadPointsTable(RulesError, ValueError):
    messages = {
        "nn": "Ugyldig poengtabell: {reason}",
        "nb": "Ugyldig poengtabell: {reason}",
        "da": "Ugyldig pointtabel: {reason}",
        "en": "Invalid points table: {reason}",
    }


class NoPointsTable(RulesError, LookupError):
    messages = {
        "nn": "Poengskjemaet «table» treng ein poengtabell",
        "nb": "Poengskjemaet «table» trenger en poengtabell",
        "da": "Pointskemaet «table» kræver en pointtabel",
        "en": "The 'table' points scheme needs a points table",
    }


@record
class PointsTable(RecordMethods):
    """A league's scheme as plain data (``PointsScheme.TABLE``).

    Place ``p`` gets ``per_place[p - 1]``, or ``default`` beyond the table.
    With ``bonus_per`` > 0, the top ``bonus_places`` also get one point per
    ``bonus_per`` entrants, rounded up.

    >>> t = PointsTable(per_place=(10, 6, 4), default=1, bonus_per=20, bonus_places=3)
    >>> t.points(1, 41), t.points(3, 41), t.points(4, 41)
    (13, 7, 1)
    >>> PointsTable.from_dict(t.to_dict()) == t
    True
    >>> PointsTable(per_place=(5, -1))
    Traceback (most recent call last):
    ...
    rules.points.NegativePoints: The points table cannot hold negative numbers (per_place: -1)
    """

    per_place: tuple[int, ...]
    default: int = 0
    bonus_per: int = 0
    bonus_places: int = 0

    def __post_init__(self) -> None:
        for field, value in (
            *(("per_place", v) for v in self.per_place),
            ("default", self.default),
            ("bonus_per", self.bonus_per),
            ("bonus_places", self.bonus_places),
        ):
            # bool is an int in Python, but True points are a mistake in the data.
            if not isinstance(value, int) or isinstance(value, bool):
                raise BadPointsTable(reason=f"{field} must hold whole numbers")
            if value < 0:
                raise NegativePoints(field=field, value=value)

    def points(self, place: int, entrants: int) -> int:
        _verify_place(place, entrants)
        base = self.per_place[place - 1] if place <= len(self.per_place) else self.default
        if self.bonus_per and place <= self.bonus_places:
            base += -(-entrants // self.bonus_per)
        return base

    def to_dict(self) -> dict[str, Any]:
        return dict(to_jsonable(self))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PointsTable:
        """Build from parsed JSON or TOML, with a translated error for bad data."""
        try:
            return from_jsonable(cls, dict(data))
        except CodecError as err:
            raise BadPointsTable(reason=str(err)) from None


def _verify_place(place: int, entrants: int) -> None:
    if entrants < 1:
        raise BadEntrants(entrants=entrants)
    if not 1 <= place <= entrants:
        raise BadPlace(place=place, entrants=entrants)


def _pf_pokerklub(place: int, entrants: int) -> int:
    pp10 = -(-entrants // 10)  # one point per started ten entrants
    if place <= len(PF_POKERKLUB_BASE):
        return PF_POKERKLUB_BASE[place - 1] + pp10
    return pp10 - -(-place // 10) + 1


def points(
    place: int,
    entrants: int,
    scheme: PointsScheme = PointsScheme.PF_POKERKLUB,
    table: PointsTable | None = None,
) -> int:
    """Q1: league points for finishing ``place`` of ``entrants``.

    >>> points(1, 54), points(10, 54), points(11, 54), points(54, 54)
    (21, 8, 5, 1)
    >>> points(2, 30, PointsScheme.TABLE, PointsTable((10, 7, 5), default=1))
    7
    """
    _verify_place(place, entrants)
    if scheme is PointsScheme.TABLE:
        if table is None:
            raise NoPointsTable()
        return table.points(place, entrants)
    return _pf_pokerklub(place, entrants)


def points_table(
    entrants: int,
    scheme: PointsScheme = PointsScheme.PF_POKERKLUB,
    table: PointsTable | None = None,
) -> tuple[tuple[int, int], ...]:
    """``(place, points)`` for every place.

    >>> points_table(3)
    ((1, 16), (2, 13), (3, 11))
    """
    if entrants < 1:
        raise BadEntrants(entrants=entrants)
    if entrants > MAX_ENTRANTS:
        raise TooManyEntrants(entrants=entrants, limit=MAX_ENTRANTS)
    return tuple((p, points(p, entrants, scheme, table)) for p in range(1, entrants + 1))


def group_points(rows: Iterable[tuple[int, int]]) -> tuple[tuple[int, int, int], ...]:
    """Runs of places with equal points: ``(first, last, points)``, as the seed lists them.

    >>> group_points(points_table(54))[-2:]
    ((41, 50, 2), (51, 54, 1))
    """
    groups: list[tuple[int, int, int]] = []
    for place, pts in rows:
        if groups and groups[-1][2] == pts and groups[-1][1] == place - 1:
            first, _, _ = groups[-1]
            groups[-1] = (first, place, pts)
        else:
            groups.append((place, place, pts))
    return tuple(groups)


@record
class Deal(RecordMethods):
    """A private deal between the last players (Q3): money only, never results.

    The kiosk may record it for the TD's notes; :func:`award` accepts deals
    and ignores them, so no code path lets a deal move points.
    """

    players: tuple[str, ...]
    note: str = ""


def award(
    places: Mapping[str, int],
    entrants: int,
    scheme: PointsScheme = PointsScheme.PF_POKERKLUB,
    table: PointsTable | None = None,
    deals: Sequence[Deal] = (),
) -> dict[str, int]:
    """Points for each player from the official finishing places.

    ``deals`` are ignored on purpose (Q3): the official result list stands.

    >>> award({"ann": 1, "bo": 2}, 2) == award({"ann": 1, "bo": 2}, 2, deals=[Deal(("bo", "ann"))])
    True
    """
    del deals  # Q3: a private deal never changes the official result or points.
    return {player: points(place, entrants, scheme, table) for player, place in places.items()}
