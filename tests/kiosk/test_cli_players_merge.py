"""Issue 44: ``pubpoker players merge A B`` joins two of the venue's players who are
one person (their nights, cards and league points) as an event in tonight's log,
so ``pubpoker undo`` takes it back; and refuses what cannot be one person. Through
the real ``pubpoker`` command in every language."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kiosk.cli.players_cmd import _TEXT, MergeDidYouMean, MergedPlaysTonight, PlayedTogether
from kiosk.undone import UNDONE, UNDONE_LINE
from rules.i18n import LANGUAGES, count
from rules.refusals import BothPlaying, SamePlayer
from tests.kiosk.cli_run import pubpoker

pytestmark = pytest.mark.realproc

CARD = "0A1B2C3D4E"


@pytest.fixture(scope="module")
def venue(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Fredag is closed: Per Hanssen (with a card) won, Bo 2nd, Ada 3rd. Tonight,
    Laurdag, Per Hansen (the same person, typed anew) has checked in."""
    data = tmp_path_factory.mktemp("merge")
    pubpoker(data, "tournament", "new", "--name", "Fredag")
    pubpoker(data, "players", "add", "Per Hanssen", "--card", CARD)
    for name in ("Per Hanssen", "Ada", "Bo"):
        pubpoker(data, "checkin", *(("--new",) if name != "Per Hanssen" else ()), name)
    pubpoker(data, "seat", "draw")
    pubpoker(data, "clock", "start")
    pubpoker(data, "bust", "Ada")
    pubpoker(data, "bust", "Bo")
    pubpoker(data, "tournament", "close")
    pubpoker(data, "tournament", "new", "--name", "Laurdag")
    pubpoker(data, "checkin", "--new", "Per Hansen")
    pubpoker(data, "players", "add", "Eli Dahl")
    return data


@pytest.fixture()
def night(venue: Path, tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(venue, data)
    return data


def _list(data: Path) -> dict[str, str]:
    rows = pubpoker(data, "players", "list", "--format", "csv").stdout.splitlines()[1:]
    return dict(tuple(r.split(",")) for r in rows)  # type: ignore[misc]


def _leader(data: Path, lang: str) -> str:
    return pubpoker(data, "standings", lang=lang).stdout.splitlines()[1]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_merge_joins_nights_cards_and_points_and_undo_takes_it_back(night: Path, lang: str
                                                                   ) -> None:
    assert "Per Hanssen" in _leader(night, lang)
    out = pubpoker(night, "players", "merge", "Per Hansen", "Per Hanssen", lang=lang).stdout
    assert out == _TEXT[lang]["merged"].format(
        name="Per Hanssen", keep="Per Hansen", nights=count(1, "night", lang),
        cards=count(1, "card", lang)) + "\n"
    # One person: the card and Fredag's win (16 points) are Per Hansen's now.
    assert _list(night) == {"Ada": "", "Bo": "", "Eli Dahl": "", "Per Hansen": CARD}
    leader = _leader(night, lang)
    assert "Per Hansen " in leader and "16" in leader and "Per Hanssen" not in leader
    # Their card now checks in the one kept, who is here already.
    assert "Per Hansen" in pubpoker(night, "checkin", "--card", CARD, lang=lang, code=2).stderr
    # The merge is tonight's newest action: undo takes it back, card and points too.
    said = pubpoker(night, "undo", lang=lang).stdout.split(". ", 1)[0]
    what = UNDONE["players-merged"][lang].format(name="Per Hanssen", keep="Per Hansen")
    assert said == UNDONE_LINE[lang].format(what=what)
    assert _list(night) == {"Ada": "", "Bo": "", "Eli Dahl": "", "Per Hansen": "",
                            "Per Hanssen": CARD}
    assert "Per Hanssen" in _leader(night, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_merge_refuses_what_cannot_be_one_person(night: Path, lang: str) -> None:
    def refused(*names: str) -> str:
        return pubpoker(night, "players", "merge", *names, lang=lang, code=2).stderr

    assert refused("Per Hansen", "per hansen") == SamePlayer(name="Per Hansen").translate(
        lang) + "\n"
    assert refused("Per Hansen", "Per Hansn") == MergeDidYouMean(
        name="Per Hansn", names=("Per Hansen", "Per Hanssen")).translate(lang) + "\n"
    # They sat at one table on Fredag: two people.
    assert refused("Bo", "Per Hanssen") == PlayedTogether(
        keep="Bo", name="Per Hanssen", night="Fredag").translate(lang) + "\n"
    # Per Hansen plays tonight: keeping the other would leave his seat to a name
    # merged away; the refusal gives the merge the other way round.
    assert refused("Per Hanssen", "Per Hansen") == MergedPlaysTonight(
        name="Per Hansen", keep="Per Hanssen").translate(lang) + "\n"
    # Both checked in to the running night: two people.
    pubpoker(night, "checkin", "Eli Dahl", lang=lang)
    assert refused("Per Hansen", "Eli Dahl") == BothPlaying(
        keep="Per Hansen", name="Eli Dahl").translate(lang) + "\n"
    # Nothing was merged by any of them.
    assert set(_list(night)) == {"Ada", "Bo", "Eli Dahl", "Per Hansen", "Per Hanssen"}
