"""The HDMI wait: a fake /sys/class/drm tree stands in for the TV."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from kiosk.hdmi import NoDisplay, connected_hdmi, should_wait, wait_for_hdmi


def connector(root: Path, name: str, status: str, modes: str = "") -> Path:
    path = root / name
    path.mkdir(parents=True, exist_ok=True)
    (path / "status").write_text(status + "\n")
    (path / "modes").write_text(modes)
    return path


@pytest.fixture
def drm(tmp_path: Path) -> Path:
    root = tmp_path / "drm"
    root.mkdir()
    (root / "card1").mkdir()  # the card itself is not a connector
    (root / "version").write_text("drm 1.1.0\n")
    connector(root, "card1-Composite-1", "connected", "720x576i\n")
    connector(root, "card1-HDMI-A-1", "disconnected")
    connector(root, "card1-HDMI-A-2", "disconnected")
    return root


class FakeTime:
    """An injected clock and sleep: sleeping advances the clock."""

    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def test_no_connector_connected(drm: Path) -> None:
    assert connected_hdmi(drm) is None


def test_connected_without_modes_is_not_ready(drm: Path) -> None:
    # A TV on another input or in standby: HPD says connected, EDID gives no modes.
    connector(drm, "card1-HDMI-A-1", "connected", "")
    assert connected_hdmi(drm) is None


def test_waits_until_a_connector_comes_up(drm: Path) -> None:
    fake = FakeTime()

    def sleep(seconds: float) -> None:
        fake.sleep(seconds)
        if len(fake.sleeps) == 3:  # the TV is switched on during the third poll
            connector(drm, "card1-HDMI-A-2", "connected", "1920x1080\n1280x720\n")

    name = wait_for_hdmi(drm, timeout=30, poll=0.5, clock=fake.clock, sleep=sleep)
    assert name == "card1-HDMI-A-2"
    assert fake.sleeps == [0.5, 0.5, 0.5]


def test_returns_at_once_when_ready(drm: Path) -> None:
    connector(drm, "card1-HDMI-A-1", "connected", "3840x2160\n")
    fake = FakeTime()
    assert wait_for_hdmi(drm, timeout=5, clock=fake.clock, sleep=fake.sleep) == "card1-HDMI-A-1"
    assert fake.sleeps == []


def test_raises_no_display_after_the_timeout(drm: Path) -> None:
    fake = FakeTime()
    with pytest.raises(NoDisplay) as caught:
        wait_for_hdmi(drm, timeout=2.0, poll=0.5, clock=fake.clock, sleep=fake.sleep)
    assert fake.now == pytest.approx(102.0)
    assert sum(fake.sleeps) == pytest.approx(2.0)
    assert str(drm) in str(caught.value)


def test_real_clock_and_a_thread_flipping_the_status(drm: Path) -> None:
    def tv_on() -> None:
        connector(drm, "card1-HDMI-A-1", "connected", "1920x1080\n")

    timer = threading.Timer(0.3, tv_on)
    timer.start()
    try:
        assert wait_for_hdmi(drm, timeout=10, poll=0.05) == "card1-HDMI-A-1"
    finally:
        timer.cancel()
        timer.join()


def test_real_clock_timeout(drm: Path) -> None:
    with pytest.raises(NoDisplay):
        wait_for_hdmi(drm, timeout=0.2, poll=0.05)


def test_missing_drm_root_times_out(tmp_path: Path) -> None:
    fake = FakeTime()
    with pytest.raises(NoDisplay):
        wait_for_hdmi(tmp_path / "none", timeout=1, clock=fake.clock, sleep=fake.sleep)


def test_only_kmsdrm_waits() -> None:
    assert should_wait({"SDL_VIDEODRIVER": "kmsdrm"})
    assert not should_wait({})
    assert not should_wait({"SDL_VIDEODRIVER": "x11"})
    assert not should_wait({"SDL_VIDEODRIVER": "dummy"})
