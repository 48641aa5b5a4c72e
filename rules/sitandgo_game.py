"""A started Sit & Go's own tournament (G3), as the commands that set it going.

Apart from :mod:`rules.sitandgo_start`, which the command deciding a start
uses: the commands built here are of :mod:`rules.commands`, so this module
sits above it and nothing in the rules imports it back.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.commands import CheckIn, Command, CreateTournament, DrawSeats, StartClock
from rules.events import SitAndGoStarted
from rules.sitandgo import SitAndGo
from rules.structure import preset

__all__ = ["game_commands"]


def game_commands(started: SitAndGoStarted, names: Mapping[str, str]
                  ) -> tuple[CreateTournament, tuple[Command, ...]]:
    """The game's own tournament (G3) and what sets it going, for its id.

    Create it under ``started.sit_and_go_id``, then give the rest in order:
    everyone checked in by name, the seats drawn, the clock started.

    >>> e = SitAndGoStarted(at=0.0, sit_and_go_id="t-sng1", player_ids=("a", "b"))
    >>> create, rest = game_commands(e, {"a": "Ann", "b": "Bo"})
    >>> create.name, create.max_tables, [type(c).__name__ for c in rest]
    ('Sit & Go 1', 1, ['CheckIn', 'CheckIn', 'DrawSeats', 'StartClock'])
    """
    game = SitAndGo(started.player_ids)
    number = started.sit_and_go_id.rpartition("-sng")[2]
    create = CreateTournament(f"Sit & Go {number}", preset(game.structure), max_tables=1)
    rest: list[Command] = [CheckIn(p, names.get(p, p)) for p in game.players]
    rest += [DrawSeats(), StartClock()]
    return create, tuple(rest)
