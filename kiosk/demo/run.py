"""Run the demo night on the kiosk screens, in a window or headless.

The night runs on a :class:`~kiosk.timebase.SimulatedTime`: shared time
moves in whole steps of :data:`STEP_SECONDS`, and the night does what is due
at each step (:meth:`DemoNight.advance`), stamped with that step's time. The
store's wall clock is the same time base, from a fixed evening, and the
device and player ids come from the seed, so the same seed writes the same
log, event for event, whatever the window size, the speed or the frame rate.

In a window the steps follow the real monotonic clock times ``speed``
(:func:`~kiosk.timebase.real_time_pacer`); a slow frame takes several steps
at once. Headless with ``until_finished`` nothing waits: each loop step moves
shared time by ``step_seconds``, so a whole night takes seconds.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

from kiosk.app import App
from kiosk.bootstrap import Options, bootstrap
from kiosk.demo.night import DemoNight, NightSettings
from kiosk.store.players import Players
from kiosk.timebase import SimulatedTime, real_time_pacer

__all__ = [
    "DEMO_EVENING",
    "STEP_SECONDS",
    "DemoRun",
    "run_demo",
    "run_until_finished",
    "start_demo",
]

#: The demo's defaults on top of the kiosk's: fast-forward, screens rotate, a fresh store.
DEMO_OPTIONS = Options(speed=30.0, temp_data=True, rotate_seconds=20.0, max_wait_ms=100,
                       min_wait_ms=30, seed=2026, synchronous="OFF")
#: Shared seconds per step of the night: part of what a seed means, so never
#: tied to the frame rate or the speed.
STEP_SECONDS = 1.0
#: The wall clock at the start of every demo night (a Friday, 19:00 in Oslo):
#: the store's ``received_at`` and the night's date count from here.
DEMO_EVENING = datetime(2026, 11, 27, 18, 0, tzinfo=UTC).timestamp()


@dataclass
class DemoRun:
    app: App
    night: DemoNight
    time: SimulatedTime
    steps: int = 0
    shots: list[Path] = field(default_factory=list)


def _id_maker(seed: int) -> Callable[[], str]:
    """Ids shaped like the store's own (12 hex digits), drawn from the seed.

    A stream of its own, so ids never shift the night's draws. A string seeds
    ``random.Random`` through SHA-512, not ``hash()``: the same in every process.
    """
    ids = random.Random(f"pubpoker-demo-ids/{seed}")
    return lambda: f"{ids.getrandbits(48):012x}"


def start_demo(options: Options = DEMO_OPTIONS, *, fake: bool = False,
               settings: NightSettings | None = None) -> DemoRun:
    """Bootstrap a kiosk and set up the night on it (players seated, clock running).

    With ``fake`` the caller moves time (``run.time``, also ``app.time``);
    otherwise the loop keeps it up with the real clock.
    """
    seed = 2026 if options.seed is None else options.seed
    new_id = _id_maker(seed)
    # The station draws tournament ids, seats and buttons with options.seed.
    options = replace(options, seed=seed, device_id=new_id())
    sim = SimulatedTime(speed=max(options.speed, 1e-9), step=STEP_SECONDS,
                        wall_start=DEMO_EVENING)
    app = bootstrap(options, fake=fake, time_base=sim)
    store = app.store
    # Players made here (and at a walk-in's check-in) get ids from the seed too.
    store.players = Players(store.conn, wall=sim.wall, new_id=new_id)
    night = DemoNight(app.station, random.Random(seed), settings or NightSettings(),
                      read_card=app.loop.handle)
    # The demo's store is throwaway: checkpoint every few real seconds, not
    # every few shared ones (at --speed 2000 that would be hundreds a second).
    app.station.checkpoint_every *= max(1.0, options.speed)
    night.setup()
    app.loop.settle()
    sim.on_step.append(night.advance)
    if not fake:
        app.hooks.on_tick.append(real_time_pacer(sim))
    return DemoRun(app, night, sim)


def run_until_finished(options: Options = DEMO_OPTIONS, *, step_seconds: float = 60.0,
                       max_shared_seconds: float = 48 * 3600.0,
                       settings: NightSettings | None = None,
                       keep_open: bool = False) -> DemoRun:
    """Play the whole night headless on simulated time; returns with a winner (or at the limit).

    Each loop step (one frame) moves shared time by ``step_seconds``, in steps
    of :data:`STEP_SECONDS`: it sets how often the screen is drawn, not the
    night. Drawing is most of the cost, and nobody watches a headless run, so
    the default draws one frame per shared minute: a whole night in about 5 s
    on a 2-core PC (every 10 shared seconds took 12 s). With ``keep_open``
    the app is left open for the caller to inspect (and close).
    """
    options = replace(options, headless=True)
    run = start_demo(options, fake=True, settings=settings)
    app, night, sim = run.app, run.night, run.time
    try:
        while not night.done and sim.elapsed < max_shared_seconds:
            _advance_until_done(run, step_seconds)
            app.loop.step(block=False)
            run.steps += 1
            if not app.loop.running:
                break
        app.loop.step(block=False)
    finally:
        if not keep_open:
            app.close()
    return run


def _advance_until_done(run: DemoRun, seconds: float) -> None:
    """Move shared time on by ``seconds``, but no further than the step the night ends in.

    Stepping on past the last bust would leave the last frame (the
    ``--screenshot``) some way into the results' paging, not on their first page.
    """
    target = run.time.elapsed + seconds
    while not run.night.done and run.time.elapsed + STEP_SECONDS <= target + 1e-6:
        run.time.advance_shared(STEP_SECONDS)


def run_demo(options: Options, *, frames: int | None = None, screenshot: str | None = None,
             until_finished: bool = False) -> int:
    """``pubpoker demo``: the night in a window (or headless), until quit or ``frames``."""
    if until_finished and options.headless:
        run = run_until_finished(options, keep_open=True)
        try:
            if screenshot:
                run.app.screenshot(screenshot)
        finally:
            run.app.close()
        return 0 if run.night.done else 1
    run = start_demo(options)
    app = run.app
    try:
        status = app.run(frames=frames,
                         until=(lambda: run.night.done) if until_finished else None)
        if screenshot:
            app.screenshot(screenshot)
    finally:
        app.close()
    return status
