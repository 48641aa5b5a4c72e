"""The rules core does no I/O and reads no clock or randomness of its own."""

from __future__ import annotations

import ast
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import rules

RULES_DIR = Path(rules.__file__).parent
FORBIDDEN_IMPORTS = {"pygame", "gpiozero", "serial", "socket", "sqlite3", "sqlite_utils",
                     "zeroconf"}
FORBIDDEN_AST = {"time", "random"}


def _modules() -> list[str]:
    return sorted(f"rules.{m.name}" for m in pkgutil.iter_modules([str(RULES_DIR)]))


def test_importing_every_rules_module_pulls_in_no_io_library() -> None:
    code = (
        "import importlib, json, sys\n"
        f"for name in {_modules()!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True, cwd=RULES_DIR.parent).stdout
    loaded = {name.split(".")[0] for name in json.loads(out)}
    assert not loaded & FORBIDDEN_IMPORTS, loaded & FORBIDDEN_IMPORTS


def _imports(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def _is_type_checking_only(tree: ast.Module) -> set[int]:
    """Line numbers inside ``if TYPE_CHECKING:`` blocks (annotations only)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) \
                and node.test.id == "TYPE_CHECKING":
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def test_no_rules_module_imports_time_or_random_or_reads_the_wall_clock() -> None:
    offenders = []
    for path in sorted(RULES_DIR.glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        typing_only = _is_type_checking_only(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom) and node.lineno not in typing_only:
                bad = _imports(node) & (FORBIDDEN_AST | FORBIDDEN_IMPORTS | {"datetime", "os"})
                if bad and not (bad == {"datetime"} and _datetime_types_only(node)):
                    offenders.append(f"{path.name}:{node.lineno} imports {sorted(bad)}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in {"now", "utcnow", "today", "time", "monotonic"}:
                offenders.append(f"{path.name}:{node.lineno} calls .{node.func.attr}()")
    assert not offenders, offenders


def _datetime_types_only(node: ast.Import | ast.ImportFrom) -> bool:
    # Values such as datetime.time(23, 0) for a deadline are data, not a clock.
    return isinstance(node, ast.ImportFrom) and all(
        a.name in {"time", "date", "timedelta"} for a in node.names)


def test_the_scan_itself_catches_an_impure_module(tmp_path: Path) -> None:
    bad = ast.parse("import random\nimport time as t\nfrom datetime import datetime\n"
                    "x = datetime.now()\n")
    assert {"random", "time", "datetime"} <= _imports(bad)
    calls = [n for n in ast.walk(bad) if isinstance(n, ast.Call)]
    assert calls and calls[0].func.attr == "now"  # type: ignore[attr-defined]
