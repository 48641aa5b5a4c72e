"""The README's first command opens a real window: rendered here under SDL's dummy driver."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_demo_renders_the_running_clock_headless(tmp_path: Path) -> None:
    shot = tmp_path / "demo.png"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    result = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "demo", "--headless", "--frames", "2",
         "--screenshot", str(shot)], check=True, env=env, timeout=60, capture_output=True,
        text=True)
    assert "pygame" not in result.stdout  # no greeting on the CLI's stdout
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    image = pygame.image.load(str(shot))
    assert image.get_size() == (1280, 720)
    # The digits are drawn in white on black: a good share of the clock band is lit.
    lit = sum(1 for x in range(0, 1280, 4) for y in range(240, 460, 4)
              if image.get_at((x, y))[:3] == (255, 255, 255))
    assert lit > 500
