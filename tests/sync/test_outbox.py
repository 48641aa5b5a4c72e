"""The outbox: this device's events whoever wrote them, each pushed once by one path."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from kiosk.store import Store, StoredEvent, open_store
from kiosk.store.watch import open_reader
from kiosk.sync.outbox import Outbox
from rules.events import PlayerRegistered


def sealed(row: StoredEvent) -> StoredEvent:
    return dataclasses.replace(row, mac=f"seal-{row.seq}")


def write(store: Store, n: int = 1) -> list[int]:
    """``n`` events of this device, as the CLI (another connection) writes them."""
    seqs = []
    for _ in range(n):
        (record,) = store.append_new("t", [PlayerRegistered(at=0.0, player_id="p", name="P")])
        seqs.append(record.seq)
    return seqs


def rows(store: Store, *seqs: int) -> list[StoredEvent]:
    out = [store.log.get(store.device_id, seq) for seq in seqs]
    return [r for r in out if r is not None]


def test_what_the_store_held_at_the_start_is_not_pushed(tmp_path: Path) -> None:
    store = open_store(data_dir=tmp_path)
    write(store, 3)
    outbox = Outbox(open_reader(store.path), store.device_id, sealed)
    assert outbox.fresh() == ([], False)
    (four,) = write(store)
    fresh, more = outbox.fresh()
    assert [r.seq for r in fresh] == [four] and not more
    assert fresh[0].mac == "seal-4"  # unsealed in the store: sealed to go out
    assert outbox.fresh() == ([], False)  # once
    store.close()


def test_the_main_loop_and_the_store_watch_never_push_one_event_twice(tmp_path: Path) -> None:
    store = open_store(data_dir=tmp_path)
    outbox = Outbox(open_reader(store.path), store.device_id, sealed)
    # The kiosk appends 1 and the watch sees it first: the loop's push of it is dropped.
    write(store)
    assert [r.seq for r in outbox.fresh()[0]] == [1]
    assert outbox.take(rows(store, 1)) == []
    # The kiosk's push comes first: the watch skips it.
    write(store)
    assert [r.seq for r in outbox.take(rows(store, 2))] == [2]
    assert outbox.fresh() == ([], False)
    # The CLI writes 3, the kiosk 4 and pushes it before the watch has seen 3.
    write(store, 2)
    assert [r.seq for r in outbox.take(rows(store, 4))] == [4]
    assert [r.seq for r in outbox.fresh()[0]] == [3]
    assert outbox.top == 4
    store.close()


def test_the_kiosks_push_of_an_event_stored_before_the_outbox_opened_goes_out(
        tmp_path: Path) -> None:
    store = open_store(data_dir=tmp_path)
    write(store)
    outbox = Outbox(open_reader(store.path), store.device_id, sealed)
    assert [r.seq for r in outbox.take(rows(store, 1))] == [1]
    store.close()


def test_other_devices_rows_pass_and_a_long_backlog_comes_in_batches(tmp_path: Path) -> None:
    store = open_store(data_dir=tmp_path)
    outbox = Outbox(open_reader(store.path), store.device_id, sealed, limit=4)
    theirs = StoredEvent("other", 1, 1, "t", "player-registered", "{}", "m")
    assert outbox.take([theirs]) == [theirs]
    write(store, 6)
    first, more = outbox.fresh()
    second, more_after = outbox.fresh()
    assert [r.seq for r in first + second] == [1, 2, 3, 4, 5, 6]
    assert more and not more_after
    store.close()


def test_the_version_vector_counts_what_another_process_appended(tmp_path: Path) -> None:
    kiosk = open_store(data_dir=tmp_path)
    write(kiosk)
    assert kiosk.version_vector() == {kiosk.device_id: 1}
    cli = open_store(data_dir=tmp_path)
    write(cli, 2)
    cli.close()
    # The kiosk's vector was built before: it takes in the CLI's rows at the next call.
    assert kiosk.version_vector() == {kiosk.device_id: 3}
    write(kiosk)
    assert kiosk.version_vector() == {kiosk.device_id: 4}
    kiosk.close()
