"""Issue 14: ``pubpoker kiosk`` from the shipped example config comes up end to end.

The example has no ``data_dir``, and the provisioned image died at start with
``ValueError: open_database needs a path or a data_dir``. Here a real kiosk
process starts from a copy of the example (only the venue key added), tells a
notify socket READY=1 as systemd would hear it, makes its store in the
default data dir, and the ``pubpoker`` CLI, given no ``--data-dir`` either,
works on that same store while the kiosk runs.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.paths import (
    PI_DATA_DIR,
    DataDirFull,
    DataDirNoPermission,
    DataDirNotADirectory,
    DataDirReadOnly,
    DataDirUnusable,
    _unusable,
)
from rules.errors import RulesError
from rules.i18n import LANGUAGES

# Real kiosks, started from the example config.
pytestmark = pytest.mark.realproc

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "provisioning" / "pubpoker.example.toml"
KEY = "5a" * 32
#: What the test sets itself; inherited values would point the kiosk elsewhere.
_CLEARED = ("PUBPOKER_DATA_DIR", "XDG_DATA_HOME", "NOTIFY_SOCKET", "WATCHDOG_USEC",
            "WATCHDOG_PID", "PUBPOKER_DRM_ROOT", "PUBPOKER_STATUS_FILE", "PUBPOKER_LANG")


class Notifications:
    """A datagram socket where systemd's notify socket would be, read in order."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.seen: list[tuple[float, str]] = []

    def until(self, wanted: Callable[[str], bool], timeout: float,
              proc: subprocess.Popen[bytes] | None = None) -> str:
        """Read messages until one is ``wanted``; return it (all are kept in ``seen``)."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"not heard in {timeout} s; heard {self.seen}")
            if proc is not None and proc.poll() is not None:
                raise AssertionError(f"the kiosk exited {proc.returncode}; heard {self.seen}")
            self.sock.settimeout(min(left, 0.2))
            try:
                message = self.sock.recv(4096).decode()
            except TimeoutError:
                continue
            self.seen.append((time.monotonic(), message))
            if wanted(message):
                return message

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def notifications(tmp_path: Path) -> Iterator[Notifications]:
    heard = Notifications(tmp_path / "notify.sock")
    try:
        yield heard
    finally:
        heard.close()


def example_config(path: Path) -> Path:
    """The shipped example with a venue key: what an operator writes on the card."""
    text = EXAMPLE.read_text()
    assert "data_dir" not in text  # the default data dir is what is under test
    commented = '# key = "' + "0123456789abcdef" * 4 + '"'
    assert text.count(commented) == 1
    path.write_text(text.replace(commented, f'key = "{KEY}"'))
    return path


def base_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _CLEARED}
    env.update(PYTHONPATH=str(REPO), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYTHONUNBUFFERED="1", **extra)
    return env


def pubpoker(*args: str, env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess[
        str]:
    return subprocess.run([sys.executable, "-m", "kiosk.cli", "--lang", "en", *args],
                          env=env, cwd=REPO, capture_output=True, text=True, timeout=timeout)


def start_kiosk(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with open(log, "wb") as out:
        return subprocess.Popen([sys.executable, "-m", "kiosk.cli", "kiosk", *args],
                                env=env, cwd=REPO, stdout=out, stderr=subprocess.STDOUT)


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def read_status(path: Path) -> dict[str, Any] | None:
    with contextlib.suppress(FileNotFoundError, json.JSONDecodeError):
        data: dict[str, Any] = json.loads(path.read_text())
        return data
    return None


def wait_for(check: Callable[[], Any], timeout: float, what: str) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        result = check()
        if result:
            return result
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def _pi_dir_in_the_way() -> bool:
    return PI_DATA_DIR.is_dir() and os.access(PI_DATA_DIR, os.W_OK | os.X_OK)


@pytest.mark.skipif(_pi_dir_in_the_way(), reason=f"{PI_DATA_DIR} exists here and wins")
@pytest.mark.parametrize("where", ["xdg", "home", "env"])
def test_the_example_config_comes_up_in_the_default_data_dir(
        tmp_path: Path, notifications: Notifications, where: str) -> None:
    home = tmp_path / "home"
    home.mkdir()
    dirs = {"xdg": ({"XDG_DATA_HOME": str(tmp_path / "xdg")}, tmp_path / "xdg" / "pubpoker"),
            "home": ({}, home / ".local" / "share" / "pubpoker"),
            "env": ({"PUBPOKER_DATA_DIR": str(tmp_path / "env-data")}, tmp_path / "env-data")}
    extra, expected = dirs[where]
    config = example_config(tmp_path / "pubpoker.toml")
    status = tmp_path / "status.json"
    env = base_env(HOME=str(home), **extra)
    kiosk_env = {**env, "NOTIFY_SOCKET": str(notifications.path),
                 "PUBPOKER_STATUS_FILE": str(status)}
    log = tmp_path / "kiosk.log"
    proc = start_kiosk(["--config", str(config), "--headless"], kiosk_env, log)
    try:
        notifications.until(lambda m: m.startswith("READY=1"), 60, proc)
        assert (expected / "pubpoker.db").is_file()
        assert not [p for p in expected.iterdir() if p.name.startswith(".pubpoker-probe")]
        made = pubpoker("tournament", "new", "--name", "Issue 14 {date}", env=env)
        assert made.returncode == 0, made.stderr
        # The kiosk follows the store the CLI wrote: one data dir for both.
        shown = wait_for(lambda: (read_status(status) or {}).get("tournament"), 15,
                         "the kiosk to show the new tournament")
        listed = pubpoker("tournament", "list", env=env)
        assert listed.returncode == 0, listed.stderr
        assert f"* {shown}" in listed.stdout and "Issue 14" in listed.stdout
        assert proc.poll() is None, log.read_text()
    finally:
        stop(proc)
    output = log.read_text()
    assert "Traceback" not in output, output


def test_an_unusable_data_dir_is_one_translated_sentence(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    config = example_config(tmp_path / "pubpoker.toml")
    # Under the example's own [device]: a path whose parent is a file.
    text = config.read_text()
    assert text.count('language = "nn"\n') == 1
    config.write_text(text.replace('language = "nn"\n',
                                   f'language = "nn"\ndata_dir = "{blocker}/pubpoker"\n'))
    for lang, expected in (("nn", "er ei fil, ikkje ei mappe"),
                           ("en", "is a file, not a directory")):
        run = subprocess.run([sys.executable, "-m", "kiosk.cli", "--lang", lang, "kiosk",
                              "--config", str(config), "--headless", "--frames", "1"],
                             env=base_env(HOME=str(tmp_path)), cwd=REPO, capture_output=True,
                             text=True, timeout=60)
        assert run.returncode == 2, run.stderr
        assert "Traceback" not in run.stderr
        assert run.stderr.strip().splitlines()[-1].startswith(
            f"Datamappa {blocker}/pubpoker" if lang == "nn"
            else f"The data directory {blocker}/pubpoker"), run.stderr
        assert expected in run.stderr and str(blocker) in run.stderr
    assert blocker.read_text() == ""  # nothing written over the file in the way


@pytest.mark.parametrize(("code", "kind"), [
    (errno.ENOTDIR, DataDirNotADirectory), (errno.EEXIST, DataDirNotADirectory),
    (errno.EACCES, DataDirNoPermission), (errno.EPERM, DataDirNoPermission),
    (errno.EROFS, DataDirReadOnly), (errno.ENOSPC, DataDirFull), (errno.EIO, DataDirUnusable),
])
def test_each_reason_a_data_dir_fails_has_its_sentence(code: int, kind: type[DataDirUnusable],
                                                       tmp_path: Path) -> None:
    # Root may write anywhere, so only ENOTDIR can be made for real (above); the
    # rest are the errors the OS would give, mapped to the operator's sentence.
    err = _unusable(tmp_path / "data", OSError(code, os.strerror(code)))
    assert type(err) is kind and isinstance(err, RulesError) and isinstance(err, OSError)
    assert kind.missing_languages() == ()
    for lang in LANGUAGES:
        message = err.translate(lang)
        assert str(tmp_path / "data") in message and "{" not in message
        assert "--data-dir" in message
