"""``pubpoker demo``: a whole simulated night on the kiosk screens."""

from __future__ import annotations

import argparse
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from kiosk.cli.args import CliParser
from kiosk.cli.bounds import FRAMES_MAX, SPEED_MAX, check_number, check_size
from kiosk.cli.help_words import help_text
from rules.errors import RulesError
from rules.i18n import DEFAULT_LANGUAGE

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
    parser.add_argument("--viewer-port", type=_port, default=None, metavar="PORT",
                        help=words("demo.viewer-port"))
    parser.set_defaults(func=_demo)


def _port(text: str) -> int:
    from kiosk.cli.kiosk_cmd import parse_port

    return parse_port(text)


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
