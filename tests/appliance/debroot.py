"""Debian roots for the appliance tests, one per supported release, built and cached once.

Shared by the provision chroot test (every release in :data:`SUITES`) and
the VM boot tests (:data:`SUITE`). The mirror is
the first ``deb`` source of this machine's own apt configuration (never a
host written into the repository). ``/var/cache/pubpoker-test/`` (or
``$PUBPOKER_TEST_CACHE``) keeps the debootstrapped root as a tarball, the
downloaded ``.deb`` files and the wheels, so a warm run downloads nothing.
A mirror or PyPI that cannot be reached is a skip with the reason, not a
failure.
"""

from __future__ import annotations

import fcntl
import functools
import os
import platform
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("PUBPOKER_TEST_CACHE", "/var/cache/pubpoker-test"))
# The releases provision.sh supports, with each one's python3: the wheels are
# fetched for it, not for this machine's Python. Trixie is what
# images/build-debian.sh ships; bookworm is the oldest an existing Pi may run.
SUITES = {"bookworm": "3.11", "trixie": "3.13"}
# The release the VM boot tests boot: the image's.
SUITE = "trixie"
# What a failed apt or debootstrap says when the mirror is out of reach.
UNREACHABLE = re.compile(r"(Temporary failure resolving|Could not resolve|Failed to fetch|"
                         r"Network is unreachable)")


def first_deb_uri(suite: str = SUITE) -> str | None:
    """The first ``deb`` URI serving ``suite`` in this machine's apt sources.

    A machine's sources name its own release only; a Debian mirror serving
    any release of :data:`SUITES` serves the others too.
    """
    entries: list[tuple[str, list[str]]] = []  # (uri, suites)
    lists = [Path("/etc/apt/sources.list"), *sorted(Path("/etc/apt/sources.list.d").glob("*"))]
    for path in lists:
        if not path.is_file():
            continue
        text = path.read_text(errors="replace")
        if path.suffix == ".sources":
            for para in re.split(r"\n\s*\n", text):
                fields: dict[str, str] = {}
                for line in para.splitlines():
                    if line.startswith("#") or ":" not in line:
                        continue
                    key, _, value = line.partition(":")
                    fields[key.strip().lower()] = value.strip()
                if fields.get("enabled", "yes").lower() == "no":
                    continue
                if "deb" in fields.get("types", "").split():
                    for uri in fields.get("uris", "").split():
                        entries.append((uri, fields.get("suites", "").split()))
        elif path.name == "sources.list" or path.suffix == ".list":
            for line in text.splitlines():
                words = re.sub(r"\[[^]]*\]", "", line.split("#", 1)[0]).split()
                if len(words) >= 3 and words[0] == "deb":
                    entries.append((words[1], words[2:3]))
    for wanted in (suite, *SUITES):
        for uri, suites in entries:
            if wanted in suites:
                return uri
    return entries[0][0] if entries else None


def run(
    cmd: list[str], timeout: float, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                          check=False, env=env)


@contextmanager
def building(tarball: Path) -> Iterator[None]:
    """Hold the lock for building ``tarball``.

    The suite's workers (pytest-xdist) and a second run beside it share the
    cache: on a cold cache the chroot test and the VM tests want the same
    debootstrap at once, and two builds of it cost minutes and a mirror's
    patience for nothing. The second waits here, then finds the tarball made.
    """
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / f".{tarball.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def cached(path: Path, make: Callable[[], object]) -> Path:
    """``path`` from the cache; the first caller makes it (``make``) under its lock."""
    if not path.exists():
        with building(path):
            if not path.exists():
                make()
    return path


def base_tarball(arch: str, suite: str = SUITE) -> Path:
    """A cached ``debootstrap --variant=minbase`` root as a tarball; skip if unreachable."""
    tarball = CACHE / f"debootstrap-{suite}-{arch}-minbase.tar"
    return cached(tarball, lambda: _debootstrap(arch, suite, tarball))


def _debootstrap(arch: str, suite: str, tarball: Path) -> Path:
    mirror = first_deb_uri(suite)
    if mirror is None:
        pytest.skip("no deb source in /etc/apt to take a mirror from")
    work = CACHE / f"debootstrap-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    try:
        result = run(["debootstrap", "--variant=minbase", f"--arch={arch}", suite,
                      str(work), mirror], timeout=900)
        if result.returncode != 0:
            pytest.skip(f"debootstrap from {mirror} failed (mirror unreachable?): "
                        f"{(result.stdout + result.stderr)[-800:]}")
        partial = tarball.with_name(f".{tarball.name}.{os.getpid()}")
        subprocess.run(["tar", "-C", str(work), "--numeric-owner", "-cf", str(partial), "."],
                       check=True, timeout=600)
        partial.rename(tarball)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return tarball


def pip_deps() -> list[str]:
    """The pure-python dependencies provision.sh installs from PyPI (its ``PIP_DEPS``)."""
    script = (Path(__file__).resolve().parents[2] / "provisioning" / "provision.sh").read_text()
    found = re.search(r"^PIP_DEPS=\(([^)]*)\)", script, re.M)
    assert found, "provision.sh names no PIP_DEPS"
    return found[1].split()


@functools.cache
def wheels(suite: str = SUITE) -> Path:
    """The pure-python deps (and setuptools to build the app) for ``suite``'s python3.

    Fetched from PyPI through this machine's pip for the release's own
    Python and this machine's architecture (a compiled wheel for 3.11 does
    not load on trixie's 3.13).
    """
    python = SUITES[suite]
    target = CACHE / f"wheels-py{python.replace('.', '')}"
    target.mkdir(parents=True, exist_ok=True)
    fresh = CACHE / f".wheels-{os.getpid()}"
    fresh.mkdir(exist_ok=True)
    try:
        result = run([sys.executable, "-m", "pip", "download", "-q", "--dest", str(fresh),
                      "--find-links", str(target), "--only-binary=:all:",
                      "--python-version", python, "--implementation", "cp",
                      "--abi", f"cp{python.replace('.', '')}",
                      "--platform", f"manylinux_2_36_{platform.machine()}",
                      *pip_deps(), "setuptools>=68"], timeout=600)
        if result.returncode != 0:
            pytest.skip(f"pip download failed (PyPI unreachable?): {result.stderr[-800:]}")
        for wheel in fresh.glob("*.whl"):
            if not (target / wheel.name).exists():
                cache_copy(wheel, target / wheel.name)
    finally:
        shutil.rmtree(fresh, ignore_errors=True)
    return target


def snapshot_source(dest: Path) -> Path:
    """A frozen copy of the repository, so edits made meanwhile cannot change the run."""
    ignore = shutil.ignore_patterns(".git", ".venv", "*_cache", ".hypothesis", ".benchmarks",
                                    "__pycache__", "*.egg-info", "build", "dist")
    shutil.copytree(REPO, dest, ignore=ignore)
    return dest


def provision(
    root: Path, source: Path, *extra: str, suite: str = SUITE
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PYTHON"))}
    env["DEBIAN_FRONTEND"] = "noninteractive"
    return run(["bash", str(source / "provisioning/provision.sh"), "--root", str(root),
                "--no-start", "--source", str(source), "--wheels", str(wheels(suite)), *extra],
               timeout=900, env=env)


def cache_copy(src: Path, dest: Path) -> None:
    """Copy into the shared cache under a temporary name, so a parallel run never reads half."""
    partial = dest.with_name(f".{dest.name}.{os.getpid()}")
    shutil.copy(src, partial)
    os.replace(partial, dest)


def extract(tarball: Path, root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-C", str(root), "--numeric-owner", "-xpf", str(tarball)],
                   check=True, timeout=600)


def pack(root: Path, tarball: Path) -> None:
    """Tar ``root`` into the cache under a temporary name, then rename (parallel runs)."""
    partial = tarball.with_name(f".{tarball.name}.{os.getpid()}")
    subprocess.run(["tar", "-C", str(root), "--numeric-owner", "-cf", str(partial), "."],
                   check=True, timeout=900)
    partial.rename(tarball)


def with_cached_debs(root: Path, arch: str, suite: str = SUITE) -> Path:
    """Seed the root's apt archive from the cache; returns the folder for :func:`keep_debs`."""
    debs = CACHE / f"debs-{suite}-{arch}"
    debs.mkdir(parents=True, exist_ok=True)
    archives = root / "var/cache/apt/archives"
    archives.mkdir(parents=True, exist_ok=True)
    for deb in debs.glob("*.deb"):
        if not (archives / deb.name).exists():
            shutil.copy(deb, archives / deb.name)
    return debs


def keep_debs(root: Path, debs: Path) -> None:
    """Put the .deb files apt downloaded into the root back in the cache, then drop them."""
    for deb in (root / "var/cache/apt/archives").glob("*.deb"):
        if not (debs / deb.name).exists():
            cache_copy(deb, debs / deb.name)


def skip_if_unreachable(result: subprocess.CompletedProcess[str], what: str) -> None:
    if result.returncode != 0 and UNREACHABLE.search(result.stdout + result.stderr):
        pytest.skip(f"the mirror is unreachable from {what}: {result.stderr[-800:]}")
