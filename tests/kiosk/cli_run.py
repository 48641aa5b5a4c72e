"""The real ``pubpoker`` command on a data dir, in a language, with the exit status it must give."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.kiosk.store.helpers import ROOT, child_env

__all__ = ["pubpoker"]


def pubpoker(data: Path, *argv: str, lang: str = "en", code: int = 0
             ) -> subprocess.CompletedProcess[str]:
    # This checkout's code (cwd and PYTHONPATH), whatever the venv's editable install says.
    env = {**child_env(), "PUBPOKER_DATA_DIR": str(data)}
    done = subprocess.run([sys.executable, "-m", "kiosk.cli", "--lang", lang, *argv],
                          env=env, cwd=ROOT, text=True, capture_output=True, timeout=60)
    assert done.returncode == code, (argv, done.stdout, done.stderr)
    return done
