"""The ``pubpoker`` command on a data dir, in a language, with the exit status it must give.

Each call is a process of its own running :func:`kiosk.cli.main` on this
checkout's code, forked from a Python that imported the CLI once
(:mod:`tests.forkserver`); one such Python serves a test process.
"""

from __future__ import annotations

import atexit
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.forkserver import ForkServer
from tests.kiosk.store.helpers import ROOT, child_env

__all__ = ["pubpoker"]

_server: list[ForkServer] = []


def _forks() -> ForkServer:
    if not _server or _server[0].proc.poll() is not None:
        if _server:  # it died: no longer counted as running
            _close(_server[0])
        base = Path(tempfile.mkdtemp(prefix="pubpoker-forks-"))
        _server[:] = [ForkServer(base, child_env(), ROOT)]
        atexit.register(_close, _server[0])
    return _server[0]


def _close(server: ForkServer) -> None:
    server.close()
    shutil.rmtree(server.base, ignore_errors=True)


def pubpoker(data: Path, *argv: str, lang: str = "en", code: int = 0
             ) -> subprocess.CompletedProcess[str]:
    # This checkout's code (cwd and PYTHONPATH), whatever the venv's editable install says.
    env = {**child_env(), "PUBPOKER_DATA_DIR": str(data)}
    args = ["--lang", lang, *argv]
    proc = _forks().spawn(args, env, ROOT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode is not None
    done = subprocess.CompletedProcess(["pubpoker", *args], proc.returncode, out, err)
    assert done.returncode == code, (argv, done.stdout, done.stderr)
    return done
