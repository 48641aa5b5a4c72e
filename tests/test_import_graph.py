"""The house's imports run one way: no circle inside ``kiosk/``, ``rules/`` or
``hardware/``, and nothing in a lower layer imports a higher one (issue 50).

Read from the source with :mod:`ast`, every import counts: at the top, inside a
function (a lazy import is still a dependency) and under ``TYPE_CHECKING`` (a
type names the module it comes from). A circle ties its files so that none can
be read, tested or changed alone; an import back up lets the pure core lean on
the shell.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "hardware", "kiosk")

#: From the bottom up: a module may import its own layer and the ones below.
#: The first prefix that matches a module names its layer.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("rules",),
    ("hardware",),
    ("kiosk.role", "kiosk.paths", "kiosk.lazylog", "kiosk.accept_pauses", "kiosk.health",
     "kiosk.last_exit", "kiosk.undone", "kiosk.logbound", "kiosk.timebase", "kiosk.sdnotify",
     "kiosk.hdmi", "kiosk.last_stop", "kiosk.lean_pygame", "kiosk.fake_pins",
     "kiosk.fonts", "kiosk.sounds"),
    ("kiosk.config",),
    ("kiosk.store",),
    ("kiosk.station", "kiosk.pause_ledger"),
    ("kiosk.controls", "kiosk.sync"),
    ("kiosk.display", "kiosk.table_screen"),
    ("kiosk.table_device", "kiosk.viewer", "kiosk.app"),
    ("kiosk.status_file", "kiosk.wiring", "kiosk.tonight", "kiosk.tonight_switch"),
    ("kiosk.bootstrap",),
    ("kiosk.demo",),
    ("kiosk.night",),
    ("kiosk.cli", "kiosk"),
)


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}


def _imports(name: str, path: Path, known: set[str]) -> Iterator[str]:
    """The house's modules ``name`` imports (a ``from X import y`` of a submodule y
    imports X.y)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            # A package's own __init__ is its face, not a dependency of its parts.
            if target and target != name and not name.startswith(f"{target}."):
                yield target


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: set(_imports(name, path, known)) for name, path in modules.items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _layer(name: str) -> int:
    for level, prefixes in enumerate(LAYERS):
        if any(name == p or name.startswith(f"{p}.") for p in prefixes):
            return level
    raise AssertionError(f"{name} is in no layer: add it to LAYERS")


def test_the_graph_is_read() -> None:
    graph = _graph()
    assert "kiosk.display.loop" in graph["kiosk.app"] | graph["kiosk.bootstrap"]
    assert "rules.state" in graph["rules.commands"]
    # A lazy import inside a function counts.
    assert _circles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]


def test_no_import_circle() -> None:
    circles = _circles(_graph())
    assert not circles, "import circles:\n" + "\n".join(" ⇄ ".join(c) for c in circles)


def test_no_import_runs_back_up_a_layer() -> None:
    graph = _graph()
    up = sorted(f"{name} → {other}" for name, others in graph.items() for other in others
                if _layer(other) > _layer(name))
    assert not up, "imports back up a layer:\n" + "\n".join(up)


def _top_names(path: Path) -> set[str]:
    """Every package ``path`` imports by its top name (relative imports are the house's)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module.partition(".")[0])
    return names


def test_the_controls_do_not_import_pygame(tmp_path: Path) -> None:
    # The controls decide what an input means; the display alone knows how a key
    # arrives (kiosk.display.input turns pygame's keys into the controls' values).
    lazy = tmp_path / "lazy.py"
    lazy.write_text("def f():\n    from pygame.event import Event\n    import pygame.key\n")
    assert _top_names(lazy) == {"pygame"}
    controls = {name: path for name, path in _modules().items()
                if name == "kiosk.controls" or name.startswith("kiosk.controls.")}
    assert "kiosk.controls.prompts" in controls
    pygame_users = sorted(name for name, path in controls.items() if "pygame" in _top_names(path))
    assert not pygame_users, f"import pygame under kiosk/controls: {pygame_users}"
