"""``pubpoker demo``: the kiosk window with a demo tournament."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    parser = sub.add_parser("demo", help="open the kiosk window with a demo tournament")
    parser.add_argument("--headless", action="store_true",
                        help="render with SDL's dummy driver (for smoke tests)")
    parser.add_argument("--frames", type=int, default=None,
                        help="stop after drawing this many frames")
    parser.add_argument("--screenshot", default=None, help="save the last frame as a PNG")
    parser.add_argument("--size", default="1280x720", help="window size, WIDTHxHEIGHT")
    parser.add_argument("--fullscreen", action="store_true")
    parser.add_argument("--speed", type=float, default=1.0,
                        help="fast-forward factor for the demo night")
    parser.set_defaults(func=_demo)


def _demo(args: argparse.Namespace) -> int:
    from kiosk.minimal_clock import run

    try:
        width, height = (int(x) for x in args.size.lower().split("x"))
    except ValueError:
        raise SystemExit(
            f"pubpoker demo: --size must look like 1280x720, not {args.size!r}") from None
    return run(lang=args.lang, size=(width, height), fullscreen=args.fullscreen,
               headless=args.headless, frames=args.frames, screenshot=args.screenshot,
               speed=args.speed)
