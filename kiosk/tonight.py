"""Tonight's tournament, as the venue's config describes it."""

from __future__ import annotations

import datetime as dt

from kiosk.config import TournamentConfig
from rules.commands import CreateTournament
from rules.house import profile
from rules.structure import preset

__all__ = ["tonight"]


def tonight(config: TournamentConfig, today: dt.date) -> CreateTournament:
    """The command that creates tonight's tournament.

    The name pattern may use ``{date}`` (29.11.2026) and ``{weekday}``.

    >>> cmd = tonight(TournamentConfig(name="Fredagspoker {date}"), dt.date(2026, 11, 27))
    >>> cmd.name, cmd.structure.name, cmd.house.seats_per_table
    ('Fredagspoker 27.11.2026', 'pubpoker', 10)
    """
    house = profile(config.house)
    if house.seats_per_table != config.seats_per_table:
        from dataclasses import replace

        house = replace(house, seats_per_table=config.seats_per_table)
    name = config.name.format(date=today.strftime("%d.%m.%Y"),
                              weekday=today.strftime("%A"))
    return CreateTournament(name, preset(config.preset), house, max_tables=config.tables,
                            resume_after_break=config.resume_after_break)
