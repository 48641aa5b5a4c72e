"""argparse's help pages in the TD's language: ``bruk:``, ``val``, ``NAMN``.

argparse writes its own words (the usage prefix, the section titles, the
``--help`` line) and the placeholders of values (``--seats SEATS``) in
English, whatever ``--lang``. :class:`HelpFormatter` puts them in the
language its :meth:`HelpFormatter.language` says (the parser's subclass
answers with the one read from the arguments before they are parsed), from
:mod:`kiosk.cli.help_words`.
"""

from __future__ import annotations

import argparse
import copy
import os
import re
import sys
from collections.abc import Callable, Iterable
from functools import cache

from kiosk.cli.help_words import ARGPARSE, METAVARS
from rules.i18n import DEFAULT_LANGUAGE

__all__ = ["HelpFormatter", "argparse_word", "argument_names", "metavar"]


def argparse_word(text: str, lang: str) -> str:
    """argparse's own ``text`` in ``lang``, as it is when there is none.

    >>> argparse_word("options", "da"), argparse_word("options", "en"), argparse_word("x", "nn")
    ('tilvalg', 'options', 'x')
    """
    return ARGPARSE.get(text, {}).get(lang, text)


def metavar(name: str, lang: str) -> str:
    """The placeholder ``name`` (``NAME``, or a positional's ``name``) in ``lang``.

    >>> metavar("NAME", "nn"), metavar("name", "da"), metavar("NAME", "en"), metavar("UID", "nb")
    ('NAMN', 'navn', 'NAME', 'UID')
    """
    word = METAVARS.get(name.upper(), {}).get(lang)
    if word is None:
        return name
    return word if name.isupper() else word.lower()


def argument_names(text: str, lang: str) -> str:
    """The arguments an argparse error names (``ACTION``, ``name, --card``) in ``lang``.

    Options stay as they are typed; placeholders are as the help page shows them.

    >>> argument_names("ACTION", "nn"), argument_names("name, --card", "da")
    ('HANDLING', 'navn, --card')
    """
    return re.sub(r"(?<![\w-])(?!-)[\w]+", lambda m: metavar(m[0], lang), text)


@cache
def _terminal_width() -> int:
    """The width argparse would take from :func:`shutil.get_terminal_size`, less 2."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 80
    return (columns or 80) - 2


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter with its own words and the placeholders translated."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        # argparse makes a formatter for every add_argument and asks shutil for
        # the width each time: importing shutil (with bz2 and lzma) cost every
        # command 4 ms, and the width cannot change while one runs.
        super().__init__(prog, indent_increment, max_help_position,
                         _terminal_width() if width is None else width)

    def language(self) -> str:
        """The language the page is written in."""
        return DEFAULT_LANGUAGE

    def add_usage(self, usage: str | None, actions: Iterable[argparse.Action],
                  groups: Iterable[argparse._MutuallyExclusiveGroup],
                  prefix: str | None = None) -> None:
        if prefix is None:
            prefix = argparse_word("usage: ", self.language())
        super().add_usage(usage, actions, groups, prefix)

    def start_section(self, heading: str | None) -> None:
        super().start_section(None if heading is None else argparse_word(heading, self.language()))

    def _expand_help(self, action: argparse.Action) -> str:
        if action.help is not None and action.help in ARGPARSE:
            action = copy.copy(action)
            action.help = argparse_word(action.help, self.language())
        return super()._expand_help(action)

    def _metavar_formatter(self, action: argparse.Action, default_metavar: str
                           ) -> Callable[[int], tuple[str, ...]]:
        # Only a placeholder in capitals (NAME): a command's own name in the list of
        # commands is its metavar too ("config", "players"), and is typed as it is.
        if isinstance(action.metavar, str) and action.metavar.isupper():
            action = copy.copy(action)
            action.metavar = metavar(action.metavar, self.language())
        return super()._metavar_formatter(action, default_metavar)

    def _get_default_metavar_for_optional(self, action: argparse.Action) -> str:
        return metavar(super()._get_default_metavar_for_optional(action), self.language())

    def _get_default_metavar_for_positional(self, action: argparse.Action) -> str:
        return metavar(super()._get_default_metavar_for_positional(action), self.language())
