"""Every refusal speaks all four languages, and every event kind survives the wire."""

from __future__ import annotations

import importlib
import pkgutil
import random
import string

import rules
from rules.commands import BustPlayers, ConfirmMove, DrawButton, StartHand
from rules.errors import RulesError
from rules.events import (
    EventKind,
    decode_event,
    encode_event,
    event_from_json,
    event_to_json,
    kinds,
)
from rules.i18n import LANGUAGES
from tests.rules.tournament_kit import Night


def _all_subclasses(cls: type) -> set[type]:
    out = set()
    for sub in cls.__subclasses__():
        out.add(sub)
        out |= _all_subclasses(sub)
    return out


def test_every_rules_error_has_a_message_in_every_language() -> None:
    for info in pkgutil.iter_modules(rules.__path__):
        importlib.import_module(f"rules.{info.name}")
    errors = [e for e in _all_subclasses(RulesError) if e.__module__.startswith("rules.")]
    assert len(errors) > 20
    missing = {e.__name__: e.missing_languages() for e in errors if e.missing_languages()}
    assert not missing
    for error in errors:
        fields = {name for lang in LANGUAGES
                  for _, name, _, _ in string.Formatter().parse(error.messages[lang]) if name}
        params = dict.fromkeys(fields, "x")
        for lang in LANGUAGES:
            assert error(**params).translate(lang)


def test_every_event_kind_is_registered_once() -> None:
    assert set(kinds()) == set(EventKind)


def test_every_event_of_a_night_round_trips_through_canonical_json() -> None:
    night = Night(seed=4).started(25)
    for table in list(night.state.tables):
        night.do(DrawButton(table))
        night.do(StartHand(table))
    rng = random.Random(2)
    while not night.state.finished:
        active = sorted(e.player_id for e in night.state.active())
        night.do(BustPlayers((rng.choice(active),), by=None))
        for move in list(night.state.moves.values()):
            night.do(ConfirmMove(move.player_id))
    seen = set()
    for record in night.records:
        text = event_to_json(record.event)
        assert event_from_json(text) == record.event
        assert decode_event(encode_event(record.event)) == record.event
        seen.add(record.event.kind)
    assert len(seen) >= 9
