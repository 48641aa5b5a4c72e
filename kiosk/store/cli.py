"""What the store's CLI commands share: ``--data-dir``, opening the store, output files.

Used by ``kiosk/cli/players_cmd.py``, ``export_cmd.py`` and ``backup_cmd.py``.
The config file's ``data_dir`` is not read here yet: the CLI resolves
``--data-dir`` > ``$PUBPOKER_DATA_DIR`` > ``/data/pubpoker`` > XDG
(:func:`kiosk.paths.data_dir`), and the kiosk passes the config value itself.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from kiosk.paths import data_dir, db_path
from kiosk.store.errors import NoStore, UnreadableFile
from kiosk.store.store import Store, open_store

__all__ = ["add_data_dir", "open_cli_store", "store_path", "write_output"]


def add_data_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data-dir", metavar="DIR", default=None,
        help="where the store lives (default: $PUBPOKER_DATA_DIR, /data/pubpoker on the Pi, "
             "else ~/.local/share/pubpoker)")


def store_path(args: argparse.Namespace, config_dir: str | None = None) -> Path:
    return db_path(data_dir(args.data_dir, config_dir))


def open_cli_store(args: argparse.Namespace, *, must_exist: bool = False) -> Store:
    """Open the store for a command; a damaged file's notice goes to stderr."""
    path = store_path(args)
    if must_exist and not path.exists():
        raise NoStore(path=str(path))
    store = open_store(path)
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
        raise UnreadableFile(path=str(path), reason=err.strerror or str(err)) from None
