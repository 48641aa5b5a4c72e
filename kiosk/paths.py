"""Where the kiosk keeps its data.

One directory holds the store (``pubpoker.db``) and everything that must
survive a reboot. The first of these that is set wins:

1. ``--data-dir`` on the command line;
2. ``data_dir`` in the config file;
3. ``$PUBPOKER_DATA_DIR``;
4. ``/data/pubpoker`` when it exists and is writable (the Pi's data partition,
   which stays writable when the root is read-only);
5. the XDG data dir: ``$XDG_DATA_HOME/pubpoker``, else ``~/.local/share/pubpoker``.

:func:`ensure_data_dir` makes the chosen directory and proves it can be
written; one that cannot is a :class:`DataDirUnusable` (translated, so the
CLI and the kiosk print one sentence and exit 2), never a traceback from
deep inside SQLite.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Mapping
from pathlib import Path

from rules.errors import RulesError
from rules.i18n import OsReason

__all__ = [
    "CONFIG_PATH",
    "DB_NAME",
    "PI_DATA_DIR",
    "DataDirFull",
    "DataDirNoPermission",
    "DataDirNotADirectory",
    "DataDirReadOnly",
    "DataDirUnusable",
    "data_dir",
    "db_path",
    "ensure_data_dir",
]

#: The store's file name inside the data dir.
DB_NAME = "pubpoker.db"
PI_DATA_DIR = Path("/data/pubpoker")
#: The appliance's config file (the FAT boot partition on Raspberry Pi OS), where the
#: unit reads it. Named here, not only in :mod:`kiosk.config`, so a command can look
#: for it without importing that module.
CONFIG_PATH = Path("/boot/firmware/pubpoker.toml")


def data_dir(
    cli: str | os.PathLike[str] | None = None,
    config: str | os.PathLike[str] | None = None,
    *,
    env: Mapping[str, str] | None = None,
    pi_dir: Path = PI_DATA_DIR,
) -> Path:
    """The data directory, by the precedence in the module docstring.

    >>> data_dir("/tmp/a", "/tmp/b")
    PosixPath('/tmp/a')
    >>> data_dir(None, "/tmp/b", env={"PUBPOKER_DATA_DIR": "/tmp/c"})
    PosixPath('/tmp/b')
    >>> data_dir(env={"PUBPOKER_DATA_DIR": "/tmp/c"})
    PosixPath('/tmp/c')
    >>> data_dir(env={"XDG_DATA_HOME": "/tmp/x"}, pi_dir=Path("/nonexistent"))
    PosixPath('/tmp/x/pubpoker')
    """
    environ = os.environ if env is None else env
    for chosen in (cli, config, environ.get("PUBPOKER_DATA_DIR") or None):
        if chosen is not None and str(chosen) != "":
            return Path(chosen).expanduser()
    if pi_dir.is_dir() and os.access(pi_dir, os.W_OK | os.X_OK):
        return pi_dir
    xdg = environ.get("XDG_DATA_HOME")
    # The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base / "pubpoker"


def db_path(directory: str | os.PathLike[str]) -> Path:
    """The store's file inside a data dir."""
    return Path(directory) / DB_NAME


class DataDirUnusable(RulesError, OSError):
    """The data dir cannot be made or written, so the store cannot open; nothing was changed."""

    messages = {
        "nn": "Kan ikkje bruke datamappa {path}: {reason}. Vel ei anna med --data-dir "
              "eller data_dir under [device] i pubpoker.toml.",
        "nb": "Kan ikke bruke datamappen {path}: {reason}. Velg en annen med --data-dir "
              "eller data_dir under [device] i pubpoker.toml.",
        "da": "Kan ikke bruge datamappen {path}: {reason}. Vælg en anden med --data-dir "
              "eller data_dir under [device] i pubpoker.toml.",
        "en": "Cannot use the data directory {path}: {reason}. Choose another with "
              "--data-dir or data_dir under [device] in pubpoker.toml.",
    }


class DataDirNotADirectory(DataDirUnusable):
    messages = {
        "nn": "Datamappa {path} kan ikkje lagast: {blocker} er ei fil, ikkje ei mappe. "
              "Vel ei anna med --data-dir eller data_dir under [device] i pubpoker.toml.",
        "nb": "Datamappen {path} kan ikke lages: {blocker} er en fil, ikke en mappe. "
              "Velg en annen med --data-dir eller data_dir under [device] i pubpoker.toml.",
        "da": "Datamappen {path} kan ikke oprettes: {blocker} er en fil, ikke en mappe. "
              "Vælg en anden med --data-dir eller data_dir under [device] i pubpoker.toml.",
        "en": "The data directory {path} cannot be made: {blocker} is a file, not a "
              "directory. Choose another with --data-dir or data_dir under [device] in "
              "pubpoker.toml.",
    }


class DataDirNoPermission(DataDirUnusable):
    messages = {
        "nn": "Brukaren {user} har ikkje lov til å skrive i datamappa {path}. Gje brukaren "
              "løyve, eller vel ei anna mappe med --data-dir eller data_dir under [device] "
              "i pubpoker.toml.",
        "nb": "Brukeren {user} har ikke lov til å skrive i datamappen {path}. Gi brukeren "
              "tillatelse, eller velg en annen mappe med --data-dir eller data_dir under "
              "[device] i pubpoker.toml.",
        "da": "Brugeren {user} må ikke skrive i datamappen {path}. Giv brugeren "
              "tilladelse, eller vælg en anden mappe med --data-dir eller data_dir under "
              "[device] i pubpoker.toml.",
        "en": "The user {user} may not write to the data directory {path}. Give the user "
              "permission, or choose another directory with --data-dir or data_dir under "
              "[device] in pubpoker.toml.",
    }


class DataDirReadOnly(DataDirUnusable):
    messages = {
        "nn": "Datamappa {path} ligg på ein skriveverna disk. Vel ei mappe på ein "
              "skrivbar disk (på Pi-en: /data/pubpoker) med --data-dir eller data_dir "
              "under [device] i pubpoker.toml.",
        "nb": "Datamappen {path} ligger på en skrivebeskyttet disk. Velg en mappe på en "
              "skrivbar disk (på Pi-en: /data/pubpoker) med --data-dir eller data_dir "
              "under [device] i pubpoker.toml.",
        "da": "Datamappen {path} ligger på en skrivebeskyttet disk. Vælg en mappe på en "
              "skrivbar disk (på Pi'en: /data/pubpoker) med --data-dir eller data_dir "
              "under [device] i pubpoker.toml.",
        "en": "The data directory {path} is on a read-only disk. Choose a directory on a "
              "writable disk (on the Pi: /data/pubpoker) with --data-dir or data_dir "
              "under [device] in pubpoker.toml.",
    }


class DataDirFull(DataDirUnusable):
    messages = {
        "nn": "Disken med datamappa {path} er full. Slett noko der, eller vel ei anna "
              "mappe med --data-dir eller data_dir under [device] i pubpoker.toml.",
        "nb": "Disken med datamappen {path} er full. Slett noe der, eller velg en annen "
              "mappe med --data-dir eller data_dir under [device] i pubpoker.toml.",
        "da": "Disken med datamappen {path} er fuld. Slet noget der, eller vælg en anden "
              "mappe med --data-dir eller data_dir under [device] i pubpoker.toml.",
        "en": "The disk holding the data directory {path} is full. Delete something "
              "there, or choose another directory with --data-dir or data_dir under "
              "[device] in pubpoker.toml.",
    }


def _user() -> str:
    try:
        import pwd

        return pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError):
        return str(os.geteuid())


def _blocker(path: Path) -> Path:
    """The first part of ``path`` that exists but is not a directory."""
    for part in (*reversed(path.parents), path):
        if part.exists() and not part.is_dir():
            return part
    return path


def _unusable(path: Path, err: OSError) -> DataDirUnusable:
    code = err.errno
    if code in (errno.ENOTDIR, errno.EEXIST):
        return DataDirNotADirectory(path=str(path), blocker=str(_blocker(path)))
    if code in (errno.EACCES, errno.EPERM):
        return DataDirNoPermission(path=str(path), user=_user())
    if code == errno.EROFS:
        return DataDirReadOnly(path=str(path))
    if code in (errno.ENOSPC, errno.EDQUOT):
        return DataDirFull(path=str(path))
    return DataDirUnusable(path=str(path), reason=OsReason.of(err))


def ensure_data_dir(directory: str | os.PathLike[str]) -> Path:
    """Create the data dir (and parents) if missing and check it takes a file; return it.

    Raises :class:`DataDirUnusable` (one of its kinds) when it cannot be used.
    """
    path = Path(directory)
    try:
        path.mkdir(parents=True, exist_ok=True)
        # os.access() says nothing of a full disk or a read-only bind mount seen
        # by root; making a file does, and it is what the store does next.
        # A random name of our own rather than tempfile's, whose import (shutil,
        # bz2, lzma) cost every command 7 ms; threads of one process probe too.
        probe = path / f".pubpoker-probe-{os.getpid()}-{os.urandom(6).hex()}"
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        os.close(fd)
        os.unlink(probe)
    except OSError as err:
        raise _unusable(path, err) from None
    return path
