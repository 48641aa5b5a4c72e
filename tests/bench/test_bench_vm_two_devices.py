"""Two booted devices: a bust on the table's terminal reaches the display's TV.

A display VM and a table VM, each the provisioned system of
tests/appliance/test_vm_boot.py with its own ``pubpoker.toml`` (the same venue
key; ``role = "table"``, ``table = 1`` on the second), joined by a QEMU socket
network (a TCP stream on 127.0.0.1 between the two QEMU processes; no host
network, no DHCP: each guest has a fixed link-local address). The kiosks find
each other over mDNS on that wire. The TD's terminal on the display starts the
night; ``pubpoker bust`` on the table's terminal busts a player, and the
display's screendump must show it (matching the display's own reference
render of its store).

Under TCG two VMs share this machine's two cores, so this is a bench: it
prints the boot, the first sync, and bust-to-TV times.
"""

from __future__ import annotations

import os
import socket
import sys
import time
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tests.appliance.test_vm_boot import (
    GPU,
    PLAYERS,
    PUBPOKER,
    assert_shows,
    config_text,
    difference,
    journal,
    reference,
    td,
    wait_active,
)
from tests.appliance.vm import Vm, qemu_missing
from tests.appliance.vmroot import build_images

pytestmark = [pytest.mark.bench, pytest.mark.vm, pytest.mark.chroot, pytest.mark.timeout(3600)]


def table_config() -> str:
    text = config_text().replace('role = "display"', 'role = "table"')
    assert 'role = "table"' in text
    return text.replace("# table = 3", "table = 1")


def shown(vm: Vm) -> str:
    """``tournament show`` on ``vm``, or nothing while it has no tournament yet."""
    reply = vm.run("runuser", "-u", "pubpoker", "--", PUBPOKER, "--lang", "en",
                   "tournament", "show", timeout=180, check=False)
    return str(reply["out"]) if reply["rc"] == 0 else ""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_a_bust_on_the_table_shows_on_the_display(tmp_path: Path) -> None:
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        pytest.skip("needs root on Linux")
    missing = qemu_missing("amd64")
    if missing:
        pytest.skip(missing)
    started = time.monotonic()
    display_images = build_images("amd64", tmp_path / "display", config_text(),
                                  address="169.254.10.1/16")
    table_images = build_images("amd64", tmp_path / "table", table_config(),
                                address="169.254.10.2/16")
    print(f"\nimages built in {time.monotonic() - started:.0f} s")
    port = free_port()
    # The VMs' own wire: one QEMU listens on loopback, the other connects.
    display = Vm(display_images, tmp_path / "display", name="display", gpu=GPU, cpus=1,
                 extra=("-netdev", f"socket,id=lan,listen=127.0.0.1:{port}",
                        "-device", "virtio-net-pci,netdev=lan,mac=52:54:00:0a:00:01"))
    table = Vm(table_images, tmp_path / "table", name="table", cpus=1,
               gpu="virtio-gpu-pci,xres=800,yres=480",
               extra=("-netdev", f"socket,id=lan,connect=127.0.0.1:{port}",
                      "-device", "virtio-net-pci,netdev=lan,mac=52:54:00:0a:00:02"))
    display.start()
    time.sleep(0.5)
    table.start()
    figures: dict[str, float] = {}
    try:
        for vm in (display, table):
            vm.wait_agent(600)
            wait_active(vm, 600)
            figures[f"{vm.name}: QEMU start to the kiosk active"] = (
                time.monotonic() - vm.started_at)
        assert table.out("hostname").strip() == "pubpoker-table-1"

        td(display, "tournament", "new")
        for name in PLAYERS:
            td(display, "checkin", "--new", name)
        td(display, "seat", "draw")
        td(display, "clock", "start")
        sent = time.monotonic()
        table.wait_for("the night on the table device",
                       lambda: all(n in shown(table) for n in PLAYERS),
                       300, every=2)
        figures["display's night on the table's store"] = time.monotonic() - sent

        bust_at = time.monotonic()
        assert "Ada" in td(table, "bust", "Ada")
        display.wait_for("the bust in the display's store",
                         lambda: "Ada" in shown(display).split("Results:")[-1],
                         120, every=1)
        figures["bust on the table to the display's store"] = time.monotonic() - bust_at
        td(display, "clock", "pause")
        ref = reference(display, "after-bust")
        screen = display.screendump()
        deadline = time.monotonic() + 60
        while difference(screen, ref) > 0.05 and time.monotonic() < deadline:
            time.sleep(1)
            screen = display.screendump()
        assert_shows(display, tmp_path, "after-bust", ref, screen)
        figures["bust on the table to the TV (with the reference drawn)"] = (
            time.monotonic() - bust_at)
        assert "Traceback" not in journal(display, "pubpoker-kiosk.service")
        assert "Traceback" not in journal(table, "pubpoker-kiosk.service")
    finally:
        display.stop()
        table.stop()
        print("\ntwo devices (TCG, one core each):")
        for name, seconds in figures.items():
            print(f"  {name}: {seconds:.1f} s")

