"""pubpoker-firstboot: host name and Wi-Fi from pubpoker.toml, once per change."""

from __future__ import annotations

import importlib.util
import stat
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import pytest

from kiosk.config import parse_config

REPO = Path(__file__).resolve().parents[2]
VENUE = '[venue]\nkey = "' + "ab" * 32 + '"\n'


@pytest.fixture(scope="module")
def firstboot() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "pubpoker_firstboot", REPO / "provisioning/firstboot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_hostname_follows_the_role(firstboot: ModuleType) -> None:
    def name(device: str) -> str:
        return str(firstboot.hostname_for(parse_config(VENUE + device, hostname="x")))

    assert name("") == "pubpoker-display"
    assert name('[device]\nrole = ["console", "display"]\n') == "pubpoker-display"
    assert name('[device]\nrole = "console"\n') == "pubpoker-console"
    assert name('[device]\nrole = "table"\ntable = 4\n') == "pubpoker-table-4"


def test_apply_writes_once_per_change(firstboot: ModuleType, tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc/hosts").write_text("127.0.0.1\tlocalhost\n127.0.1.1\traspberrypi\n")
    config = tmp_path / "pubpoker.toml"
    config.write_text(VENUE + '[device]\nrole = "table"\ntable = 2\n'
                      '[wifi]\ncountry = "NO"\nssid = "Pub"\npsk = "secret-password"\n')
    calls: list[Sequence[str]] = []

    done = firstboot.apply(config, root, run=calls.append)
    assert done == ["hostname pubpoker-table-2", "wifi Pub"]
    assert calls == []  # under a --root, no commands touch the running machine
    assert (root / "etc/hostname").read_text() == "pubpoker-table-2\n"
    assert (root / "etc/hosts").read_text() == "127.0.0.1\tlocalhost\n127.0.1.1\tpubpoker-table-2\n"
    keyfile = root / firstboot.KEYFILE
    text = keyfile.read_text()
    assert "ssid=Pub" in text and "psk=secret-password" in text and "powersave=2" in text
    assert stat.S_IMODE(keyfile.stat().st_mode) == 0o600

    assert firstboot.apply(config, root, run=calls.append) == []  # unchanged: nothing to do

    config.write_text(VENUE + '[device]\nrole = "console"\n')
    assert firstboot.apply(config, root, run=calls.append) == [
        "hostname pubpoker-console", "wifi removed"]
    assert not keyfile.exists()


def test_invalid_config_changes_nothing(
    firstboot: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "pubpoker.toml"
    config.write_text('[device]\nrole = "tv"\n')
    assert firstboot.main([str(config), "--root", str(tmp_path / "root")]) == 0
    assert not (tmp_path / "root/etc/hostname").exists()
    assert "device.role" in capsys.readouterr().err
