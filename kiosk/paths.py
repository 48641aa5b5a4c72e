"""Where the kiosk keeps its data.

One directory holds the store (``pubpoker.db``) and everything that must
survive a reboot. The first of these that is set wins:

1. ``--data-dir`` on the command line;
2. ``data_dir`` in the config file;
3. ``$PUBPOKER_DATA_DIR``;
4. ``/data/pubpoker`` when it exists and is writable (the Pi's data partition,
   which stays writable when the root is read-only);
5. the XDG data dir: ``$XDG_DATA_HOME/pubpoker``, else ``~/.local/share/pubpoker``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

__all__ = ["DB_NAME", "PI_DATA_DIR", "data_dir", "db_path", "ensure_data_dir"]

#: The store's file name inside the data dir.
DB_NAME = "pubpoker.db"
PI_DATA_DIR = Path("/data/pubpoker")


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


def ensure_data_dir(directory: str | os.PathLike[str]) -> Path:
    """Create the data dir (and parents) if missing; return it as a Path."""
    path = Path(directory)
    path.mkdir(parents=True, exist_ok=True)
    return path
