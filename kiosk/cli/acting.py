"""What the TD's acting commands share: the station, the command path, names.

``undo_cmd.py`` and ``table_cmd.py`` (and ``td_cmd.py``'s lookups) act
through one :class:`~kiosk.station.Station`, as the buttons do, and find a
player the TD typed the one way :func:`rules.names.pick_by_name` says.
Imports of the station and the store stay inside the functions, so building
the parser for ``--help`` costs nothing.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from rules.names import AmbiguousPlayer, pick_by_name

if TYPE_CHECKING:
    from kiosk.station import Station
    from rules.commands import Command
    from rules.events import Record
    from rules.state import Tournament

__all__ = ["CardWords", "NameWords", "run", "station", "tournament_player"]


class CardWords(argparse.Action):
    """A card UID as typed, spaces and all (``4111 1111 1111 1111``, ``0A 1B 2C 3D 4E``).

    Taken as one value (``nargs="+"``, joined by spaces), so a number typed
    in groups reaches the card checks, which refuse a bank card without
    repeating it, instead of argparse quoting its groups back as
    "unrecognized arguments".
    """

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        words = values if isinstance(values, list) else [values]
        setattr(namespace, self.dest, " ".join(str(w) for w in words))


class NameWords(CardWords):
    """A player's name typed without quotes (``pubpoker bust Jonas Gahr``): its words
    joined by one space, as the one name they make (issue 44). Only for a command
    whose other arguments are options, so no other reading of the words makes sense."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        if values is None or values == [] or values == "":
            setattr(namespace, self.dest, None)  # ``checkin --card ...``: no name typed
        else:
            super().__call__(parser, namespace, values, option_string)
        # How many words were typed: "Ada Bo" in quotes is one name, Ada Bo maybe two.
        setattr(namespace, f"{self.dest}_words", len(values) if isinstance(values, list) else 1)
        # The words as typed, for ``bust --same-hand``: there each one is a player.
        each = values if isinstance(values, list) else [] if values is None else [values]
        setattr(namespace, f"{self.dest}_each", [" ".join(str(w).split()) for w in each])


@contextmanager
def station(args: argparse.Namespace) -> Iterator[Station]:
    """This device's station on the store ``--data-dir`` names, in the kiosk's shared time."""
    import random

    from kiosk.cli.store_access import open_cli_store
    from kiosk.station import Station
    from kiosk.store.snapshot import CLI_SNAPSHOT_AFTER
    from kiosk.timebase import SharedClock

    opened = Station(open_cli_store(args), SharedClock(), rng=random.Random())
    try:
        opened.join_local_time()
        yield opened
    finally:
        opened.close(snapshot_after=CLI_SNAPSHOT_AFTER)


def run(on: Station, command: Command) -> tuple[Record, ...]:
    """Submit ``command``; its refusal is raised (the CLI prints it, exit 2)."""
    from rules.refusals import NoTournament

    if on.tournament_id is None:
        raise NoTournament()
    outcome = on.submit(command)
    if outcome.refusal is not None:
        raise outcome.refusal
    return outcome.records


def tournament_player(state: Tournament, typed: str) -> str:
    """The id of tonight's player the TD means: an id, the name in any case, or the
    unique start of one; refuses an unknown name and lists an ambiguous one's."""
    from rules.refusals import UnknownPlayer

    if typed in state.players:
        return typed
    found = pick_by_name(typed, [(p, e.name) for p, e in state.players.items()],
                         ambiguous=AmbiguousPlayer)
    if found is None:
        raise UnknownPlayer(player=typed)
    return found
