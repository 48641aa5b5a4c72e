"""Finding the screen: a fake /sys/class/drm tree stands in for the TV (sysfs is files)."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest

from kiosk.hdmi import (
    connected_display,
    connectors,
    display_index,
    is_connector_name,
    wait_for_display,
    wait_root,
)


def connector(root: Path, name: str, status: str, modes: str = "",
              connector_id: int | None = None) -> Path:
    """Plug (or change) a connector in a fake sysfs as the kernel does: all at once.

    sysfs shows a connector's directory with its files already there, and a read of
    ``status`` never sees half a write; a kiosk polling meanwhile must not see the fake
    mid-way either (it once read a new connector before its ``status`` was written).
    """
    path = root / name
    files = {"status": status + "\n", "modes": modes}
    if connector_id is not None:
        files["connector_id"] = f"{connector_id}\n"
    if not path.exists():
        building = root / f".{name}.plugging"  # not a connector name: the kiosk skips it
        building.mkdir(parents=True)
        for file, text in files.items():
            (building / file).write_text(text)
        building.rename(path)
        return path
    for file, text in files.items():
        (path / f".{file}.new").write_text(text)
        (path / f".{file}.new").replace(path / file)
    return path


@pytest.fixture
def drm(tmp_path: Path) -> Path:
    """A Pi 4 as its kernel shows it, with nothing plugged in."""
    root = tmp_path / "drm"
    root.mkdir()
    (root / "card0").mkdir()  # v3d: a card with no connectors
    (root / "card1").mkdir()  # the card itself is not a connector
    (root / "renderD128").mkdir()
    (root / "version").write_text("drm 1.1.0 20060810\n")
    connector(root, "card1-HDMI-A-1", "disconnected")
    connector(root, "card1-HDMI-A-2", "disconnected")
    connector(root, "card1-Composite-1", "disconnected")
    return root


class FakeIdle:
    """The wait's idle time, counted; a step can change the tree in between."""

    def __init__(self) -> None:
        self.calls: list[float] = []
        self.steps: dict[int, list[tuple[Path, str, str, str]]] = {}

    def at(self, call: int, root: Path, name: str, status: str, modes: str = "") -> None:
        self.steps.setdefault(call, []).append((root, name, status, modes))

    def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)
        for root, name, status, modes in self.steps.get(len(self.calls), []):
            connector(root, name, status, modes)
        if len(self.calls) > 1000:
            raise AssertionError("the wait never ended")


def test_nothing_connected(drm: Path) -> None:
    assert connected_display(drm) is None


def test_connected_without_modes_is_not_ready(drm: Path) -> None:
    # A TV on another input or in standby: HPD says connected, EDID gives no modes.
    connector(drm, "card1-HDMI-A-1", "connected", "")
    assert connected_display(drm) is None


def test_a_vm_virtual_output_counts(tmp_path: Path) -> None:
    # QEMU's virtio-gpu: the kiosk in a VM waited forever for an HDMI port.
    connector(tmp_path, "card0-Virtual-1", "connected", "1024x768\n800x600\n")
    assert connected_display(tmp_path) == "card0-Virtual-1"


@pytest.mark.parametrize("name", ["card1-DSI-1", "card1-Composite-1", "card0-DP-1",
                                  "card0-eDP-1", "card0-DVI-I-1"])
def test_every_kind_of_output_counts(drm: Path, name: str) -> None:
    connector(drm, name, "connected", "720x480\n")
    assert connected_display(drm) == name


def test_hdmi_is_preferred_then_dsi_then_the_rest(drm: Path) -> None:
    connector(drm, "card1-Composite-1", "connected", "720x576i\n")
    assert connected_display(drm) == "card1-Composite-1"
    connector(drm, "card1-DSI-1", "connected", "800x480\n")
    assert connected_display(drm) == "card1-DSI-1"
    connector(drm, "card1-HDMI-A-2", "connected", "1920x1080\n")
    assert connected_display(drm) == "card1-HDMI-A-2"
    connector(drm, "card1-HDMI-A-1", "connected", "3840x2160\n")
    assert connected_display(drm) == "card1-HDMI-A-1"


def test_writeback_and_device_entries_are_not_screens(drm: Path) -> None:
    # vc4 registers a writeback connector, which reports "unknown" and can have modes.
    connector(drm, "card1-Writeback-1", "connected", "1920x1080\n")
    assert connected_display(drm) is None
    names = [c.name for c in connectors(drm)]
    assert names == ["card1-HDMI-A-1", "card1-HDMI-A-2", "card1-Composite-1"]


def test_a_pinned_connector_is_the_only_one_that_counts(drm: Path) -> None:
    connector(drm, "card1-HDMI-A-1", "connected", "1920x1080\n")
    assert connected_display(drm, "HDMI-A-2") is None
    connector(drm, "card1-HDMI-A-2", "connected", "1280x720\n")
    assert connected_display(drm, "HDMI-A-2") == "card1-HDMI-A-2"
    assert connected_display(drm, "card1-HDMI-A-2") == "card1-HDMI-A-2"
    assert connected_display(drm, "card0-HDMI-A-2") is None  # another card's


def test_connector_names_a_config_may_pin() -> None:
    for good in ("HDMI-A-1", "card1-HDMI-A-2", "DSI-1", "Composite-1", "Virtual-1", "DVI-I-1"):
        assert is_connector_name(good), good
    for bad in ("HDMI", "hdmi0", "card1", "Writeback-1", "card1-Writeback-1", "HDMI-A-", ""):
        assert not is_connector_name(bad), bad


def test_waits_until_a_connector_comes_up(drm: Path) -> None:
    idle = FakeIdle()
    idle.at(3, drm, "card1-HDMI-A-2", "connected", "1920x1080\n1280x720\n")  # TV on
    assert wait_for_display(drm, poll=0.5, idle=idle) == "card1-HDMI-A-2"
    assert idle.calls == [0.5, 0.5, 0.5]


def test_returns_at_once_when_ready(drm: Path) -> None:
    connector(drm, "card1-HDMI-A-1", "connected", "3840x2160\n")
    idle = FakeIdle()
    said: list[str] = []
    assert wait_for_display(drm, idle=idle, on_change=said.append) == "card1-HDMI-A-1"
    assert idle.calls == [] and said == []


def test_never_gives_up(drm: Path) -> None:
    """Far past the old 60 s: a TV switched on after an hour is still found."""
    idle = FakeIdle()
    idle.at(900, drm, "card1-HDMI-A-1", "connected", "1920x1080\n")
    assert wait_for_display(drm, poll=4.0, idle=idle) == "card1-HDMI-A-1"
    assert sum(idle.calls) == 3600.0


def test_logs_once_and_again_only_when_what_it_sees_changes(
        drm: Path, caplog: pytest.LogCaptureFixture) -> None:
    idle = FakeIdle()
    idle.at(20, drm, "card1-HDMI-A-1", "connected", "")  # the TV wakes up on another input
    idle.at(40, drm, "card1-HDMI-A-1", "connected", "1920x1080\n")
    said: list[str] = []
    with caplog.at_level(logging.WARNING, logger="kiosk.hdmi"):
        assert wait_for_display(drm, idle=idle, on_change=said.append) == "card1-HDMI-A-1"
    assert len(idle.calls) == 40
    assert said == [
        "card1-HDMI-A-1 disconnected, card1-HDMI-A-2 disconnected, "
        "card1-Composite-1 disconnected",
        "card1-HDMI-A-1 connected without modes, card1-HDMI-A-2 disconnected, "
        "card1-Composite-1 disconnected",
    ]
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 3, lines  # two while waiting, one when it opens
    assert lines[0].startswith("waiting for a display: card1-HDMI-A-1 disconnected")
    assert "card1-HDMI-A-1 is ready" in lines[2]


def test_a_missing_drm_root_is_waited_on_too(tmp_path: Path) -> None:
    # No DRM driver loaded yet (a slow module load at boot): keep looking.
    root = tmp_path / "drm"
    said: list[str] = []

    def idle(seconds: float) -> None:
        if not root.exists():
            connector(root, "card0-Virtual-1", "connected", "1280x800\n")

    assert wait_for_display(root, idle=idle, on_change=said.append) == "card0-Virtual-1"
    assert said == [f"no connectors under {root}"]


def test_real_sleep_and_a_thread_flipping_the_status(drm: Path) -> None:
    def tv_on() -> None:
        connector(drm, "card1-HDMI-A-1", "connected", "1920x1080\n")

    timer = threading.Timer(0.3, tv_on)
    timer.start()
    try:
        assert wait_for_display(drm, poll=0.05) == "card1-HDMI-A-1"
    finally:
        timer.cancel()
        timer.join()


def test_display_index_follows_the_kernels_connector_order(tmp_path: Path) -> None:
    connector(tmp_path, "card1-HDMI-A-1", "connected", "1920x1080\n", connector_id=33)
    connector(tmp_path, "card1-DSI-1", "connected", "800x480\n", connector_id=31)
    connector(tmp_path, "card1-HDMI-A-2", "disconnected", "", connector_id=41)
    # SDL counts the ready ones in id order: DSI is display 0, the TV display 1.
    assert display_index(tmp_path, "card1-HDMI-A-1") == 1
    assert display_index(tmp_path, "card1-DSI-1") == 0
    (tmp_path / "card1-DSI-1" / "connector_id").unlink()
    assert display_index(tmp_path, "card1-HDMI-A-1") == 0  # order unknown: SDL's first


def test_only_kmsdrm_or_a_fake_root_waits() -> None:
    assert wait_root({"SDL_VIDEODRIVER": "kmsdrm"}) == Path("/sys/class/drm")
    assert wait_root({}) is None
    assert wait_root({"SDL_VIDEODRIVER": "x11"}) is None
    assert wait_root({"SDL_VIDEODRIVER": "dummy"}) is None
    assert wait_root({"SDL_VIDEODRIVER": "kmsdrm"}, headless=True) is None
    fake = {"SDL_VIDEODRIVER": "dummy", "PUBPOKER_DRM_ROOT": "/tmp/fake-drm"}
    assert wait_root(fake, headless=True) == Path("/tmp/fake-drm")
