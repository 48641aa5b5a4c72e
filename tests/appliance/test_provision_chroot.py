"""provision.sh on a fresh Debian root of every supported release, twice.

A ``debootstrap --variant=minbase`` root for this machine's architecture
stands in for a freshly flashed Raspberry Pi OS Lite, with a fake
``/boot/firmware`` (``cmdline.txt``, ``config.txt``). provision.sh runs with
``--root`` and ``--no-start``, as pi-gen's stage would. Then the user, the
files, the enabled units, the venv, chrony and the boot edits are checked,
provision.sh runs again, and a checksum of the whole tree shows that the
second run changed nothing.

The mirror is the first ``deb`` source of this machine's own apt
configuration (never a host written into the repository). To keep CI fast,
``/var/cache/pubpoker-test/`` (or ``$PUBPOKER_TEST_CACHE``) keeps the
debootstrapped root as a tarball, the downloaded ``.deb`` files and the
wheels. The Python packages come from PyPI through this machine's pip
(``pip download``) and go in with ``provision.sh --wheels``, so the chroot
needs no TLS set-up of its own. No ``/proc`` or ``/dev`` mount is needed.

Every test runs once per release in ``debroot.SUITES``: bookworm (the
oldest an existing Pi may run) and trixie (what images/build-debian.sh
ships), each with its own Python and so its own wheels.

Needs root, ``debootstrap`` and ``chroot`` (``.ci/run`` installs them). A mirror
or PyPI that cannot be reached is a skip with the reason, not a failure.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.appliance.debroot import (
    SUITES,
    base_tarball,
    extract,
    keep_debs,
    provision,
    run,
    skip_if_unreachable,
    snapshot_source,
    with_cached_debs,
)
from tests.appliance.test_dependencies import dependency_names

pytestmark = [pytest.mark.slow, pytest.mark.chroot]

GROUPS = ("video", "render", "input", "gpio", "dialout", "audio")
CMDLINE = ("console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 "
           "fsck.repair=yes rootwait quiet")
CONFIG_TXT = "[pi4]\narm_boost=1\n\n[all]\ndtoverlay=vc4-kms-v3d\nmax_framebuffers=2\n"

# What the idempotency checksum leaves out, and why: apt's package lists and
# caches (provision.sh refreshes them when a package such as python3-lgpio is
# missing from plain Debian), logs, compiled bytecode (its headers carry
# timestamps), and the virtual/scratch file systems.
EXCLUDED_DIRS = {
    "proc", "sys", "dev", "run", "tmp",
    "var/cache/apt", "var/lib/apt/lists", "var/log", "var/cache/debconf",
}
EXCLUDED_FILES = re.compile(r"(\.pyc$|/__pycache__(/|$))")


def tree_digest(root: Path) -> dict[str, tuple[object, ...]]:
    """Path → (type, mode, uid, gid, content hash or link target), minus the exclusions."""
    out: dict[str, tuple[object, ...]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        rel_dir = "" if rel_dir == "." else rel_dir
        dirnames[:] = [d for d in dirnames
                       if os.path.join(rel_dir, d) not in EXCLUDED_DIRS and d != "__pycache__"]
        for name in [*dirnames, *filenames]:
            rel = os.path.join(rel_dir, name)
            if EXCLUDED_FILES.search("/" + rel):
                continue
            st = os.lstat(os.path.join(dirpath, name))
            kind: object
            if stat.S_ISLNK(st.st_mode):
                kind, content = "link", os.readlink(os.path.join(dirpath, name))
            elif stat.S_ISREG(st.st_mode):
                digest = hashlib.sha256()
                with open(os.path.join(dirpath, name), "rb") as fh:
                    for chunk in iter(lambda: fh.read(1 << 20), b""):
                        digest.update(chunk)
                kind, content = "file", digest.hexdigest()
            else:
                kind, content = stat.S_IFMT(st.st_mode), ""
            out[rel] = (kind, stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid, content)
    return out


@dataclass
class Provisioned:
    suite: str
    root: Path
    source: Path
    first: subprocess.CompletedProcess[str]
    second: subprocess.CompletedProcess[str]
    before: dict[str, tuple[object, ...]]
    after: dict[str, tuple[object, ...]]
    seconds: float

    def chroot(self, *cmd: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return run(["chroot", str(self.root), *cmd], timeout=timeout)

    def provision(self, *extra: str) -> subprocess.CompletedProcess[str]:
        return provision(self.root, self.source, *extra, suite=self.suite)


@pytest.fixture(scope="module", params=list(SUITES))
def provisioned(request: pytest.FixtureRequest,
                tmp_path_factory: pytest.TempPathFactory) -> Iterator[Provisioned]:
    suite: str = request.param
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        pytest.skip("needs root on Linux (chroot, debootstrap)")
    for tool in ("debootstrap", "chroot", "tar", "dpkg"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed (.ci/run installs debootstrap)")
    started = time.monotonic()
    arch = run(["dpkg", "--print-architecture"], timeout=30).stdout.strip()
    tarball = base_tarball(arch, suite)
    base = tmp_path_factory.mktemp(f"provision-{suite}")
    root = base / "root"
    root.mkdir()
    try:
        extract(tarball, root)
        shutil.copy("/etc/resolv.conf", root / "etc/resolv.conf")
        boot = root / "boot/firmware"
        boot.mkdir(parents=True, exist_ok=True)
        (boot / "cmdline.txt").write_text(CMDLINE + "\n")
        (boot / "config.txt").write_text(CONFIG_TXT)
        # As on Raspberry Pi OS: a login prompt on tty1, which the kiosk must take over.
        wants = root / "etc/systemd/system/getty.target.wants"
        wants.mkdir(parents=True, exist_ok=True)
        (wants / "getty@tty1.service").symlink_to("/lib/systemd/system/getty@.service")
        debs = with_cached_debs(root, arch, suite)
        source = snapshot_source(base / "src")

        first = provision(root, source, suite=suite)
        keep_debs(root, debs)
        skip_if_unreachable(first, "the chroot")
        assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
        before = tree_digest(root)
        second = provision(root, source, suite=suite)
        assert second.returncode == 0, second.stdout[-3000:] + second.stderr[-3000:]
        after = tree_digest(root)
        seconds = time.monotonic() - started
        print(f"\nprovision chroot test ({suite}): {seconds:.0f} s up to the second run")
        yield Provisioned(suite, root, source, first, second, before, after, seconds)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def etc_entries(root: Path, name: str) -> dict[str, list[str]]:
    lines = (root / "etc" / name).read_text().splitlines()
    return {line.split(":")[0]: line.split(":") for line in lines if line}


def test_user_and_groups(provisioned: Provisioned) -> None:
    passwd = etc_entries(provisioned.root, "passwd")
    assert "pubpoker" in passwd
    user = passwd["pubpoker"]
    assert user[5] == "/data/pubpoker" and user[6] == "/usr/sbin/nologin"
    assert int(user[2]) < 1000  # a system user
    groups = etc_entries(provisioned.root, "group")
    for group in GROUPS:
        assert group in groups, group
        assert "pubpoker" in groups[group][3].split(","), group
    ids = provisioned.chroot("id", "-nG", "pubpoker")
    assert set(GROUPS) <= set(ids.stdout.split()), ids


def test_files(provisioned: Provisioned) -> None:
    root, src = provisioned.root, provisioned.source
    for unit in ("pubpoker-kiosk.service", "pubpoker-firstboot.service"):
        installed = (root / "etc/systemd/system" / unit).read_text()
        assert installed == (src / "systemd" / unit).read_text()
    assert (root / "opt/pubpoker/lib/firstboot.py").is_file()
    config = root / "boot/firmware/pubpoker.toml"
    assert config.read_text() == (src / "provisioning/pubpoker.example.toml").read_text()
    assert "Storage=volatile" in (root / "etc/systemd/journald.conf.d/pubpoker.conf").read_text()
    nm = (root / "etc/NetworkManager/conf.d/pubpoker-wifi-powersave.conf").read_text()
    assert "wifi.powersave = 2" in nm
    udev = (root / "etc/udev/rules.d/70-pubpoker-wifi-powersave.rules").read_text()
    assert "power_save off" in udev
    assert 'GROUP="gpio"' in (root / "etc/udev/rules.d/60-pubpoker-gpio.rules").read_text()
    data = (root / "data/pubpoker").stat()
    uid = int(etc_entries(root, "passwd")["pubpoker"][2])
    assert data.st_uid == uid and stat.S_IMODE(data.st_mode) == 0o750
    # --no-start: no daemon may start in a chroot, and the guard is gone afterwards.
    assert not (root / "usr/sbin/policy-rc.d").exists()


def test_enabled_units_and_tty1(provisioned: Provisioned) -> None:
    wants = provisioned.root / "etc/systemd/system/multi-user.target.wants"
    for unit in ("pubpoker-kiosk.service", "pubpoker-firstboot.service"):
        assert os.readlink(wants / unit) == f"/etc/systemd/system/{unit}"
    assert (wants / "chrony.service").is_symlink()
    getty = provisioned.root / "etc/systemd/system/getty.target.wants/getty@tty1.service"
    assert not getty.is_symlink() and not getty.exists()  # disabled
    assert not (provisioned.root / "etc/systemd/system/getty@tty1.service").exists()  # not masked


def test_venv_imports_the_app_and_uses_debian_pygame(provisioned: Provisioned) -> None:
    python = "/opt/pubpoker/venv/bin/python"
    code = ("import kiosk, rules, hardware, pygame, gpiozero, serial, zeroconf, sqlite_utils, "
            "websockets; print(pygame.__file__); print(gpiozero.__file__)")
    result = provisioned.chroot(python, "-c", code)
    assert result.returncode == 0, result.stderr
    pygame_file, gpiozero_file = result.stdout.split()[-2:]
    # pip must not have replaced the apt packages (pygame with KMSDRM).
    assert pygame_file.startswith("/usr/lib/python3/dist-packages/"), pygame_file
    assert gpiozero_file.startswith("/usr/lib/python3/dist-packages/"), gpiozero_file
    cfg = (provisioned.root / "opt/pubpoker/venv/pyvenv.cfg").read_text()
    assert "include-system-site-packages = true" in cfg
    # The installed CLI works: the example config only lacks the venue key.
    check = provisioned.chroot("/opt/pubpoker/venv/bin/pubpoker", "--lang", "en", "config",
                               "check", "/boot/firmware/pubpoker.toml")
    assert check.returncode == 2 and "venue.key is missing" in check.stderr, check
    # Every dependency pyproject names is there, from Debian or from PyPI.
    wanted = dependency_names()
    found = provisioned.chroot(python, "-c", "import importlib.metadata as m, sys; "
                               "print([n for n in sys.argv[1:] if not m.version(n)])", *wanted)
    assert found.returncode == 0 and found.stdout.strip() == "[]", (wanted, found.stderr)


def test_chrony_serves_time_on_a_display(provisioned: Provisioned) -> None:
    root = provisioned.root
    assert "confdir /etc/chrony/conf.d" in (root / "etc/chrony/chrony.conf").read_text()
    conf = (root / "etc/chrony/conf.d/pubpoker.conf").read_text()
    assert "local stratum 10" in conf and re.search(r"^allow\b", conf, re.M)
    assert "server" not in conf.replace("serves", "")


def test_cmdline_and_config_txt(provisioned: Provisioned) -> None:
    boot = provisioned.root / "boot/firmware"
    text = (boot / "cmdline.txt").read_text()
    assert text.count("\n") == 1 and text.endswith("\n")  # still one line
    words = text.split()
    assert "console=serial0,115200" not in words
    for word in ("consoleblank=0", "vt.global_cursor_default=0", "quiet"):
        assert words.count(word) == 1, word
    for kept in ("console=tty1", "root=PARTUUID=4e639091-02", "rootwait"):
        assert kept in words
    config = (boot / "config.txt").read_text()
    assert config.startswith(CONFIG_TXT)  # nothing of the operator's is lost
    assert config.splitlines().count("enable_uart=1") == 1


def test_second_run_changes_nothing(provisioned: Provisioned) -> None:
    before, after = provisioned.before, provisioned.after
    changed = sorted(p for p in before.keys() & after.keys() if before[p] != after[p])
    added = sorted(after.keys() - before.keys())
    removed = sorted(before.keys() - after.keys())
    assert not (changed or added or removed), {
        "changed": changed[:20], "added": added[:20], "removed": removed[:20]}
    assert len(before) > 5000  # a whole system was compared, not an empty dir
    assert "installing the app" not in provisioned.second.stdout
    assert "writing" not in provisioned.second.stdout
    # Nothing is missing the second time, so apt is not asked again (plain
    # Debian never has python3-lgpio; the GPIO bindings count as one).
    assert "provision: installing" not in provisioned.second.stdout
    assert "python3-lgpio is not available" in provisioned.first.stdout
    assert provisioned.seconds < 600


def test_table_role_follows_the_display(provisioned: Provisioned) -> None:
    """Runs last: it changes the config to a table device and provisions once more."""
    config = provisioned.root / "boot/firmware/pubpoker.toml"
    config.write_text('[device]\nrole = "table"\ntable = 4\n')
    result = provisioned.provision()
    assert result.returncode == 0, result.stderr[-2000:]
    conf = (provisioned.root / "etc/chrony/conf.d/pubpoker.conf").read_text()
    assert "server pubpoker-display.local iburst" in conf
    assert "local stratum" not in conf and not re.search(r"^allow\b", conf, re.M)
    # Never overwritten, even though it differs from the example.
    assert config.read_text() == '[device]\nrole = "table"\ntable = 4\n'


def test_read_only_root_option(provisioned: Provisioned) -> None:
    """Runs last: --read-only-root adds overlayroot and warns that /data needs a partition."""
    result = provisioned.provision("--read-only-root")
    assert result.returncode == 0, result.stderr[-2000:]
    status = provisioned.chroot("dpkg-query", "-W", "-f=${Status}", "overlayroot")
    assert status.stdout == "install ok installed", status
    conf = (provisioned.root / "etc/overlayroot.local.conf").read_text()
    assert 'overlayroot="tmpfs:recurse=0"' in conf
    assert "/data is not its own partition" in result.stderr


def unit_pin_factory(root: Path) -> str:
    """``GPIOZERO_PIN_FACTORY`` as systemd would set it: the unit, then its drop-ins."""
    unit = root / "etc/systemd/system/pubpoker-kiosk.service"
    dropins = sorted((root / "etc/systemd/system/pubpoker-kiosk.service.d").glob("*.conf"))
    factory = ""
    for path in (unit, *dropins):
        for line in path.read_text().splitlines():
            if line.startswith("Environment="):
                for word in line.removeprefix("Environment=").split():
                    if word.startswith("GPIOZERO_PIN_FACTORY="):
                        factory = word.partition("=")[2]
    return factory


# The buttons as the kiosk asks for them, with the unit's pin factory.
ASK_FOR_A_BUTTON = """
import queue
from hardware.buttons import ButtonPanel
from hardware.errors import HardwareError
from hardware.inputs import Action
try:
    ButtonPanel({Action.pause: 17}, queue.Queue())
except HardwareError as err:
    print(type(err).__name__)
    print(err.translate("nn"))
"""


def test_the_units_pin_factory_loads_and_asks_the_kernel_for_a_chip(
        provisioned: Provisioned) -> None:
    """Trixie: our gpiod factory over Debian's python3-libgpiod 2.x, named by a drop-in,
    loads through gpiozero's entry point and fails only for want of a chip (a chroot has
    no /dev/gpiochip*). Bookworm: no bindings gpiozero can use (no python3-lgpio outside
    Raspberry Pi OS, libgpiod v1), so the buttons are off with our message, not a
    traceback about a module."""
    factory = unit_pin_factory(provisioned.root)
    python = "/opt/pubpoker/venv/bin/python"
    asked = provisioned.chroot("env", f"GPIOZERO_PIN_FACTORY={factory}", python, "-c",
                               ASK_FOR_A_BUTTON)
    assert asked.returncode == 0, asked.stderr[-2000:]
    assert "ModuleNotFoundError" not in asked.stderr, asked.stderr
    doctor = provisioned.chroot("env", f"GPIOZERO_PIN_FACTORY={factory}",
                                "/opt/pubpoker/venv/bin/pubpoker", "--lang", "en",
                                "--data-dir", "/data/pubpoker", "doctor")
    assert "GPIO chip: none; buttons off, the keyboard still works" in doctor.stdout, doctor
    if provisioned.suite == "bookworm":
        assert factory == "lgpio"
        assert asked.stdout.split("\n")[:2] == [
            "NoPinFactory", "GPIO-drivaren «lgpio» er ikkje installert: knappane er av, "
                            "tastaturet verkar framleis"], asked
        assert "no GPIO bindings" in provisioned.first.stderr
        assert "GPIO pin factory: 'lgpio' ($GPIOZERO_PIN_FACTORY), but it is not installed" \
            in doctor.stdout, doctor
    else:
        assert factory == "gpiod"
        version = provisioned.chroot(python, "-c", "import gpiod; print(gpiod.__version__)")
        assert version.stdout.startswith("2."), version
        assert asked.stdout.split("\n")[:2] == [
            "NoGpio", "Ingen GPIO: knappane er av, tastaturet verkar framleis"], asked
        assert "no GPIO bindings" not in provisioned.first.stderr
        assert "GPIO pin factory: 'gpiod' ($GPIOZERO_PIN_FACTORY)\n" in doctor.stdout, doctor
