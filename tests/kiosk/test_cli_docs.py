"""Every ``pubpoker`` command is documented in the README (as sqlite-utils does)."""

from __future__ import annotations

import argparse
from pathlib import Path

from kiosk.cli import build_parser

README = Path(__file__).resolve().parents[2] / "README.md"


def _leaf_commands(parser: argparse.ArgumentParser, prefix: str = "pubpoker") -> list[str]:
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        return [prefix]
    leaves: list[str] = []
    for name, child in subs[0].choices.items():
        leaves.extend(_leaf_commands(child, f"{prefix} {name}"))
    return leaves


def test_every_cli_command_is_documented_in_the_readme() -> None:
    text = README.read_text()
    commands = _leaf_commands(build_parser())
    assert len(commands) >= 3
    missing = [c for c in commands if c not in text]
    assert not missing, f"undocumented commands: {missing}"
