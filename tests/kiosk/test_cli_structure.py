from __future__ import annotations

import pytest

from kiosk.cli import main


def test_structure_show_prints_the_C2_levels_in_nynorsk(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["structure", "show", "pf-pokerklub"]) == 0
    out = capsys.readouterr().out
    assert "Nivå  1" in out and "100/200" in out and "5 000/10 000" in out
    assert "Ante 1 000" in out and "Fargebyte: 100, 200" in out
    assert "Heads-up: nivå på 10 min" in out


def test_structure_show_in_english(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "en", "structure", "show", "pubpoker"]) == 0
    out = capsys.readouterr().out
    assert "Level 16" in out and "10,000/20,000" in out and "BB ante" in out


def test_structure_show_refuses_an_unknown_preset(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["structure", "show", "turbo"])
    assert exit_.value.code == 2
    # argparse's refusal in the default language, Nynorsk
    assert "'turbo' er ikkje eit av vala" in capsys.readouterr().err
