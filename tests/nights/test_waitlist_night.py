"""Issue 45, the waiting list (RULES.md F2) on a real night, in every language.

A headless ``pubpoker kiosk`` (:class:`~tests.nights.rig.Night`, every step
checked against the store), the TD's ``pubpoker`` beside it, and a phone on
``/night.json``: once every seat is taken the wall's side panel and the phone
say how many wait and who, in order; a bust that frees a seat puts «NAME from
the waiting list → Table T, seat S» in a pop-up on the wall, and the phone's
list moves up.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.nights.rig import Night, keep, wait_for

pytestmark = pytest.mark.realproc

#: The list's heading and the admission's line, per language.
SAYS = {
    "nn": ("Venteliste: {n}", "frå ventelista → Bord {table}, sete {seat}"),
    "nb": ("Venteliste: {n}", "fra ventelisten → Bord {table}, sete {seat}"),
    "da": ("Venteliste: {n}", "fra ventelisten → Bord {table}, sæde {seat}"),
    "en": ("Waiting list: {n}", "from the waiting list → Table {table}, seat {seat}"),
}


def _phone_waits(night: Night, names: list[str]) -> dict[str, Any]:
    def seen() -> dict[str, Any] | None:
        doc = night.phone()
        return doc if doc is not None and doc.get("waiting") == names else None

    doc: dict[str, Any] = wait_for(seen, 10.0, f"the phone's waiting list {names}")
    return doc


def _wall_says(night: Night, lines: list[str]) -> None:
    """The wall's screen says the list: the clock's side panel, or the line of the
    seating screen (shown for a while after the draw)."""
    def said() -> bool:
        status = night.status()
        if status is None:
            return False
        if status["screen"] == "clock":
            return bool(status["side"] == lines)
        return bool(status["waiting_text"] == " – ".join(lines))

    wait_for(said, 10.0, f"the wall's waiting list {lines}")


@pytest.mark.parametrize("lang", sorted(SAYS))
def test_F2_the_waiting_list_on_the_wall_and_the_phone_and_who_came_in(
        tmp_path: Path, lang: str, request: pytest.FixtureRequest) -> None:
    heading, admitted = SAYS[lang]
    night = Night(tmp_path, speed=10.0, lang=lang)
    night.start()
    try:
        night.step("tournament", "new", "--name", "Full", "--tables", "1", "--seats", "4")
        for name in ("P1", "P2", "P3", "P4", "W1", "W2", "W3"):
            night.step("checkin", "--new", name)
        night.step("seat", "draw")
        night.step("clock", "start")
        doc = _phone_waits(night, ["W1", "W2", "W3"])
        # The phone has every language at once: the heading in each of them.
        assert {code: doc["words"][code]["waiting"] for code in SAYS} == {
            code: SAYS[code][0].format(n=3) for code in SAYS}
        assert "W1" not in {s["name"] for s in doc["seats"]}
        _wall_says(night, [heading.format(n=3), "1. W1, 2. W2, 3. W3"])

        # P3 is out while late registration is open: W1 takes the seat.
        night.step("bust", "P3")
        state = night.truth()[0]
        w1 = next(e for e in state.players.values() if e.name == "W1")
        assert w1.seat is not None
        line = admitted.format(table=w1.seat.table, seat=w1.seat.seat)
        said = wait_for(lambda: (s := night.status()) is not None
                        and ["W1", line, "check-in"] in s["said"] and s["said"], 10.0,
                        "the admission's pop-up")
        assert ["W1", line, "check-in"] in said
        doc = _phone_waits(night, ["W2", "W3"])
        assert doc["words"][lang]["waiting"] == heading.format(n=2)
        assert next(s for s in doc["seats"] if s["name"] == "W1")["table"] == w1.seat.table
        _wall_says(night, [heading.format(n=2), "1. W2, 2. W3"])

        # Off the list: the wall's panel and the phone's list go when nobody waits.
        night.step("waitlist", "remove", "W2")
        night.step("waitlist", "remove", "W3")
        doc = _phone_waits(night, [])
        assert doc["words"][lang]["waiting"] == ""
        _wall_says(night, [])
    finally:
        night.stop()
        keep(night, request.node.name)
