"""The image recipes, checked without building an image.

The pi-gen recipe: prepare-pi-gen.sh fills a (fake) pi-gen checkout, and the
stage's 00-run.sh hands provision.sh to ``on_chroot`` (stubbed here; a real
image build needs pi-gen, qemu and half an hour, see images/README.md).

The Debian image: images/build-debian.sh's options, its mirror taken from
apt's sources (a fake apt directory here), and the labels its fstab and
kernel command line find the partitions by. A whole build and boot is the
arm64 bench's (tests/bench/test_bench_vm_arm64.py).
"""

from __future__ import annotations

import os
import re
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


# --- images/build-debian.sh: the Debian image (a full build is the arm64 bench's) ----------

BUILD_DEBIAN = REPO / "images/build-debian.sh"
DEBIAN_FILES = REPO / "images/debian"


def build_debian(*argv: str, apt: Path | None = None, cwd: Path | None = None,
                 env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, **(env or {})}
    if apt is not None:
        full_env["PUBPOKER_APT_ETC"] = str(apt)
    return subprocess.run(["bash", str(BUILD_DEBIAN), *argv], capture_output=True, text=True,
                          timeout=60, env=full_env, cwd=cwd)


def settings(result: subprocess.CompletedProcess[str]) -> dict[str, str]:
    assert result.returncode == 0, result.stderr
    return dict(line.split("=", 1) for line in result.stdout.splitlines())


@pytest.fixture
def apt_etc(tmp_path: Path) -> Path:
    """An apt configuration like a Debian machine's: deb822 sources, one disabled."""
    etc = tmp_path / "apt"
    (etc / "sources.list.d").mkdir(parents=True)
    (etc / "sources.list.d/00-old.sources").write_text(
        "Types: deb\nURIs: http://disabled.invalid/debian\nSuites: bookworm\n"
        "Components: main\nEnabled: no\n")
    (etc / "sources.list.d/debian.sources").write_text(
        "Types: deb\n# a snapshot, commented out\nURIs: http://mirror.invalid/debian/\n"
        "Suites: bookworm bookworm-updates\nComponents: main\n\n"
        "Types: deb deb-src\nURIs: http://security.invalid/debian-security\n"
        "Suites: bookworm-security\nComponents: main\n")
    return etc


def test_build_debian_help_names_every_option() -> None:
    result = build_debian("--help")
    assert result.returncode == 0 and result.stderr == ""
    script = BUILD_DEBIAN.read_text()
    options = set(re.findall(r"^\s+(--[a-z-]+)\)", script, re.M))
    assert {"--out", "--cache", "--mirror", "--source", "--no-xz", "--keep-parts"} <= options
    readme = (REPO / "images/README.md").read_text()
    for option in options:
        assert option in result.stdout, option
        assert option in readme, f"images/README.md does not mention {option}"


def test_build_debian_defaults_take_the_mirror_from_apt(apt_etc: Path, tmp_path: Path) -> None:
    got = settings(build_debian("--dry-run", apt=apt_etc,
                                env={"PUBPOKER_TEST_CACHE": str(tmp_path / "cache")}))
    assert got["mirror"] == "http://mirror.invalid/debian"
    assert got["security"] == "http://security.invalid/debian-security"
    assert got["out"] == str(REPO / "build/image")
    assert got["cache"] == str(tmp_path / "cache")
    assert got["image"] == str(REPO / "build/image/pubpoker-kiosk-arm64.img.xz")
    assert got["minbase"] == str(tmp_path / "cache/debootstrap-trixie-arm64-minbase.tar")
    assert got["source"] == f"git HEAD of {REPO}"
    assert (got["xz"], got["keep_parts"], got["rebuild"]) == ("1", "0", "0")
    # The same root as the chroot test's: a Pi's kernel, firmware and Wi-Fi.
    for package in ("linux-image-arm64", "raspi-firmware", "firmware-brcm80211", "systemd-sysv"):
        assert package in got["packages"].split()
    assert not (tmp_path / "cache").exists()  # a dry run creates nothing
    # A machine on trixie: its own sources for trixie come first.
    (apt_etc / "sources.list.d/trixie.sources").write_text(
        "Types: deb\nURIs: http://trixie.invalid/debian\nSuites: trixie\nComponents: main\n\n"
        "Types: deb\nURIs: http://trixie.invalid/debian-security\n"
        "Suites: trixie-security\nComponents: main\n")
    on_trixie = settings(build_debian("--dry-run", apt=apt_etc))
    assert on_trixie["mirror"] == "http://trixie.invalid/debian"
    assert on_trixie["security"] == "http://trixie.invalid/debian-security"


def test_build_debian_one_line_sources_and_the_options(tmp_path: Path) -> None:
    etc = tmp_path / "apt"
    (etc / "sources.list.d").mkdir(parents=True)
    (etc / "sources.list").write_text(
        "# deb http://commented.invalid/debian bookworm main\n"
        "deb-src http://src.invalid/debian bookworm main\n"
        "deb [arch=amd64 signed-by=/k.gpg] http://one.invalid/debian bookworm main\n")
    src = tmp_path / "src"
    src.mkdir()
    (src / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    got = settings(build_debian("--dry-run", "--out=rel/out", "--cache", "c", "--no-xz",
                                "--keep-parts", "--rebuild", "--source", str(src),
                                apt=etc, cwd=tmp_path))
    assert got["mirror"] == "http://one.invalid/debian"
    assert got["security"] == "none"
    assert got["out"] == str(tmp_path / "rel/out")
    assert got["cache"] == str(tmp_path / "c")
    assert got["image"] == str(tmp_path / "rel/out/pubpoker-kiosk-arm64.img")
    assert got["source"] == str(src)
    assert (got["xz"], got["keep_parts"], got["rebuild"]) == ("0", "1", "1")
    # --mirror wins over apt, and a different mirror is a different system stage.
    other = settings(build_debian("--dry-run", "--mirror", "http://other.invalid/debian/",
                                  apt=etc, cwd=tmp_path))
    assert other["mirror"] == "http://other.invalid/debian"
    assert other["system"] != got["system"]


def test_build_debian_refuses_what_it_cannot_use(tmp_path: Path) -> None:
    unknown = build_debian("--frobnicate")
    assert unknown.returncode == 2 and "unknown option --frobnicate" in unknown.stderr
    assert "usage:" in unknown.stderr
    no_project = build_debian("--dry-run", "--source", str(tmp_path))
    assert no_project.returncode == 2 and "no pyproject.toml" in no_project.stderr
    missing = build_debian("--dry-run", "--mirror")
    assert missing.returncode != 0 and "--mirror needs a URL" in missing.stderr
    empty = tmp_path / "apt"
    empty.mkdir()
    nowhere = build_debian("--dry-run", apt=empty)
    assert nowhere.returncode == 2 and "--mirror URL" in nowhere.stderr


def test_build_debian_finds_the_partitions_by_label() -> None:
    """fstab, the kernel's root= and the file systems' labels agree (RASPIROOT, RASPIFIRM)."""
    fstab = [line.split() for line in (DEBIAN_FILES / "fstab").read_text().splitlines()
             if line and not line.startswith("#")]
    assert [(f[0], f[1], f[2]) for f in fstab] == [
        ("LABEL=RASPIROOT", "/", "ext4"), ("LABEL=RASPIFIRM", "/boot/firmware", "vfat")]
    defaults = (DEBIAN_FILES / "raspi-firmware").read_text()
    assert re.search(r"^ROOTPART=LABEL=RASPIROOT$", defaults, re.M)
    script = BUILD_DEBIAN.read_text()
    assert "-n RASPIFIRM" in script and "-L RASPIROOT" in script
    # provision.sh's words for the kernel command line survive a kernel upgrade.
    extra = (DEBIAN_FILES / "raspi-extra-cmdline").read_text()
    assert extra.count("\n") == 1
    assert set(extra.split()) == {"consoleblank=0", "vt.global_cursor_default=0", "quiet"}


def test_build_debian_scripts_are_shellchecked() -> None:
    from tests.appliance.test_units import SCRIPTS
    assert BUILD_DEBIAN in SCRIPTS
    assert DEBIAN_FILES / "growroot.sh" in SCRIPTS
