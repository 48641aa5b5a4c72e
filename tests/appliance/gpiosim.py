"""A simulated GPIO chip for the VM: ``gpio-sim`` built for the guest's own kernel.

Debian's kernels have the GPIO character device but neither ``gpio-sim`` nor
``CONFIG_IRQ_SIM`` (built in or nothing, and Debian leaves it out), so the
module is built out of tree from the matching ``linux-source`` with the
interrupt simulator in the same module: ``drivers/gpio/gpio-sim.c`` and
``kernel/irq/irq_sim.c``. One line of ``irq_sim.c`` changes: it calls
``handle_simple_irq(irq_to_desc(irq))``, and ``irq_to_desc`` is not exported
to modules; ``generic_handle_irq(irq)`` runs the same handler through an
exported function.

The build runs in a chroot of the cached debootstrap root (never in the VM's
root: nothing of it reaches the image), with the kernel's headers package
and its compiler, and the ``.ko`` is cached under the tests' cache keyed on
the kernel version, so a warm run builds nothing.

In the guest, :data:`SETUP_SCRIPT` (run by :data:`UNIT` before the kiosk)
loads it and makes one bank of 28 lines labelled as a Pi 4's header chip
(``pinctrl-bcm2711``; line N is BCM GPIO N), and shows gpiozero a Pi 4's
revision in ``/proc/cpuinfo``, where a Pi's kernel puts it. The test drives
a line from the simulator's side (``sim_gpioN/pull``): ``pull-down`` is a
button closing the contact to ground, ``pull-up`` is its release.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from tests.appliance.debroot import (
    CACHE,
    SUITE,
    base_tarball,
    cache_copy,
    cached,
    extract,
    keep_debs,
    run,
    skip_if_unreachable,
    with_cached_debs,
)

MODULE = "pubpoker-gpio-sim"
KBUILD = f"obj-m := {MODULE}.o\n{MODULE}-y := gpio-sim.o irq_sim.o\n"
# Where the guest keeps the VM-only GPIO parts.
GUEST_DIR = "/usr/local/lib/pubpoker-vm"
# A Raspberry Pi 4 Model B (4 GB, rev 1.1), as its kernel reports it.
PI4_REVISION = "c03111"
LINES = 28


def kernel_version(root: Path) -> str:
    """The one kernel the VM root has (``/lib/modules/<version>``)."""
    versions = sorted(p.name for p in (root / "lib/modules").iterdir() if p.is_dir())
    assert len(versions) == 1, f"expected one kernel in the VM root, found {versions}"
    return versions[0]


def module_for(root: Path, arch: str, work: Path) -> Path:
    """The cached ``pubpoker-gpio-sim.ko`` for the kernel in ``root``; built once."""
    version = kernel_version(root)
    module = CACHE / f"gpio-sim-{version}.ko"
    return cached(module, lambda: _build(version, arch, work / "gpio-sim-build", module))


def _build(version: str, arch: str, build_root: Path, cached: Path) -> None:
    shutil.rmtree(build_root, ignore_errors=True)
    try:
        extract(base_tarball(arch, SUITE), build_root)
        shutil.copy("/etc/resolv.conf", build_root / "etc/resolv.conf")
        debs = with_cached_debs(build_root, arch, SUITE)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}

        def chroot(*cmd: str, timeout: float = 1200) -> subprocess.CompletedProcess[str]:
            return run(["chroot", str(build_root), *cmd], timeout=timeout, env=env)

        update = chroot("apt-get", "update", "-qq")
        skip_if_unreachable(update, "the gpio-sim build root")
        assert update.returncode == 0, update.stderr[-2000:]
        headers = f"linux-headers-{version}"
        install = chroot("apt-get", "install", "-y", "-qq", "--no-install-recommends",
                         headers, "make", "xz-utils")
        skip_if_unreachable(install, "the gpio-sim build root")
        assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
        package_version = chroot("dpkg-query", "-W", "-f=${Version}", headers).stdout.strip()
        series = ".".join(version.split(".")[:2])  # 6.12
        source = f"linux-source-{series}"
        # apt-get install, not download: its .deb lands in the archive keep_debs caches.
        fetch = chroot("apt-get", "install", "-y", "-qq", "--no-install-recommends",
                       "--download-only", f"{source}={package_version}")
        keep_debs(build_root, debs)
        skip_if_unreachable(fetch, "the gpio-sim build root")
        assert fetch.returncode == 0, fetch.stdout[-3000:] + fetch.stderr[-3000:]
        (deb,) = (build_root / "var/cache/apt/archives").glob(f"{source}_*.deb")
        src = build_root / "root/gpio-sim"
        src.mkdir(parents=True)
        tarball = f"./usr/src/{source}.tar.xz"
        wanted = [f"{source}/drivers/gpio/gpio-sim.c", f"{source}/kernel/irq/irq_sim.c"]
        unpack = (f"dpkg-deb --fsys-tarfile '{deb}' | tar -xO '{tarball}' | "
                  f"tar -xJ -C '{src}' --strip-components=3 {' '.join(wanted)}")
        subprocess.run(["sh", "-c", unpack], check=True, timeout=900)
        irq_sim = src / "irq_sim.c"
        text = irq_sim.read_text()
        exported = text.replace("handle_simple_irq(irq_to_desc(irqnum));",
                                "generic_handle_irq(irqnum);")
        assert exported != text, "irq_sim.c no longer calls irq_to_desc: look again"
        irq_sim.write_text(exported)
        (src / "Kbuild").write_text(KBUILD)
        make = chroot("make", "-C", f"/lib/modules/{version}/build", "M=/root/gpio-sim",
                      "modules", timeout=900)
        assert make.returncode == 0, make.stdout[-3000:] + make.stderr[-3000:]
        cache_copy(src / f"{MODULE}.ko", cached)
    finally:
        shutil.rmtree(build_root, ignore_errors=True)


SETUP_SCRIPT = f"""\
#!/bin/sh
# pubpoker VM test only: a simulated GPIO chip standing in for a Pi's header.
set -eu
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
insmod {GUEST_DIR}/{MODULE}.ko
chip=/sys/kernel/config/gpio-sim/header
mkdir "$chip" "$chip/gpio-bank0"
echo {LINES} >"$chip/gpio-bank0/num_lines"
echo pinctrl-bcm2711 >"$chip/gpio-bank0/label"
echo 1 >"$chip/live"
# gpiozero finds the board in /proc/cpuinfo's Revision line, as on a Pi.
{{ cat /proc/cpuinfo; printf 'Hardware\\t: BCM2835\\nRevision\\t: {PI4_REVISION}\\n'; }} \\
    >/run/pubpoker-vm-cpuinfo
mount --bind /run/pubpoker-vm-cpuinfo /proc/cpuinfo
# The gpio group's rule (provision.sh) on the new chip before the kiosk opens it.
udevadm settle
"""

UNIT = f"""\
# pubpoker VM test only: the simulated GPIO chip, before the kiosk asks for its buttons.
[Unit]
Description=pubpoker VM test GPIO chip (gpio-sim)
DefaultDependencies=no
After=systemd-udevd.service sys-kernel-config.mount
Wants=sys-kernel-config.mount
Before=pubpoker-kiosk.service

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart={GUEST_DIR}/gpio-sim.sh

[Install]
WantedBy=multi-user.target
"""


def install(root: Path, module: Path) -> None:
    """Put the module, its set-up script and unit into the VM root (VM-only files)."""
    guest = root / GUEST_DIR.lstrip("/")
    guest.mkdir(parents=True, exist_ok=True)
    shutil.copy(module, guest / f"{MODULE}.ko")
    script = guest / "gpio-sim.sh"
    script.write_text(SETUP_SCRIPT)
    script.chmod(0o755)
    system = root / "etc/systemd/system"
    (system / "pubpoker-vm-gpio.service").write_text(UNIT)
    wants = system / "multi-user.target.wants"
    wants.mkdir(parents=True, exist_ok=True)
    link = wants / "pubpoker-vm-gpio.service"
    link.unlink(missing_ok=True)
    link.symlink_to("/etc/systemd/system/pubpoker-vm-gpio.service")


# Run in the guest through the agent: set BCM line N from the simulator's side.
# ``press N SECONDS [BOUNCES [TIMES]]``: contact closed for SECONDS, opening and
# closing again BOUNCES times as it first closes, then released (TIMES presses
# 0.5 s apart); it prints the longest the contact stood open while bouncing.
# ``press N down`` closes the contact and leaves it closed, ``press N up`` opens it.
PRESS_SCRIPT = """\
import glob, sys, time
line = int(sys.argv[1])
(path,) = glob.glob(f"/sys/bus/platform/devices/gpio-sim.*/gpiochip*/sim_gpio{line}/pull")
def set_pull(value):
    with open(path, "w") as f:
        f.write(value)
if sys.argv[2] in ("down", "up"):
    set_pull("pull-" + sys.argv[2])
    sys.exit(0)
held = float(sys.argv[2])
# Chatter is a count of bounces written back to back: a sleep between them can
# outlast the debounce window on a loaded host, and a contact open that long
# is a release, not chatter. The longest open gap is printed for the caller.
bounces = int(sys.argv[3]) if len(sys.argv) > 3 else 0
times = int(sys.argv[4]) if len(sys.argv) > 4 else 1
longest = 0.0
for n in range(times):
    if n:
        time.sleep(0.5)
    start = time.monotonic()
    set_pull("pull-down")
    for _ in range(bounces):
        opened = time.monotonic()
        set_pull("pull-up")
        set_pull("pull-down")
        longest = max(longest, time.monotonic() - opened)
    time.sleep(max(0.0, held - (time.monotonic() - start)))
    set_pull("pull-up")
print(f"{longest:.6f}")
"""
