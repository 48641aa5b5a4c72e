"""No refusal gives a reason that is false (issue 41).

A refusal's message is one of the catalogued templates (a ``RulesError``
subclass's ``messages``, in the night's language). :func:`read` finds which one
and what it filled in; :func:`check` holds every claim it makes to the store:

- a count of players ("4 players", "(3 left)") is the store's: players left,
  entrants, checked in, or the names typed in the command;
- a player it names exists, and is as it says (already out, already checked
  in, unknown), and "did you mean" names only known players;
- a level it names is the one on the clock (the last one, at its full length),
  with that level's length;
- a command it names is the one typed.

A message no template matches (argparse's usage lines, say) is not judged
here; :func:`read` returns None for it and the night's script can insist.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rules import clock as clocks
from rules.errors import RulesError
from rules.i18n import NOUNS, format_time
from rules.state import Tournament

#: The modules whose refusals the TD's command can print.
MODULES = ("rules.refusals", "rules.clock", "rules.reducer", "rules.table_moves",
           "kiosk.store.errors", "kiosk.cli.args", "kiosk.cli.td_cmd",
           "kiosk.cli.players_cmd", "kiosk.tonight_switch", "kiosk.cli.results_cmd")


@dataclass(frozen=True)
class Reason:
    """A refusal read back: its class's name and the fields its template filled."""

    kind: str
    fields: dict[str, str]
    text: str


def _classes() -> Iterator[type[RulesError]]:
    for name in MODULES:
        importlib.import_module(name)
    todo: list[type[RulesError]] = [RulesError]
    seen: set[type[RulesError]] = set()
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.add(cls)
        todo.extend(cls.__subclasses__())
        if "messages" in vars(cls) and cls is not RulesError:
            yield cls


def _pattern(template: str) -> re.Pattern[str]:
    parts: list[str] = []
    named: set[str] = set()
    for literal, field, _spec, _conv in __import__("string").Formatter().parse(template):
        parts.append(re.escape(literal))
        if field is None:
            continue
        if field in named:
            parts.append(f"(?P={field})")
        else:
            named.add(field)
            parts.append(f"(?P<{field}>.+?)")
    return re.compile("".join(parts))


@functools.cache
def templates(lang: str) -> tuple[tuple[str, re.Pattern[str], int], ...]:
    """Every refusal template in ``lang``: (class name, pattern, literal length)."""
    out = []
    for cls in _classes():
        template = cls.messages.get(lang) or cls.messages["en"]
        literal = len(re.sub(r"\{[^}]*\}", "", template))
        out.append((cls.__name__, _pattern(template), literal))
    # The most specific template first: the one with the most fixed text.
    return tuple(sorted(out, key=lambda t: -t[2]))


def read(message: str, lang: str) -> Reason | None:
    """Which catalogued refusal ``message`` is, and what it filled in."""
    text = message.strip()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for kind, pattern, _ in templates(lang):
        for line in (text, *lines):
            got = pattern.fullmatch(line)
            if got:
                return Reason(kind, {k: v for k, v in got.groupdict().items()}, line)
    return None


def _number(text: str) -> int:
    digits = re.sub(r"[^\d]", "", text)
    assert digits, text
    return int(digits)


def counts(text: str, lang: str) -> list[int]:
    """Every "N players" the message says (in ``lang``'s words, one or many)."""
    words = "|".join(re.escape(w) for w in sorted(set(NOUNS["player"][lang]), key=len,
                                                     reverse=True))
    return [_number(m.group(1)) for m in
            re.finditer(rf"(\d[\d\s,.\u00a0\u202f]*)\s(?:{words})\b", text)]


def _names_typed(argv: Sequence[str]) -> list[str]:
    """The players named in ``bust A B ...`` (the words before the first option)."""
    if not argv or argv[0] != "bust":
        return []
    out = []
    for word in argv[1:]:
        if word.startswith("-"):
            break
        out.append(word)
    return out


@dataclass
class Store:
    """What the claims are held to: tonight's night and the venue's player names."""

    state: Tournament
    names: frozenset[str]
    #: The shared times the command ran between (its answer was true at one of them).
    at: tuple[float, ...]


def _entry(state: Tournament, name: str) -> Any:
    return next((e for e in state.players.values() if e.name == name), None)


def check(reason: Reason, store: Store, argv: Sequence[str], lang: str) -> None:
    """Each claim ``reason`` makes is true of ``store`` (an AssertionError says which not)."""
    state = store.state
    typed = _names_typed(argv)
    checked_in = sum(1 for e in state.players.values() if e.checked_in)
    true_counts = {state.remaining, state.entrants, checked_in, len(typed)}
    for said in counts(reason.text, lang):
        assert said in true_counts, ("a count no one has", said, true_counts, reason)
    f = reason.fields
    kind = reason.kind
    what = (kind, reason.text)
    if kind == "PlayerAlreadyOut":
        entry = _entry(state, f["player"])
        assert entry is not None and entry.place is not None, ("not out", what)
    elif kind == "AlreadyCheckedIn":
        entry = _entry(state, f["player"])
        assert entry is not None and entry.checked_in, ("not checked in", what)
    elif kind in ("UnknownPlayer", "SameHandNamesQuoted", "NotAKnownPlayer"):
        name = f.get("player") or f.get("name") or ""
        assert name.strip("'«»\u201c\u201d") not in store.names, ("a known player", what)
    elif kind == "DidYouMean":
        assert f["name"] not in store.names, ("a known player", what)
        for name in store.names:
            f["names"] = f["names"].replace(name, "")
        assert not re.search(r"\w{2,}", re.sub(r"\b(or|eller)\b", "", f["names"])), (
            "a suggestion no one has", what)
    elif kind == "NotFinished":
        assert _number(f["left"]) == state.remaining, ("players left", what)
    elif kind == "TooFewPlayers":
        assert _number(f["count"]) == checked_in, ("checked in", what)
    elif kind == "StacksDoNotMatch":
        stacks = argv[argv.index("--stacks") + 1:] if "--stacks" in argv else []
        assert counts(f["names"], lang) == [len(typed)], ("names typed", what)
        assert _number(f["stacks"]) == len([s for s in stacks if not s.startswith("-")]), (
            "stacks typed", what)
    elif kind in ("LastLevel", "LevelAtFullLength"):
        assert state.config is not None
        structure = state.config.structure
        levels = list(structure.levels())
        number = _number(f.get("number") or f.get("level") or "")
        readings = [clocks.read(structure, state.clock, at) for at in store.at]
        assert number in {r.level_number for r in readings}, (
            "not the level on the clock", what, [r.level_number for r in readings])
        if kind == "LastLevel":
            assert len(levels) == number, ("not the last level", what, len(levels))
        else:
            lengths = {format_time(round(r.elapsed_in_period + (r.remaining or 0.0)))
                       for r in readings}
            assert f["length"] in lengths, ("not its length", what, lengths)
    elif kind == "NoJsonForm":
        command = f["command"].strip("'«»\u201c\u201d")
        words = [a for a in argv if not a.startswith("-")]
        assert command == "pubpoker " + " ".join(words[:len(command.split()) - 1]), (
            "not the command typed", what, argv)
