"""The unit files and scripts pass their linters.

``systemd-analyze verify`` is run with ``--root`` on a throwaway tree: the
units under ``etc/systemd/system``, a copy of this machine's stock units (so
``multi-user.target``, ``getty@.service`` and the rest resolve), and
executable stubs at each ``ExecStart`` path (``/opt/pubpoker/venv/bin/...``
is not installed on a build machine). What remains is a real check: unknown
sections or directives, values that do not parse, bad dependencies and a
missing or non-executable binary. verify reports unknown keys as warnings
with exit status 0, so any output at all fails the test.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
UNITS = sorted((REPO / "systemd").glob("*.service"))
SCRIPTS = sorted(
    [*(REPO / "provisioning").rglob("*.sh"), *(REPO / "images").rglob("*.sh"),
     # Sourced by pi-gen's build.sh; they carry a "shellcheck shell=bash" directive.
     REPO / "images/config", REPO / "images/stage-pubpoker/EXPORT_IMAGE"]
)
STOCK_UNITS = next(
    (p for p in (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system")) if p.is_dir()),
    None,
)
# Directives that narrow what the service may do (STYLE.md rule 11: each has a comment).
HARDENING = re.compile(
    r"^(NoNewPrivileges|CapabilityBoundingSet|AmbientCapabilities|Protect\w+|Private\w+|"
    r"ReadWritePaths|ReadOnlyPaths|InaccessiblePaths|Restrict\w+|LockPersonality|"
    r"MemoryDenyWriteExecute|SystemCall\w+|UMask|DevicePolicy|DeviceAllow|IPAddress\w+|"
    r"KeyringMode|RemoveIPC|DynamicUser)="
)


def test_there_is_something_to_check() -> None:
    names = {u.name for u in UNITS}
    assert {"pubpoker-kiosk.service", "pubpoker-firstboot.service"} <= names
    assert REPO / "provisioning" / "provision.sh" in SCRIPTS
    assert any("images" in s.parts for s in SCRIPTS)


@pytest.mark.skipif(shutil.which("systemd-analyze") is None or STOCK_UNITS is None,
                    reason="systemd-analyze is not installed (.ci/run installs systemd)")
def test_systemd_analyze_verify(tmp_path: Path) -> None:
    assert STOCK_UNITS is not None
    root = tmp_path / "root"
    shutil.copytree(STOCK_UNITS, root / "usr/lib/systemd/system", symlinks=True)
    unit_dir = root / "etc/systemd/system"
    unit_dir.mkdir(parents=True)
    for unit in UNITS:
        shutil.copy(unit, unit_dir / unit.name)
        for line in unit.read_text().splitlines():
            if line.startswith("ExecStart="):
                binary = line.split("=", 1)[1].split()[0].lstrip("-@:+!")
                stub = root / binary.lstrip("/")
                stub.parent.mkdir(parents=True, exist_ok=True)
                stub.write_text("#!/bin/sh\nexit 0\n")
                stub.chmod(0o755)
    result = subprocess.run(
        ["systemd-analyze", "verify", f"--root={root}", *(u.name for u in UNITS)],
        capture_output=True, text=True, timeout=120,
    )
    output = (result.stdout + result.stderr).strip()
    assert result.returncode == 0 and not output, output


@pytest.mark.skipif(shutil.which("systemd-analyze") is None or STOCK_UNITS is None,
                    reason="systemd-analyze is not installed (.ci/run installs systemd)")
def test_verify_really_catches_mistakes(tmp_path: Path) -> None:
    """The set-up above is not a rubber stamp: a typo and a missing binary are reported."""
    assert STOCK_UNITS is not None
    root = tmp_path / "root"
    shutil.copytree(STOCK_UNITS, root / "usr/lib/systemd/system", symlinks=True)
    (root / "etc/systemd/system").mkdir(parents=True)
    text = (REPO / "systemd/pubpoker-kiosk.service").read_text()
    bad = text.replace("WatchdogSec=30", "WatchdogSecs=30")
    (root / "etc/systemd/system/pubpoker-kiosk.service").write_text(bad)
    result = subprocess.run(
        ["systemd-analyze", "verify", f"--root={root}", "pubpoker-kiosk.service"],
        capture_output=True, text=True, timeout=120,
    )
    output = result.stdout + result.stderr
    assert "WatchdogSecs" in output
    assert "/opt/pubpoker/venv/bin/pubpoker" in output  # no stub: not executable


@pytest.mark.parametrize("unit", UNITS, ids=lambda p: p.name)
def test_every_hardening_line_has_a_comment(unit: Path) -> None:
    lines = unit.read_text().splitlines()
    bare = [
        line for i, line in enumerate(lines)
        if HARDENING.match(line) and not (i > 0 and lines[i - 1].lstrip().startswith("#"))
    ]
    assert not bare, f"hardening lines without a comment above them: {bare}"


def test_kiosk_unit_has_what_the_appliance_needs() -> None:
    text = (REPO / "systemd/pubpoker-kiosk.service").read_text()
    for needed in (
        "Type=notify", "WatchdogSec=", "Restart=always", "StartLimitIntervalSec=0",
        "RestartSec=", "LimitNOFILE=", "User=pubpoker",
        "SupplementaryGroups=video render input gpio dialout audio",
        "TTYPath=/dev/tty1", "StandardInput=tty", "Conflicts=getty@tty1.service",
        "Environment=SDL_VIDEODRIVER=kmsdrm GPIOZERO_PIN_FACTORY=lgpio",
        "ExecStart=/opt/pubpoker/venv/bin/pubpoker kiosk --config /boot/firmware/pubpoker.toml",
        "WantedBy=multi-user.target",
    ):
        assert needed in text, needed


@pytest.mark.skipif(shutil.which("shellcheck") is None,
                    reason="shellcheck is not installed (.ci/run installs it)")
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(REPO)))
def test_shellcheck(script: Path) -> None:
    result = subprocess.run(
        ["shellcheck", "--external-sources", str(script)],
        capture_output=True, text=True, timeout=120, cwd=script.parent,
    )
    assert result.returncode == 0, result.stdout + result.stderr
