"""What the store's CLI commands share: ``--data-dir``, opening the store, output files.

Used by ``kiosk/cli/players_cmd.py``, ``export_cmd.py`` and ``backup_cmd.py``.
The data dir is ``--data-dir``, else ``[device] data_dir`` of the appliance's
``pubpoker.toml`` (when that file exists), else as :func:`kiosk.paths.data_dir`
decides: ``$PUBPOKER_DATA_DIR``, ``/data/pubpoker``, the XDG data dir.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from kiosk import paths
from kiosk.cli.help_words import help_text
from kiosk.paths import data_dir, db_path
from kiosk.store.errors import NoStore, UnreadableFile
from kiosk.store.store import Store, open_store
from rules.i18n import DEFAULT_LANGUAGE, OsReason

__all__ = ["add_data_dir", "open_cli_store", "store_path", "write_output"]


def add_data_dir(parser: argparse.ArgumentParser, lang: str = DEFAULT_LANGUAGE) -> None:
    parser.add_argument("--data-dir", metavar="DIR", default=None,
                        help=help_text("data-dir", lang))


def _config_data_dir() -> Path | None:
    """``[device] data_dir`` from the appliance's config file, if there is one.

    A broken config is reported (translated) rather than silently skipped:
    the kiosk itself would refuse it too.
    """
    # Looked for before kiosk.config is imported: a terminal off the appliance has
    # no such file, and importing that module is a fifth of a command's start-up
    # (the Friday night's thousand commands, the TD's every command on a Pi).
    path = paths.CONFIG_PATH
    if not path.exists():
        return None
    from kiosk import config

    return config.load_config(path).device.data_dir


def store_path(args: argparse.Namespace) -> Path:
    if args.data_dir:
        return db_path(data_dir(args.data_dir))
    return db_path(data_dir(None, _config_data_dir()))


def open_cli_store(args: argparse.Namespace, *, must_exist: bool = False,
                   to_read: bool = False) -> Store:
    """Open the store for a command; a damaged file's notice goes to stderr.

    ``to_read``: the command only reads, so on a full disk the store is opened
    as it is (:func:`kiosk.store.open.open_database`) and the command works.
    """
    path = store_path(args)
    if must_exist and not path.exists():
        raise NoStore(path=str(path))
    store = open_store(path, to_read=to_read)
    for notice in store.warnings:
        print(notice.translate(args.lang), file=sys.stderr)
    return store


def write_output(text: str, path: Path | None, stdout: TextIO) -> None:
    if path is None:
        stdout.write(text)
        return
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as err:
        raise UnreadableFile(path=str(path), reason=OsReason.of(err)) from None
