"""Issue 48: every word in the room's language, and errors that help, through the
real ``pubpoker`` command in nn, nb, da and en."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from rules.i18n import LANGUAGES, MONTHS, WEEKDAYS
from tests.kiosk.cli_run import pubpoker

pytestmark = pytest.mark.realproc


# Weekday and month names from the catalogue, never the C locale ---------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_weekday_and_month_in_a_name_are_the_rooms(tmp_path: Path, lang: str) -> None:
    before = dt.date.today()
    done = pubpoker(tmp_path, "tournament", "new", "--name", "{weekday}spoker i {month}",
                    lang=lang)
    after = dt.date.today()
    names = {f"{WEEKDAYS[lang][day.weekday()]}spoker i {MONTHS[lang][day.month - 1]}"
             for day in (before, after)}
    said = done.stdout.strip().partition(": ")[2]
    assert said in {name[:1].upper() + name[1:] for name in names}, done.stdout
    if lang != "en":
        assert not any(english in said for english in WEEKDAYS["en"] + MONTHS["en"])
