"""The TD acting by hand through the real ``pubpoker`` process: names found in any
case or by their start, ``undo``, ``move``, ``table break`` and ``players remove``,
with every refusal translated and exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.store import open_store
from rules.fold import fold
from rules.state import Tournament

PUBPOKER = [sys.executable, "-m", "kiosk.cli"]


def pubpoker(data: Path, *argv: str, lang: str = "en") -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PUBPOKER, "--lang", lang, *argv, "--data-dir", str(data)],
                          text=True, capture_output=True, timeout=120)


def quick(capsys: pytest.CaptureFixture[str], data: Path, *argv: str) -> str:
    """Setting the scene in this process (the same code, without a process's start-up)."""
    assert main(["--lang", "en", *argv, "--data-dir", str(data)]) == 0
    return capsys.readouterr().out


def state_of(data: Path) -> Tournament:
    store = open_store(data_dir=data)
    try:
        tid = store.current_tournament()
        assert tid is not None
        return fold(store.records(tid))
    finally:
        store.close()


def logged(data: Path) -> int:
    store = open_store(data_dir=data)
    try:
        return len(store.records(store.current_tournament() or ""))
    finally:
        store.close()


def busts(data: Path) -> int:
    store = open_store(data_dir=data)
    try:
        return sum(1 for r in store.records(store.current_tournament() or "")
                   if type(r.event).__name__ == "PlayersBusted")
    finally:
        store.close()


def kinds_after(data: Path, count: int) -> list[str]:
    store = open_store(data_dir=data)
    try:
        return [type(r.event).__name__
                for r in store.records(store.current_tournament() or "")[count:]]
    finally:
        store.close()


def players_of(data: Path) -> list[dict[str, object]]:
    store = open_store(data_dir=data)
    try:
        return [{"name": p.name, "cards": list(p.cards)} for p in store.players.list()]
    finally:
        store.close()


@pytest.fixture()
def night(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """Fourteen players drawn at three tables of six (5, 5, 4)."""
    quick(capsys, tmp_path, "tournament", "new", "--name", "Fredagspoker {date}", "--seats", "6")
    for n in range(1, 15):
        quick(capsys, tmp_path, "checkin", "--new", f"Spelar {n}")
    quick(capsys, tmp_path, "seat", "draw")
    return tmp_path


# --- names ------------------------------------------------------------------------------

def test_a_name_is_found_in_any_case_and_by_its_unique_start(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    quick(capsys, tmp_path, "players", "add", "Kari Nordmann", "--card", "0a:1b:2c:3d:4e")
    quick(capsys, tmp_path, "players", "add", "Karl Olsen")
    # The README's example: a bank card is refused, not "unknown player" (typed with spaces too).
    for uid in (["4111111111111111"], ["4111", "1111", "1111", "1111"]):
        done = pubpoker(tmp_path, "players", "link-card", "Kari", *uid, lang="nn")
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr == ("Det ser ut som eit betalingskort – bruk spelarkortet. "
                               "Betalingskort vert aldri lagra.\n")
        assert "4111" not in done.stderr
    for argv in (["players", "add", "Per", "--card"], ["checkin", "--card"]):
        done = pubpoker(tmp_path, *argv, "4111", "1111", "1111", "1111", lang="en")
        assert done.returncode == 2 and "1111" not in done.stderr + done.stdout
        assert "payment card" in done.stderr, done.stderr
    done = pubpoker(tmp_path, "players", "link-card", "kar", "0A0A0A0A0A")
    assert (done.returncode, done.stderr) == (
        2, "'kar' could be more than one player: Kari Nordmann, Karl Olsen. "
           "Type more of the name\n")
    done = pubpoker(tmp_path, "players", "link-card", "KARL o", "0A0A0A0A0A", lang="da")
    assert (done.returncode, done.stdout) == (0, "Kortet 0A0A0A0A0A tilhører nu Karl Olsen\n")
    done = pubpoker(tmp_path, "players", "rename", "nobody", "X", lang="nb")
    assert (done.returncode, done.stderr) == (2, "Ukjent spiller «nobody»\n")
    assert players_of(tmp_path) == [{"name": "Kari Nordmann", "cards": ["0A1B2C3D4E"]},
                                    {"name": "Karl Olsen", "cards": ["0A0A0A0A0A"]}]
    quick(capsys, tmp_path, "tournament", "new")
    done = pubpoker(tmp_path, "checkin", "kari nordmann", lang="nn")
    assert (done.returncode, done.stdout) == (0, "Kari Nordmann er sjekka inn\n")
    # N2: at check-in the start of a name is only asked about, never taken as the player.
    done = pubpoker(tmp_path, "checkin", "kari n", lang="nn")
    assert done.returncode == 2 and "Meinte du Kari Nordmann?" in done.stderr
    assert len(players_of(tmp_path)) == 2  # no walk-in called "kari n"
    done = pubpoker(tmp_path, "checkin", "Ka")
    assert done.returncode == 2 and "Did you mean Kari Nordmann, Karl Olsen?" in done.stderr


def test_many_that_fit_are_listed_cut_short_and_nothing_changes(night: Path) -> None:
    before, busted = logged(night), busts(night)
    done = pubpoker(night, "bust", "spelar", lang="nn")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("«spelar» kan vere fleire spelarar: Spelar 1, Spelar 10, Spelar 11, "
                           "Spelar 12, Spelar 13 og 9 til. Skriv meir av namnet\n")
    done = pubpoker(night, "bust", "spelar 1")  # a whole name beats the names it starts
    assert (done.returncode, done.stdout) == (0, "Spelar 1: 14th\n")
    # One bust; the random draw decides whether a balancing move comes with it.
    assert busts(night) == busted + 1, (before, logged(night))
    kinds = kinds_after(night, before)
    assert kinds[0] == "PlayersBusted" and set(kinds[1:]) <= {"MoveProposed"}, kinds
    done = pubpoker(night, "bust", "Nobody", lang="da")
    assert (done.returncode, done.stderr) == (2, "Ukendt spiller: Nobody\n")


def test_a_tournament_is_found_by_the_start_of_its_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    quick(capsys, tmp_path, "tournament", "new", "--name", "Fredagspoker {date}")
    quick(capsys, tmp_path, "checkin", "--new", "Ada")
    name = state_of(tmp_path).config.name  # type: ignore[union-attr]
    done = pubpoker(tmp_path, "export", "results", "fredag", "--format", "json")
    assert done.returncode == 0, done.stderr
    exported = json.loads(done.stdout)
    assert exported["name"] == name and [r["name"] for r in exported["rows"]] == ["Ada"]
    # Checked-in players: a new one over it is asked twice (N3).
    quick(capsys, tmp_path, "tournament", "new", "--name", "Fredagsfinale {date}", "--yes")
    done = pubpoker(tmp_path, "export", "results", "Fredag", lang="nb")
    finale = state_of(tmp_path).config.name  # type: ignore[union-attr]
    assert (done.returncode, done.stderr) == (
        2, f"«Fredag» kan være flere turneringer: {finale}, {name}. Skriv mer av navnet "
           "eller bruk id-en\n")
    done = pubpoker(tmp_path, "results", "recompute", "FREDAGSP")
    assert (done.returncode, done.stdout) == (0, f"{name}: no places changed\n")
    done = pubpoker(tmp_path, "export", "results", "Lørdag", lang="nn")
    assert (done.returncode, done.stderr) == (2, "Ukjend turnering «Lørdag»\n")


# --- undo -------------------------------------------------------------------------------

def test_undo_takes_back_the_newest_action_and_says_what_it_was(
        night: Path, capsys: pytest.CaptureFixture[str]) -> None:
    quick(capsys, night, "hand-for-hand", "on")
    done = pubpoker(night, "undo", lang="nn")
    assert (done.returncode, done.stdout) == (
        0, "Angra: hand for hand. Klokka er ikkje starta; 14 spelarar att\n")
    assert not state_of(night).hand_for_hand
    victim = "Spelar 3"
    assert pubpoker(night, "bust", "spelar 3").returncode == 0
    assert state_of(night).find(victim).place == 14  # type: ignore[union-attr]
    done = pubpoker(night, "undo", lang="nn")
    assert (done.returncode, done.stdout) == (
        0, "Angra: Spelar 3 slått ut. Klokka er ikkje starta; 14 spelarar att\n")
    assert state_of(night).find(victim).place is None  # type: ignore[union-attr]
    # Each answer goes on with the night as it is now (issue 44): back at check-in.
    for lang, text in (("en", "Undone: the seat draw. The clock has not been started; "
                              "14 players checked in\n"),
                       ("da", "Fortrudt: Spelar 14 tjekket ind. Uret er ikke startet; "
                              "13 spillere tjekket ind\n"),
                       ("nb", "Angret: Spelar 13 sjekket inn. Klokken er ikke startet; "
                              "12 spillere sjekket inn\n")):
        done = pubpoker(night, "undo", lang=lang)
        assert (done.returncode, done.stdout) == (0, text)
    assert not state_of(night).tables and state_of(night).entrants == 12


def test_with_nothing_to_undo_it_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                         ) -> None:
    for lang, text in (("nn", "Ingenting å angre\n"), ("en", "Nothing to undo\n")):
        done = pubpoker(tmp_path, "undo", lang=lang)
        assert (done.returncode, done.stdout, done.stderr) == (2, "", text)
    quick(capsys, tmp_path, "tournament", "new")
    done = pubpoker(tmp_path, "undo", lang="da")  # the tournament's creation is not undone
    assert (done.returncode, done.stderr) == (2, "Intet at fortryde\n")


# --- move and table break ---------------------------------------------------------------

def _at(state: Tournament, table: int) -> list[str]:
    return [state.players[p].name for _, p in sorted(state.tables[table].seats.items())]


def test_the_td_moves_a_player_then_confirms_and_can_undo_it(night: Path) -> None:
    state = state_of(night)
    name = _at(state, 1)[0]
    free = min(set(range(1, 7)) - set(state.tables[2].seats))
    done = pubpoker(night, "move", name.lower(), "--to", f"2:{free}")
    seat = state.players[state.find(name).player_id].seat  # type: ignore[union-attr]
    assert done.returncode == 0, done.stderr
    assert done.stdout == (f"{name}: table 1, seat {seat.seat} → table 2, seat {free}\n"  # type: ignore[union-attr]
                           "Confirm when the player sits: pubpoker move confirm NAME\n")
    assert list(state_of(night).moves) == [state.find(name).player_id]  # type: ignore[union-attr]
    done = pubpoker(night, "move", "confirm", name, lang="nn")
    assert (done.returncode, done.stdout) == (
        0, f"{name} sit no ved bord 2, sete {free}\n")
    assert name in _at(state_of(night), 2)
    done = pubpoker(night, "undo")
    assert (done.returncode, done.stdout) == (
        0, f"Undone: the move of {name}. The clock has not been started; 14 players left\n")
    assert name not in _at(state_of(night), 2) and state_of(night).moves


def test_a_move_with_now_is_seated_at_once_at_the_worst_free_seat(night: Path) -> None:
    name = _at(state_of(night), 3)[0]
    done = pubpoker(night, "move", name, "--to", "1", "--now", lang="da")
    assert done.returncode == 0, done.stderr
    after = state_of(night)
    assert name in _at(after, 1) and not after.moves
    # Nobody reported table 1's button, so the seat was drawn and the TD is told to look.
    assert "Knappen ved bord 1 er ukendt" in done.stdout and "move confirm" not in done.stdout


@pytest.mark.parametrize(("argv", "lang", "error"), [
    (("move", "Spelar 1", "--to", "x:2"), "nn",
     "«x:2» er ikkje eit bord: skriv BORD eller BORD:SETE, t.d. 2 eller 2:5\n"),
    (("move", "Spelar 1", "--to", "9"), "en", "Table 9 is not in use\n"),
    (("move", "{at 1}", "--to", "2:7"), "nb", "Bord 2 har ikke sete 7 (sete 1–6)\n"),
    (("move", "Spelar 1"), "en",
     "Who moves? pubpoker move NAME --to TABLE[:SEAT], or pubpoker move confirm NAME\n"),
    (("move", "confirm", "Spelar 1"), "da", "Ingen flytning af Spelar 1 venter\n"),
    (("table", "break", "1"), "en",
     "Table 1 cannot be broken now: its players do not fit at the other tables. "
     "With --next it is the first to break once they do\n"),
    (("table", "break", "4"), "nn", "Bord 4 er ikkje i bruk\n"),
])
def test_moves_and_breaks_that_cannot_be_are_refused_and_change_nothing(
        night: Path, argv: tuple[str, ...], lang: str, error: str) -> None:
    before = logged(night)
    # The draw is random: "{at 1}" is someone at table 1.
    argv = tuple(_at(state_of(night), 1)[0] if a == "{at 1}" else a for a in argv)
    done = pubpoker(night, *argv, lang=lang)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", error)
    assert logged(night) == before


def test_a_move_to_the_own_table_or_a_taken_seat_is_refused(night: Path) -> None:
    state = state_of(night)
    name = _at(state, 1)[0]
    taken = min(state.tables[2].seats)
    done = pubpoker(night, "move", name, "--to", "1")
    assert (done.returncode, done.stderr) == (2, f"{name} already sits at table 1\n")
    done = pubpoker(night, "move", name, "--to", f"2:{taken}", lang="nn")
    assert (done.returncode, done.stderr) == (2, f"Bord 2, sete {taken} er ikkje ledig\n")


def test_table_break_next_makes_that_table_the_one_that_breaks(
        night: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = state_of(night)
    # Two busts at the smallest table: left to itself, that table would break (the
    # fewest players); the TD wants another one gone.
    smallest = min(state.tables, key=lambda t: (len(state.tables[t].seats), -t))
    chosen = min(t for t in state.tables if t != smallest)
    done = pubpoker(night, "table", "break", str(chosen), "--next", lang="nn")
    assert (done.returncode, done.stdout) == (
        0, f"Bord {chosen} blir det neste som blir brote opp\n")
    for name in _at(state, smallest)[:2]:  # twelve left: they fit at two tables of six
        quick(capsys, night, "bust", name)
    moves = state_of(night).moves.values()
    assert moves and {m.source.table for m in moves} == {chosen}
    assert {m.target.table for m in moves} == set(state.tables) - {chosen}


def test_S3_undoing_a_break_is_named_in_every_language() -> None:
    import random

    from kiosk.undone import UNDONE, undone_what
    from rules.commands import BreakTable, execute
    from rules.events import Record
    from rules.i18n import LANGUAGES
    from tests.rules.test_table_moves import THREE_TABLES, spread

    state = spread(THREE_TABLES)
    events = execute(state, BreakTable(1), now=10.0, rng=random.Random(1))
    records = [Record("td", n, n, "t1", e) for n, e in enumerate(events, 1)]
    what = undone_what(records, {p: e.name for p, e in state.players.items()})
    assert what == {"nn": "oppbrytinga av bord 1", "nb": "oppbrytingen av bord 1",
                    "da": "opbrydningen af bord 1", "en": "the break of table 1"}
    assert all(set(texts) == set(LANGUAGES) for texts in UNDONE.values())


# --- players remove ---------------------------------------------------------------------

def test_players_remove_takes_a_player_and_their_cards_and_nothing_else(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    quick(capsys, tmp_path, "players", "add", "Kair Nordman", "--card", "0A0A0A0A01")
    quick(capsys, tmp_path, "players", "link-card", "Kair", "0A0A0A0A02")
    quick(capsys, tmp_path, "players", "add", "Kari Nordmann", "--card", "0A0A0A0A03")
    quick(capsys, tmp_path, "players", "add", "Ola", "--card", "0A0A0A0A04")
    quick(capsys, tmp_path, "tournament", "new")
    quick(capsys, tmp_path, "checkin", "Ola")
    before = logged(tmp_path)
    done = pubpoker(tmp_path, "players", "remove", "kair", lang="nn")
    assert (done.returncode, done.stdout) == (
        0, "Fjerna Kair Nordman\nKorta kopla frå: 0A0A0A0A01, 0A0A0A0A02\n")
    assert players_of(tmp_path) == [{"name": "Kari Nordmann", "cards": ["0A0A0A0A03"]},
                                    {"name": "Ola", "cards": ["0A0A0A0A04"]}]
    assert logged(tmp_path) == before  # the night's log is not touched
    # The removed card is free again: it can be given to someone else.
    quick(capsys, tmp_path, "players", "link-card", "Kari", "0A0A0A0A01")
    done = pubpoker(tmp_path, "players", "remove", "ola", lang="en")
    assert (done.returncode, done.stderr) == (
        2, "Ola is in tonight's tournament and cannot be removed\n")
    done = pubpoker(tmp_path, "players", "remove", "Per", lang="da")
    assert (done.returncode, done.stderr) == (2, "Ukendt spiller «Per»\n")


def test_a_player_with_results_is_not_removed(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    quick(capsys, tmp_path, "tournament", "new")
    for name in ("Ada", "Bo"):
        quick(capsys, tmp_path, "checkin", "--new", name)
    quick(capsys, tmp_path, "seat", "draw")
    quick(capsys, tmp_path, "bust", "Bo")
    quick(capsys, tmp_path, "tournament", "close")
    closed = state_of(tmp_path).config.name  # type: ignore[union-attr]
    store = open_store(data_dir=tmp_path)
    season = store.tournament(closed).season
    store.close()
    quick(capsys, tmp_path, "tournament", "new")  # a new night: Bo is not in it
    quick(capsys, tmp_path, "players", "add", "Cy")  # on the list, never played
    standings = quick(capsys, tmp_path, "export", "standings", season, "--format", "json")
    results = quick(capsys, tmp_path, "export", "results", closed, "--format", "json")
    done = pubpoker(tmp_path, "players", "remove", "bo", lang="nb")
    assert (done.returncode, done.stderr) == (
        2, "Bo har resultater og kan ikke fjernes (de teller i tabellen)\n")
    done = pubpoker(tmp_path, "players", "remove", "cy", lang="en")
    assert (done.returncode, done.stdout) == (0, "Removed Cy\n")
    assert [p["name"] for p in players_of(tmp_path)] == ["Ada", "Bo"]
    assert quick(capsys, tmp_path, "export", "standings", season, "--format", "json") == standings
    assert quick(capsys, tmp_path, "export", "results", closed, "--format", "json") == results
