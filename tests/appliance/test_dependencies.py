"""The appliance installs every dependency pyproject.toml names.

provision.sh installs the app with ``--no-deps`` (so pip never replaces Debian's
pygame, gpiozero or pyserial) and names its pure-python dependencies in
``PIP_DEPS``; one left out there is missing on the Pi while every test on a
development machine passes (segno, the wall's QR code, once was).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from tests.appliance.debroot import pip_deps

ROOT = Path(__file__).resolve().parents[2]
#: What Debian's packages give the venv (--system-site-packages), and why not PyPI.
FROM_DEBIAN = {
    "pygame": "python3-pygame (pip wheels have no KMSDRM)",
    "gpiozero": "python3-gpiozero (with lgpio for the Pi 5)",
    "pyserial": "python3-serial",
}
#: Installed by pip as a dependency of one in PIP_DEPS.
PULLED_IN = {"ifaddr": "zeroconf"}


def dependency_names() -> list[str]:
    """The distributions pyproject.toml's ``dependencies`` name."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [re.split(r"[<>=!~;\[ ]", spec, maxsplit=1)[0] for spec in project["dependencies"]]


def test_every_dependency_is_installed_from_debian_or_pypi() -> None:
    provision = (ROOT / "provisioning" / "provision.sh").read_text()
    packages = set(re.search(r"^PACKAGES=\(([^)]*)\)", provision, re.M | re.S)[1].split())
    for name, package in FROM_DEBIAN.items():
        assert package.split()[0] in packages, f"{name}: provision.sh does not install {package}"
    covered = set(pip_deps()) | set(FROM_DEBIAN) | set(PULLED_IN)
    missing = [name for name in dependency_names() if name not in covered]
    assert not missing, f"pyproject needs {missing}; add them to PIP_DEPS in provision.sh"
    assert set(PULLED_IN.values()) <= set(pip_deps())


def test_every_pin_factory_the_appliance_names_is_there() -> None:
    """The unit's (lgpio, gpiozero's own, with Raspberry Pi OS's python3-lgpio) and the
    drop-in's that provision.sh writes where only python3-libgpiod 2.x is (gpiod, ours)."""
    provision = (ROOT / "provisioning" / "provision.sh").read_text()
    unit = (ROOT / "systemd" / "pubpoker-kiosk.service").read_text()
    ours = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "entry-points"]["gpiozero_pin_factories"]
    named = re.findall(r"GPIOZERO_PIN_FACTORY=(\w+)", unit + provision)
    assert sorted(set(named)) == ["gpiod", "lgpio"]
    assert "gpiod" in ours
    packages = set(re.search(r"^PACKAGES=\(([^)]*)\)", provision, re.M | re.S)[1].split())
    bindings = re.search(r"^GPIO_BINDINGS=\(([^)]*)\)", provision, re.M)
    assert "python3-gpiozero" in packages and bindings is not None
    assert set(bindings[1].split()) == {"python3-lgpio", "python3-libgpiod"}
