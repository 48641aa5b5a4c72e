"""The options ``pubpoker kiosk`` and ``pubpoker demo`` share: the window's size,
the speed of shared time, the players' page's port and the screenshot's folder,
each refused in the language of ``--lang`` before pygame starts.
"""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path

from kiosk.cli.args import CliParser
from kiosk.cli.bounds import FRAMES_MAX, SPEED_MAX, check_number, check_size
from rules.errors import RulesError

__all__ = ["BadPort", "BadSizeText", "BadSpeed", "ScreenshotFolder", "check_options",
           "parse_port", "parse_size", "parse_speed"]


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


def parse_speed(value: str) -> float:
    """``--speed``: a finite number above 0, refused in the language of ``--lang``.

    >>> parse_speed("60")
    60.0
    >>> CliParser.language = "en"
    >>> parse_speed("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: --speed must be a number above 0 (1 is real time), not “0”
    """
    try:
        speed = float(value)
    except ValueError:
        speed = math.nan
    if not math.isfinite(speed) or speed <= 0:
        raise argparse.ArgumentTypeError(BadSpeed(value=value).translate(CliParser.language))
    return speed


def parse_port(value: str) -> int:
    """``--viewer-port``: 0 (not served) or a TCP port, refused in the language of ``--lang``.

    >>> parse_port("8080"), parse_port("0")
    (8080, 0)
    >>> CliParser.language = "en"
    >>> try:
    ...     parse_port("http")
    ... except argparse.ArgumentTypeError as err:
    ...     print(err)
    --viewer-port must be a port from 1 to 65535, or 0 for none, not “http”
    """
    try:
        port = int(value)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(BadPort(value=value).translate(CliParser.language))
    return port


class BadPort(RulesError, ValueError):
    messages = {
        "nn": "--viewer-port må vere ein port frå 1 til 65535, eller 0 for ingen, ikkje «{value}»",
        "nb": "--viewer-port må være en port fra 1 til 65535, eller 0 for ingen, ikke «{value}»",
        "da": "--viewer-port skal være en port fra 1 til 65535, eller 0 for ingen, ikke »{value}«",
        "en": "--viewer-port must be a port from 1 to 65535, or 0 for none, not “{value}”",
    }


class BadSpeed(RulesError, ValueError):
    messages = {
        "nn": "--speed må vere eit tal over 0 (1 er vanleg tid), ikkje «{value}»",
        "nb": "--speed må være et tall over 0 (1 er vanlig tid), ikke «{value}»",
        "da": "--speed skal være et tal over 0 (1 er almindelig tid), ikke »{value}«",
        "en": "--speed must be a number above 0 (1 is real time), not “{value}”",
    }
