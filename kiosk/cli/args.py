"""The command line's parser: argparse's errors with the values they quote cut short.

argparse quotes what was typed whole: a pasted 5,000-character value came
back as a 5,000-character line. Every parser of the CLI (subcommands inherit
the class) is a :class:`CliParser`, whose errors quote each value cut by
:func:`rules.i18n.shorten` (exit 2, as argparse). argparse's own sentences
stay in its English, which scripts and tests read; the sentences of our type
functions (``--size``, ``--speed``) are translated, in the language
``--lang`` or ``$PUBPOKER_LANG`` chose (:attr:`CliParser.language`, read from
the arguments before they are parsed, since an error may come first).

Arguments that are not text at all (bytes that are not UTF-8 reach Python as
lone surrogates, which SQLite cannot store) are refused by
:func:`check_arguments` before any command runs.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final, NoReturn

from rules.errors import RulesError
from rules.i18n import DEFAULT_LANGUAGE, LANGUAGES, shorten

__all__ = ["CliParser", "NotText", "check_arguments", "cut_values", "language_of"]


class NotText(RulesError, ValueError):
    messages = {
        "nn": "«{arg}» er ikkje tekst i UTF-8 (byte {byte}); skriv det på nytt",
        "nb": "«{arg}» er ikke tekst i UTF-8 (byte {byte}); skriv det på nytt",
        "da": "»{arg}« er ikke tekst i UTF-8 (byte {byte}); skriv det igen",
        "en": "“{arg}” is not UTF-8 text (byte {byte}); type it again",
    }


def check_arguments(argv: Sequence[str]) -> None:
    """Refuse an argument with bytes that are not UTF-8 (Python's lone surrogates).

    >>> check_arguments(["players", "add", "Åse"])
    >>> try:
    ...     check_arguments(["players", "add", "Kari\\udcff"])
    ... except NotText as err:
    ...     print(err.translate("en"))
    “Kari�” is not UTF-8 text (byte 0xFF); type it again
    """
    for arg in argv:
        for char in arg:
            if 0xD800 <= ord(char) <= 0xDFFF:
                # surrogateescape keeps an undecodable byte b as U+DC00 + b.
                byte = ord(char) - 0xDC00 if ord(char) >= 0xDC80 else None
                shown = arg.encode("utf-8", "surrogateescape" if byte else "replace")
                raise NotText(arg=shown.decode("utf-8", "replace"),
                              byte=f"0x{byte:02X}" if byte else f"U+{ord(char):04X}")


def language_of(argv: Sequence[str], environ: Mapping[str, str] = os.environ) -> str:
    """The language ``--lang`` (or ``$PUBPOKER_LANG``) asks for, else the default.

    >>> language_of(["--lang", "en", "points"]), language_of(["--lang=da"], {})
    ('en', 'da')
    >>> language_of(["points"], {"PUBPOKER_LANG": "nb"}), language_of([], {"PUBPOKER_LANG": "xx"})
    ('nb', 'nn')
    """
    lang = environ.get("PUBPOKER_LANG", DEFAULT_LANGUAGE)
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            lang = argv[i + 1]
        elif arg.startswith("--lang="):
            lang = arg.partition("=")[2]
        elif not arg.startswith("-"):
            break  # the subcommand: options after it are its own
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE


_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'" + r'|"(?:[^"\\]|\\.)*"')
_UNRECOGNIZED = "unrecognized arguments: "


def cut_values(message: str) -> str:
    """argparse's ``message`` with every value it quotes cut short.

    argparse's own sentences stay as argparse words them (scripts and tests
    read them); only what the user typed is shortened.

    >>> cut_values("argument --entrants: invalid int value: '" + "9x" * 50 + "'")
    "argument --entrants: invalid int value: '9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x…'"
    >>> cut_values("unrecognized arguments: a b c d e f g")
    'unrecognized arguments: a b c d e …'
    """
    if message.startswith(_UNRECOGNIZED):
        # The extra arguments joined by spaces: each cut short, and only the first few.
        parts = [shorten(part) for part in message[len(_UNRECOGNIZED):].split(" ")]
        return _UNRECOGNIZED + " ".join(parts[:5]) + (" …" if len(parts) > 5 else "")
    cut = _QUOTED.sub(lambda m: m[0][0] + shorten(m[0][1:-1]) + m[0][0], message)
    return shorten(cut, 400)


class CliParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors quote values cut short (exit 2, as argparse's)."""

    #: Set from the arguments as the top parser starts, so the type functions of
    #: every subparser (``--size``, ``--speed``) refuse in the language asked for.
    language: ClassVar[str] = DEFAULT_LANGUAGE

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        from kiosk.cli.help_format import HelpFormatter

        # Every subparser too: argparse's words on the help pages in the language asked for.
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    # typeshed overloads this on the namespace's type; ours is always a Namespace.
    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None
                         ) -> tuple[argparse.Namespace, list[str]]:
        if " " not in self.prog:  # the top parser, not "pubpoker players"
            CliParser.language = language_of(sys.argv[1:] if args is None else list(args))
        parsed, extras = super().parse_known_args(args, namespace)
        if " " not in self.prog and getattr(parsed, "lang", None) not in LANGUAGES:
            # $PUBPOKER_LANG=xx is a default, which argparse does not check against choices.
            parsed.lang = DEFAULT_LANGUAGE
        return parsed, extras

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        word, text = translate_argparse(cut_values(message), CliParser.language)
        self.exit(2, f"{self.prog}: {word}: {text}\n")


#: argparse's own refusals (Python 3.11's wording), in every language; the
#: usage line above them stays argparse's, as the option names are the same.
_ARGPARSE: Final[tuple[tuple[re.Pattern[str], dict[str, str]], ...]] = tuple(
    (re.compile(pattern), texts) for pattern, texts in (
        (r"argument (?P<arg>.+?): invalid choice: (?P<value>.+) \(choose from (?P<choices>.+)\)$",
         {"nn": "{arg}: {value} er ikkje eit av vala ({choices})",
          "nb": "{arg}: {value} er ikke et av valgene ({choices})",
          "da": "{arg}: {value} er ikke et af valgene ({choices})"}),
        (r"argument (?P<arg>.+?): invalid (?P<type>\w+) value: (?P<value>.+)$",
         {"nn": "{arg}: {value} er ikkje ein gyldig verdi",
          "nb": "{arg}: {value} er ikke en gyldig verdi",
          "da": "{arg}: {value} er ikke en gyldig værdi"}),
        (r"argument (?P<arg>.+?): expected one argument$",
         {"nn": "{arg} treng ein verdi", "nb": "{arg} trenger en verdi",
          "da": "{arg} skal have en værdi"}),
        (r"argument (?P<arg>.+?): expected (?P<n>.+) arguments?$",
         {"nn": "{arg} treng fleire verdiar ({n})", "nb": "{arg} trenger flere verdier ({n})",
          "da": "{arg} skal have flere værdier ({n})"}),
        (r"argument (?P<arg>.+?): not allowed with argument (?P<other>.+)$",
         {"nn": "{arg} kan ikkje brukast saman med {other}",
          "nb": "{arg} kan ikke brukes sammen med {other}",
          "da": "{arg} kan ikke bruges sammen med {other}"}),
        (r"the following arguments are required: (?P<args>.+)$",
         {"nn": "manglar: {args}", "nb": "mangler: {args}", "da": "mangler: {args}"}),
        (r"one of the arguments (?P<args>.+) is required$",
         {"nn": "eitt av desse trengst: {args}", "nb": "ett av disse trengs: {args}",
          "da": "et af disse skal med: {args}"}),
        (r"unrecognized arguments: (?P<args>.+)$",
         {"nn": "ukjende argument: {args}", "nb": "ukjente argumenter: {args}",
          "da": "ukendte argumenter: {args}"}),
    ))
_ERROR_WORD: Final = {"nn": "feil", "nb": "feil", "da": "fejl", "en": "error"}


def translate_argparse(message: str, lang: str) -> tuple[str, str]:
    """argparse's English refusal in ``lang``: the word "error", and the sentence.

    >>> translate_argparse("argument --role: invalid choice: 'tv' (choose from 'display')", "nn")
    ('feil', "--role: 'tv' er ikkje eit av vala ('display')")
    >>> translate_argparse("the following arguments are required: name", "da")
    ('fejl', 'mangler: navn')
    >>> translate_argparse("the following arguments are required: name", "en")
    ('error', 'the following arguments are required: name')
    """
    word = _ERROR_WORD.get(lang, _ERROR_WORD["en"])
    if lang == "en":
        return word, message
    from kiosk.cli.help_format import argument_names

    for pattern, texts in _ARGPARSE:
        found = pattern.match(message)
        if found is not None and lang in texts:
            # The arguments as the help page names them ("NAMN", not "NAME").
            parts = {key: argument_names(value, lang) if key in ("arg", "args", "other")
                     else value for key, value in found.groupdict().items()}
            return word, texts[lang].format(**parts)
    return word, message
