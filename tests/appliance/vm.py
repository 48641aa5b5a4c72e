"""A QEMU virtual machine the appliance tests read from outside.

Everything the tests learn comes from outside the guest: the serial console
(a file on the host), QMP (``screendump`` for what is on the screen, device
hot-plug, ``quit``), and the guest agent (tests/appliance/vm_agent.py) on a
virtio serial port for commands such as ``pubpoker checkin``. There is no
network card (``-nic none``) unless a test joins two VMs with a QEMU socket
network of their own.

KVM is not usable on the CI machines (no VMX/SVM), so QEMU runs under TCG
when ``/dev/kvm`` cannot be opened. Under TCG the CPU is ``qemu64``:
``-cpu max`` advertises AVX, and Mesa's software renderer (llvmpipe, which
SDL's KMSDRM driver uses through EGL on a VM's GPU) then draws nothing.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pygame
import pytest

from tests import forkserver
from tests.appliance.vmroot import ROOT_LABEL, Images

QEMU = {"amd64": "qemu-system-x86_64", "arm64": "qemu-system-aarch64"}


def kvm_usable() -> bool:
    try:
        fd = os.open("/dev/kvm", os.O_RDWR)
    except OSError:
        return False
    os.close(fd)
    # /dev/kvm can exist and open without the CPU's virtualisation extensions.
    flags = Path("/proc/cpuinfo").read_text(errors="replace")
    return bool(re.search(r"\b(vmx|svm)\b", flags)) or os.uname().machine == "aarch64"


def accel_args(arch: str) -> list[str]:
    if arch == "amd64":
        if kvm_usable() and os.uname().machine == "x86_64":
            return ["-accel", "kvm", "-cpu", "host"]
        return ["-accel", "tcg,thread=multi", "-cpu", "qemu64"]
    return ["-M", "virt", "-accel", "tcg,thread=multi", "-cpu", "cortex-a72"]


def console_arg(arch: str) -> str:
    return "ttyS0" if arch == "amd64" else "ttyAMA0"


@dataclass
class Screen:
    """A QMP screendump as a pygame Surface (the dump is a binary PPM)."""

    surface: pygame.Surface

    @classmethod
    def from_ppm(cls, data: bytes) -> Screen:
        match = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
        if match is None:
            raise ValueError("not a binary PPM")
        width, height = int(match[1]), int(match[2])
        pixels = data[match.end():match.end() + width * height * 3]
        return cls(pygame.image.frombuffer(pixels, (width, height), "RGB").copy())

    @property
    def size(self) -> tuple[int, int]:
        return self.surface.get_size()

    def lit_fraction(self, threshold: int = 24) -> float:
        """How much of the screen is not (nearly) black."""
        small = pygame.transform.scale(self.surface, (160, 90))
        lit = sum(1 for x in range(160) for y in range(90)
                  if max(small.get_at((x, y))[:3]) > threshold)
        return lit / (160 * 90)

    def save(self, path: Path) -> None:
        pygame.image.save(self.surface, str(path))


@dataclass
class Vm:
    """One QEMU process; use :func:`boot` to start it."""

    images: Images
    work: Path
    name: str = "vm"
    gpu: str | None = "virtio-gpu-pci,xres=1280,yres=720"
    memory_mib: int = 1536
    cpus: int = 2
    extra: Sequence[str] = ()
    #: More words for the kernel command line (``video=Virtual-1:d``: no TV).
    kernel_args: Sequence[str] = ()
    process: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    _qmp: socket.socket | None = None
    _qmp_buffer: bytes = b""
    _agent: socket.socket | None = None
    _agent_buffer: bytes = b""
    _next_id: int = 1
    #: Seconds after QEMU's start at which the kernel's banner appeared.
    kernel_at: float | None = None
    events: list[dict[str, object]] = field(default_factory=list)
    #: (seconds after QEMU's start, its size, its drawn pixels) while recording.
    frames: list[tuple[float, tuple[int, int], pygame.mask.Mask]] = field(default_factory=list)
    _qmp_lock: threading.Lock = field(default_factory=threading.Lock)
    _recording: bool = False

    @property
    def serial_log(self) -> Path:
        return self.work / f"{self.name}-serial.log"

    @property
    def qmp_path(self) -> Path:
        return self.work / f"{self.name}-qmp.sock"

    @property
    def agent_path(self) -> Path:
        return self.work / f"{self.name}-agent.sock"

    def command(self) -> list[str]:
        arch = self.images.arch
        append = (f"console={console_arg(arch)},115200 root=LABEL={ROOT_LABEL} rw "
                  "rootfstype=ext4 no_timer_check panic=-1 net.ifnames=0 "
                  "systemd.show_status=1 consoleblank=0 vt.global_cursor_default=0 "
                  + " ".join(self.kernel_args)).strip()
        cmd = [QEMU[arch], *accel_args(arch), "-m", str(self.memory_mib),
               "-smp", str(self.cpus), "-no-reboot", "-nodefaults", "-display", "none",
               "-kernel", str(self.images.kernel), "-initrd", str(self.images.initrd),
               "-append", append,
               "-drive", f"file={self.images.root},if=virtio,format=raw,cache=writeback",
               "-drive", f"file={self.images.boot},if=virtio,format=raw",
               "-serial", f"file:{self.serial_log}",
               "-qmp", f"unix:{self.qmp_path},server=on,wait=off",
               "-device", "virtio-serial-pci",
               "-chardev", f"socket,id=agent,path={self.agent_path},server=on,wait=off",
               "-device", "virtserialport,chardev=agent,name=pubpoker.agent",
               "-device", "virtio-rng-pci"]
        if "-nic" not in self.extra and "-netdev" not in self.extra:
            cmd += ["-nic", "none"]
        if self.gpu is None:
            cmd += ["-vga", "none"]
        else:
            cmd += ["-vga", "none", "-device", self.gpu]
        return [*cmd, *self.extra]

    # --- life ---------------------------------------------------------------

    def start(self) -> None:
        for path in (self.qmp_path, self.agent_path, self.serial_log):
            path.unlink(missing_ok=True)
        self.started_at = time.monotonic()
        with open(self.work / f"{self.name}-qemu.log", "wb") as log:
            self.process = subprocess.Popen(self.command(), stdin=subprocess.DEVNULL,
                                            stdout=log, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        # QEMU runs on across tests (the devices VM): its CPU counts where it is spent.
        forkserver.LiveChild(self.process)
        self._qmp = self._connect_qmp(deadline=time.monotonic() + 30)
        self.kernel_at = None
        threading.Thread(target=self._watch_kernel, name=f"{self.name}-kernel",
                         daemon=True).start()
        self._qmp_line()  # the greeting
        self.qmp("qmp_capabilities")

    def boot(self, timeout: float = 600, *, record: bool = False) -> float:
        """Start QEMU and wait for the guest's agent; seconds from QEMU's start.
        With ``record``, the screens are recorded from QEMU's start
        (:meth:`record_screens`).

        A QEMU that ends before the kernel runs the initramfs is started once
        more, with a warning saying how it ended: nothing of the image has run
        then and its root is not yet mounted, so the second start boots the same
        disk. CI saw QEMU 7.2 under TCG end 1.9 s into the kernel's PCI probe
        once, on a loaded host (its log was not kept then; it is in the warning now).
        """
        self._start(record)
        try:
            return self.wait_agent(timeout)
        except RuntimeError:
            if self.process is None or self.process.poll() is None or "Run /init" in self.serial():
                raise
            words = self._exit_words()
        died = self.work / f"{self.name}-serial-died.log"
        self.serial_log.replace(died)
        self._close_sockets()
        warnings.warn(f"QEMU ended before the kernel ran the initramfs ({words}; the "
                      f"console is in {died}); started once more", stacklevel=2)
        self._start(record)
        return self.wait_agent(timeout)

    def _start(self, record: bool) -> None:
        self._recording = False
        self.frames.clear()
        self.start()
        if record:
            self.record_screens()

    def _connect_qmp(self, deadline: float) -> socket.socket:
        # QEMU binds the socket's file before it listens on it: a connect in
        # between is refused, so the file existing is not enough to go on.
        while True:
            sock = socket.socket(socket.AF_UNIX)
            try:
                sock.connect(str(self.qmp_path))
                return sock
            except (FileNotFoundError, ConnectionRefusedError):
                sock.close()
            assert self.process is not None
            if self.process.poll() is not None or time.monotonic() > deadline:
                log = (self.work / f"{self.name}-qemu.log").read_text(errors="replace")
                raise RuntimeError(f"QEMU did not start: {log[-2000:]}")
            time.sleep(0.05)

    def power_cut(self) -> None:
        """SIGKILL QEMU: the guest's page cache is lost as in a power cut."""
        self._recording = False
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)
        self._close_sockets()

    def stop(self) -> None:
        self._recording = False
        if self.process is None or self.process.poll() is not None:
            self._close_sockets()
            return
        with contextlib.suppress(OSError, RuntimeError):
            self.qmp("quit")
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.power_cut()
        self._close_sockets()

    def _close_sockets(self) -> None:
        for sock in (self._qmp, self._agent):
            if sock is not None:
                sock.close()
        self._qmp = self._agent = None
        self._qmp_buffer = self._agent_buffer = b""

    # --- QMP ------------------------------------------------------------------

    def _qmp_line(self, timeout: float = 60) -> dict[str, object]:
        assert self._qmp is not None
        self._qmp.settimeout(timeout)
        while b"\n" not in self._qmp_buffer:
            chunk = self._qmp.recv(65536)
            if not chunk:
                raise RuntimeError("QMP closed")
            self._qmp_buffer += chunk
        line, self._qmp_buffer = self._qmp_buffer.split(b"\n", 1)
        message: dict[str, object] = json.loads(line)
        return message

    def qmp(self, execute: str, timeout: float = 60, **arguments: object) -> object:
        with self._qmp_lock:
            return self._qmp_call(execute, timeout, arguments)

    def _qmp_call(self, execute: str, timeout: float, arguments: dict[str, object]) -> object:
        assert self._qmp is not None, "QEMU is not running"
        request: dict[str, object] = {"execute": execute}
        if arguments:
            request["arguments"] = arguments
        self._qmp.sendall(json.dumps(request).encode() + b"\n")
        while True:
            message = self._qmp_line(timeout)
            if "event" in message:
                self.events.append(message)
                continue
            if "error" in message:
                raise RuntimeError(f"QMP {execute}: {message['error']}")
            return message.get("return")

    def screendump(self, device: str | None = None) -> Screen:
        path = self.work / f"{self.name}-screen-{threading.get_ident()}.ppm"
        path.unlink(missing_ok=True)
        args: dict[str, object] = {"filename": str(path)}
        if device is not None:
            args["device"] = device
        self.qmp("screendump", **args)
        return Screen.from_ppm(path.read_bytes())

    def record_screens(self, every: float = 0.5, limit: float = 600) -> None:
        """Keep a screendump's drawn pixels every ``every`` seconds, to find a screen's first frame.

        Boot time is judged afterwards against a reference that can only be
        drawn once the guest is up, so the frames are kept (as bit masks).
        """
        self._recording = True

        def loop() -> None:
            while self._recording and time.monotonic() - self.started_at < limit:
                try:
                    screen = self.screendump()
                except (OSError, RuntimeError, ValueError, AssertionError):
                    return  # QEMU went away
                self.frames.append((time.monotonic() - self.started_at, screen.size,
                                    drawn(screen.surface)))
                time.sleep(every)

        threading.Thread(target=loop, name=f"{self.name}-screens", daemon=True).start()

    def first_frame_like(self, ref: pygame.Surface, tolerance: float, shift: int = 0,
                         ignore: pygame.Rect | None = None) -> float | None:
        """When the recorded screen first matched ``ref`` (seconds after QEMU's start),
        leaving out the pixels of ``ignore`` in both."""
        self._recording = False
        target = drawn(ref)
        blank = None
        if ignore is not None:
            blank = pygame.mask.Mask(ignore.size, fill=True)
            target.erase(blank, ignore.topleft)
        for at, size, frame in self.frames:
            # QEMU's own 640×480 "no output" page stands until the kiosk's modeset.
            if size != ref.get_size():
                continue
            if blank is not None and ignore is not None:
                frame = frame.copy()
                frame.erase(blank, ignore.topleft)
            if differing(frame, target, shift) <= tolerance:
                return at
        return None

    # --- the guest agent ----------------------------------------------------------

    def _agent_connect(self) -> socket.socket:
        if self._agent is None:
            self._agent = socket.socket(socket.AF_UNIX)
            self._agent.connect(str(self.agent_path))
        return self._agent

    def run(self, *argv: str, timeout: float = 120, stdin: str | None = None,
            check: bool = True) -> dict[str, object]:
        """Run ``argv`` in the guest as root; the reply's rc, out and err."""
        sock = self._agent_connect()
        request_id = self._next_id
        self._next_id += 1
        request = {"id": request_id, "argv": list(argv), "timeout": timeout, "stdin": stdin}
        sock.sendall(json.dumps(request).encode() + b"\n")
        sock.settimeout(timeout + 30)
        while True:
            while b"\n" not in self._agent_buffer:
                chunk = sock.recv(65536)
                if not chunk:
                    self._agent = None
                    raise RuntimeError("the guest agent's port closed")
                self._agent_buffer += chunk
            line, self._agent_buffer = self._agent_buffer.split(b"\n", 1)
            try:
                reply: dict[str, object] = json.loads(line)
            except ValueError:
                continue
            if reply.get("id") == request_id:
                break
        if check and reply.get("rc") != 0:
            raise AssertionError(f"{' '.join(argv)} failed in the guest: {reply}")
        return reply

    def out(self, *argv: str, timeout: float = 120) -> str:
        return str(self.run(*argv, timeout=timeout)["out"])

    def wait_agent(self, timeout: float = 300) -> float:
        """Block until the agent answers (systemd has reached the agent's unit)."""
        deadline = time.monotonic() + timeout
        while True:
            self._alive()
            try:
                sock = self._agent_connect()
                sock.settimeout(3)
                request_id = self._next_id
                self._next_id += 1
                sock.sendall(json.dumps({"id": request_id, "argv": ["true"]}).encode() + b"\n")
                data = b""
                while b"\n" not in data:
                    chunk = sock.recv(65536)
                    if not chunk:
                        raise OSError("closed")
                    data += chunk
                self._agent_buffer = b""
                return time.monotonic() - self.started_at
            except OSError:
                # Not up yet: the guest reads what was sent once it opens the port,
                # and a half-answered probe is dropped with the connection.
                self._agent_buffer = b""
                if self._agent is not None:
                    self._agent.close()
                    self._agent = None
            if time.monotonic() > deadline:
                raise TimeoutError(f"no guest agent after {timeout} s:\n{self.serial_tail()}")
            time.sleep(1)

    def _alive(self) -> None:
        if self.process is None or self.process.poll() is not None:
            raise RuntimeError(f"QEMU exited ({self._exit_words()}):\n{self.serial_tail()}")

    def _exit_words(self) -> str:
        """How QEMU ended and what it said: a signal, an exit code, its own log."""
        if self.process is None:
            return "never started"
        code = self.process.returncode
        how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        try:
            said = (self.work / f"{self.name}-qemu.log").read_text(errors="replace")
        except FileNotFoundError:
            said = ""
        return (f"{how}; its last events: {self._last_events()}; "
                f"its log: {said[-2000:].strip() or '(empty)'}")

    def _last_events(self) -> list[object]:
        """QMP's events not yet read (SHUTDOWN says why: guest-reset, host-signal...)."""
        with contextlib.suppress(OSError, RuntimeError, ValueError, AssertionError):
            while True:
                message = self._qmp_line(timeout=0.5)
                if "event" in message:
                    self.events.append(message)
        return [(e.get("event"), e.get("data")) for e in self.events[-5:]]

    # --- the serial console ---------------------------------------------------------

    def serial(self) -> str:
        try:
            return self.serial_log.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def serial_tail(self, lines: int = 60) -> str:
        return "\n".join(self.serial().splitlines()[-lines:])

    def _watch_kernel(self) -> None:
        """Note when the kernel's banner reaches the console (boot time counts from it)."""
        deadline = self.started_at + 120
        while self.kernel_at is None and time.monotonic() < deadline:
            if self.process is None or self.process.poll() is not None:
                return
            if "Linux version" in self.serial():
                self.kernel_at = time.monotonic() - self.started_at
                return
            time.sleep(0.05)

    # --- waiting on the guest ---------------------------------------------------------

    def wait_for(self, what: str, predicate: object, timeout: float, every: float = 1.0
                 ) -> object:
        """Poll ``predicate()`` until it returns something truthy."""
        deadline = time.monotonic() + timeout
        while True:
            self._alive()
            value = predicate()  # type: ignore[operator]
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"{what}: not after {timeout} s\n{self.serial_tail()}")
            time.sleep(every)

    def unit_property(self, unit: str, prop: str) -> str:
        return self.out("systemctl", "show", "-P", prop, unit).strip()


def drawn(surface: pygame.Surface, threshold: int = 40) -> pygame.mask.Mask:
    """The pixels with anything on them: a channel above ``threshold``."""
    plain = pygame.Surface(surface.get_size(), 0, 24)  # convert() would need a display
    plain.blit(surface, (0, 0))
    near_black = pygame.mask.from_threshold(plain, (0, 0, 0),
                                            (threshold + 1, threshold + 1, threshold + 1, 255))
    near_black.invert()
    return near_black


def differing(a: pygame.mask.Mask, b: pygame.mask.Mask, shift: int = 0) -> float:
    """The share of the drawn pixels drawn in only one of ``a`` and ``b``, at the best offset.

    Drawn pixels, not all: a mostly black screen (the kiosk's "the clock has
    not started") would otherwise match a black or blank one. ``shift``: the
    kiosk moves its picture a few pixels now and then against burn-in, so the
    offset within that many pixels that fits best is taken.
    """
    assert a.get_size() == b.get_size(), (a.get_size(), b.get_size())
    count_a, count_b = a.count(), b.count()
    if count_a + count_b == 0:
        return 0.0
    best = 1.0
    for dx in range(-shift, shift + 1):
        for dy in range(-shift, shift + 1):
            both = a.overlap_area(b, (dx, dy))
            best = min(best, (count_a + count_b - 2 * both) / (count_a + count_b - both))
    return best


def require_vm(arch: str) -> None:
    """Skip, with the reason, where this machine cannot build and boot the VM."""
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        pytest.skip("needs root on Linux (chroot, debootstrap)")
    missing = qemu_missing(arch)
    if missing:
        pytest.skip(missing)


def qemu_missing(arch: str) -> str | None:
    if shutil.which(QEMU[arch]) is None:
        return f"{QEMU[arch]} is not installed (.ci/run installs it)"
    for tool in ("mke2fs", "mkfs.vfat", "mcopy", "debootstrap"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (.ci/run installs it)"
    return None
