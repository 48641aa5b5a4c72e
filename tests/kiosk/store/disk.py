"""Real small disks for the storage tests: a tmpfs mounted for the test, filled or made read-only.

Mounting needs root on Linux; without it the tests that use these skip,
as the network-namespace tests do.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.kiosk.store.helpers import ROOT, child_env

__all__ = ["fill", "pubpoker", "remount", "tmpfs", "use_up_inodes"]


@contextmanager
def tmpfs(size: str = "2m", *, inodes: int | None = None) -> Iterator[Path]:
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root on Linux")
    where = Path(tempfile.mkdtemp(prefix="pubpoker-disk-"))
    options = f"size={size},mode=0755" + (f",nr_inodes={inodes}" if inodes else "")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        where.rmdir()
        pytest.skip(f"cannot mount a tmpfs: {done.stderr.strip()}")
    try:
        yield where
    finally:
        # A test that failed may leave a child (or the pytest process itself)
        # holding a file there: detach lazily rather than leave the mount behind.
        if subprocess.run(["umount", str(where)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(where)], capture_output=True)
        with contextlib.suppress(OSError):
            where.rmdir()


def remount(where: Path, mode: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{mode}", str(where)], check=True)


def fill(where: Path, name: str = "filler") -> Path:
    """Write zeros into ``where`` until not one more byte fits."""
    path = where / name
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        chunk = 1 << 16
        while chunk:
            try:
                os.write(fd, b"\0" * chunk)
            except OSError as err:
                assert err.errno == errno.ENOSPC, err
                chunk //= 2
    finally:
        os.close(fd)
    assert os.statvfs(where).f_bavail == 0
    return path


def use_up_inodes(where: Path) -> list[Path]:
    """Empty files until the file system can name no more: full, with bytes to spare."""
    made: list[Path] = []
    while True:
        path = where / f"empty-{len(made)}"
        try:
            path.touch()
        except OSError as err:
            assert err.errno == errno.ENOSPC, err
            return made
        made.append(path)


def pubpoker(*argv: str, lang: str = "nn", drop_dac: bool = False
             ) -> subprocess.CompletedProcess[str]:
    """The real ``pubpoker`` CLI in its own process.

    ``drop_dac``: without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH even root
    obeys file modes, so a permission test needs no second user.
    """
    command = [sys.executable, "-m", "kiosk.cli", "--lang", lang, *argv]
    if drop_dac:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("setpriv (util-linux) is needed to drop root's file-mode override")
        command = [setpriv, "--bounding-set", "-dac_override,-dac_read_search", *command]
    env = child_env()
    env.pop("PUBPOKER_LANG", None)
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
