"""The two reference loops a kiosk's CPU is measured against, as processes of their own.

``python -m tests.bench.ref_loops floor|naive --size 1920x1080`` (with SDL's
dummy drivers in the environment, as the kiosk has them) runs until SIGTERM:

- **floor**: the least a clock can cost. It sleeps to the next whole second
  (``time.sleep``), renders the digits with one large font and updates only
  their rectangle: one wake, one render and one small update a second, and
  nothing else;
- **naive**: a pygame tutorial's loop. Sixty times a second (``clock.tick(60)``)
  it fills the whole screen, renders the big digits and a few lines of text
  and flips.

It prints one JSON line when it starts (the pygame and SDL versions and the
video driver, so a bench shows what it measured) and one when it stops (the
frames drawn and the seconds it ran, so a bench can tell a naive loop that
could not keep up from one that did). Only pygame is imported: it runs under
any venv the bench is pointed at (``PUBPOKER_BENCH_PYTHON``).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

__all__ = ["main"]

#: The kiosk's own bold face, so glyph rendering costs what the kiosk's would.
FONT = Path(__file__).resolve().parents[2] / "kiosk" / "fonts" / "DejaVuSans-Bold.ttf"
BLACK = (0, 0, 0)
WHITE = (255, 255, 255)
YELLOW = (255, 210, 0)


def _digits(t: float) -> str:
    """A level's time left, counting down from 20:00 and starting over."""
    left = 1200 - int(t) % 1200
    return f"{left // 60:02d}:{left % 60:02d}"


def floor(screen: pygame.Surface, stop: list[bool]) -> int:
    width, height = screen.get_size()
    big = pygame.font.Font(str(FONT), int(height * 0.40))
    frames = 0
    box = pygame.Rect(0, 0, 0, 0)
    while not stop[0]:
        now = time.time()
        time.sleep(max(0.0, (int(now) + 1) - now))
        if stop[0]:
            break
        pygame.event.pump()
        digits = big.render(_digits(time.time()), True, WHITE, BLACK)
        rect = digits.get_rect(center=(width // 2, height // 2))
        dirty = rect.union(box) if box.width else rect
        screen.fill(BLACK, dirty)
        screen.blit(digits, rect)
        pygame.display.update([dirty])
        box = rect
        frames += 1
    return frames


def naive(screen: pygame.Surface, stop: list[bool]) -> int:
    width, height = screen.get_size()
    big = pygame.font.Font(str(FONT), int(height * 0.40))
    small = pygame.font.Font(str(FONT), int(height * 0.07))
    clock = pygame.time.Clock()
    frames = 0
    lines = ("Fredagspoker 27.11.2026", "Level 3   200/400", "Next: 300/600",
             "Players 42/54   Average 27 000")
    while not stop[0]:
        for _ in pygame.event.get():
            pass
        screen.fill(BLACK)
        screen.blit(small.render(lines[0], True, WHITE), (40, 20))
        screen.blit(small.render(lines[1], True, YELLOW), (40, int(height * 0.12)))
        digits = big.render(_digits(time.time()), True, WHITE)
        screen.blit(digits, digits.get_rect(center=(width // 2, height // 2)))
        screen.blit(small.render(lines[2], True, WHITE), (40, int(height * 0.80)))
        screen.blit(small.render(lines[3], True, WHITE), (40, int(height * 0.90)))
        pygame.display.flip()
        clock.tick(60)
        frames += 1
    return frames


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=("floor", "naive"))
    parser.add_argument("--size", default="1920x1080")
    args = parser.parse_args(argv)
    width, height = (int(n) for n in args.size.lower().split("x"))
    stop = [False]

    def on_term(signum: int, frame: object) -> None:
        stop[0] = True

    signal.signal(signal.SIGTERM, on_term)
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((width, height))
    print(json.dumps({"kind": args.kind, "pygame": pygame.version.ver,
                      "sdl": ".".join(map(str, pygame.get_sdl_version())),
                      "driver": pygame.display.get_driver(), "python": sys.version.split()[0],
                      "size": [width, height]}), flush=True)
    began = time.monotonic()
    frames = (floor if args.kind == "floor" else naive)(screen, stop)
    print(json.dumps({"frames": frames, "seconds": time.monotonic() - began}), flush=True)
    pygame.quit()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
