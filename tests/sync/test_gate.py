"""The admission policy alone: caps in total and per address, and the deadline."""

from __future__ import annotations

import pytest

from kiosk.sync.gate import REMEMBERED, Gate


def test_one_address_gets_its_share_and_no_more() -> None:
    gate = Gate(total=10, per_address=3, deadline=3.0)
    tickets = [gate.admit("10.0.0.66", now=0.0) for _ in range(3)]
    assert all(t is not None for t in tickets)
    assert gate.admit("10.0.0.66", now=0.0) is None
    assert gate.waiting_from("10.0.0.66") == 3
    # Others still get in while that address is full.
    assert gate.admit("10.0.0.2", now=0.0) is not None
    assert gate.waiting == 4


def test_all_addresses_together_stop_at_the_total() -> None:
    gate = Gate(total=4, per_address=2, deadline=3.0)
    admitted = [gate.admit(f"10.0.0.{n}", now=0.0) for n in (1, 1, 2, 2)]
    assert None not in admitted
    assert gate.admit("10.0.0.3", now=0.0) is None
    assert gate.waiting == 4


def test_a_closed_or_authenticated_connection_frees_its_place_once() -> None:
    gate = Gate(total=2, per_address=2, deadline=3.0)
    a, b = gate.admit("h", now=0.0), gate.admit("h", now=0.0)
    assert a is not None and b is not None
    assert gate.admit("h", now=0.0) is None
    gate.authenticated(a)
    gate.closed(a)  # a proven link that ends later frees nothing twice
    gate.closed(b)
    gate.closed(b)
    assert gate.waiting == 0 and gate.waiting_from("h") == 0
    assert gate.admit("h", now=1.0) is not None
    assert gate.admit("h", now=1.0) is not None
    assert gate.admit("h", now=1.0) is None


def test_the_deadline_runs_from_the_accept_and_ends_with_the_proof() -> None:
    gate = Gate(total=8, per_address=8, deadline=3.0)
    slow, quick = gate.admit("h", now=10.0), gate.admit("h", now=11.0)
    assert slow is not None and quick is not None
    assert slow.due == 13.0
    assert not gate.overdue(slow, now=12.9)
    assert gate.overdue(slow, now=13.0)
    gate.authenticated(quick)
    assert not gate.overdue(quick, now=100.0)  # proven: no deadline any more
    gate.closed(slow)
    assert not gate.overdue(slow, now=100.0)  # gone already: nothing to close


@pytest.mark.parametrize(("total", "per_address", "deadline"),
                         [(0, 1, 1.0), (1, 0, 1.0), (1, 1, 0.0)])
def test_a_gate_that_could_admit_nobody_is_refused(total: int, per_address: int,
                                                   deadline: float) -> None:
    with pytest.raises(ValueError):
        Gate(total=total, per_address=per_address, deadline=deadline)


def test_an_address_that_proved_the_key_waits_in_a_pool_of_its_own() -> None:
    gate = Gate(total=2, per_address=2, deadline=3.0)
    table = gate.admit("10.0.0.5", now=0.0)
    assert table is not None
    gate.authenticated(table)
    strangers = [gate.admit(f"10.0.0.{n}", now=1.0) for n in (100, 101)]
    assert None not in strangers and gate.admit("10.0.0.102", now=1.0) is None
    # The table's link died; it redials while strangers fill theirs.
    again = [gate.admit("10.0.0.5", now=2.0) for _ in range(3)]
    assert again[0] is not None and again[1] is not None
    assert again[2] is None  # its own share still holds
    assert gate.waiting == 4


def test_only_the_latest_proven_addresses_are_remembered() -> None:
    gate = Gate(total=1, per_address=1, deadline=3.0)
    for n in range(REMEMBERED + 1):
        ticket = gate.admit(f"k{n}", now=0.0)
        assert ticket is not None
        gate.authenticated(ticket)
    assert gate.admit("s", now=0.0) is not None  # strangers' pool: full now
    assert gate.admit("k0", now=0.0) is None  # forgotten: a stranger again
    assert gate.admit(f"k{REMEMBERED}", now=0.0) is not None


def test_an_address_remembered_from_a_dialled_link_is_known_too() -> None:
    gate = Gate(total=1, per_address=1, deadline=3.0)
    assert gate.admit("stranger", now=0.0) is not None
    assert gate.admit("10.0.0.7", now=0.0) is None
    gate.remember("10.0.0.7")  # this device dialled it, and it proved the key
    assert gate.admit("10.0.0.7", now=0.0) is not None
