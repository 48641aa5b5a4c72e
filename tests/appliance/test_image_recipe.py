"""The pi-gen recipe: prepare-pi-gen.sh fills a (fake) pi-gen checkout, and the
stage's 00-run.sh hands provision.sh to ``on_chroot`` (stubbed here; a real
image build needs pi-gen, qemu and half an hour, see images/README.md)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("git") is None or not (REPO / ".git").exists(),
                    reason="prepare-pi-gen.sh ships the committed sources (git archive)")
def test_prepare_pi_gen_and_the_stage(tmp_path: Path) -> None:
    pigen = tmp_path / "pi-gen"
    (pigen / "stage2").mkdir(parents=True)
    (pigen / "build.sh").write_text("#!/bin/sh\n")
    env = {**os.environ, "FIRST_USER_PASS": "it's secret"}
    result = subprocess.run(["bash", str(REPO / "images/prepare-pi-gen.sh"), str(pigen)],
                            capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr

    stage = pigen / "stage-pubpoker"
    assert os.access(stage / "prerun.sh", os.X_OK)
    assert os.access(stage / "00-install/00-run.sh", os.X_OK)
    assert (stage / "EXPORT_IMAGE").is_file()
    src = stage / "00-install/files/pubpoker-kiosk"
    assert (src / "pyproject.toml").is_file() and (src / "provisioning/provision.sh").is_file()
    assert not (src / ".git").exists()
    config = (pigen / "config").read_text()
    assert 'STAGE_LIST="stage0 stage1 stage2 stage-pubpoker"' in config
    assert "RELEASE=bookworm" in config and "IMG_NAME=pubpoker-kiosk" in config
    assert "FIRST_USER_PASS=it\\'s\\ secret" in config
    assert (pigen / "stage2/SKIP_IMAGES").exists()

    # Run the stage as pi-gen would, with on_chroot capturing its script.
    rootfs = tmp_path / "rootfs"
    (rootfs / "tmp").mkdir(parents=True)
    script = (
        'on_chroot() { cat > "$ROOTFS_DIR/on_chroot.sh"; '
        'cp -r "$ROOTFS_DIR/tmp/pubpoker-src" "$ROOTFS_DIR/seen-src"; }\n'
        "set -e\n. ./00-run.sh\n"
    )
    result = subprocess.run(["bash", "-c", script], cwd=stage / "00-install",
                            env={**os.environ, "ROOTFS_DIR": str(rootfs)},
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    chrooted = (rootfs / "on_chroot.sh").read_text()
    assert "provisioning/provision.sh --no-start --source /tmp/pubpoker-src" in chrooted
    assert (rootfs / "seen-src/provisioning/provision.sh").is_file()  # there during on_chroot
    assert not (rootfs / "tmp/pubpoker-src").exists()  # and cleaned up after


def test_prepare_pi_gen_refuses_a_wrong_directory(tmp_path: Path) -> None:
    result = subprocess.run(["bash", str(REPO / "images/prepare-pi-gen.sh"), str(tmp_path)],
                            capture_output=True, text=True, timeout=60,
                            env={**os.environ, "FIRST_USER_PASS": "x"})
    assert result.returncode == 2 and "pi-gen" in result.stderr
