"""The appliance shell: config, store, sync, display, CLI and the bootstrap."""

import os

# Before pygame's first import, on every path to it (the kiosk through
# kiosk.lean_pygame, the table device, the demo): every one passes through
# this package first, and pygame would greet stdout, which the CLI owns.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

#: The one place the version is written (pyproject.toml reads it from here).
__version__ = "0.1.0"
