"""Venue keys, event seals and the replay guard."""

from __future__ import annotations

import pytest

from kiosk.sync.auth import BadKey, ReplayGuard, event_seal, new_key, open_seal, parse_key

KEY = new_key()
ARGS = ("dev1", 4, 17, "main", '{"at":1.0,"kind":"clock-paused","v":1}')


def test_a_seal_opens_with_the_role_and_table_it_was_made_with() -> None:
    seal = event_seal(KEY, *ARGS, role="table", table=2)
    opened = open_seal(KEY, *ARGS, seal)
    assert opened is not None and (opened.role, opened.table) == ("table", 2)


@pytest.mark.parametrize("field", range(5))
def test_changing_any_part_of_an_event_breaks_its_seal(field: int) -> None:
    seal = event_seal(KEY, *ARGS, role="console", table=None)
    changed = list(ARGS)
    changed[field] = changed[field] + 1 if isinstance(changed[field], int) else changed[field] + "x"
    assert open_seal(KEY, *changed, seal) is None  # type: ignore[arg-type]


def test_a_claimed_role_cannot_be_swapped_in_the_seal() -> None:
    seal = event_seal(KEY, *ARGS, role="table", table=2)
    assert open_seal(KEY, *ARGS, seal.replace(":table:", ":console:")) is None
    assert open_seal(KEY, *ARGS, seal.replace(":2:", ":3:")) is None


def test_another_venue_key_does_not_open_a_seal() -> None:
    seal = event_seal(KEY, *ARGS, role="console", table=None)
    assert open_seal(new_key(), *ARGS, seal) is None
    assert open_seal(KEY, *ARGS, "") is None
    assert open_seal(KEY, *ARGS, "1:console::zz") is None


def test_the_replay_guard_wants_rising_counters_and_new_nonces() -> None:
    guard = ReplayGuard(window=2)
    assert guard.check(1, "a")
    assert not guard.check(1, "b")
    assert not guard.check(2, "a")
    assert guard.check(5, "c")
    assert not guard.check(4, "d")


def test_venue_keys_are_64_hex_characters() -> None:
    key = new_key()
    assert parse_key(key.hex()) == key
    assert parse_key(key.hex().upper()) == key
    for bad in ("", "00" * 31, "zz" * 32, "00" * 33):
        with pytest.raises(BadKey):
            parse_key(bad)
