"""Bundled DejaVu fonts (Bitstream Vera licence, see ``LICENSE-DejaVu.txt``).

A package only so that setuptools ships the ``.ttf`` files as package data.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

__all__ = ["BOLD", "REGULAR"]

_HERE: Final = Path(__file__).resolve().parent
REGULAR: Final = _HERE / "DejaVuSans.ttf"
BOLD: Final = _HERE / "DejaVuSans-Bold.ttf"
