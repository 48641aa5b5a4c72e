"""``pubpoker backup PATH``: a consistent copy of the store, safe while the kiosk runs."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Final

from kiosk.cli.bounds import is_store_file
from kiosk.cli.help_words import help_text
from kiosk.cli.store_access import add_data_dir, store_path
from kiosk.store.backup import backup
from kiosk.store.errors import BackupFailed, NoStore, StoreError
from rules.i18n import DEFAULT_LANGUAGE, OsReason, count, format_int

__all__ = ["register"]

_TEXT: Final[dict[str, str]] = {
    "nn": "Tryggingskopi skriven til {path} ({events}, {kib} KiB)",
    "nb": "Sikkerhetskopi skrevet til {path} ({events}, {kib} KiB)",
    "da": "Sikkerhedskopi skrevet til {path} ({events}, {kib} KiB)",
    "en": "Backup written to {path} ({events}, {kib} KiB)",
}


class BackupOntoStore(StoreError, OSError):
    messages = {
        "nn": "{path} er ei av fila til databasen; skriv tryggingskopien ein annan stad, "
              "til dømes på ein USB-pinne",
        "nb": "{path} er en av filene til databasen; skriv sikkerhetskopien et annet sted, "
              "for eksempel på en USB-pinne",
        "da": "{path} er en af databasens filer; skriv sikkerhedskopien et andet sted, "
              "for eksempel på en USB-nøgle",
        "en": "{path} is one of the store's files; write the backup somewhere else, "
              "for example to a USB stick",
    }


def register(sub: Any, lang: str = DEFAULT_LANGUAGE) -> None:
    parser = sub.add_parser("backup", help=help_text("backup", lang),
                            description=help_text("backup.description", lang))
    parser.add_argument("path", metavar="PATH", type=Path, help=help_text("backup.path", lang))
    add_data_dir(parser, lang)
    parser.set_defaults(func=_backup)


def _backup(args: argparse.Namespace) -> int:
    source = store_path(args)
    if not source.exists():
        raise NoStore(path=str(source))
    try:
        target = args.path / source.name if args.path.is_dir() else args.path
        if is_store_file(source, target):
            # os.replace onto the live file: a running kiosk would write on into the
            # unlinked old one, and the night after this moment would be lost.
            raise BackupOntoStore(path=str(target))
        report = backup(source, args.path)
    except OSError as err:
        if isinstance(err, StoreError):
            raise
        # A target the file system refuses before the copy starts (a name too long).
        raise BackupFailed(path=str(args.path), reason=OsReason.of(err)) from None
    lang = args.lang if args.lang in _TEXT else DEFAULT_LANGUAGE
    print(_TEXT[lang].format(path=report.path, events=count(report.events, "event", lang),
                             kib=format_int(report.bytes // 1024, lang)))
    return 0
