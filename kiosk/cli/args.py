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

The global options (``--data-dir``, ``--lang``, ``--json``: :data:`GLOBAL_OPTIONS`)
may come before or after the command, as in git: the top parser holds their
defaults, and every subparser accepts them again with no default of its own
(argparse's ``SUPPRESS``), so a value given after the command is kept and one
given before it is not overwritten. A command that declares one of them itself
(``add_data_dir``, a ``--json`` of its own) only makes it show in its help.
"""

from __future__ import annotations

import argparse
import functools
import gettext
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Final, NoReturn

from kiosk.cli.help_format import HelpFormatter
from rules.errors import RulesError
from rules.i18n import DEFAULT_LANGUAGE, LANGUAGES, shorten

__all__ = [
    "GLOBAL_OPTIONS",
    "CliParser",
    "NoJsonForm",
    "NotText",
    "check_arguments",
    "check_json",
    "command_of",
    "cut_values",
    "language_of",
    "translate_argparse",
    "words",
]


# argparse asks gettext for its words (titles, "usage: ") on every parser it makes, and
# gettext looks on disk for a catalogue each time: a command's parsers spent a third
# of their making there. The words do not change within a run, so they are looked up once.
if argparse._ is gettext.gettext:  # type: ignore[attr-defined]
    argparse._ = functools.cache(gettext.gettext)  # type: ignore[attr-defined]


class NotText(RulesError, ValueError):
    messages = {
        "nn": "«{arg}» er ikkje tekst i UTF-8 (byte {byte}); skriv det på nytt",
        "nb": "«{arg}» er ikke tekst i UTF-8 (byte {byte}); skriv det på nytt",
        "da": "»{arg}« er ikke tekst i UTF-8 (byte {byte}); skriv det igen",
        "en": "“{arg}” is not UTF-8 text (byte {byte}); type it again",
    }


class NoJsonForm(RulesError, ValueError):
    messages = {
        "nn": ("«{command}» har inga JSON-form, så --json er avvist og ingenting er gjort; "
               "--json verkar med «pubpoker tournament show», «pubpoker tournament list», "
               "«pubpoker players list», «pubpoker standings», «pubpoker results show» og "
               "«pubpoker doctor»"),
        "nb": ("«{command}» har ingen JSON-form, så --json er avvist og ingenting er gjort; "
               "--json virker med «pubpoker tournament show», «pubpoker tournament list», "
               "«pubpoker players list», «pubpoker standings», «pubpoker results show» og "
               "«pubpoker doctor»"),
        "da": ("«{command}» har ingen JSON-form, så --json er afvist, og intet er gjort; "
               "--json virker med «pubpoker tournament show», «pubpoker tournament list», "
               "«pubpoker players list», «pubpoker standings», «pubpoker results show» og "
               "«pubpoker doctor»"),
        "en": ("'{command}' has no JSON form, so --json is refused and nothing was done; "
               "--json works with 'pubpoker tournament show', 'pubpoker tournament list', "
               "'pubpoker players list', 'pubpoker standings', 'pubpoker results show' and "
               "'pubpoker doctor'"),
    }


def check_json(args: argparse.Namespace) -> None:
    """Refuse ``--json`` on a command without a JSON form (issue 44: it was ignored).

    A command has one when its parser declares ``--json`` itself
    (:meth:`CliParser.add_argument`), which marks the namespace it parses.
    """
    if getattr(args, "json", False) and not getattr(args, "json_form", False):
        raise NoJsonForm(command=getattr(args, "command_path", "pubpoker"))


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
    >>> language_of(["tournament", "show", "--lang", "en"], {})  # after the command too
    'en'
    """
    lang = environ.get("PUBPOKER_LANG", DEFAULT_LANGUAGE)
    for i, arg in enumerate(argv):
        if arg == "--":
            break  # what follows is values, not options
        if arg == "--lang" and i + 1 < len(argv):
            lang = argv[i + 1]
        elif arg.startswith("--lang="):
            lang = arg.partition("=")[2]
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE


#: The options every command takes, before or after its name, and whether each takes a value.
GLOBAL_OPTIONS: Final = {"--data-dir": True, "--lang": True, "--json": False}


def command_of(argv: Sequence[str]) -> str | None:
    """The command's name in ``argv``: its first word that is not a global option or its value.

    >>> command_of(["--data-dir", "D", "--lang=en", "tournament", "show"])
    'tournament'
    >>> command_of(["--json", "players", "list"]), command_of(["--help"]), command_of([])
    ('players', None, None)
    """
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--":
            return None
        elif arg.startswith("-"):
            skip = GLOBAL_OPTIONS.get(arg, False)
        else:
            return arg
    return None


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


#: The top parser's words and the global options' help, in every language.
_WORDS: Final = {
    "nn": {
        "description": "Køyr pubpokerturneringar frå ein Raspberry Pi.",
        "epilog": "--data-dir, --lang og --json kan stå før eller etter kommandoen.\n"
                  "Avslutningskode: 0 gjort, 2 avvist eller feil i det som vart skrive "
                  "(grunnen står på stderr), 1 intern feil.",
        "--lang": "språket i meldingane (nn, nb, da, en; standard: nn, eller $PUBPOKER_LANG)",
        "--data-dir": "kvar databasen ligg (standard: $PUBPOKER_DATA_DIR, /data/pubpoker "
                      "på Pi-en, elles ~/.local/share/pubpoker)",
        "--json": "skriv svaret som JSON (der kommandoen har ei JSON-form)",
        "--version": "skriv ut versjonen og avslutt",
        "--help": "vis denne hjelpa og avslutt",
        "usage": "bruk: ", "positionals": "argument", "options": "val",
    },
    "nb": {
        "description": "Kjør pubpokerturneringer fra en Raspberry Pi.",
        "epilog": "--data-dir, --lang og --json kan stå før eller etter kommandoen.\n"
                  "Avslutningskode: 0 utført, 2 avvist eller feil i det som ble skrevet "
                  "(årsaken står på stderr), 1 intern feil.",
        "--lang": "språket i meldingene (nn, nb, da, en; standard: nn, eller $PUBPOKER_LANG)",
        "--data-dir": "hvor databasen ligger (standard: $PUBPOKER_DATA_DIR, /data/pubpoker "
                      "på Pi-en, ellers ~/.local/share/pubpoker)",
        "--json": "skriv svaret som JSON (der kommandoen har en JSON-form)",
        "--version": "skriv ut versjonen og avslutt",
        "--help": "vis denne hjelpen og avslutt",
        "usage": "bruk: ", "positionals": "argumenter", "options": "valg",
    },
    "da": {
        "description": "Kør pubpokerturneringer fra en Raspberry Pi.",
        "epilog": "--data-dir, --lang og --json kan stå før eller efter kommandoen.\n"
                  "Afslutningskode: 0 udført, 2 afvist eller fejl i det indtastede "
                  "(årsagen står på stderr), 1 intern fejl.",
        "--lang": "sproget i beskederne (nn, nb, da, en; standard: nn, eller $PUBPOKER_LANG)",
        "--data-dir": "hvor databasen ligger (standard: $PUBPOKER_DATA_DIR, /data/pubpoker "
                      "på Pi'en, ellers ~/.local/share/pubpoker)",
        "--json": "skriv svaret som JSON (hvor kommandoen har en JSON-form)",
        "--version": "skriv versionen og afslut",
        "--help": "vis denne hjælp og afslut",
        "usage": "brug: ", "positionals": "argumenter", "options": "tilvalg",
    },
    "en": {
        "description": "Run pub poker tournaments from a Raspberry Pi.",
        "epilog": "--data-dir, --lang and --json may come before or after the command.\n"
                  "Exit status: 0 done, 2 refused or bad input (the reason is on stderr), "
                  "1 internal error.",
        "--lang": "language of messages (nn, nb, da, en; default: nn, or $PUBPOKER_LANG)",
        "--data-dir": "where the store lives (default: $PUBPOKER_DATA_DIR, /data/pubpoker "
                      "on the Pi, else ~/.local/share/pubpoker)",
        "--json": "print the answer as JSON (where the command has a JSON form)",
        "--version": "print the version and exit",
        "--help": "show this help message and exit",
        "usage": "usage: ", "positionals": "positional arguments", "options": "options",
    },
}


def words(lang: str) -> Mapping[str, str]:
    """The top parser's description and epilog, the global options' help, in ``lang``.

    >>> words("da")["--version"], words("xx")["usage"]
    ('skriv versionen og afslut', 'usage: ')
    """
    return _WORDS.get(lang, _WORDS["en"])


class _Formatter(HelpFormatter):
    """argparse's words and placeholders in the language asked for
    (:mod:`kiosk.cli.help_format`), and the line breaks a description or
    epilog has kept (each line is still wrapped)."""

    def language(self) -> str:
        return CliParser.language

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(super(_Formatter, self)._fill_text(line, width, indent)
                         for line in text.splitlines())


class CliParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors quote values cut short (exit 2, as argparse's),
    whose headings are translated, and which takes the global options (see the module).

    ``top`` marks the ``pubpoker`` parser itself, which holds the global
    options' defaults; ``stub`` a command's stand-in that is never parsed
    (its module is not imported: see :mod:`kiosk.cli.commands`).
    """

    #: Set from the arguments as the top parser starts, so the type functions of
    #: every subparser (``--size``, ``--speed``) refuse in the language asked for.
    language: ClassVar[str] = DEFAULT_LANGUAGE

    def __init__(self, *args: Any, top: bool = False, stub: bool = False,
                 **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        add_help = kwargs.pop("add_help", True) and not stub
        super().__init__(*args, add_help=False, **kwargs)
        self.top = top
        text = words(CliParser.language)
        self._positionals.title = text["positionals"]
        self._optionals.title = text["options"]
        if add_help:
            self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                              help=text["--help"])
        if stub:
            return
        if not top:
            # The command the namespace ends up naming is the deepest parser's.
            self.set_defaults(command_path=self.prog)
        # The top parser's defaults stand unless an option is given after the command.
        default: Callable[[object], object] = (lambda value: value) if top else (
            lambda value: argparse.SUPPRESS)
        # Shown in a command's help only where the command declares it (add_data_dir).
        hidden = None if top else argparse.SUPPRESS
        super().add_argument("--lang", choices=LANGUAGES, help=text["--lang"],
                             default=default(os.environ.get("PUBPOKER_LANG", DEFAULT_LANGUAGE)))
        super().add_argument("--data-dir", metavar="DIR", default=default(None),
                             help=hidden or text["--data-dir"])
        super().add_argument("--json", action="store_true", default=default(False),
                             help=hidden or text["--json"])

    def add_argument(self, *name_or_flags: str, **kwargs: Any) -> argparse.Action:
        """As argparse's; a global option declared again only shows in the help."""
        for flag in name_or_flags:
            if flag in GLOBAL_OPTIONS and flag in self._option_string_actions:
                if flag == "--json":
                    self.set_defaults(json_form=True)  # this command has a JSON form
                action = self._option_string_actions[flag]
                action.help = words(CliParser.language)[flag]
                return action
        return super().add_argument(*name_or_flags, **kwargs)

    # typeshed overloads this on the namespace's type; ours is always a Namespace.
    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None
                         ) -> tuple[argparse.Namespace, list[str]]:
        if self.top:
            CliParser.language = language_of(sys.argv[1:] if args is None else list(args))
        parsed, extras = super().parse_known_args(args, namespace)
        if self.top and getattr(parsed, "lang", None) not in LANGUAGES:
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
        (r"argument (?P<arg>.+?): expected at least one argument$",
         {"nn": "{arg} treng minst éin verdi", "nb": "{arg} trenger minst én verdi",
          "da": "{arg} skal have mindst én værdi"}),
        (r"argument (?P<arg>.+?): expected at most one argument$",
         {"nn": "{arg} kan ha høgst éin verdi", "nb": "{arg} kan ha høyst én verdi",
          "da": "{arg} må højst have én værdi"}),
        (r"argument (?P<arg>.+?): expected (?P<n>\d+) arguments?$",
         {"nn": "{arg} treng {n} verdiar", "nb": "{arg} trenger {n} verdier",
          "da": "{arg} skal have {n} værdier"}),
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
