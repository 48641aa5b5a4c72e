"""One booted appliance with the TD's buttons and a card reader wired to it.

test_vm_buttons.py and test_vm_readers.py prove different parts on the same
kind of box: the VM of test_vm_boot.py (the image's release, provision.sh
applied, the example ``pubpoker.toml`` with a venue key) with the example's
``[buttons]`` and ``[reader]`` lines uncommented, as a TD would, and these
VM-only additions:

* a simulated GPIO chip (tests/appliance/gpiosim.py), 28 lines labelled as a
  Pi 4's header chip, pressed from the simulator's side by a script the guest
  agent runs (``/run/pubpoker-press.py``);
* a second serial port (the guest's ``ttyS1``) whose other end is a unix
  socket on the host: what the host writes there is what a reader's TX wire
  would carry into the Pi's UART. A udev rule names it ``/dev/serial0``, as
  the image's own rule does for the mini UART on a Pi's header;
* a USB serial adapter (QEMU's ``usb-serial``, an FTDI to the guest) on an
  xHCI bus, its other end another socket;
* a USB keyboard standing in for a keyboard-wedge reader, typed on through
  QMP, beside the machine's PS/2 keyboard standing in for a person's;
* the kiosk's status file (kiosk/status_file.py), read through the agent.

Booting a VM under TCG costs two minutes of a core, and nothing in either
file needs a boot of its own, so one boot serves both: the session fixture
``devices_vm`` (tests/appliance/conftest.py) builds it once, and the
scheduler in tests/conftest.py sends both files to one xdist worker. A test
names the config it needs (:func:`configure`), and the kiosk restarts only when
that is not the config it runs: a restart costs the guest a Python start-up and
the kiosk's, seconds of a core each under TCG, so none is spent putting back a
config the next test would change again.
"""

from __future__ import annotations

import json
import select
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.appliance.gpiosim import PRESS_SCRIPT
from tests.appliance.test_vm_boot import GPU, UNIT, wait_active
from tests.appliance.test_vm_boot import config_text as example_config
from tests.appliance.vm import Vm, require_vm
from tests.appliance.vmroot import Images, build_images

#: The test files that share this VM: one xdist scope (tests/conftest.py).
SHARING = ("tests/appliance/test_vm_buttons.py", "tests/appliance/test_vm_readers.py")

PAUSE, NEXT, PREV, NEW = 17, 27, 22, 13
STATUS = "/data/pubpoker/vm-status.json"
VM_FILES = {
    "etc/udev/rules.d/61-pubpoker-vm-serial0.rules": (
        "# pubpoker VM test only: the VM's second serial port is the header's UART.\n"
        'SUBSYSTEM=="tty", KERNEL=="ttyS1", SYMLINK+="serial0"\n'),
    "etc/systemd/system/pubpoker-kiosk.service.d/vm-status.conf": (
        "# pubpoker VM test only: the kiosk's status file (kiosk/status_file.py).\n"
        f"[Service]\nEnvironment=PUBPOKER_STATUS_FILE={STATUS}\n"),
}
# A serial number of its own, as an FTDI chip has: without one QEMU makes it from
# the port, and a replug on another port would change its /dev/serial/by-id/ name.
USB_SERIAL_NUMBER = "A10K3X9Q"
USB_SERIAL = f"usb-serial,id=usbserial,chardev=usbreader,bus=xhci.0,serial={USB_SERIAL_NUMBER}"
# A keyboard-wedge reader: a USB keyboard bound to the TV's console, so QMP's
# input-send-event with device=TV types on it, and without a device on the
# machine's own PS/2 keyboard (a person's keyboard).
TV = "tv"
WEDGE_SERIAL_NUMBER = "W26EM4100"
WEDGE = f"usb-kbd,id=wedge,bus=xhci.0,display={TV},serial={WEDGE_SERIAL_NUMBER}"


def buttons_on(text: str) -> str:
    """The example's buttons switched on (the TD removes the #), and NEW added."""
    for name, pin in (("pause", PAUSE), ("next_level", NEXT), ("prev_level", PREV)):
        line = f"# {name} = {pin}"
        assert line in text, f"the example config lost its line {line!r}"
        text = text.replace(line, f"{name} = {pin}")
    return text.replace(f"prev_level = {PREV}", f"prev_level = {PREV}\nnew = {NEW}")


def reader_on(text: str, url: str = "/dev/serial0", kind: str = "rdm6300") -> str:
    """The example with its reader switched on (the owner removes the #)."""
    lines = '# [reader]\n# url = "/dev/serial0"\n# kind = "rdm6300"'
    assert lines in text, "the example config lost its [reader] lines"
    return text.replace(lines, f'[reader]\nurl = "{url}"\nkind = "{kind}"')


def config_text() -> str:
    """The TD's device: the example with its buttons and its reader on."""
    return reader_on(buttons_on(example_config()))


class Wire:
    """The host's end of a QEMU character device (a unix socket QEMU listens on)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock: socket.socket | None = None

    def connect(self, timeout: float = 30) -> Wire:
        deadline = time.monotonic() + timeout
        while self.sock is None:
            sock = socket.socket(socket.AF_UNIX)
            try:
                sock.connect(str(self.path))
                self.sock = sock
            except OSError:
                sock.close()
                assert time.monotonic() < deadline, f"no QEMU socket at {self.path}"
                time.sleep(0.2)
        return self

    def send(self, data: bytes) -> None:
        assert self.sock is not None
        self.sock.sendall(data)

    write = send

    def read(self, timeout: float) -> bytes:
        """What the guest wrote, waiting at most ``timeout`` (b"" if nothing)."""
        assert self.sock is not None
        ready, _, _ = select.select([self.sock], [], [], timeout)
        return self.sock.recv(4096) if ready else b""

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None


@dataclass
class Booted:
    vm: Vm
    work: Path
    serial: Wire
    usb: Wire
    #: The config the kiosk runs (None: unknown, a restart failed midway).
    config: str | None = None


def configure(booted: Booted, text: str) -> bool:
    """The kiosk running with ``text`` as its config: written and restarted, unless it
    already runs it. True if it restarted."""
    if booted.config == text:
        return False
    booted.config = None
    booted.vm.run("tee", "/boot/firmware/pubpoker.toml", stdin=text)
    booted.vm.run("systemctl", "restart", UNIT, timeout=180)
    wait_active(booted.vm, 300)
    booted.config = text
    return True


def status(vm: Vm) -> dict[str, object]:
    """The kiosk's status file (kiosk/status_file.py): its own state, read with a ``cat``.

    Waits poll this, not ``pubpoker tournament show``: the CLI is a Python start-up
    in the guest, seconds of a core under TCG for each poll."""
    reply = vm.run("cat", STATUS, check=False)
    if reply["rc"] != 0:
        return {}
    try:
        data: dict[str, object] = json.loads(str(reply["out"]))
    except ValueError:  # never half written (os.replace), but be safe
        return {}
    return data


def boot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Booted]:
    """Build, boot and (after the last test) stop the shared VM."""
    require_vm("amd64")
    work = tmp_path_factory.mktemp("vm-devices")
    images: Images = build_images("amd64", work, config_text(), gpio=True, files=VM_FILES)
    serial, usb = work / "reader.sock", work / "usb.sock"
    for path in (serial, usb):
        path.unlink(missing_ok=True)
    extra = ["-chardev", f"socket,id=reader,path={serial},server=on,wait=off",
             "-serial", "chardev:reader",
             "-device", "qemu-xhci,id=xhci",
             "-chardev", f"socket,id=usbreader,path={usb},server=on,wait=off",
             "-device", USB_SERIAL,
             "-device", WEDGE]
    vm = Vm(images, work, name="devices", gpu=f"{GPU},id={TV}", extra=extra)
    wires = Wire(serial), Wire(usb)
    try:
        vm.boot(600)
        wait_active(vm, 600)
        vm.run("tee", "/run/pubpoker-press.py", stdin=PRESS_SCRIPT)
        yield Booted(vm, work, wires[0].connect(), wires[1].connect(), config_text())
    finally:
        for wire in wires:
            wire.close()
        vm.stop()
