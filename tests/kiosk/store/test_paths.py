"""Where the data lives: --data-dir > config > $PUBPOKER_DATA_DIR > /data/pubpoker > XDG."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kiosk.paths import DB_NAME, data_dir, db_path


def test_the_command_line_beats_the_config_and_the_environment(tmp_path: Path) -> None:
    env = {"PUBPOKER_DATA_DIR": str(tmp_path / "env"), "XDG_DATA_HOME": str(tmp_path / "x")}
    assert data_dir(tmp_path / "cli", tmp_path / "cfg", env=env) == tmp_path / "cli"
    assert data_dir(None, tmp_path / "cfg", env=env) == tmp_path / "cfg"
    assert data_dir(None, None, env=env, pi_dir=tmp_path) == tmp_path / "env"


def test_the_pi_data_partition_is_used_when_present_and_writable(tmp_path: Path) -> None:
    pi = tmp_path / "data" / "pubpoker"
    env = {"XDG_DATA_HOME": str(tmp_path / "xdg")}
    assert data_dir(env=env, pi_dir=pi) == tmp_path / "xdg" / "pubpoker"
    pi.mkdir(parents=True)
    assert data_dir(env=env, pi_dir=pi) == pi


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_a_read_only_pi_data_dir_is_skipped(tmp_path: Path) -> None:
    pi = tmp_path / "ro"
    pi.mkdir()
    pi.chmod(0o555)
    try:
        assert data_dir(env={"XDG_DATA_HOME": str(tmp_path)}, pi_dir=pi) == tmp_path / "pubpoker"
    finally:
        pi.chmod(0o755)


def test_xdg_falls_back_to_the_home_share_dir(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    nowhere = tmp_path / "none"
    assert data_dir(env={}, pi_dir=nowhere) == tmp_path / ".local" / "share" / "pubpoker"
    # A relative XDG_DATA_HOME is invalid by the spec and ignored.
    assert data_dir(env={"XDG_DATA_HOME": "rel"}, pi_dir=nowhere) == (
        tmp_path / ".local" / "share" / "pubpoker")


def test_the_store_file_name(tmp_path: Path) -> None:
    assert db_path(tmp_path) == tmp_path / DB_NAME == tmp_path / "pubpoker.db"


def test_threads_of_one_process_may_check_one_data_dir_at_once(tmp_path: Path) -> None:
    """The whole-night rig opens several devices' stores from one process: each check
    makes and removes its own probe file, never another thread's."""
    import threading

    from kiosk.paths import ensure_data_dir

    failed: list[BaseException] = []

    def check() -> None:
        for _ in range(200):
            try:
                ensure_data_dir(tmp_path / "data")
            except Exception as err:  # the test is that nothing is raised
                failed.append(err)

    threads = [threading.Thread(target=check) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failed, failed[:3]
    assert sorted(os.listdir(tmp_path / "data")) == []
