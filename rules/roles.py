"""A device's roles: the TV display, the TD's console, a table device.

One device may hold several (``display+console`` on a single Pi). The config,
the controller, peer sync and :mod:`rules.authority` all read this one enum;
it lives in the core because what a role may do is a rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum, unique

from rules.errors import RulesError

__all__ = ["TD_ROLES", "NoRole", "Role", "Roles", "UnknownRole", "parse_roles", "roles_of"]


@unique
class Role(StrEnum):
    DISPLAY = "display"
    CONSOLE = "console"
    TABLE = "table"


#: The TD's devices: they may give every command.
TD_ROLES = frozenset({Role.DISPLAY, Role.CONSOLE})

#: A role as the config or an event's seal spells it, or the parsed set.
Roles = str | Role | Iterable[Role]


class UnknownRole(RulesError, ValueError):
    messages = {
        "nn": "Ukjend rolle for eininga: {text}",
        "nb": "Ukjent rolle for enheten: {text}",
        "da": "Ukendt rolle for enheden: {text}",
        "en": "Unknown device role: {text}",
    }


class NoRole(RulesError, ValueError):
    messages = {
        "nn": "Eininga har inga rolle",
        "nb": "Enheten har ingen rolle",
        "da": "Enheden har ingen rolle",
        "en": "The device has no role",
    }


def parse_roles(text: str) -> frozenset[Role]:
    """``"display"`` or several roles of one device, ``"display+console"``.

    >>> sorted(parse_roles("console+display"))
    [<Role.CONSOLE: 'console'>, <Role.DISPLAY: 'display'>]
    >>> parse_roles("console+bartender")
    Traceback (most recent call last):
    ...
    rules.roles.UnknownRole: Unknown device role: 'console+bartender'
    """
    try:
        roles = frozenset(Role(part) for part in text.split("+") if part)
    except ValueError:
        raise UnknownRole(text=repr(text)) from None
    if not roles:
        raise NoRole()
    return roles


def roles_of(roles: Roles) -> frozenset[Role]:
    """The set of roles, however given: ``"table"``, ``Role.TABLE`` or a set.

    >>> roles_of("table") == roles_of(Role.TABLE) == roles_of([Role.TABLE])
    True
    """
    if isinstance(roles, Role):
        return frozenset({roles})
    if isinstance(roles, str):
        return parse_roles(roles)
    found = frozenset(Role(r) for r in roles)
    if not found:
        raise NoRole()
    return found
