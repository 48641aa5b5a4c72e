"""pubpoker-firstboot: host name, Wi-Fi and time role from pubpoker.toml, once per change,
and never a stall of the boot (issue 14: under emulation it hit its timeout and all
of the boot waited)."""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import shutil
import stat
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import pytest

from kiosk import config as kiosk_config
from kiosk.config import ConfigError, parse_config

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "provisioning" / "firstboot.py"
VENUE = '[venue]\nkey = "' + "ab" * 32 + '"\n'
WIFI = '[wifi]\ncountry = "NO"\nssid = "Pub"\npsk = "secret-password"\n'
SYSTEM_PYTHON = Path("/usr/bin/python3")


@pytest.fixture(scope="module")
def firstboot() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pubpoker_firstboot", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def a_root(tmp_path: Path, *, chrony: bool = True) -> Path:
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc/hosts").write_text("127.0.0.1\tlocalhost\n127.0.1.1\traspberrypi\n")
    if chrony:
        (root / "etc/chrony/conf.d").mkdir(parents=True)
    return root


def test_hostname_follows_the_role(firstboot: ModuleType) -> None:
    def name(device: str) -> str:
        return str(firstboot.hostname_for(firstboot.read_settings((VENUE + device).encode())))

    assert name("") == "pubpoker-display"
    assert name('[device]\nrole = ["console", "display"]\n') == "pubpoker-display"
    assert name('[device]\nrole = "console"\n') == "pubpoker-console"
    assert name('[device]\nrole = "table"\ntable = 4\n') == "pubpoker-table-4"
    assert name('[device]\nrole = [" Table "]\ntable = 4\n') == "pubpoker-table-4"


def test_apply_writes_once_per_change(firstboot: ModuleType, tmp_path: Path) -> None:
    root = a_root(tmp_path)
    config = tmp_path / "pubpoker.toml"
    config.write_text(VENUE + '[device]\nrole = "table"\ntable = 2\n' + WIFI)
    calls: list[Sequence[str]] = []

    def run(argv: Sequence[str], timeout: float) -> None:
        calls.append(argv)

    report = firstboot.apply(config, root)  # under a --root, no commands touch this machine
    assert report.done == ["hostname pubpoker-table-2", "chrony follows the display",
                           "wifi Pub"]
    assert report.failed == [] and not report.unchanged
    assert (root / "etc/hostname").read_text() == "pubpoker-table-2\n"
    assert (root / "etc/hosts").read_text() == "127.0.0.1\tlocalhost\n127.0.1.1\tpubpoker-table-2\n"
    chrony = (root / firstboot.CHRONY).read_text()
    assert "server pubpoker-display.local iburst prefer" in chrony
    keyfile = root / firstboot.KEYFILE
    text = keyfile.read_text()
    assert "ssid=Pub" in text and "psk=secret-password" in text and "powersave=2" in text
    assert stat.S_IMODE(keyfile.stat().st_mode) == 0o600
    stamp = root / firstboot.STAMP
    written = {p: p.stat().st_mtime_ns for p in (root / "etc/hostname", keyfile, stamp)}

    # Unchanged: nothing done, nothing run, nothing written, on every later boot.
    for _ in range(3):
        again = firstboot.apply(config, root, run)
        assert again.unchanged and again.done == [] and calls == []
    assert {p: p.stat().st_mtime_ns for p in written} == written

    config.write_text(VENUE + '[device]\nrole = "console"\n')
    assert firstboot.apply(config, root, run).done == ["hostname pubpoker-console",
                                                       "wifi removed"]
    assert not keyfile.exists()
    assert calls == [("hostname", "pubpoker-console")]
    # A display serves the venue's time.
    config.write_text(VENUE)
    assert firstboot.apply(config, root).done == ["hostname pubpoker-display",
                                                  "chrony serves the venue's time"]
    assert "local stratum 10" in (root / firstboot.CHRONY).read_text()


def test_a_failed_command_leaves_the_stamp_for_the_next_boot(
        firstboot: ModuleType, tmp_path: Path) -> None:
    root = a_root(tmp_path)
    config = tmp_path / "pubpoker.toml"
    config.write_text(VENUE + WIFI)
    ran: list[str] = []

    def flaky(argv: Sequence[str], timeout: float) -> str | None:
        ran.append(argv[0])
        return "timed out after 10 s" if argv[0] == "raspi-config" else None

    report = firstboot.apply(config, root, flaky)
    assert report.failed == ["raspi-config nonint do_wifi_country NO: timed out after 10 s"]
    assert ran == ["hostname", "raspi-config", "iw", "rfkill"]  # the rest went on
    assert (root / "etc/hostname").exists() and (root / firstboot.KEYFILE).exists()
    assert not (root / firstboot.STAMP).exists()
    # The next boot tries again; the files are already right and are not rewritten.
    retry = firstboot.apply(config, root, lambda argv, timeout: None)
    assert retry.done == [] and retry.failed == [] and not retry.unchanged
    assert (root / firstboot.STAMP).exists()
    assert firstboot.apply(config, root).unchanged


def test_invalid_config_changes_nothing(
    firstboot: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "pubpoker.toml"
    for text, key in (('[device]\nrole = "tv"\n', "device.role"),
                      (VENUE + '[wifi]\ncountry = "NO"\nssid = "Pub"\npks = "secret-password"\n',
                       "wifi.pks"),
                      ("[device\n", "syntax error")):
        config.write_text(text)
        assert firstboot.main([str(config), "--root", str(tmp_path / "root")]) == 0
        assert not (tmp_path / "root").exists()
        assert key in capsys.readouterr().err


# --- the same rules as kiosk/config.py, for the keys it reads -------------------------

CASES = [
    "", '[device]\nrole = "display"\n', '[device]\nrole = ["console", "display"]\n',
    '[device]\nrole = "console"\n', '[device]\nrole = "table"\ntable = 5\n',
    '[device]\nrole = ["TABLE"]\ntable = 3\n', '[device]\nrole = "tv"\n',
    '[device]\nrole = []\n', "[device]\nrole = 3\n", '[device]\nrole = "table"\n',
    '[device]\nrole = "table"\ntable = 16\n', '[device]\nrole = "table"\ntable = 0\n',
    '[device]\nrole = "table"\ntable = true\n', '[device]\nrole = "table"\ntable = "2"\n',
    '[device]\nrole = "console"\ntable = 2\n', '[device]\nrol = "console"\n', "device = 1\n",
    '[device]\nname = "TV"\nlanguage = "da"\n',
    WIFI, '[wifi]\ncountry = "NO"\nssid = "Pub"\n', '[wifi]\ncountry = "no"\nssid = "Pub"\n',
    '[wifi]\ncountry = "NO"\n', '[wifi]\nssid = "Pub"\n', '[wifi]\ncountry = " "\nssid = "P"\n',
    '[wifi]\ncountry = "NO"\nssid = "' + "x" * 33 + '"\n',
    '[wifi]\ncountry = "NO"\nssid = "Pub"\npsk = "short"\n',
    '[wifi]\ncountry = "NO"\nssid = "Pub"\npsk = "  eight  "\n',
    '[wifi]\ncountry = "NO"\nssid = "Pub"\npsk = 12345678\n',
    '[wifi]\ncountry = "NO"\nssid = "Pub"\npks = "secret-password"\n', "wifi = 2\n",
]


@pytest.mark.parametrize("text", CASES)
def test_it_reads_the_file_as_the_kiosk_does(firstboot: ModuleType, text: str) -> None:
    doc = VENUE + text if not text.startswith(("device", "wifi")) else text + VENUE
    try:
        expected = parse_config(doc, hostname="pi")
    except ConfigError:
        expected = None
    try:
        got = firstboot.read_settings(doc.encode())
    except firstboot.Invalid:
        got = None
    assert (got is None) == (expected is None), (doc, expected, got)
    if expected is not None and got is not None:
        assert got.roles == tuple(r.value for r in expected.device.roles)
        assert got.table == expected.device.table
        wifi = expected.wifi
        assert (got.wifi is None) == (wifi is None)
        if wifi is not None:
            assert (got.wifi.country, got.wifi.ssid, got.wifi.psk) == (
                wifi.country, wifi.ssid, wifi.psk)


def test_it_knows_the_sections_keys_as_the_kiosk_does(firstboot: ModuleType) -> None:
    for section, keys in firstboot.KNOWN.items():
        assert keys == kiosk_config._SCHEMA[section], section


def test_chrony_is_what_provision_writes(firstboot: ModuleType) -> None:
    provision = (REPO / "provisioning/provision.sh").read_text()
    display = firstboot.chrony_conf(firstboot.Settings(roles=("display",)))
    table = firstboot.chrony_conf(firstboot.Settings(roles=("table",), table=1))
    assert display in provision
    assert table.replace("pubpoker-display", "${DISPLAY_HOST}") in provision
    # provision.sh --display-host bar: a table keeps following bar.
    console = firstboot.Settings(roles=("console",))
    assert "server bar.local iburst" in firstboot.chrony_conf(
        console, "# pubpoker (provision.sh): follow the venue's display.\n"
                 "server bar.local iburst prefer\n")


# --- it cannot stall the boot -----------------------------------------------------------


def test_it_needs_only_the_standard_library() -> None:
    tree = ast.parse(SCRIPT.read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree)
                if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module}
    assert imported <= set(sys.stdlib_module_names), imported - set(sys.stdlib_module_names)


def system_python() -> str:
    if not SYSTEM_PYTHON.exists():
        pytest.skip("no /usr/bin/python3")
    version = subprocess.run([str(SYSTEM_PYTHON), "-c", "import sys; print(sys.version_info >= "
                              "(3, 11))"], capture_output=True, text=True, timeout=30)
    if version.stdout.strip() != "True":
        pytest.skip("/usr/bin/python3 is older than 3.11 (no tomllib)")
    return str(SYSTEM_PYTHON)


def stub(bin_dir: Path, name: str, body: str) -> None:
    path = bin_dir / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)


def run_firstboot(tmp_path: Path, config: Path, *args: str,
                  path: str | None = None) -> subprocess.CompletedProcess[str]:
    """The script alone in a directory, as the unit runs it: the system's python, -I -B."""
    lib = tmp_path / "opt-pubpoker-lib"
    lib.mkdir(exist_ok=True)
    shutil.copy(SCRIPT, lib / "firstboot.py")
    env = {"PATH": path or os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
    return subprocess.run([system_python(), "-I", "-B", str(lib / "firstboot.py"), str(config),
                           "--root", str(tmp_path / "root"), *args],
                          env=env, cwd="/", capture_output=True, text=True, timeout=60)


def test_the_unit_s_interpreter_runs_it_without_the_repository(tmp_path: Path) -> None:
    config = tmp_path / "pubpoker.toml"
    config.write_text(VENUE + '[device]\nrole = "table"\ntable = 5\n' + WIFI)
    a_root(tmp_path)
    result = run_firstboot(tmp_path, config)
    assert result.returncode == 0, result.stderr
    assert "pubpoker-firstboot: hostname pubpoker-table-5" in result.stdout
    assert (tmp_path / "root/etc/hostname").read_text() == "pubpoker-table-5\n"
    assert not list((tmp_path / "opt-pubpoker-lib").glob("__pycache__"))
    again = run_firstboot(tmp_path, config)
    assert "unchanged since it was applied; nothing to do" in again.stdout, again


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


def test_a_hanging_command_is_killed_with_its_children_and_the_rest_goes_on(
        tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "ran.log"
    pids = tmp_path / "pids"
    stub(bin_dir, "hostname", f'echo "hostname $*" >> {log}')
    # raspi-config under emulation: it and a helper it started hang.
    stub(bin_dir, "raspi-config", f'sleep 300 & echo $! >> {pids}\necho $$ >> {pids}\nsleep 300')
    stub(bin_dir, "iw", f'echo "iw $*" >> {log}\nexit 1')
    stub(bin_dir, "rfkill", f'echo "rfkill $*" >> {log}')
    config = tmp_path / "pubpoker.toml"
    config.write_text(VENUE + WIFI)
    a_root(tmp_path)
    began = time.monotonic()
    result = run_firstboot(tmp_path, config, "--run-commands", "--timeout", "1",
                           path=f"{bin_dir}:/usr/bin:/bin")
    took = time.monotonic() - began
    assert result.returncode == 0, result.stderr
    assert took < 10, took
    assert ("failed: raspi-config nonint do_wifi_country NO: timed out after 1 s"
            in result.stderr), result.stderr
    assert "failed: iw reg set NO: exited with status 1" in result.stderr
    assert "applied again at the next boot" in result.stderr
    assert log.read_text().splitlines() == ["hostname pubpoker-display", "iw reg set NO",
                                            "rfkill unblock wifi"]
    started = [int(p) for p in pids.read_text().split()]
    assert len(started) == 2
    time.sleep(0.2)
    assert not [p for p in started if _alive(p)], "the hung command's processes live on"
    assert (tmp_path / "root/etc/hostname").exists()
    assert not (tmp_path / "root/var/lib/pubpoker/firstboot.sha256").exists()


def test_all_commands_share_one_budget(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("hostname", "raspi-config", "iw", "rfkill"):
        stub(bin_dir, name, "exec sleep 300")
    config = tmp_path / "pubpoker.toml"
    config.write_text(VENUE + WIFI)
    a_root(tmp_path)
    began = time.monotonic()
    result = run_firstboot(tmp_path, config, "--run-commands", "--timeout", "5", "--budget",
                           "1.5", path=f"{bin_dir}:/usr/bin:/bin")
    took = time.monotonic() - began
    assert result.returncode == 0 and took < 6, (took, result.stderr)
    # The first command gets what is left of the budget once the files are written:
    # 1.5 s, or a tenth less on a loaded machine.
    assert re.search(r"failed: hostname pubpoker-display: timed out after 1\.[45] s",
                     result.stderr), result.stderr
    assert "failed: rfkill: not run, the 1.5 s for commands are used up" in result.stderr
    # The files do not wait for the commands: NetworkManager finds its keyfile.
    assert (tmp_path / "root/etc/NetworkManager/system-connections"
            "/pubpoker-wifi.nmconnection").exists()


def test_the_unit_runs_it_with_the_system_python_after_sysinit() -> None:
    text = (REPO / "systemd/pubpoker-firstboot.service").read_text()
    lines = [line for line in text.splitlines() if not line.startswith("#")]
    assert ("ExecStart=/usr/bin/python3 -I -B /opt/pubpoker/lib/firstboot.py "
            "/boot/firmware/pubpoker.toml") in lines
    # Default dependencies: after sysinit.target, so the early boot never waits on it.
    assert not [line for line in lines if line.startswith("DefaultDependencies=")]
    assert not [line for line in lines if line.startswith("Before=") and "sysinit" in line]
    before = " ".join(line.split("=", 1)[1] for line in lines if line.startswith("Before="))
    for unit in ("network-pre.target", "NetworkManager.service", "avahi-daemon.service",
                 "chrony.service", "pubpoker-kiosk.service"):
        assert unit in before.split(), unit
    assert "TimeoutStartFailureMode=kill" in lines
    timeout = next(int(line.split("=")[1]) for line in lines
                   if line.startswith("TimeoutStartSec="))
    # Its own limits (every command, then all of them) end well before systemd's.
    module_text = SCRIPT.read_text()
    assert "BUDGET = 30.0" in module_text and timeout >= 30 + 10
