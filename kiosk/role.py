"""A device's roles: the TV display, the TD's console, a table device.

The enum lives in the rules core (:mod:`rules.roles`), which decides what
each role may do; this name stays for the kiosk's many readers.
"""

from __future__ import annotations

from rules.roles import Role, parse_roles

__all__ = ["Role", "parse_roles"]
