"""``pubpoker rules``: the floor helper prints translated answers and refuses bad input."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.cli.rules_cmd import WORDS
from rules.i18n import LANGUAGES

README = Path(__file__).resolve().parents[2] / "README.md"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# min-raise (X2, via the betting engine) ---------------------------------------


def test_X2_min_raise_after_two_raises(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rules", "min-raise", "--blinds", "100/200",
                         "--actions", "raise 500, raise 1200")
    assert status == 0
    assert out.strip() == "1900"


def test_X2_min_raise_after_a_bigger_raise(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "rules", "min-raise", "--blinds", "100/200",
                    "--actions", "raise 500, raise 1200, raise 2000")
    assert out.strip() == "2800"


def test_X1_min_bet_on_a_new_street_is_the_big_blind(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "rules", "min-raise", "--blinds", "100/200", "--players", "3",
                    "--actions", "call, call, check")
    assert out.strip() == "200"


def test_X7_min_raise_says_why_nobody_may_raise(capsys: pytest.CaptureFixture[str]) -> None:
    # Seat 1 bets 1 000, seat 2 is all-in for 1 400, seat 3 calls: seat 1 may only call or fold.
    status, out, _ = run(capsys, "--lang", "en", "rules", "min-raise", "--blinds", "100/200",
                         "--stacks", "1:10000,2:1400,3:10000", "--button", "3",
                         "--actions", "call, call, check, bet 1000, all-in, call")
    assert status == 0
    assert out.strip() == (
        "Seat 1 cannot raise: A short all-in does not reopen the betting: "
        "you may only call or fold"
    )


def test_min_raise_with_ante_and_limit(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "rules", "min-raise", "--blinds", "100/200", "--ante", "25",
                    "--players", "6", "--actions", "raise 600")
    assert out.strip() == "1000"
    _, out, _ = run(capsys, "rules", "min-raise", "--blinds", "800/1600/100", "--bb-ante",
                    "--limit", "pot-limit", "--players", "4")
    assert out.strip() == "3200"


# pots (P1, P2, P3, P4) ----------------------------------------------------------


def test_P1_pots_from_contributions(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rules", "pots", "--contributions", "1:5000,2:1400,3:8000")
    assert status == 0
    assert out.splitlines() == [
        "Hovudpott: 4 200 – sete 1, 2, 3",
        "Sidepott 1: 7 200 – sete 1, 3",
        "Ikkje synt: 3 000 tilbake til sete 3",
    ]


def test_P1_pots_with_folded_seats_in_english(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "--lang", "en", "rules", "pots",
                    "--contributions", "1:300,2:1000,3:1000,4:600", "--folded", "4")
    assert out.splitlines() == ["Main pot: 1,200 – seats 1, 2, 3", "Side pot 1: 1,700 – seats 2, 3"]


def test_P1_pots_from_stacks_and_actions_with_award(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "rules", "pots", "--stacks", "1:5000,2:1400,3:8000", "--button", "1",
        "--blinds", "100/200", "--actions", "call, all-in, all-in, call",
        "--board", "Ah Kh 7c 2d 2s", "--hands", "1:QsQd,2:AsAd,3:KcKd",
    )
    assert status == 0
    assert out.splitlines() == [
        "Hovudpott: 4 200 – sete 1, 2, 3",
        "  Sete 2: 4 200",
        "Sidepott 1: 7 200 – sete 1, 3",
        "  Sete 3: 7 200",
        "Ikkje synt: 3 000 tilbake til sete 3",
        "Fordeling:",
        "  Sete 2: 4 200",
        "  Sete 3: 10 200",
        "All-in og ingen fleire innsatsar: alle hender skal opp no",  # P4
    ]


def test_P2_pots_odd_chip_left_of_the_button(capsys: pytest.CaptureFixture[str]) -> None:
    # Seat 3's ante of 1 was folded: 201 between two equal hands, the odd chip to seat 2
    # (first left of the button at 1), then with the button at 2 to seat 1.
    args = ["rules", "pots", "--contributions", "1:100,2:100,3:1", "--folded", "3",
            "--board", "Ah Kh Qh Jh Th", "--hands", "1:2c3c,2:4d5s"]
    _, out, _ = run(capsys, *args, "--button", "1")
    assert out.splitlines()[-2:] == ["  Sete 1: 100", "  Sete 2: 101"]
    _, out, _ = run(capsys, *args, "--button", "2")
    assert out.splitlines()[-2:] == ["  Sete 1: 101", "  Sete 2: 100"]


def test_P3_pots_names_who_shows_first(capsys: pytest.CaptureFixture[str]) -> None:
    # Seat 2 goes all-in on the turn; on the river seat 3 bets and seat 1 calls.
    actions = ("call, call, check, check, check, check, "
               "all-in, call, call, bet 1000, call")
    args = ["rules", "pots", "--stacks", "1:5000,2:1000,3:8000", "--button", "1",
            "--blinds", "100/200", "--actions", actions]
    _, out, _ = run(capsys, *args)
    assert out.splitlines()[-1] == "Viser først: sete 3"  # the river bettor
    _, out, _ = run(capsys, *args, "--house", "pf-pokerklub")
    assert out.splitlines()[-1] == "Viser først: sete 2"  # left of the last caller, seat 1


def test_P5_pots_seat_without_both_cards_cannot_win(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "rules", "pots", "--contributions", "1:1000,2:1000",
                    "--board", "Ah Kh 7c 2d 2s", "--hands", "1:As,2:3c4c")
    assert out.splitlines()[-2:] == ["Fordeling:", "  Sete 2: 2 000"]


# showdown (P2, P5, P7, P8) ---------------------------------------------------------


def test_P8_showdown_ranking_and_winner(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rules", "showdown", "--board", "Ah Kh 7c 2d 2s",
                         "--hands", "1:AsAd,2:KcKd")
    assert status == 0
    assert out.splitlines() == [
        " 1. Sete 1: A♠ A♦ – Fullt hus (A♠ A♥ A♦ 2♠ 2♦)",
        " 2. Sete 2: K♣ K♦ – Fullt hus (K♥ K♦ K♣ 2♠ 2♦)",
        "Vinnar: sete 1",
    ]


def test_P8_showdown_in_every_language(capsys: pytest.CaptureFixture[str]) -> None:
    expected = {"nn": "Vinnar: sete 2", "nb": "Vinner: sete 2", "da": "Vinder: sæde 2",
                "en": "Winner: seat 2"}
    for lang in LANGUAGES:
        _, out, _ = run(capsys, "--lang", lang, "rules", "showdown",
                        "--board", "Ah Kh 7c 2d 2s", "--hands", "1:QcJd,2:KcKd")
        assert out.splitlines()[-1] == expected[lang]
        category = {"nn": "Fullt hus", "nb": "Fullt hus", "da": "Fuldt hus",
                    "en": "Full house"}[lang]
        assert category in out.splitlines()[0]


def test_P2_showdown_split_and_odd_chip(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "--lang", "en", "rules", "showdown", "--board", "Ah Kh Qh Jh Th",
                    "--hands", "1:2c3c,2:4d5s", "--button", "1", "--pot", "301")
    assert out.splitlines()[-2:] == ["Winners: seats 1, 2", "Split: Seat 2: 151, Seat 1: 150"]


def test_P5_showdown_one_card_cannot_win(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "rules", "showdown", "--board", "Ah Kh 7c 2d 2s",
                    "--hands", "1:As,2:KcKd,3:")
    lines = out.splitlines()
    assert lines[1] == "   Sete 1: A♠ – viste ikkje alle holkorta, kan ikkje vinne"
    assert lines[2] == "   Sete 3: – kasta korta"
    assert lines[-1] == "Vinnar: sete 2"


def test_P7_showdown_hilo_quartering(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "rules", "showdown", "--board", "8s 7c 5h 4d Jc",
                    "--hands", "1:Ah 2c 6d Kh,2:Qs Qh Qd Tc,3:Ac 2d 9s 9h",
                    "--game", "omaha", "--hilo", "--button", "3")
    lines = out.splitlines()
    assert "Låg 7-5-4-2-A" in lines[1]
    assert lines[-3:] == ["Høg: sete 2", "Låg: sete 1, 3",
                          "Deling: Sete 2: 1/2, Sete 1: 1/4, Sete 3: 1/4"]


def test_P7_showdown_no_low(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "--lang", "en", "rules", "showdown", "--board", "Qc Jd Th Ts 9c",
                    "--hands", "1:Ah 2c 3d 4s,2:Kh Kd 8c 7c", "--game", "omaha", "--hilo",
                    "--pot", "1000")
    assert out.splitlines()[-3:] == [
        "High: seat 2",
        "No qualifying low: the high hand takes the whole pot",
        "Split: Seat 2: 1,000",
    ]


# Bad input: translated, exit 2, no traceback -----------------------------------------

BAD_INPUT = [
    pytest.param(["rules", "showdown", "--board", "Ah Kh 7c 2d 2x", "--hands", "1:AsAd"],
                 "Ugyldig kort: «2x»", id="bad-card"),
    pytest.param(["rules", "showdown", "--board", "Ah Kh 7c 2d 2s", "--hands", "1:AsAh"],
                 "Kortet Ah er med fleire gonger", id="duplicate-card"),
    pytest.param(["rules", "showdown", "--board", "Ah Kh 7c 2d 2s", "--hands", "1:AsAd,2:AsKd"],
                 "Kortet As er med fleire gonger", id="duplicate-across-hands"),
    pytest.param(["rules", "pots", "--stacks", "1:5000,2:-1400", "--blinds", "100/200"],
                 "Sete 2 kan ikkje ha -1 400 i sjetongar", id="negative-stack"),
    pytest.param(["rules", "min-raise", "--blinds", "100/200", "--stacks", "1:-5,2:100"],
                 "Sete 1 kan ikkje ha -5 i sjetongar", id="negative-stack-min-raise"),
    pytest.param(["rules", "pots", "--contributions", "1:5000,2:-1400"],
                 "Sete 2 kan ikkje ha lagt -1 400 i potten", id="negative-contribution"),
    pytest.param(["rules", "min-raise", "--blinds", "100-200"],
                 "Kan ikkje lese blindane «100-200»: skriv til dømes 100/200", id="bad-blinds"),
    pytest.param(["rules", "min-raise", "--blinds", "200/100"],
                 "Kan ikkje lese blindane «200/100»: skriv til dømes 100/200",
                 id="blinds-upside-down"),
    pytest.param(["rules", "min-raise", "--blinds", "100/200", "--actions", "raise 300"],
                 "Høgninga må vere til minst 400 totalt", id="raise-too-small"),
    pytest.param(["rules", "min-raise", "--blinds", "100/200", "--actions", "dance"],
                 "Ukjend handling «dance»", id="unknown-action"),
    pytest.param(["rules", "min-raise", "--blinds", "100/200", "--actions", "check"],
                 None, id="check-facing-a-bet"),
    pytest.param(["rules", "pots", "--contributions", "1=5000"],
                 "Kan ikkje lese «1=5000»", id="bad-seat-list"),
    pytest.param(["rules", "pots", "--contributions", "1:lots"],
                 "«lots» er ikkje eit heilt tal", id="bad-number"),
    pytest.param(["rules", "pots", "--stacks", "1:5000,2:5000"],
                 "--blinds manglar", id="missing-blinds"),
    pytest.param(["rules", "showdown", "--board", "Ah Kh 7c 2d 2s", "--hands", "1:AsAdKd"],
                 "Sete 1 har 3 holkort; i Holdem har ein 2", id="too-many-hole-cards"),
]


@pytest.mark.parametrize(("argv", "message"), BAD_INPUT)
def test_bad_input_is_refused_translated(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str | None
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert "Traceback" not in err
    assert err.strip()
    if message is not None:
        assert message in err


def test_bad_input_in_english(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "--lang", "en", "rules", "showdown",
                         "--board", "Ah Kh 7c 2d 2x", "--hands", "1:AsAd")
    assert status == 2
    assert err.strip() == 'Not a card: "2x"'


# Catalogue and documentation ---------------------------------------------------------


def test_word_catalogue_covers_every_language() -> None:
    assert set(WORDS) == set(LANGUAGES)
    keys = set(WORDS["en"])
    for lang in LANGUAGES:
        assert set(WORDS[lang]) == keys, lang


def test_every_rules_command_is_documented_in_readme() -> None:
    text = README.read_text(encoding="utf-8")
    section = text.split("### Floor helper", 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]
    for command in ("min-raise", "pots", "showdown"):
        assert re.search(rf"pubpoker rules {command} ", section), command
