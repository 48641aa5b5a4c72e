"""The provisioned system as disk images a virtual machine boots.

:func:`vm_base` adds what a bootable Debian needs to the cached debootstrap
root (a kernel, systemd as init, udev) and runs provision.sh once; the
result is cached as a tarball, so a warm run only reinstalls the app.
:func:`build_images` provisions a fresh copy with the tree under test,
adds the VM-only parts (:func:`vm_only`), and writes:

* ``root.ext4``: the root file system, made with ``mke2fs -d`` (no loop
  device, no mount);
* ``boot.vfat``: the boot partition as on a Pi (``pubpoker.toml``,
  ``cmdline.txt``, ``config.txt``), made with ``mkfs.vfat`` and ``mcopy``;
  the VM mounts it at ``/boot/firmware`` by its label, as the Pi does;
* the kernel and initrd from the root's ``/boot``, for QEMU's direct boot.

Nothing VM-only goes into the shipped units: the VM's extras are its own
files (the guest agent, its unit, fstab, a masked serial getty) and drop-ins.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.appliance.debroot import (
    CACHE,
    SUITE,
    base_tarball,
    cached,
    extract,
    keep_debs,
    pack,
    provision,
    run,
    skip_if_unreachable,
    snapshot_source,
    with_cached_debs,
)

HERE = Path(__file__).resolve().parent
ROOT_LABEL = "pubpoker-root"
BOOT_LABEL = "BOOTFS"
# What turns the minbase root into a system that boots: the kernel (its
# initramfs finds virtio and ext4), systemd as PID 1, udev for /dev/dri and
# the serial ports, dbus for hostnamectl and systemctl's talk to PID 1.
KERNELS = {"amd64": "linux-image-amd64", "arm64": "linux-image-arm64"}
BOOT_PACKAGES = ("systemd-sysv", "udev", "kmod", "dbus", "initramfs-tools", "procps")
# Bump to rebuild every cached base when what goes into it changes.
BASE_VERSION = 1


@dataclass(frozen=True)
class Images:
    root: Path
    boot: Path
    kernel: Path
    initrd: Path
    arch: str


def vm_base(arch: str, work: Path) -> Path:
    """A cached tarball: debootstrap + kernel + systemd + one provision.sh run."""
    key = hashlib.sha256(repr((BASE_VERSION, KERNELS[arch], BOOT_PACKAGES)).encode())
    tarball = CACHE / f"vm-base-{SUITE}-{arch}-{key.hexdigest()[:12]}.tar"
    return cached(tarball, lambda: _build_base(arch, work, tarball))


def _build_base(arch: str, work: Path, tarball: Path) -> Path:
    root = work / "base"
    shutil.rmtree(root, ignore_errors=True)
    try:
        extract(base_tarball(arch), root)
        shutil.copy("/etc/resolv.conf", root / "etc/resolv.conf")
        debs = with_cached_debs(root, arch)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        update = run(["chroot", str(root), "apt-get", "update", "-qq"], timeout=600, env=env)
        skip_if_unreachable(update, "the VM root")
        assert update.returncode == 0, update.stderr[-2000:]
        install = run(["chroot", str(root), "apt-get", "install", "-y", "-qq",
                       "--no-install-recommends", KERNELS[arch], *BOOT_PACKAGES],
                      timeout=1800, env=env)
        keep_debs(root, debs)
        skip_if_unreachable(install, "the VM root")
        assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
        # provision.sh once now, so the cached base already holds its packages
        # and a run only reinstalls the app from the tree under test.
        boot = root / "boot/firmware"
        boot.mkdir(parents=True, exist_ok=True)
        (boot / "cmdline.txt").write_text(
            f"console=tty1 root=LABEL={ROOT_LABEL} rootfstype=ext4 rootwait\n")
        (boot / "config.txt").write_text("[all]\ndtoverlay=vc4-kms-v3d\n")
        source = snapshot_source(work / "base-src")
        first = provision(root, source)
        keep_debs(root, debs)
        skip_if_unreachable(first, "the VM root")
        assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
        for deb in (root / "var/cache/apt/archives").glob("*.deb"):
            deb.unlink()
        pack(root, tarball)
    finally:
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(work / "base-src", ignore_errors=True)
    return tarball


def build_images(arch: str, work: Path, config: str, *, address: str | None = None,
                 gpio: bool = False, files: Mapping[str, str] | None = None) -> Images:
    """Provision a fresh copy of the base with the tree under test; write its images.

    ``address`` (``169.254.10.1/16``) gives the guest's network card that
    address, for two VMs joined by a QEMU socket network; no DHCP is there.
    ``gpio`` adds a simulated GPIO chip for the header's pins (tests/appliance/gpiosim.py).
    ``files`` are more VM-only files (path in the root: text), e.g. a udev rule
    giving the VM's second serial port the name a Pi's header UART has.
    """
    work.mkdir(parents=True, exist_ok=True)
    tarball = vm_base(arch, work)
    root = work / "root"
    shutil.rmtree(root, ignore_errors=True)
    extract(tarball, root)
    source = snapshot_source(work / "src")
    (root / "boot/firmware/pubpoker.toml").write_text(config)
    result = provision(root, source)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    boot = work / "boot.vfat"
    fat_image(root / "boot/firmware", boot)
    vm_only(root, address=address)
    if gpio:
        from tests.appliance import gpiosim

        gpiosim.install(root, gpiosim.module_for(root, arch, work))
    for name, text in (files or {}).items():
        path = root / name.lstrip("/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    kernel, initrd = kernel_files(root)
    image = work / "root.ext4"
    ext4_image(root, image)
    shutil.rmtree(root, ignore_errors=True)
    shutil.rmtree(work / "src", ignore_errors=True)
    return Images(root=image, boot=boot, kernel=kernel, initrd=initrd, arch=arch)


def vm_only(root: Path, *, address: str | None = None) -> None:
    """The VM's own parts: mounts by label, the guest agent, no serial login."""
    (root / "etc/fstab").write_text(
        "# pubpoker VM test: the partitions by label, as on the Pi's SD card.\n"
        f"LABEL={ROOT_LABEL} / ext4 defaults 0 1\n"
        f"LABEL={BOOT_LABEL} /boot/firmware vfat defaults 0 0\n")
    # A host name that is not the role's, so the first boot's change shows.
    (root / "etc/hostname").write_text("debian\n")
    # An empty machine-id: the first boot makes one, as a flashed image does.
    (root / "etc/machine-id").write_text("")
    system = root / "etc/systemd/system"
    # TCG is slow and the host talks through the agent, not a login prompt.
    (system / "serial-getty@ttyS0.service").unlink(missing_ok=True)
    (system / "serial-getty@ttyS0.service").symlink_to("/dev/null")
    # systemd-firstboot would prompt on the console for a locale at first boot.
    (system / "systemd-firstboot.service").unlink(missing_ok=True)
    (system / "systemd-firstboot.service").symlink_to("/dev/null")
    agent_dir = root / "usr/local/lib/pubpoker-vm"
    agent_dir.mkdir(parents=True, exist_ok=True)
    shutil.copy(HERE / "vm_agent.py", agent_dir / "agent.py")
    (system / "pubpoker-vm-agent.service").write_text(AGENT_UNIT)
    wants = system / "multi-user.target.wants"
    wants.mkdir(parents=True, exist_ok=True)
    link = wants / "pubpoker-vm-agent.service"
    link.unlink(missing_ok=True)
    link.symlink_to("/etc/systemd/system/pubpoker-vm-agent.service")
    if address is not None:
        # Up before the kiosk, as a Pi's wired link is; no DHCP on the VMs' wire.
        (system / "pubpoker-vm-net.service").write_text(NET_UNIT.format(address=address))
        link = wants / "pubpoker-vm-net.service"
        link.unlink(missing_ok=True)
        link.symlink_to("/etc/systemd/system/pubpoker-vm-net.service")
    # The boot partition is a mount point now; its files live on the FAT image.
    for child in (root / "boot/firmware").iterdir():
        child.unlink()


AGENT_UNIT = """\
# pubpoker VM test only: runs the host's commands from a virtio serial port.
[Unit]
Description=pubpoker VM test agent
DefaultDependencies=no
After=systemd-udevd.service
Requires=dev-virtio\\x2dports-pubpoker.agent.device
After=dev-virtio\\x2dports-pubpoker.agent.device

[Service]
ExecStart=/usr/bin/python3 -I /usr/local/lib/pubpoker-vm/agent.py /dev/virtio-ports/pubpoker.agent
Restart=always
RestartSec=1

[Install]
WantedBy=multi-user.target
"""


NET_UNIT = """\
# pubpoker VM test only: a fixed address on the VMs' own wire (a QEMU socket network).
[Unit]
Description=pubpoker VM test network
Before=pubpoker-kiosk.service network.target
Wants=network.target
After=systemd-udevd.service
Requires=sys-subsystem-net-devices-eth0.device
After=sys-subsystem-net-devices-eth0.device

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/sbin/ip link set eth0 up
ExecStart=/usr/sbin/ip addr replace {address} dev eth0
# A LAN's default route would carry mDNS's multicast; this wire has no router.
ExecStart=/usr/sbin/ip route replace 224.0.0.0/4 dev eth0

[Install]
WantedBy=multi-user.target
"""


def fat_image(files: Path, image: Path, size_mib: int = 64) -> None:
    image.unlink(missing_ok=True)
    subprocess.run(["mkfs.vfat", "-n", BOOT_LABEL, "-C", str(image), str(size_mib * 1024)],
                   check=True, capture_output=True, timeout=60)
    names = sorted(files.iterdir())
    if names:
        subprocess.run(["mcopy", "-o", "-i", str(image), *map(str, names), "::/"],
                       check=True, capture_output=True, timeout=60)


def kernel_files(root: Path) -> tuple[Path, Path]:
    """The newest kernel and initrd in the root's /boot, copied beside the images."""
    kernels = sorted((root / "boot").glob("vmlinuz-*"))
    if not kernels:
        pytest.fail("no kernel in the VM root's /boot")
    version = kernels[-1].name.removeprefix("vmlinuz-")
    initrd = root / "boot" / f"initrd.img-{version}"
    assert initrd.is_file(), f"no initrd for {version}"
    out_kernel = root.parent / kernels[-1].name
    out_initrd = root.parent / initrd.name
    shutil.copy(kernels[-1], out_kernel)
    shutil.copy(initrd, out_initrd)
    return out_kernel, out_initrd


def ext4_image(root: Path, image: Path, spare_mib: int = 768) -> None:
    """An ext4 image of ``root`` with room to spare for the night's data."""
    used = subprocess.run(["du", "-sm", "--apparent-size", str(root)], check=True,
                          capture_output=True, text=True, timeout=300).stdout.split()[0]
    size = int(int(used) * 1.3) + spare_mib
    image.unlink(missing_ok=True)
    subprocess.run(["mke2fs", "-q", "-t", "ext4", "-L", ROOT_LABEL, "-E", "root_owner=0:0",
                    "-d", str(root), str(image), f"{size}M"],
                   check=True, capture_output=True, timeout=600)
