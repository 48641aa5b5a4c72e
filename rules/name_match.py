"""Who a name typed at check-in is: the same player, someone near it, or nobody (N2).

One person is one player: a check-in by name must not make a second record
of someone already known because the TD typed "Per Hanssen" for "Per Hansen"
or left out an accent. :func:`match_name` is the one answer every way of
checking in by name asks (``pubpoker checkin``, the name typed at the desk):
the player the name is, else the known players it is near, so the TD is asked
"Did you mean …?" before a new player is added.

Unlike :func:`rules.names.pick_by_name` (which finds a player *tonight* for
``bust`` or ``move``, where a unique start of a name is a handy shortcut), a
start is never the player here: a walk-in called "Ola" is a whole name on
their own, not "Ola Nordmann". It is only offered as a near name.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Generic, TypeVar

__all__ = ["NEAR_EDITS", "NameMatch", "edits", "fold", "match_name", "similar_pairs"]

K = TypeVar("K")

#: At most this many letters apart (one missing, extra, wrong or two swapped
#: counting one each) a name is near a known one (N2: "one or two letters").
NEAR_EDITS: Final = 2
#: How a start of a known name ranks among the near ones: after every typo.
_START: Final = NEAR_EDITS + 1


def fold(name: str) -> str:
    """A name as check-in compares it: no case, no accents, single spaces.

    Only marks that Unicode writes as a letter plus an accent go (é, å, ü);
    ø and æ are letters of their own, a letter away from o and a.

    >>> fold("  José   ÅSE  "), fold("Ødegård")
    ('jose ase', 'ødegard')
    """
    split = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in split if not unicodedata.combining(c))
    return " ".join(bare.split()).casefold()


def edits(a: str, b: str, limit: int = NEAR_EDITS) -> int:
    """Letters inserted, deleted, changed or swapped (two side by side) from
    ``a`` to ``b``; anything over ``limit`` is ``limit + 1``.

    >>> edits("per hanssen", "per hansen"), edits("ana", "anna"), edits("ab", "ba")
    (1, 1, 1)
    >>> edits("ola", "ola nordmann")
    3
    """
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    # Optimal string alignment, row by row; a row whose best is over the
    # limit already cannot come back under it.
    before: list[int] | None = None
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + cost)
            if (before is not None and i > 1 and j > 1 and a[i - 1] == b[j - 2]
                    and a[i - 2] == b[j - 1]):
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        before, row = row, current
    return min(row[-1], limit + 1)


@dataclass(frozen=True, slots=True)
class NameMatch(Generic[K]):
    """What a typed name is: ``exact`` (that player's key), else ``near``
    (key and name of each known player it may mean, closest first)."""

    exact: K | None
    near: tuple[tuple[K, str], ...] = ()


def _rank(typed: str, known: str) -> int | None:
    distance = edits(typed, known)
    # Two letters of a two-letter name are another name ("Bo" is not near "Al").
    if distance <= NEAR_EDITS and distance < min(len(typed), len(known)):
        return distance
    if known.startswith(typed) and len(typed) >= 2:
        return _START
    return None


def match_name(typed: str, named: Iterable[tuple[K, str]]) -> NameMatch[K]:
    """The known player ``typed`` is, or the ones it is near (N2).

    The same name in any case, spacing or accents is that player. Otherwise a
    name one or two letters from a known one, or the start of one, is near it;
    the caller asks "Did you mean …?" and adds a new player only when told to.

    >>> named = [("p1", "Per Hansen"), ("p2", "Kari Nordmann"), ("p3", "Anna Berg"),
    ...          ("p4", "Ola Nordmann"), ("p5", "José Ås")]
    >>> match_name("per   HANSEN", named).exact, match_name("Jose As", named).exact
    ('p1', 'p5')
    >>> [match_name(t, named).near for t in ("Per Hanssen", "kari nordmannn", "Ana Berg")]
    [(('p1', 'Per Hansen'),), (('p2', 'Kari Nordmann'),), (('p3', 'Anna Berg'),)]
    >>> match_name("Ola", named)  # a whole name of its own, near "Ola Nordmann"
    NameMatch(exact=None, near=(('p4', 'Ola Nordmann'),))
    >>> match_name("Eli Dahl", named)
    NameMatch(exact=None, near=())
    """
    wanted = fold(typed)
    entries = list(named)
    if not wanted:
        return NameMatch(None)
    spaced = " ".join(typed.split()).casefold()
    # The name as stored, in any case and spacing, wins over one that differs
    # only in accents ("Ase" and "Åse" may both be known).
    for key, name in entries:
        if " ".join(name.split()).casefold() == spaced:
            return NameMatch(key)
    same = [(key, name) for key, name in entries if fold(name) == wanted]
    if len({name for _, name in same}) == 1:
        return NameMatch(same[0][0])
    ranked = sorted(((rank, name, key) for key, name in entries
                     if (rank := _rank(wanted, fold(name))) is not None),
                    key=lambda r: (r[0], fold(r[1])))
    return NameMatch(None, tuple((key, name) for _, name, key in ranked))


def similar_pairs(named: Iterable[tuple[K, str]]) -> list[tuple[tuple[K, str], tuple[K, str]]]:
    """Known players that may be one person twice: names that check-in would
    have asked "Did you mean …?" of (N2), closest first. The same name but for
    accents comes first, then one or two letters apart, then a name that is
    the start of another ("Ola" and "Ola Nordmann").

    >>> named = [("p1", "Per Hansen"), ("p2", "Per Hanssen"), ("p3", "Ola"),
    ...          ("p4", "Ola Nordmann"), ("p5", "Åse Berg"), ("p6", "Ase Berg"), ("p7", "Bo")]
    >>> [(a[1], b[1]) for a, b in similar_pairs(named)]
    [('Ase Berg', 'Åse Berg'), ('Per Hansen', 'Per Hanssen'), ('Ola', 'Ola Nordmann')]
    """
    entries = sorted(((fold(name), key, name) for key, name in named), key=lambda e: (e[0], e[2]))
    found: dict[tuple[int, int], int] = {}
    # Names within NEAR_EDITS letters share a form with NEAR_EDITS letters left out
    # (a changed or swapped letter is one left out of each): only those are compared,
    # not every pair, so a venue of thousands takes a moment, not minutes.
    shared: dict[str, list[int]] = {}
    for i, (folded, _, _) in enumerate(entries):
        for form in _deletions(folded, NEAR_EDITS):
            shared.setdefault(form, []).append(i)
    compared: set[tuple[int, int]] = set()
    for group in shared.values():
        for n, i in enumerate(group):
            for j in group[n + 1:]:
                if (i, j) in compared:
                    continue
                compared.add((i, j))
                a, b = entries[i][0], entries[j][0]
                distance = edits(a, b)
                if distance <= NEAR_EDITS and (distance < min(len(a), len(b)) or a == b):
                    found[i, j] = distance
    # A start: in sorted order the names a name starts come right after it.
    for i, (a, _, _) in enumerate(entries):
        for j in range(i + 1, len(entries)):
            if not entries[j][0].startswith(a):
                break
            if len(a) >= 2:
                found.setdefault((i, j), _START)
    pairs = sorted(found.items(), key=lambda f: (f[1], entries[f[0][0]][0], entries[f[0][1]][0]))
    return [((entries[i][1], entries[i][2]), (entries[j][1], entries[j][2])) for (i, j), _ in pairs]


def _deletions(word: str, most: int) -> set[str]:
    """``word`` with up to ``most`` letters left out, every way."""
    forms = {word}
    for _ in range(most):
        forms |= {f[:k] + f[k + 1:] for f in forms for k in range(len(f))}
    return forms
