"""One error family for the rules core.

Every refusal a TD may read is a :class:`RulesError`. A specific error also
inherits the matching built-in (``ValueError``, ``LookupError``...), as
gpiozero does, and carries its own message in every language, so the text
lives next to the rule that raises it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from rules.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    Counted,
    OsReason,
    format_int,
    quote_limit,
    shorten,
)

__all__ = ["RulesError"]


class RulesError(Exception):
    """Base of every refusal from the rules core.

    Subclasses set ``messages``: one ``str.format`` template per language,
    filled from the keyword arguments given when raising.

    >>> class TooMany(RulesError, ValueError):
    ...     messages = {"nn": "For mange: {n}", "nb": "For mange: {n}",
    ...                 "da": "For mange: {n}", "en": "Too many: {n}"}
    >>> err = TooMany(n=10000)
    >>> str(err), err.translate("nn"), err.code
    ('Too many: 10,000', 'For mange: 10 000', 'TooMany')
    >>> isinstance(err, ValueError)
    True
    """

    messages: ClassVar[Mapping[str, str]] = {
        "nn": "Ugyldig handling",
        "nb": "Ugyldig handling",
        "da": "Ugyldig handling",
        "en": "Invalid action",
    }

    def __init__(self, **params: object) -> None:
        self.params: dict[str, object] = params
        super().__init__(self.translate("en"))

    @property
    def code(self) -> str:
        """A stable identifier, used in the log when an event is rejected."""
        return type(self).__name__

    def translate(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The message in ``lang`` (falling back to English for an unknown code)."""
        template = self.messages.get(lang) or self.messages["en"]
        return template.format(**{key: self.render_param(key, value, lang)
                                  for key, value in self.params.items()})

    @staticmethod
    def render_param(key: str, value: object, lang: str) -> object:
        """A parameter as a message shows it: numbers grouped, long text cut short.

        Every value a user typed reaches the message through here, so a pasted
        5,000-character name or a 99 999 999 999 comes back as one short line.

        >>> RulesError.render_param("name", "x" * 50, "en")
        'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'
        >>> RulesError.render_param("n", 10 ** 60, "en")
        '1,000,000,000,000,000,000,000,000,000,00…'
        >>> from rules.i18n import Counted
        >>> RulesError.render_param("left", Counted(1, "player"), "nn")
        '1 spelar'
        """
        if isinstance(value, Counted | OsReason):
            return value.render(lang)
        if isinstance(value, RulesError):  # a refusal given as another's reason
            return value.translate(lang)
        if isinstance(value, int) and not isinstance(value, bool):
            value = format_int(value, lang)
        if isinstance(value, str):
            return shorten(value, quote_limit(key))
        return value

    @classmethod
    def missing_languages(cls) -> tuple[str, ...]:
        """Languages without a template: a catalogue test asserts this is empty."""
        return tuple(lang for lang in LANGUAGES if lang not in cls.messages)
