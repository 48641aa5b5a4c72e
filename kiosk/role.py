"""A device's roles: the TV display, the TD's console, a table device.

One device may hold several (``display+console`` on a single Pi). The config,
the controller and peer sync's role check all read this one enum.
"""

from __future__ import annotations

from enum import StrEnum, unique

__all__ = ["Role", "parse_roles"]


@unique
class Role(StrEnum):
    DISPLAY = "display"
    CONSOLE = "console"
    TABLE = "table"


def parse_roles(text: str) -> frozenset[Role]:
    """``"display"`` or several roles of one device, ``"display+console"``.

    >>> sorted(parse_roles("console+display"))
    [<Role.CONSOLE: 'console'>, <Role.DISPLAY: 'display'>]
    """
    try:
        roles = frozenset(Role(part) for part in text.split("+") if part)
    except ValueError as err:
        raise ValueError(f"unknown role in {text!r}") from err
    if not roles:
        raise ValueError("no role")
    return roles
