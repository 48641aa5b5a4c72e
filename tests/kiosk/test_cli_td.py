"""The TD's terminal commands: each acts through the same command path as the buttons."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.store import open_store
from rules.fold import fold


def run(capsys: pytest.CaptureFixture[str], data: Path, *argv: str,
        lang: str = "en") -> tuple[int, str, str]:
    code = main(["--lang", lang, *argv, "--data-dir", str(data)])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture()
def night(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    code, out, _ = run(capsys, tmp_path, "tournament", "new", "--name", "Fredag {date}",
                       "--preset", "pf-pokerklub")
    assert code == 0 and out.startswith("Created: Fredag ")
    for n in range(1, 13):
        assert run(capsys, tmp_path, "checkin", "--new", f"Player {n}")[1] == \
            f"New player added: Player {n}\nPlayer {n} is checked in\n"
    return tmp_path


def state_of(data: Path):  # type: ignore[no-untyped-def]
    store = open_store(data_dir=data)
    tid = store.current_tournament()
    assert tid is not None
    state = fold(store.records(tid))
    store.close()
    return state


def test_a_night_from_the_terminal(night: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, night, "seat", "draw")[1] == "Seats drawn: 2 tables\n"
    assert run(capsys, night, "clock", "start") == (0, "Level 1: 100/200, 30:00 left\n", "")
    code, out, _ = run(capsys, night, "clock", "pause")
    assert code == 0 and out.startswith("Level 1: 100/200, ") and out.endswith(" – Clock paused\n")
    assert run(capsys, night, "clock", "next")[1] == "Level 2: 200/400, 30:00 left – Clock paused\n"
    assert run(capsys, night, "clock", "prev")[1] == "Level 1: 100/200, 30:00 left – Clock paused\n"
    assert run(capsys, night, "clock", "resume")[1] == "Level 1: 100/200, 30:00 left\n"
    assert run(capsys, night, "clock", "add", "-120")[1].startswith("Level 1: 100/200, 28:0")
    assert run(capsys, night, "hand-for-hand", "on") == (0, "Hand for hand: on\n", "")
    assert state_of(night).hand_for_hand
    assert run(capsys, night, "hand-for-hand", "off") == (0, "Hand for hand: off\n", "")
    assert not state_of(night).hand_for_hand
    code, out, _ = run(capsys, night, "bust", "player 3")
    assert (code, out) == (0, "Player 3: 12th\n")
    state = state_of(night)
    assert state.clock.running and state.players[state.find("Player 3").player_id].place == 12
    code, out, _ = run(capsys, night, "tournament", "show")
    assert "Players left: 11" in out and "Level 1" in out and "Table 1 —" in out
    code, out, _ = run(capsys, night, "tournament", "list")
    assert code == 0 and "Fredag" in out and out.startswith("*")


def test_a_late_walk_in_is_seated_and_a_card_checks_in(
        night: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, night, "seat", "draw")
    run(capsys, night, "clock", "start")
    assert run(capsys, night, "players", "add", "Kari Nordmann")[0] == 0
    assert run(capsys, night, "players", "link-card", "Kari Nordmann", "0A1B2C3D4E")[0] == 0
    code, out, _ = run(capsys, night, "checkin", "--card", "0A1B2C3D4E", lang="nn")
    assert code == 0 and out.startswith("Kari Nordmann → bord ")
    code, _, err = run(capsys, night, "checkin", "--card", "0A1B2C3D4E", lang="nn")
    assert code == 2 and err == "Kari Nordmann er allereie sjekka inn\n"


def test_a_move_confirmed_from_the_terminal(
        night: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, night, "seat", "draw")
    state = state_of(night)
    first = sorted(state.players[p].name for p in state.tables[1].seats.values())[:2]
    for name in first:
        run(capsys, night, "bust", name)
    state = state_of(night)
    # Ten left fit at one table: table 1 breaks and its players get moves.
    mover, move = sorted(state.moves.items())[0]
    name = state.players[mover].name
    code, out, _ = run(capsys, night, "move", "confirm", name)
    assert (code, out) == (0, f"{name} now sits at table {move.target.table}, "
                              f"seat {move.target.seat}\n")
    assert run(capsys, night, "move", "confirm", name)[0] == 2


def test_bad_input_is_refused_in_the_language_and_changes_nothing(
        night: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def logged() -> int:
        store = open_store(data_dir=night)
        try:
            return len(store.records(store.current_tournament() or ""))
        finally:
            store.close()

    before = logged()
    assert run(capsys, night, "bust", "Nobody", lang="da")[2] == "Ukendt spiller: Nobody\n"
    code, _, err = run(capsys, night, "checkin", "--card", "0FFFFFFFFF", lang="nb")
    assert code == 2 and err.startswith("Ukjent kort 0FFFFFFFFF")
    code, _, err = run(capsys, night, "checkin", "--card", "4111111111111111")
    assert code == 2 and err == ("That looks like a payment card – use the player card. "
                                 "Payment cards are never stored.\n")
    code, _, err = run(capsys, night, "clock", "pause", lang="nn")
    assert (code, err) == (2, "Klokka er ikkje starta\n")
    code, _, err = run(capsys, night, "clock", "start", lang="nn")
    assert (code, err) == (2, "Bordplasseringa er ikkje trekt enno\n")
    code, _, err = run(capsys, night, "tournament", "close")
    assert code == 2 and err.startswith("The tournament is not over (12 players left)")
    assert logged() == before


def test_with_no_tournament_the_terminal_says_so_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (("hand-for-hand", "on"), ("clock", "start"), ("seat", "draw")):
        code, out, err = run(capsys, tmp_path, *argv, lang="nn")
        assert (code, out, err) == (2, "", "Inga turnering er i gang\n"), argv
    with pytest.raises(SystemExit) as exit_:
        run(capsys, tmp_path, "hand-for-hand", "maybe")
    assert exit_.value.code == 2 and "invalid choice: 'maybe'" in capsys.readouterr().err
    store = open_store(data_dir=tmp_path)
    try:
        assert store.current_tournament() is None
    finally:
        store.close()


def test_close_records_results_and_writes_exports(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, tmp_path, "tournament", "new", "--preset", "pf-pokerklub")
    for name in ("Ada", "Bo", "Cy"):
        run(capsys, tmp_path, "checkin", "--new", name)
    run(capsys, tmp_path, "seat", "draw")
    run(capsys, tmp_path, "clock", "start")
    run(capsys, tmp_path, "bust", "Cy")
    run(capsys, tmp_path, "bust", "Bo")
    code, out, _ = run(capsys, tmp_path, "tournament", "close")
    assert code == 0 and out.startswith("The tournament is closed.")
    exported = sorted((tmp_path / "exports").glob("results-*.json"))
    rows = json.loads(exported[0].read_text())
    flat = json.dumps(rows)
    assert "Ada" in flat and "Cy" in flat
    assert "closed" in run(capsys, tmp_path, "tournament", "list")[1]


def test_a_guest_is_renamed_in_the_list_and_in_tonights_tournament(
        night: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, night, "players", "rename", "Player 4", "Kari Nordmann")
    assert (code, out) == (0, "Player 4 is now Kari Nordmann\n")
    state = state_of(night)
    assert state.find("Kari Nordmann") is not None and state.find("Player 4") is None
    code, _, err = run(capsys, night, "players", "rename", "Player 5", "kari nordmann",
                       lang="nn")
    assert (code, err) == (2, "Det finst allereie ein spelar som heiter «kari nordmann»\n")
    assert state_of(night).find("Player 5") is not None
