"""Health on the status line: under-voltage (hwmon) and ext4 errors, from fake sysfs trees."""

from __future__ import annotations

from pathlib import Path

from kiosk.health import check, ext4_errors, status_messages, under_voltage
from rules.i18n import LANGUAGES


def hwmon(root: Path, index: int, name: str, alarm: str | None = None) -> None:
    path = root / f"hwmon{index}"
    path.mkdir(parents=True)
    (path / "name").write_text(name + "\n")
    if alarm is not None:
        (path / "in0_lcrit_alarm").write_text(alarm + "\n")


def test_all_well(tmp_path: Path) -> None:
    hwmon(tmp_path / "hwmon", 0, "cpu_thermal")
    hwmon(tmp_path / "hwmon", 1, "rpi_volt", "0")
    (tmp_path / "ext4" / "mmcblk0p2").mkdir(parents=True)
    (tmp_path / "ext4" / "mmcblk0p2" / "errors_count").write_text("0\n")
    health = check(tmp_path / "hwmon", tmp_path / "ext4")
    assert health.ok and health.messages("nn") == ()


def test_under_voltage_alarm(tmp_path: Path) -> None:
    hwmon(tmp_path, 0, "cpu_thermal", "1")  # another sensor's alarm is not ours
    assert not under_voltage(tmp_path)
    hwmon(tmp_path, 1, "rpi_volt", "1")
    assert under_voltage(tmp_path)
    health = check(tmp_path, tmp_path / "no-ext4")
    assert not health.ok
    assert health.messages("en") == ("Under-voltage: use the Pi power supply",)
    assert health.messages("nn") == ("For låg straum: bruk Pi-straumforsyninga",)


def test_ext4_errors(tmp_path: Path) -> None:
    for device, count in (("mmcblk0p2", "3"), ("sda1", "0"), ("mmcblk0p3", "garbage")):
        (tmp_path / device).mkdir()
        (tmp_path / device / "errors_count").write_text(count)
    assert ext4_errors(tmp_path) == {"mmcblk0p2": 3}
    health = check(tmp_path / "no-hwmon", tmp_path)
    assert health.messages("en") == ("SD card errors (mmcblk0p2): replace the card",)
    for lang in LANGUAGES:
        assert "mmcblk0p2" in health.messages(lang)[0]


def test_missing_roots_are_healthy(tmp_path: Path) -> None:
    assert check(tmp_path / "a", tmp_path / "b").ok


def test_status_messages_in_one_call(tmp_path: Path) -> None:
    hwmon(tmp_path, 0, "rpi_volt", "1")
    assert status_messages("da", tmp_path, tmp_path / "none") == (
        "For lav spænding: brug Pi-strømforsyningen",)


def test_a_process_out_of_descriptors_reads_no_health_rather_than_stop(
        tmp_path: Path) -> None:
    """The status line's check runs on the wall's loop: EMFILE there must not end it."""
    import resource
    import subprocess
    import sys

    (tmp_path / "mmcblk0p2").mkdir()
    (tmp_path / "mmcblk0p2" / "errors_count").write_text("3\n")
    code = (
        "import os, resource, sys\n"
        "from kiosk.health import check\n"
        f"root = {str(tmp_path)!r}\n"
        "assert check(root, root).ext4_errors == (('mmcblk0p2', 3),)\n"
        "held = []\n"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))\n"
        "try:\n"
        "    while True: held.append(os.open('/dev/null', os.O_RDONLY))\n"
        "except OSError: pass\n"
        "print(check(root, root).ok)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, cwd=Path(__file__).parents[2])
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"
    assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] > 64  # ours is untouched
