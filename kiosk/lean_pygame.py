"""Import pygame without the setuptools ``pkg_resources`` it pulls in.

``pygame.pkgdata`` (imported by ``pygame/__init__``) tries ``from pkg_resources
import ...`` and falls back to reading its files from the package directory when
that fails. Importing ``pkg_resources`` scans every installed distribution: about
a fifth of a CPU-second, a third of the kiosk's start-up. Importing this module
first makes that one import fail at once, then lets ``pkg_resources`` be
imported normally by anyone who wants it later.
"""

from __future__ import annotations

import sys

if "pygame" not in sys.modules and "pkg_resources" not in sys.modules:
    sys.modules["pkg_resources"] = None  # type: ignore[assignment]  # "import" raises
    try:
        import pygame  # noqa: F401
    finally:
        del sys.modules["pkg_resources"]
