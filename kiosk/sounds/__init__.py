"""The kiosk's chimes, synthesised here and committed as small WAV files.

``python -m kiosk.sounds`` rewrites the files from this code; a test checks
that the committed files are exactly what it makes, so the WAVs never drift
from their source. A tiny additive synth (a sine with two overtones and an
exponential decay per note) is enough for a bell a pub can hear.
"""

from __future__ import annotations

import math
import struct
import wave
from pathlib import Path
from typing import Final

__all__ = ["CHIMES", "DIRECTORY", "RATE", "path_of", "synth", "write_all"]

DIRECTORY: Final = Path(__file__).resolve().parent
RATE: Final = 22050

#: Chime name → notes as (start s, frequency Hz, length s, loudness 0..1).
CHIMES: Final[dict[str, tuple[tuple[float, float, float, float], ...]]] = {
    # A two-note "ding-dong", down a major third: a new level.
    "level": ((0.0, 659.25, 0.9, 0.6), (0.35, 523.25, 1.1, 0.6)),
    # Three rising notes: the break is over, back to the tables.
    "break_end": ((0.0, 523.25, 0.6, 0.5), (0.22, 659.25, 0.6, 0.5),
                  (0.44, 783.99, 1.0, 0.6)),
    # Two short high pips: one minute left in the level.
    "warning": ((0.0, 1046.5, 0.18, 0.45), (0.28, 1046.5, 0.18, 0.45)),
}


def synth(notes: tuple[tuple[float, float, float, float], ...]) -> bytes:
    """16-bit mono PCM of the notes mixed together."""
    end = max(start + length for start, _, length, _ in notes)
    samples = [0.0] * int(end * RATE)
    for start, freq, length, loud in notes:
        first = int(start * RATE)
        for i in range(int(length * RATE)):
            t = i / RATE
            # A 5 ms attack avoids a click; the decay makes it a bell, not a beep.
            envelope = min(1.0, t / 0.005) * math.exp(-4.0 * t / length)
            wave_ = (math.sin(2 * math.pi * freq * t)
                     + 0.3 * math.sin(4 * math.pi * freq * t)
                     + 0.1 * math.sin(6 * math.pi * freq * t))
            samples[first + i] += loud * envelope * wave_ / 1.4
    peak = max(1.0, max(abs(s) for s in samples))
    return b"".join(struct.pack("<h", round(32767 * 0.9 * s / peak)) for s in samples)


def path_of(name: str) -> Path:
    return DIRECTORY / f"{name}.wav"


def write_all(directory: Path = DIRECTORY) -> list[Path]:
    written = []
    for name, notes in CHIMES.items():
        target = directory / f"{name}.wav"
        with wave.open(str(target), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(RATE)
            out.writeframes(synth(notes))
        written.append(target)
    return written

