"""Run the demo night on the kiosk screens, in a window or headless.

In a window the night runs on the real monotonic clock times ``speed``.
Headless with ``until_finished`` it runs on a :class:`~kiosk.app.ManualTime`
instead, moved by one frame's worth of shared time per loop step, so a whole
night takes seconds, is the same for the same seed, and waits for nothing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from pathlib import Path

from kiosk.app import App
from kiosk.bootstrap import Options, bootstrap
from kiosk.demo.night import DemoNight, NightSettings

__all__ = ["DemoRun", "run_demo", "run_until_finished", "start_demo"]

#: The demo's defaults on top of the kiosk's: fast-forward, screens rotate, a fresh store.
DEMO_OPTIONS = Options(speed=30.0, temp_data=True, rotate_seconds=20.0, max_wait_ms=100,
                       min_wait_ms=30, seed=2026, synchronous="OFF")


@dataclass
class DemoRun:
    app: App
    night: DemoNight
    steps: int = 0
    shots: list[Path] = field(default_factory=list)


def start_demo(options: Options = DEMO_OPTIONS, *, fake: bool = False,
               settings: NightSettings | None = None) -> DemoRun:
    """Bootstrap a kiosk and set up the night on it (players seated, clock running)."""
    app = bootstrap(options, fake=fake)
    seed = 2026 if options.seed is None else options.seed
    night = DemoNight(app.station, random.Random(seed), settings or NightSettings(),
                      inputs=app.inputs)
    # The demo's store is throwaway: checkpoint every few real seconds, not
    # every few shared ones (at --speed 2000 that would be hundreds a second).
    app.station.checkpoint_every *= max(1.0, options.speed)
    night.setup()
    app.loop.settle()
    app.on_tick.append(night.advance)
    return DemoRun(app, night)


def run_until_finished(options: Options = DEMO_OPTIONS, *, step_seconds: float = 10.0,
                       max_shared_seconds: float = 48 * 3600.0,
                       settings: NightSettings | None = None,
                       keep_open: bool = False) -> DemoRun:
    """Play the whole night headless on fake time; returns with a winner (or at the limit).

    Each loop step moves shared time by ``step_seconds``. With ``keep_open``
    the app is left open for the caller to inspect (and close).
    """
    options = replace(options, headless=True)
    run = start_demo(options, fake=True, settings=settings)
    app, night = run.app, run.night
    assert app.time is not None
    speed = max(app.clock.speed, 1e-9)
    start = app.station.now()
    try:
        while not night.done and app.station.now() - start < max_shared_seconds:
            app.time.advance(step_seconds / speed)
            app.loop.step(block=False)
            run.steps += 1
            if not app.loop.running:
                break
        app.loop.step(block=False)
    finally:
        if not keep_open:
            app.close()
    return run


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
