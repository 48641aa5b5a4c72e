"""Players and cards: unknown cards are a result, payment cards are never stored."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from kiosk.store import (
    BadCard,
    CardInUse,
    CardMatch,
    DuplicatePlayer,
    EmptyName,
    PaymentCardRefused,
    RefusedCard,
    Store,
    UnknownCard,
    UnknownPlayer,
    contains_pan,
    open_store,
)

# Test numbers from the card networks' own documentation (all pass Luhn).
PANS = [
    "4111111111111111",          # Visa
    "4111 1111 1111 1111",       # as printed
    "5500-0000-0000-0004",       # Mastercard
    "2223000048400011",          # Mastercard 2-series
    "378282246310005",           # Amex, 15 digits
    "6011111111111117",          # Discover
    "3530111333300000",          # JCB
    "4000056655665556",
    "6759649826438453",          # Maestro
    "%B4111111111111111^NORDMANN/KARI^2512101000000000000?",  # track 1
    ";4111111111111111=25121010000000000000?",                 # track 2
    "4111111111111111=25121010000000000000",                   # track 2, no sentinels
    "4111 1111 1111 1111 123",   # with the code typed after it
]
RFID = ["0A1B2C3D4E", "04A23B1C5D6E80", "1234567890", "DEADBEEF", "0004A23B1C",
        "123456789012345678"]


@pytest.mark.parametrize("pan", PANS)
def test_payment_card_numbers_are_recognised(pan: str) -> None:
    assert contains_pan(pan)


@pytest.mark.parametrize("uid", RFID)
def test_rfid_uids_are_not_mistaken_for_payment_cards(uid: str) -> None:
    assert not contains_pan(uid)


def test_a_number_failing_luhn_is_not_a_pan() -> None:
    assert not contains_pan("4111111111111112")


def test_a_payment_card_is_refused_before_the_name_is_looked_up(db_path: Path) -> None:
    """The number is the danger: it is refused as one whoever it was meant for."""
    with open_store(db_path) as store:
        store.players.add("Kari Nordmann")
        for name in ("Nobody", "Kari Nordmann"):
            with pytest.raises(PaymentCardRefused):
                store.players.link_card(name, "4111111111111111")
        with pytest.raises(UnknownPlayer):
            store.players.link_card("Nobody", "0A1B2C3D4E")


def everything_stored(db_path: Path) -> bytes:
    """Every byte the store has on disk: the file, its WAL and its shm."""
    return b"".join(p.read_bytes() for p in db_path.parent.iterdir() if p.is_file())


@pytest.mark.parametrize("pan", PANS)
def test_a_payment_card_is_refused_everywhere_and_never_stored(
        db_path: Path, pan: str, caplog: pytest.LogCaptureFixture) -> None:
    digits = "".join(ch for ch in pan if ch.isdigit())[:15]
    with caplog.at_level(logging.DEBUG), open_store(db_path) as store:
        kari = store.players.add("Kari")
        with pytest.raises(PaymentCardRefused) as on_link:
            store.players.link_card("Kari", pan)
        with pytest.raises(PaymentCardRefused) as on_add:
            store.players.add("Ola", card=pan)
        with pytest.raises(PaymentCardRefused):
            store.players.add(pan)
        assert isinstance(store.players.lookup_card(pan), RefusedCard)
        report = store.players.import_csv(f"name,card\nOla,{pan}\nPer,0A1B2C3D4E\n")
        assert [e.line for e in report.errors] == [2] and report.added == ["Per"]
        messages = [on_link.value.translate(lang) for lang in ("nn", "nb", "da", "en")]
        messages += [on_add.value.translate("en"), str(on_add.value),
                     report.errors[0].translate("nn"),
                     store.players.lookup_card(pan).translate("en")]
        assert store.players.get(kari.id).cards == ()
        assert [p.name for p in store.players.list()] == ["Kari", "Per"]
    for text in messages + [r.getMessage() for r in caplog.records]:
        assert digits not in text.replace(" ", "").replace("-", "")
    assert digits.encode() not in everything_stored(db_path)


def test_an_unknown_card_is_a_clear_result_never_an_exception(store: Store) -> None:
    result = store.players.lookup_card("0a1b2c3d4e")
    assert isinstance(result, UnknownCard) and not result.ok
    assert result.uid == "0A1B2C3D4E"
    assert result.translate("nn") == "Ukjend kort 0A1B2C3D4E"
    assert result.translate("en") == "Unknown card 0A1B2C3D4E"
    for garbage in ("", "   ", "\x02\x03", "ø" * 500, "a;b"):
        assert isinstance(store.players.lookup_card(garbage), UnknownCard)


def test_a_linked_card_finds_its_player_however_the_reader_spells_it(store: Store) -> None:
    store.players.add("Kari Nordmann", card="0A1B2C3D4E")
    result = store.players.lookup_card(" 0a:1b:2c:3d:4e\n")
    assert isinstance(result, CardMatch) and result.ok
    assert result.player.name == "Kari Nordmann" and result.player.cards == ("0A1B2C3D4E",)


def test_players_persist_across_opens_with_their_cards(db_path: Path) -> None:
    with open_store(db_path) as store:
        store.players.add("Kari")
        store.players.link_card("kari", "DEADBEEF")
        store.players.link_card("Kari", "04A23B1C5D6E80")
    with open_store(db_path) as store:
        (kari,) = store.players.list()
        assert kari.name == "Kari" and set(kari.cards) == {"DEADBEEF", "04A23B1C5D6E80"}
        assert kari.created[:4].isdigit()


def test_refusals_are_translated_errors(store: Store) -> None:
    store.players.add("Kari", card="DEADBEEF")
    store.players.add("Ola")
    with pytest.raises(DuplicatePlayer):
        store.players.add("  KARI ")
    with pytest.raises(CardInUse) as in_use:
        store.players.link_card("Ola", "deadbeef")
    assert "Kari" in in_use.value.translate("nn")
    with pytest.raises(UnknownPlayer):
        store.players.link_card("Nobody", "CAFEBABE")
    with pytest.raises(EmptyName):
        store.players.add("   ")
    with pytest.raises(BadCard):
        store.players.link_card("Ola", "x")
    assert store.players.get("Ola").cards == ()


def test_csv_import_keeps_good_lines_and_reports_each_bad_one(store: Store,
                                                              tmp_path: Path) -> None:
    store.players.add("Kari", card="DEADBEEF")
    csv_file = tmp_path / "players.csv"
    csv_file.write_text(
        "\ufeffname,card\n"
        "Ola Nordmann,0A1B2C3D4E\n"
        "Kari,CAFEBABE\n"          # existing player: card linked
        ",0A0A0A0A0A\n"            # no name
        "Per,DEADBEEF\n"           # card taken by Kari
        "Åse Ødegård,\n"           # no card is fine
        "\n"
        "Ola Nordmann,0A1B2C3D4E\n"  # repeated line: unchanged
        "Pål,zz\n",                # not a card
        encoding="utf-8")
    report = store.players.import_csv(csv_file)
    assert report.added == ["Ola Nordmann", "Åse Ødegård"]
    assert report.linked == ["Kari"]
    assert report.cards == ["0A1B2C3D4E", "CAFEBABE"]  # a new player's card counts too
    assert report.unchanged == 1
    assert [(e.line, e.error.code) for e in report.errors] == [
        (4, "EmptyName"), (5, "CardInUse"), (9, "BadCard")]
    assert report.errors[0].translate("nn").startswith("Linje 4:")
    names = [p.name for p in store.players.list()]
    assert names == ["Kari", "Ola Nordmann", "Åse Ødegård"]
    assert set(store.players.get("Kari").cards) == {"DEADBEEF", "CAFEBABE"}


def test_csv_import_reads_semicolons_and_no_header(store: Store) -> None:
    report = store.players.import_csv("Kari;DEADBEEF\nOla;\n")
    assert report.added == ["Kari", "Ola"] and report.errors == []
    report = store.players.import_csv("namn;kort\nPer;CAFEBABE\n")
    assert report.added == ["Per"]
