"""F2 through the real ``pubpoker``: the waiting list once every place is taken (issue 45)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.kiosk.cli_run import pubpoker

pytestmark = pytest.mark.realproc

#: What each language says, from check-in to the TD's removal.
SAYS = {
    "nn": ("Alle plassane er tekne: W2 står på ventelista. Venteliste: du er nr. 2",
           "W1 frå ventelista → bord 1, sete {seat}", "Venteliste: 1 — 1. W2",
           "W2 er teken av ventelista", "W2 står ikkje på ventelista"),
    "nb": ("Alle plassene er tatt: W2 står på ventelisten. Venteliste: du er nr. 2",
           "W1 fra ventelisten → bord 1, sete {seat}", "Venteliste: 1 — 1. W2",
           "W2 er tatt av ventelisten", "W2 står ikke på ventelisten"),
    "da": ("Alle pladser er optaget: W2 står på ventelisten. Venteliste: du er nr. 2",
           "W1 fra ventelisten → bord 1, sæde {seat}", "Venteliste: 1 — 1. W2",
           "W2 er taget af ventelisten", "W2 står ikke på ventelisten"),
    "en": ("Every place is taken: W2 is on the waiting list. Waiting list: you are number 2",
           "W1 from the waiting list → table 1, seat {seat}", "Waiting list: 1 — 1. W2",
           "W2 is off the waiting list", "W2 is not on the waiting list"),
}


def _show(data: Path) -> Any:
    return json.loads(pubpoker(data, "tournament", "show", "--json").stdout)


def _full_night(data: Path, lang: str) -> None:
    pubpoker(data, "tournament", "new", "--name", "Full", "--tables", "1", "--seats", "4",
             lang=lang)
    for n in range(1, 5):
        pubpoker(data, "checkin", "--new", f"P{n}", lang=lang)
    pubpoker(data, "seat", "draw", lang=lang)
    pubpoker(data, "clock", "start", lang=lang)


@pytest.mark.parametrize("lang", sorted(SAYS))
def test_F2_the_waiting_list_from_check_in_to_a_freed_seat(tmp_path: Path, lang: str) -> None:
    waits, admitted, shown, removed, not_waiting = SAYS[lang]
    _full_night(tmp_path, lang)
    pubpoker(tmp_path, "checkin", "--new", "W1", lang=lang)
    assert waits in pubpoker(tmp_path, "checkin", "--new", "W2", lang=lang).stdout
    doc = _show(tmp_path)
    assert [(w["place"], w["name"]) for w in doc["waiting"]] == [(1, "W1"), (2, "W2")]
    assert doc["capacity"] == 4 and doc["entrants"] == 4
    # A seat comes free while late registration is open: the first waiting sits down.
    seat = next(s["seat"] for s in doc["tables"][0]["seats"] if s["name"] == "P3")
    out = pubpoker(tmp_path, "bust", "P3", lang=lang).stdout
    assert admitted.format(seat=seat) in out, out
    assert shown in pubpoker(tmp_path, "tournament", "show", lang=lang).stdout
    assert _show(tmp_path)["entrants"] == 5
    assert removed in pubpoker(tmp_path, "waitlist", "remove", "W2", lang=lang).stdout
    assert _show(tmp_path)["waiting"] == []
    refused = pubpoker(tmp_path, "waitlist", "remove", "W2", lang=lang, code=2)
    assert not_waiting in refused.stderr


def test_F2_undo_takes_back_a_wait_an_admission_and_a_removal(tmp_path: Path) -> None:
    _full_night(tmp_path, "en")
    pubpoker(tmp_path, "checkin", "--new", "W1")
    pubpoker(tmp_path, "checkin", "--new", "W2")
    pubpoker(tmp_path, "bust", "P1")
    pubpoker(tmp_path, "waitlist", "remove", "W2")
    assert "W2 off the waiting list" in pubpoker(tmp_path, "undo").stdout
    assert [w["name"] for w in _show(tmp_path)["waiting"]] == ["W2"]
    assert "P1 eliminated" in pubpoker(tmp_path, "undo").stdout
    doc = _show(tmp_path)
    assert [w["name"] for w in doc["waiting"]] == ["W1", "W2"] and doc["entrants"] == 4
    assert "W2 on the waiting list" in pubpoker(tmp_path, "undo").stdout
    assert [w["name"] for w in _show(tmp_path)["waiting"]] == ["W1"]


def test_F2_capacity_from_the_td_and_no_entry_once_late_registration_closes(
        tmp_path: Path) -> None:
    pubpoker(tmp_path, "tournament", "new", "--name", "Liten", "--tables", "2", "--seats", "4",
             "--capacity", "3")
    for n in range(1, 5):
        pubpoker(tmp_path, "checkin", "--new", f"P{n}")
    doc = _show(tmp_path)
    assert doc["capacity"] == 3 and [w["name"] for w in doc["waiting"]] == ["P4"]
    # Before the draw the list keeps the draw from being refused.
    pubpoker(tmp_path, "seat", "draw")
    assert sum(len(t["seats"]) for t in _show(tmp_path)["tables"]) == 3
    refused = pubpoker(tmp_path, "tournament", "new", "--name", "X", "--capacity", "999",
                       "--yes", code=2)
    assert "--capacity" in refused.stderr
