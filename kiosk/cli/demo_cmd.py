"""``pubpoker demo``: a whole simulated night on the kiosk screens."""

from __future__ import annotations

import argparse
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from kiosk.cli.args import CliParser
from kiosk.cli.bounds import FRAMES_MAX, SPEED_MAX, check_number, check_size
from rules.errors import RulesError

__all__ = ["check_options", "parse_size", "register"]


def parse_size(value: str) -> tuple[int, int]:
    """``"1280x720"`` → ``(1280, 720)``; the range is checked by :func:`check_options`.

    >>> parse_size("1920X1080")
    (1920, 1080)
    """
    try:
        width, height = (int(x) for x in value.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            BadSizeText(value=value).translate(CliParser.language)) from None
    return width, height


class BadSizeText(RulesError, ValueError):
    messages = {
        "nn": "«{value}» er ikkje ein storleik; skriv BREIDDxHØGD, til dømes 1280x720",
        "nb": "«{value}» er ikke en størrelse; skriv BREDDExHØYDE, for eksempel 1280x720",
        "da": "»{value}« er ikke en størrelse; skriv BREDDExHØJDE, for eksempel 1280x720",
        "en": "“{value}” is not a size; write WIDTHxHEIGHT, for example 1280x720",
    }


def check_options(args: argparse.Namespace) -> None:
    """The window and the run fit what pygame and a night can do, before pygame starts."""
    if args.size is not None:
        check_size(args.size)
    if args.frames is not None:
        check_number("--frames", args.frames, 0, FRAMES_MAX)
    if args.speed is not None:
        check_number("--speed", args.speed, 0.01, SPEED_MAX)
    if args.screenshot:
        # pygame.image.save fails only after the whole run, with its own error.
        folder = Path(args.screenshot).parent
        if not folder.is_dir() or not os.access(folder, os.W_OK):
            raise ScreenshotFolder(path=str(folder))


class ScreenshotFolder(RulesError, OSError):
    messages = {
        "nn": "--screenshot: mappa {path} finst ikkje eller kan ikkje skrivast i",
        "nb": "--screenshot: mappen {path} finnes ikke eller kan ikke skrives til",
        "da": "--screenshot: mappen {path} findes ikke eller kan ikke skrives i",
        "en": "--screenshot: the folder {path} does not exist or cannot be written to",
    }


def register(sub: Any, lang: str = "nn") -> None:
    parser = sub.add_parser(
        "demo", help="a whole simulated night in fast-forward on the kiosk screens")
    parser.add_argument("--speed", type=float, default=30.0,
                        help="fast-forward factor for shared time (default 30)")
    parser.add_argument("--seed", type=int, default=2026,
                        help="seed for names, seats and cards: the same seed, the same night")
    parser.add_argument("--size", type=parse_size, default=(1280, 720),
                        help="window size, WIDTHxHEIGHT (default 1280x720)")
    parser.add_argument("--fullscreen", action="store_true")
    parser.add_argument("--data-dir", default=None,
                        help="keep the night in this data dir (default: a fresh temporary one)")
    parser.add_argument("--no-sound", action="store_true", help="no chimes")
    parser.add_argument("--headless", action="store_true",
                        help="render with SDL's dummy drivers, without a window")
    parser.add_argument("--frames", type=int, default=None,
                        help="stop after this many frames (loop iterations)")
    parser.add_argument("--until-finished", action="store_true",
                        help="stop when the night has a winner (headless: on fake time, fast)")
    parser.add_argument("--screenshot", default=None, help="save the last frame as a PNG")
    parser.set_defaults(func=_demo)


def _demo(args: argparse.Namespace) -> int:
    check_options(args)
    from kiosk.demo.run import DEMO_OPTIONS, run_demo

    options = replace(
        DEMO_OPTIONS, lang=args.lang, size=args.size, fullscreen=args.fullscreen,
        headless=args.headless, speed=args.speed, seed=args.seed, data_dir=args.data_dir,
        temp_data=args.data_dir is None, sound=not args.no_sound and not args.headless)
    return run_demo(options, frames=args.frames, screenshot=args.screenshot,
                    until_finished=args.until_finished)
