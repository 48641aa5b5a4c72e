"""Issue 14: a TV that is not there. The kiosk waits for it, alive, and never exits for it.

SDL's kmsdrm driver cannot run here, so ``$PUBPOKER_DRM_ROOT`` points the
wait at a fake ``/sys/class/drm`` (sysfs is files, so this is the real
interface) and makes it wait under the dummy driver. A real ``pubpoker
kiosk`` process is watched on a notify socket as systemd would watch it:
READY=1 with a STATUS= that says it waits, watchdog pings all along, the
store and peer sync at work meanwhile, and the display opened as soon as a
connector is connected with modes.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import time
from pathlib import Path

import pygame
import pytest

from tests.appliance.test_hdmi import connector
from tests.appliance.test_startup_kiosk import (
    Notifications,
    base_env,
    example_config,
    notifications,
    pubpoker,
    read_status,
    start_kiosk,
    stop,
    wait_for,
)

# Real kiosks, waiting seconds for a TV.
pytestmark = pytest.mark.realproc

__all__ = ["notifications"]  # the fixture, shared with the start-up test


def _kiosk_env(tmp_path: Path, heard: Notifications, drm: Path) -> dict[str, str]:
    return base_env(HOME=str(tmp_path), PUBPOKER_DATA_DIR=str(tmp_path / "data"),
                    NOTIFY_SOCKET=str(heard.path), WATCHDOG_USEC="1000000",
                    PUBPOKER_DRM_ROOT=str(drm), PUBPOKER_STATUS_FILE=str(tmp_path / "status.json"))


def test_no_tv_waits_with_ready_status_and_watchdog_then_opens_the_display(
        tmp_path: Path, notifications: Notifications) -> None:
    drm = tmp_path / "drm"
    drm.mkdir()  # no connector at all: the TV's cable is not even in
    config = example_config(tmp_path / "pubpoker.toml")
    shot = tmp_path / "shot.png"
    env = _kiosk_env(tmp_path, notifications, drm)
    log = tmp_path / "kiosk.log"
    proc = start_kiosk(["--config", str(config), "--headless", "--size", "320x240",
                        "--frames", "2", "--screenshot", str(shot)], env, log)
    try:
        ready = notifications.until(lambda m: m.startswith("READY=1"), 60, proc)
        assert ready == (f"READY=1\nSTATUS=Waiting for a display (store and peer sync "
                         f"running): no connectors under {drm}")
        began = time.monotonic()
        # The night goes on without a screen: the TD's terminal starts tonight's
        # tournament, and the waiting kiosk folds it (its hooks run, its sync is up).
        made = pubpoker("tournament", "new", "--name", "Uten TV", env=env)
        assert made.returncode == 0, made.stderr
        status = wait_for(lambda: (s := read_status(tmp_path / "status.json"))
                          and s["tournament"] and s, 15, "the waiting kiosk to follow the store")
        assert status["time"] is not None  # peer sync's time estimate: the service runs
        for _ in range(3):
            notifications.until(lambda m: m == "WATCHDOG=1", 5, proc)
        assert proc.poll() is None and not shot.exists()
        waited = time.monotonic() - began
        # Now the TV comes on: HPD first, its modes a moment later.
        connector(drm, "card0-Virtual-1", "connected", "")
        time.sleep(0.6)
        connector(drm, "card0-Virtual-1", "connected", "1024x768\n800x600\n")
        opened = notifications.until(lambda m: "STATUS=Showing" in m, 15, proc)
        assert opened == "READY=1\nSTATUS=Showing the kiosk on card0-Virtual-1"
        assert proc.wait(30) == 0
    finally:
        stop(proc)
    messages = [m for _, m in notifications.seen]
    statuses = [m for m in messages if "STATUS=" in m]
    assert statuses == [
        ready,
        "READY=1\nSTATUS=Waiting for a display (store and peer sync running): "
        "card0-Virtual-1 connected without modes",
        opened,
    ]
    pings = [t for t, m in notifications.seen if m == "WATCHDOG=1"]
    assert len(pings) >= 3 and waited > 1.0
    # Every half interval, and never as late as the interval (systemd would kill it).
    gaps = [b - a for a, b in itertools.pairwise(pings)]
    assert max(gaps) < 1.0, gaps
    output = log.read_text()
    assert output.count("waiting for a display") == 2, output  # once, and once for the change
    assert "display card0-Virtual-1 is ready" in output and "Traceback" not in output
    picture = pygame.image.load(str(shot))
    assert picture.get_size() == (320, 240)
    # The clock screen of the tournament made meanwhile, not an empty frame.
    colours = {tuple(picture.get_at((x, y)))[:3] for x in range(0, 320, 8)
               for y in range(0, 240, 8)}
    assert len(colours) > 2, colours


def test_a_pinned_connector_is_waited_for_while_another_is_ready(
        tmp_path: Path, notifications: Notifications) -> None:
    drm = tmp_path / "drm"
    connector(drm, "card0-Virtual-1", "connected", "1024x768\n")
    config = example_config(tmp_path / "pubpoker.toml")
    config.write_text(config.read_text().replace('# connector = "HDMI-A-1"',
                                                 'connector = "HDMI-A-1"'))
    env = _kiosk_env(tmp_path, notifications, drm)
    proc = start_kiosk(["--config", str(config), "--headless", "--size", "320x240",
                        "--frames", "1"], env, tmp_path / "kiosk.log")
    try:
        ready = notifications.until(lambda m: m.startswith("READY=1"), 60, proc)
        assert ready.startswith("READY=1\nSTATUS=Waiting for a display HDMI-A-1 ")
        assert ready.endswith(": card0-Virtual-1 connected")
        notifications.until(lambda m: m == "WATCHDOG=1", 5, proc)
        assert proc.poll() is None
        connector(drm, "card1-HDMI-A-1", "connected", "1920x1080\n")
        opened = notifications.until(lambda m: "STATUS=Showing" in m, 15, proc)
        assert opened == "READY=1\nSTATUS=Showing the kiosk on card1-HDMI-A-1"
        assert proc.wait(30) == 0
    except subprocess.TimeoutExpired:
        raise AssertionError((tmp_path / "kiosk.log").read_text()) from None
    finally:
        stop(proc)


def test_the_display_opens_on_the_chosen_connector_s_card(tmp_path: Path) -> None:
    """SDL's KMSDRM is told the card of the connector the wait chose (in-process, dummy)."""
    from kiosk.bootstrap import Options, bootstrap, open_screen, wait_for_screen

    drm = tmp_path / "drm"
    (drm / "card0").mkdir(parents=True)  # render-only, as a Pi's v3d
    connector(drm, "card1-Writeback-1", "connected", "1920x1080\n")
    connector(drm, "card1-HDMI-A-1", "connected", "1920x1080\n")
    options = Options(data_dir=str(tmp_path / "data"), headless=True, size=(320, 180),
                      sound=False)
    saved = os.environ.pop("SDL_KMSDRM_DEVICE_INDEX", None)
    app = bootstrap(options, screen=False)
    try:
        shown = wait_for_screen(app, drm, notify=False)
        assert shown == "card1-HDMI-A-1"
        open_screen(app, options, root=drm, connector=shown)
        assert os.environ["SDL_KMSDRM_DEVICE_INDEX"] == "1"
        assert app.run(frames=1) == 0
        assert app.loop.display.get_size() == (320, 180)
    finally:
        app.close()
        os.environ.pop("SDL_KMSDRM_DEVICE_INDEX", None)
        if saved is not None:
            os.environ["SDL_KMSDRM_DEVICE_INDEX"] = saved
