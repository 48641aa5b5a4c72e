"""What runs beside the loop's own work: one registry, handed to the loop when it is built.

Some parts of a kiosk watch the loop rather than feed it, so they are made
after it: the status file reads what the wall shows, the phones' page folds
the night after every other hook's turn, the pause ledger reads the counters
of sync and the page. They register here, on the registry the bootstrap made
and handed to the loop (``app.hooks``), never on the loop's own attributes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

__all__ = ["Deadline", "Hooks", "StatusSource", "Tick"]

#: Called once a turn on the loop's thread; the effects it returns the loop
#: carries out like the controls' (a :class:`~kiosk.controls.effects.Settle`),
#: None is nothing to show.
Tick = Callable[[], Sequence[object] | None]
#: The monotonic time some part must be polled by, or None (nothing due).
Deadline = Callable[[], float | None]
#: More warnings for the status band, in a language.
StatusSource = Callable[[str], Sequence[str]]


@dataclass
class Hooks:
    """The loop's observers, in the order they run."""

    #: Each turn, after the queued inputs: sync's replicator, the store followers,
    #: the status file, the phones' page, the night (last).
    on_tick: list[Tick] = field(default_factory=list)
    #: When the sleeping loop must wake for a hook (the status file's next write).
    deadlines: list[Deadline] = field(default_factory=list)
    #: The status band's warnings beyond the store's and the station's.
    status_sources: list[StatusSource] = field(default_factory=list)
