"""The phone says a pending move in the wall's words (issue 49): the same table and
seat as the moves screen and the seating row, with the comma."""

from __future__ import annotations

import pytest

from kiosk.display.messages import text
from kiosk.display.viewmodels import moves_view
from kiosk.viewer.night import night_json
from kiosk.viewer.words import WORDS
from rules.commands import BustPlayers
from rules.i18n import LANGUAGES
from tests.rules.tournament_kit import Night


@pytest.fixture(scope="module")
def night() -> Night:
    night = Night().started(30)
    busted = 0
    while not night.state.moves:
        busted += 1
        night.do(BustPlayers((f"p{busted}",)), at=10.0 * busted)
    return night


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_phone_says_a_move_as_the_wall_does(night: Night, lang: str) -> None:
    [move] = night.state.moves.values()
    name = night.name(move.player_id)
    doc = night_json(night.state, night.now, lang="nn")
    [seat] = [s for s in doc["seats"] if s["name"] == name]
    assert seat["move"] == [move.target.table, move.target.seat]
    # What app.js shows: fill(w.move_to, {table: p.move[0], seat: p.move[1]}).
    phone = doc["words"][lang]["move_to"].format(table=seat["move"][0], seat=seat["move"][1])
    wall = text("move_pending", lang, table=move.target.table, seat=move.target.seat)
    assert phone.endswith(wall.removeprefix("→ ")), (phone, wall)
    assert moves_view(night.state, night.now, lang).lines[0].endswith(wall)
    assert WORDS[lang]["move_to"].count(",") == 1
    others = [s for s in doc["seats"] if s["name"] != name]
    assert others and all(s["move"] is None for s in others)
