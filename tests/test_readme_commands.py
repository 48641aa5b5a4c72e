"""Every ``pubpoker …`` and ``./dev …`` command in README.md and images/README.md, run as written.

The READMEs are the spec. Each command found in them (in a code block, or inline
code that starts with ``pubpoker`` or ``./dev``) is one test, named by the command.
Each runs as its own process, headless (SDL's dummy drivers), in a fresh
temporary data dir, in the order a reader meets them: the inline commands of one
section share a data dir and run top to bottom (``tournament new`` before
``checkin``), and so do the commands of one code block. A ``$ command`` in a code
block followed by lines is a transcript: those lines are the output, and the
command must print them (``...`` skips lines). Everything else must exit 0 unless
:data:`EXPECT` says why not.

What the test adds to a command, and only that: ``--data-dir`` when the command
uses the store and gives none; ``--frames 3 --screenshot`` to a ``demo`` or
``kiosk`` that would otherwise run until closed (and ``--headless`` to a kiosk).
A reference line written with placeholders (``players add NAME``) runs as the
example in :data:`AS_RUN`; a placeholder with no example fails the test.
``./dev test`` is never run (it is the suite itself); the README must still show it.

After a merge that changes what a command prints, run this file
(``pytest tests/test_readme_commands.py``; ``-m "not slow"`` leaves out the
kiosk and ``./dev demo``): a README that no longer matches its command fails
here, by its command. A new command in a README needs nothing here unless it
has a placeholder (:data:`AS_RUN`), needs something in the store first
(:data:`GIVEN`), or is refused on purpose where it stands (:data:`EXPECT`).
"""

from __future__ import annotations

import os
import re
import secrets
import shlex
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
READMES = ("README.md", "images/README.md")
#: The venue key the reader pasted into pubpoker.toml, as "Set up a pub" step 2 says.
KEY = secrets.token_hex(32)  # this run's own: no other test's kiosk shares it
#: Season commands run for the year the tournament is played: this one.
SEASON = str(date.today().year)

#: Reference lines with placeholders, and the example each runs as.
AS_RUN = {
    "pubpoker kiosk --config PATH": "pubpoker kiosk --config pubpoker.toml",
    # The card's boot partition on the Pi: here the reader's copy of it.
    "pubpoker kiosk --config /boot/firmware/pubpoker.toml":
        "pubpoker kiosk --config pubpoker.toml",
    # Run after `clock prev`, at the top of level 1: there is no run time to give back
    # (adding is refused, issue 44), so the example takes time off.
    "pubpoker clock add SECONDS": "pubpoker clock add -120",
    "pubpoker players add NAME": 'pubpoker players add "Kari Nordmann"',
    "pubpoker players link-card NAME UID":
        'pubpoker players link-card "Kari Nordmann" 0A1B2C3D4F',
    # One the import brought in, who has played no night.
    "pubpoker players remove NAME": 'pubpoker players remove "Lise Berg"',
    "pubpoker players rename NAME NEW_NAME":
        'pubpoker players rename "Kari Nordmann" "Kari Hansen"',
    "pubpoker export results TOURNAMENT --format csv|json":
        "pubpoker export results Fredagspoker --format csv",
    "pubpoker export standings SEASON --format csv|json":
        f"pubpoker export standings {SEASON} --format json",
    "pubpoker results recompute TOURNAMENT": "pubpoker results recompute Fredagspoker",
    "pubpoker backup PATH": "pubpoker backup backup.db",
    # tournament new's default name; of two with it, the newest (N3).
    "pubpoker tournament switch NAME|ID": "pubpoker tournament switch Pubpoker",
    "pubpoker tournament switch NAME": "pubpoker tournament switch Pubpoker",
}

#: A night played to its end in the current data dir: Kari wins, Ola is second.
FREDAGSPOKER = (
    'pubpoker tournament new --name "Fredagspoker {date}"',
    'pubpoker checkin --new "Kari Nordmann"',
    'pubpoker checkin --new "Ola Nordmann"',
    "pubpoker seat draw",
    "pubpoker clock start",
    'pubpoker bust "Ola Nordmann"',
    "pubpoker tournament close",
)

#: What the reader's store already holds before a command, run just before it
#: (and checked to succeed). Keyed by the README's command text.
GIVEN: dict[str, tuple[str, ...]] = {
    # The venue's players list already has Ola, with the card the example taps.
    "pubpoker checkin --card 0A1B2C3D4E":
        ('pubpoker players add "Ola Nordmann" --card 0A1B2C3D4E',),
    # One person entered twice; the merge goes in tonight's log, so there is a night.
    'pubpoker players merge "Per Hansen" "Per Hanssen"': (
        "pubpoker tournament new", 'pubpoker players add "Per Hansen"',
        'pubpoker players add "Per Hanssen" --card 0A1B2C3D99'),
    # A guest the kiosk named when nobody typed a name for their card.
    'pubpoker players rename "Gjest 1" "Kari Nordmann"': ('pubpoker players add "Gjest 1"',),
    # The options' examples show tonight's tournament (h18-fast's README lines).
    "pubpoker --lang en tournament show": ("pubpoker tournament new",),
    # On the Pi the store is there; in a fresh data dir doctor rightly reports none.
    "pubpoker doctor": ("pubpoker tournament new",),
    # The exports need a night that was played; the list comes with the reader's file.
    "pubpoker export results TOURNAMENT --format csv|json": FREDAGSPOKER,
    "pubpoker export results Fredagspoker --format csv": FREDAGSPOKER,
}

#: Files the reader has in their current directory.
FILES = {
    "players.csv": "name,card\nPer Hansen,0A1B2C3D50\nLise Berg,\n",
}


@dataclass(frozen=True)
class Expect:
    status: int
    why: str
    #: Text the refusal must contain (a word every language shares, or the shown output).
    says: str = ""


#: Commands that, where the README puts them, are refused on purpose.
EXPECT = {
    "pubpoker tournament close": Expect(
        2, "listed before the night is played; the README says --force before the end",
        says="--force"),
    "pubpoker tournament reopen --yes": Expect(
        2, "the close just above was refused: the night is not closed, so there is"
        " nothing to reopen"),
    'pubpoker move confirm "Kari Nordmann"': Expect(
        2, "nobody is moving in a one-table night: the refusal names the player",
        says="Kari Nordmann"),
    # The reference's order: by the move and table examples, Ola's bust has left
    # Kari the winner of a one-table night (the CLI's draw is random, so a bigger
    # night would not put her at a known table).
    'pubpoker move "Kari Nordmann" --to 2': Expect(
        2, "the night is over: Kari has won", says="Kari Nordmann"),
    "pubpoker table break 3": Expect(2, "a two-player night has one table", says="3"),
    # A group of commands, named in the prose: alone, it says which there are.
    "pubpoker rules": Expect(2, "a group: without a command it is bad input",
                             says="pubpoker rules"),
    "pubpoker players link-card Kari 4111111111111111": Expect(
        2, "a payment card: the transcript shows the refusal"),
}

#: Inline commands whose output the README's prose states.
SAYS = {
    "pubpoker config check pubpoker.toml": ("OK",),
}

#: Commands (as run) that wait for work not done yet, as strict xfails with the
#: reason: the change that makes one pass turns it red until its line is removed.
PENDING: dict[str, str] = {}

#: Subcommands that never open the store, so take no --data-dir of their own.
NO_STORE = {"rules", "points", "structure", "venue-key", "config"}
#: Placeholders are written in capitals, as argparse writes them.
PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_]{1,}\b")
#: Ids in the store are drawn at random: 12 hex digits, after a t for a tournament.
RANDOM_ID = re.compile(r"\bt?[0-9a-f]{12}\b")


@dataclass(frozen=True)
class Example:
    file: str
    line: int
    #: The commands of one sequence share a data dir and run in order.
    sequence: str
    text: str
    #: The lines a transcript shows after the command; None when it shows none.
    output: tuple[str, ...] | None


def _is_command(text: str) -> bool:
    return bool(re.match(r"(pubpoker|\./dev) [a-z-]", text)) or text == "./dev"


def _paragraph_commands(paragraph: str) -> Iterator[tuple[int, str]]:
    """Inline commands, with the line of the paragraph each starts on (from 0)."""
    for match in re.finditer(r"`([^`]+)`", paragraph):
        text = " ".join(match[1].split())
        if _is_command(text):
            yield paragraph.count("\n", 0, match.start()), text


def extract(file: str) -> list[Example]:
    """The commands of one README, in reading order."""
    lines = (REPO / file).read_text(encoding="utf-8").splitlines()
    found: list[Example] = []
    section = file
    paragraph: list[tuple[int, str]] = []

    def flush() -> None:
        text = "\n".join(t for _, t in paragraph)
        for offset, command in _paragraph_commands(text):
            found.append(Example(file, paragraph[offset][0], f"{file}#{section}", command, None))
        paragraph.clear()

    number = 0
    while number < len(lines):
        line = lines[number]
        number += 1
        if line.lstrip().startswith("```"):
            flush()
            block = number
            # A block in a list item is indented as the item is; its output is not.
            indent = line[:len(line) - len(line.lstrip())]
            body: list[str] = []
            while number < len(lines) and not lines[number].lstrip().startswith("```"):
                body.append(lines[number].removeprefix(indent).rstrip())
                number += 1
            number += 1
            found.extend(_block_commands(file, block, body))
            continue
        if line.startswith("#"):
            flush()
            section = line.lstrip("#").strip()
            continue
        if not line.strip():
            flush()
            continue
        paragraph.append((number, line))
    flush()
    return found


def _block_commands(file: str, block: int, body: list[str]) -> Iterator[Example]:
    sequence = f"{file}:{block}"
    index = 0
    while index < len(body):
        start = index
        text = body[index]
        index += 1
        prompt = text.startswith("$ ")
        text = text.removeprefix("$ ")
        while text.endswith("\\") and index < len(body):
            text = text[:-1].rstrip() + " " + body[index].strip()
            index += 1
        # A comment after the command explains it; it is not part of it.
        text = re.sub(r"\s+#\s.*$", "", text)
        output: list[str] = []
        while prompt and index < len(body) and not body[index].startswith("$ "):
            output.append(body[index])
            index += 1
        if _is_command(text):
            yield Example(file, block + start + 1, sequence, text,
                          tuple(output) if prompt else None)


def all_examples() -> list[Example]:
    return [e for f in READMES for e in extract(f)]


EXAMPLES = all_examples()
DEV_TEST = [e for e in EXAMPLES if e.text.split()[:2] == ["./dev", "test"]]
RUN = [e for e in EXAMPLES if e not in DEV_TEST]


def _ids(examples: list[Example]) -> list[str]:
    seen: set[str] = set()
    ids = []
    for e in examples:
        name = e.text if e.text not in seen else f"{e.text} ({e.file}:{e.line})"
        seen.add(e.text)
        ids.append(name)
    return ids


def _marks(example: Example) -> list[pytest.MarkDecorator]:
    marks = []
    words = shlex.split(example.text)
    # A kiosk starts sync and the whole display; ./dev demo a shell and the demo.
    if words[0] == "./dev" or _subcommand(words[1:]) == "kiosk":
        marks.append(pytest.mark.slow)
    pending = PENDING.get(AS_RUN.get(example.text, example.text))
    if pending:
        marks.append(pytest.mark.xfail(reason=pending, strict=True))
    return marks


# --- running ----------------------------------------------------------------------------


@dataclass
class Ran:
    argv: list[str]
    status: int
    out: str
    err: str


class Sequence:
    """One data dir and working directory, and the commands run in it so far."""

    def __init__(self, root: Path) -> None:
        self.cwd = root
        self.data = root / "data"
        self.ran: dict[Example, Ran] = {}
        example = (REPO / "provisioning/pubpoker.example.toml").read_text()
        line = re.search(r"^# key = .*$", example, re.M)
        assert line is not None, "the example config lost its key line"
        # Sync on loopback only, and (KEY is this run's own) never linking with another
        # test's kiosk on this host.
        (root / "pubpoker.toml").write_text(example.replace(line[0], f'key = "{KEY}"')
                                            + '\n[network]\ninterface = "lo"\n')
        for name, text in FILES.items():
            (root / name).write_text(text)

    def argv(self, text: str, own: Path) -> list[str]:
        words = shlex.split(text)
        program, rest = words[0], words[1:]
        head = [str(REPO / "dev")] if program == "./dev" else [sys.executable, "-m", "kiosk.cli"]
        command = _subcommand(rest)
        if "--format" in rest:
            # csv|json: a reference line shows the choices; run the first.
            at = rest.index("--format") + 1
            rest[at] = rest[at].split("|")[0]
        if command in ("demo", "kiosk"):
            # Its own night: a demo or a kiosk writes a store of its own.
            if "--data-dir" not in rest:
                rest += ["--data-dir", str(own / "data")]
            if command == "kiosk" and "--headless" not in rest:
                rest.append("--headless")
            if "--frames" not in rest and "--until-finished" not in rest:
                rest += ["--frames", "3"]
            if "--screenshot" not in rest:
                rest += ["--screenshot", str(own / "last.png")]
        elif command not in NO_STORE and "--data-dir" not in rest:
            rest += ["--data-dir", str(self.data)]
        return head + rest

    def _installed_venv(self) -> Path:
        """This interpreter, as a virtualenv that ./dev finds installed.

        ./dev installs when pyproject.toml is newer than its stamp, as it is in
        a fresh checkout; a test must not run pip, so ./dev gets this one.
        """
        venv = self.cwd / "venv"
        (venv / "bin").mkdir(parents=True, exist_ok=True)
        for name in ("python", "pubpoker"):
            link = venv / "bin" / name
            if not link.exists():
                link.symlink_to(Path(sys.executable).parent / name)
        (venv / ".pubpoker-installed").touch()
        return venv

    def run(self, text: str, own: Path) -> Ran:
        argv = self.argv(text, own)
        own.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
               "PYTHONPATH": str(REPO), "HOME": str(self.cwd / "home"),
               "XDG_DATA_HOME": str(self.cwd / "home/.local/share"),
               "PUBPOKER_DATA_DIR": str(self.data)}
        if argv[0] == str(REPO / "dev"):
            env["PUBPOKER_VENV"] = str(self._installed_venv())
        done = subprocess.run(argv, cwd=self.cwd, env=env, capture_output=True, text=True,
                              timeout=300)
        return Ran(argv, done.returncode, done.stdout, done.stderr)


#: Options of the whole program that take a value, as they may stand before the command.
GLOBAL_WITH_VALUE = {"--lang", "--data-dir"}


def _subcommand(words: list[str]) -> str:
    """pubpoker's subcommand (or ./dev's: only demo runs, see DEV_TEST), after any
    global options; "" when there is none (``pubpoker --version``)."""
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word in GLOBAL_WITH_VALUE:
            skip = True
        elif not word.startswith("-"):
            return word
    return ""


def _alone(text: str) -> bool:
    """Whether the command's result is the same wherever the README shows it.

    A demo or kiosk keeps a store of its own, and the store-free commands read
    only their arguments and the reader's pubpoker.toml (the same everywhere):
    shown twice, such a command runs once.
    """
    command = _subcommand(shlex.split(text)[1:])
    return command in NO_STORE or command in ("demo", "kiosk")


@pytest.fixture(scope="module")
def sequences(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Sequence]:
    made: dict[str, Sequence] = {}
    for example in RUN:
        if example.sequence not in made:
            made[example.sequence] = Sequence(tmp_path_factory.mktemp("readme"))
    return made


#: The results of commands that run once however often they are shown (see _alone).
ALONE: dict[str, Ran] = {}


def _run_example(sequences: dict[str, Sequence], example: Example) -> Ran:
    """Run the commands before it in its sequence first (once), then this one."""
    sequence = sequences[example.sequence]
    for earlier in [e for e in RUN if e.sequence == example.sequence]:
        if earlier in sequence.ran:
            if earlier == example:
                return sequence.ran[earlier]
            continue
        own = sequence.cwd / f"cmd{RUN.index(earlier)}"
        for step in GIVEN.get(earlier.text, ()):
            given = sequence.run(step, own)
            assert given.status == 0, f"given step {step!r} failed:\n{given.err}{given.out}"
        text = AS_RUN.get(earlier.text, earlier.text)
        if _alone(text):
            if text not in ALONE:
                ALONE[text] = sequence.run(text, own)
            sequence.ran[earlier] = ALONE[text]
        else:
            sequence.ran[earlier] = sequence.run(text, own)
        if earlier == example:
            break
    return sequence.ran[example]


def _normal(line: str) -> str:
    return RANDOM_ID.sub("<id>", line.rstrip())


def shows(expected: tuple[str, ...], printed: str) -> str | None:
    """Why ``printed`` does not show ``expected`` (``...`` skips lines), or None.

    >>> shows(("a", "...", "c"), "a\\nb\\nc\\n") is None
    True
    >>> shows(("a", "c"), "a\\nb\\nc\\n") is not None
    True
    """
    lines = [_normal(x) for x in printed.splitlines()]
    want = [_normal(x) for x in expected]
    chunks: list[list[str]] = [[]]
    for line in want:
        if line.strip() == "...":
            chunks.append([])
        else:
            chunks[-1].append(line)
    at = 0
    for number, chunk in enumerate(chunks):
        if not chunk:
            continue
        anchored = number == 0
        last = number == len(chunks) - 1
        found = None
        for start in ([0] if anchored else range(at, len(lines) - len(chunk) + 1)):
            if lines[start:start + len(chunk)] == chunk:
                found = start
                break
        if found is None:
            return f"expected, in order:\n{chr(10).join(chunk)}"
        at = found + len(chunk)
        if last and at != len(lines):
            return f"more lines than the README shows after:\n{chunk[-1]}"
    return None


def test_every_readme_shows_its_commands() -> None:
    """The extraction itself: the commands this file runs are really there."""
    texts = {e.text for e in EXAMPLES}
    assert "./dev demo" in texts
    assert ("pubpoker demo --headless --until-finished --speed 2000 --screenshot results.png"
            in texts)
    assert "pubpoker config check pubpoker.toml" in texts
    assert any(e.file == "images/README.md" for e in EXAMPLES)
    transcript = next(e for e in EXAMPLES if e.text == "pubpoker points --entrants 54" and e.output)
    assert transcript.output and transcript.output[0].startswith("Poeng for 54")


def test_dev_test_is_shown_and_not_run() -> None:
    """``./dev test`` is the suite itself: shown in the README, never run from it."""
    assert DEV_TEST, "the README no longer shows ./dev test"
    assert all(e not in RUN for e in DEV_TEST)


def test_placeholders_have_examples() -> None:
    """A placeholder in a command would otherwise run as a literal word."""
    missing = [e.text for e in RUN if e.text not in AS_RUN
               and PLACEHOLDER.search(re.sub(r"\b[0-9A-F]{8,}\b", "", e.text))]
    assert not missing, f"give these an example in AS_RUN or in the README: {missing}"
    stale = [t for t in AS_RUN if t not in {e.text for e in RUN}]
    assert not stale, f"AS_RUN has commands the READMEs no longer show: {stale}"


@pytest.mark.parametrize("example", [pytest.param(e, id=i, marks=_marks(e))
                                     for e, i in zip(RUN, _ids(RUN), strict=True)])
def test_readme_command(example: Example, sequences: dict[str, Sequence]) -> None:
    ran = _run_example(sequences, example)
    printed = ran.out + ran.err
    where = f"{example.file}:{example.line}: {shlex.join(ran.argv)}\n{printed}"
    assert "Traceback" not in ran.err, where
    expect = EXPECT.get(example.text, Expect(0, "runs as written"))
    assert ran.status == expect.status, f"exit {ran.status}, not {expect.status}: {where}"
    assert expect.says in printed, f"does not say {expect.says!r}: {where}"
    shown = example.output or SAYS.get(AS_RUN.get(example.text, example.text))
    if shown:
        why = shows(shown, printed)
        assert why is None, f"{why}\n--- {where}"


def test_dev_says_what_it_installs_and_shows_pip(tmp_path: Path) -> None:
    """./dev's first run: a line saying what it does and how long, then pip's own progress.

    The virtualenv here is a stand-in whose python records its arguments, so
    the script runs as on a fresh checkout without downloading anything.
    """
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    log = tmp_path / "calls"
    for name in ("python", "pubpoker"):
        tool = venv / "bin" / name
        tool.write_text(f'#!/bin/sh\necho "{name} $*" >> "{log}"\necho "{name} ran"\n')
        tool.chmod(0o755)
    done = subprocess.run([str(REPO / "dev"), "demo", "--frames", "1"], cwd=tmp_path,
                          env={**os.environ, "PUBPOKER_VENV": str(venv)},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    said = done.stderr.splitlines()
    assert said[0].startswith("./dev: installing") and "minutes" in said[0], said
    calls = log.read_text().splitlines()
    assert [c.split()[:4] for c in calls[:2]] == [["python", "-m", "pip", "install"]] * 2
    assert not any("-q" in c.split() for c in calls), calls
    assert calls[-1] == "pubpoker demo --frames 1"
    assert (venv / ".pubpoker-installed").exists()
    # Installed: the next run says nothing and goes straight to the demo.
    again = subprocess.run([str(REPO / "dev"), "demo"], cwd=tmp_path,
                           env={**os.environ, "PUBPOKER_VENV": str(venv)},
                           capture_output=True, text=True, timeout=60)
    assert again.stderr == "" and again.stdout == "pubpoker ran\n"
