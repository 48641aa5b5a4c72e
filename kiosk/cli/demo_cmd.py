"""``pubpoker demo``: a whole simulated night on the kiosk screens."""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

from kiosk.cli.help_words import help_text
from kiosk.cli.screen_options import check_options, parse_port, parse_size
from rules.i18n import DEFAULT_LANGUAGE

__all__ = ["register"]


def register(sub: Any, lang: str = DEFAULT_LANGUAGE) -> None:
    def words(key: str) -> str:
        return help_text(key, lang)

    parser = sub.add_parser("demo", help=words("demo"))
    parser.add_argument("--speed", type=float, default=30.0, help=words("demo.speed"))
    parser.add_argument("--seed", type=int, default=2026, help=words("demo.seed"))
    parser.add_argument("--size", type=parse_size, default=(1280, 720), help=words("demo.size"))
    parser.add_argument("--fullscreen", action="store_true", help=words("demo.fullscreen"))
    parser.add_argument("--data-dir", default=None, help=words("demo.data-dir"))
    parser.add_argument("--no-sound", action="store_true", help=words("demo.no-sound"))
    parser.add_argument("--headless", action="store_true", help=words("demo.headless"))
    parser.add_argument("--frames", type=int, default=None, help=words("frames"))
    parser.add_argument("--until-finished", action="store_true",
                        help=words("demo.until-finished"))
    parser.add_argument("--screenshot", default=None, help=words("screenshot"))
    parser.add_argument("--viewer-port", type=parse_port, default=None, metavar="PORT",
                        help=words("demo.viewer-port"))
    parser.set_defaults(func=_demo)


#: Where a windowed demo serves the players' page (a busy port only logs it).
DEMO_VIEWER_PORT = 8080


def _demo(args: argparse.Namespace) -> int:
    check_options(args)
    from kiosk.demo.run import DEMO_OPTIONS, run_demo

    options = replace(
        DEMO_OPTIONS, lang=args.lang, size=args.size, fullscreen=args.fullscreen,
        headless=args.headless, speed=args.speed, seed=args.seed, data_dir=args.data_dir,
        temp_data=args.data_dir is None, sound=not args.no_sound and not args.headless,
        # A window is for someone to try it, phone in hand; a headless run (the
        # README's, the tests') draws the same frames wherever it runs.
        viewer_port=(DEMO_VIEWER_PORT if args.viewer_port is None and not args.headless
                     else args.viewer_port or None))
    return run_demo(options, frames=args.frames, screenshot=args.screenshot,
                    until_finished=args.until_finished)
