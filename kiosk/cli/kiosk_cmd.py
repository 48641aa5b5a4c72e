"""``pubpoker kiosk --config PATH``: the appliance, fullscreen, from its config file.

The device's role, language, data dir, sound and fullscreen come from
``pubpoker.toml`` through :func:`kiosk.config.load_config`. ``--role`` and
``--data-dir`` override the file, and they are all a device needs when it
is run without one (a laptop at the TD's desk, a test). There is no
simulation: the clock is checkpointed every few seconds, a device that
starts alone restores a running clock paused (``station.cold_start``),
and the loop feeds systemd's watchdog. Straight to the screen (SDL's kmsdrm
driver) it opens the display only once a TV reports a screen mode
(:mod:`kiosk.hdmi`); until then everything else runs (the store, peer sync,
buttons, readers), systemd hears ``READY=1`` with a ``STATUS=`` that says it
waits, and the watchdog is fed. It waits as long as it takes and never exits
for want of a TV. ``$PUBPOKER_DRM_ROOT`` (tests) points the wait at a fake
``/sys/class/drm`` and makes it wait under any SDL driver.

``--speed`` fast-forwards shared time (a soak test runs a night at 60×).
Every device of one night must run at the same speed: time sync measures
each peer's offset to the reference in shared seconds, and two devices whose
shared time runs at different rates drift apart between samples.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kiosk.cli.help_words import help_text
from kiosk.cli.screen_options import check_options, parse_port, parse_size, parse_speed
from kiosk.role import parse_roles
from rules.i18n import DEFAULT_LANGUAGE

__all__ = ["register"]


def register(sub: Any, lang: str = DEFAULT_LANGUAGE) -> None:
    def words(key: str) -> str:
        return help_text(key, lang)

    parser = sub.add_parser("kiosk", help=words("kiosk"))
    parser.add_argument("--config", type=Path, default=None, help=words("kiosk.config"))
    parser.add_argument("--role", default=None, help=words("kiosk.role"))
    parser.add_argument("--data-dir", default=None, help=words("kiosk.data-dir"))
    parser.add_argument("--size", type=parse_size, default=None, help=words("kiosk.size"))
    parser.add_argument("--headless", action="store_true", help=words("kiosk.headless"))
    parser.add_argument("--frames", type=int, default=None, help=words("frames"))
    parser.add_argument("--screenshot", default=None, help=words("screenshot"))
    parser.add_argument("--speed", type=parse_speed, default=1.0, help=words("kiosk.speed"))
    parser.add_argument("--viewer-port", type=parse_port, default=None, metavar="PORT",
                        help=words("kiosk.viewer-port"))
    parser.set_defaults(func=_kiosk)


def _source(args: argparse.Namespace) -> tuple[Any, dict[str, Any]]:
    """The config (or the options without one) and the command line's overrides."""
    from kiosk.bootstrap import Options, options_from_config

    if args.config is not None:
        from kiosk.config import load_config

        source: Any = load_config(args.config)
        options = options_from_config(source)
    else:
        source = options = Options(fullscreen=True, watchdog=True, lang=args.lang)
    overrides: dict[str, Any] = {"headless": args.headless, "speed": args.speed,
                                 "sound": options.sound and not args.headless}
    if args.viewer_port is not None:
        overrides["viewer_port"] = args.viewer_port or None
    if args.role is not None:
        overrides["role"] = args.role
    if args.data_dir is not None:
        overrides["data_dir"] = args.data_dir
    if args.size is not None or args.headless:
        overrides.update(fullscreen=False, size=args.size or options.size)
    return source, overrides


def _kiosk(args: argparse.Namespace) -> int:
    import signal

    from kiosk.bootstrap import bootstrap, open_screen, resolve_options, wait_for_screen
    from kiosk.hdmi import wait_root
    from kiosk.logbound import install as bound_the_log

    # A whole night's process: no repeating fault may fill the journal or the disk.
    bound_the_log()
    # Before the config, the store or pygame: a window SDL cannot make fails there.
    check_options(args)
    if args.role is not None:
        # An unknown role was dropped without a word: a device that is nothing.
        parse_roles(args.role)
    source, overrides = _source(args)
    # Straight to the screen (KMSDRM): SDL's video waits for a TV that reports a mode.
    root = wait_root(headless=args.headless)
    display = getattr(source, "display", None)
    connector: str | None = getattr(display, "connector", None)
    # A config goes in as it is, so its buttons, card reader and peer sync are attached.
    app = bootstrap(source, overrides=overrides, screen=root is None,
                    flow=night(args, source, overrides))
    try:
        begin(app, args, source)
        # systemd's stop (SIGTERM) and Ctrl-C end the loop like q twice: a clean stop.
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: app.loop.stop())
        if root is not None:
            options = resolve_options(source, overrides)
            shown = wait_for_screen(app, root, connector=connector, notify=options.watchdog)
            if shown is None:
                _stopped(app)
                return 0
            open_screen(app, options, root=root, connector=shown)
        app.loop.settle()
        status = app.run(frames=args.frames)
        if args.screenshot:
            app.screenshot(args.screenshot)
        _stopped(app)
    except Exception as err:
        from kiosk.last_exit import record

        # systemd starts it again; the next start says on the wall why it stopped.
        record(app.data_dir, err)
        raise
    finally:
        app.close()
    return status


def night(args: argparse.Namespace, source: Any,
          overrides: dict[str, Any]) -> Callable[[Any], Any] | None:
    """The night's flow (kiosk/night.py) to build the kiosk with, on every device but
    a table: tonight's tournament at power-on on the TD's box, the check-in screen,
    names typed, NEW, help. Without a config, the defaults a config gives: one
    kiosk, not two."""
    from kiosk.bootstrap import resolve_options
    from kiosk.night import night_for

    if "table" in resolve_options(source, overrides).role.split("+"):
        return None
    return night_for(source if args.config is not None else None)


def begin(app: Any, args: argparse.Namespace, source: Any) -> None:
    """Everything ``pubpoker kiosk`` does between building the app and its loop.

    The clock after a cut or a clean stop, the run record, and the power-on of
    the night the kiosk was built with (:func:`night`), if any.
    """
    from kiosk import last_stop
    from kiosk.night import start_night

    # The clock checkpoint is due every few shared seconds; fast-forwarded, keep it
    # every few real ones (at 60× it would be a synchronous write a dozen times a
    # second, which a soak would count as the appliance's cost). A power cut then
    # loses up to that many real seconds of the clock, as it does at real time.
    app.station.checkpoint_every *= max(1.0, app.clock.speed)
    roles = str(app.station.role or "").split("+")
    # Recorded, not guessed (kiosk/last_stop.py): only a kiosk that never said
    # it stopped was cut; after a clean stop, or a clock the terminal started,
    # the log is exact and the clock goes on as it says.
    last = last_stop.read(app.data_dir)
    if last.kind == "clean":
        app.station.continue_time(base=last.base if last.same_boot else None,
                                  speed=last.speed, at_least=last.shared)
    elif last.kind == "none":
        base, speed = app.station.saved_time()
        app.station.continue_time(base=base, speed=speed)
    # Only the display or console emits clock events: a table device that comes
    # back alone must not restore the clock (peers refuse it, and every later
    # event of the table would wait behind the refused one).
    app.station.cold_start(peers_present=False, cut=last.kind == "cut",
                           owns_clock=bool({"display", "console"} & set(roles)))
    last_stop.mark_running(app.data_dir)
    start_night(app)


def _stopped(app: Any) -> None:
    """Record a clean stop, with the shared time it stopped at (kiosk/last_stop.py)."""
    from kiosk import last_stop

    clock = app.clock
    last_stop.mark_stopped(app.data_dir, shared=clock.now(), base=clock.base, speed=clock.speed)
