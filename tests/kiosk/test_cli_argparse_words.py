"""argparse's own refusals (a wrong choice, a missing argument) in the TD's language.

Our type functions (``--size``, ``--speed``) refuse in every language; these
are argparse's sentences, which came out in English whatever ``--lang``.
Real ``pubpoker`` processes; exit 2, one sentence, no traceback.
"""

from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path

import pytest

import kiosk.cli.args

REPO = Path(__file__).resolve().parents[2]

CASES = [
    (["clock", "bogus"], {
        "nn": "feil: HANDLING: 'bogus' er ikkje eit av vala",
        "nb": "feil: HANDLING: 'bogus' er ikke et av valgene",
        "da": "fejl: HANDLING: 'bogus' er ikke et af valgene",
        "en": "error: argument ACTION: invalid choice: 'bogus'"}),
    (["points"], {
        "nn": "feil: manglar: --entrants", "nb": "feil: mangler: --entrants",
        "da": "fejl: mangler: --entrants",
        "en": "error: the following arguments are required: --entrants"}),
]


@pytest.mark.parametrize("lang", ["nn", "nb", "da", "en"])
@pytest.mark.parametrize(("argv", "expected"), CASES, ids=["choice", "required"])
def test_argparse_refusals_are_in_the_language_asked_for(
        tmp_path: Path, lang: str, argv: list[str], expected: dict[str, str]) -> None:
    done = subprocess.run([sys.executable, "-m", "kiosk.cli", "--lang", lang, *argv,
                           "--data-dir", str(tmp_path)],
                          cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done
    assert expected[lang] in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert not list(tmp_path.iterdir())  # refused before any store is opened


def test_the_translation_doctests() -> None:
    result = doctest.testmod(kiosk.cli.args)
    assert result.attempted > 0 and result.failed == 0
