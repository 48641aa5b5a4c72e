"""``pubpoker kiosk --role display`` without a config is the kiosk a default config gives.

Built as the command builds it (its own parser, ``_source``, ``night``,
``bootstrap`` and ``begin``), with real pygame under SDL's dummy driver and real
key presses in pygame's queue; the same test runs with the shipped example config beside it.
With a tournament in check-in the first screen is check-in; ``n`` opens the
walk-in prompt, and the name typed there (with an s, an l and a space in it)
checks a player in and never starts, pauses or changes the language of the clock.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from secrets import token_hex

import pygame
import pytest

from kiosk.app import App
from kiosk.bootstrap import bootstrap
from kiosk.cli import build_parser, kiosk_cmd
from kiosk.display.viewmodels import CheckInView
from tests.kiosk.cli_run import pubpoker


def _kiosk(argv: list[str]) -> App:
    args = build_parser(argv).parse_args(argv)
    source, overrides = kiosk_cmd._source(args)
    app = bootstrap(source, overrides=overrides,
                    flow=kiosk_cmd.night(args, source, overrides))
    try:
        kiosk_cmd.begin(app, args, source)
    except BaseException:
        app.close()
        raise
    return app


def _type(app: App, text: str, *, enter: bool = True) -> None:
    for char in text:
        key = pygame.K_SPACE if char == " " else pygame.key.key_code(char.lower())
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, unicode=char, mod=0))
    if enter:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN,
                                             unicode="\r", mod=0))
    app.loop.step(block=False)


EXAMPLE = Path(__file__).resolve().parents[2] / "provisioning" / "pubpoker.example.toml"


@pytest.fixture(params=["no config", "the example config"])
def display(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[App]:
    """The display kiosk without a config, and (the reference) with the shipped example."""
    data = tmp_path / "data"
    pubpoker(data, "tournament", "new", "--name", "Fredag")
    pubpoker(data, "checkin", "--new", "Ada")
    pubpoker(data, "checkin", "--new", "Bo")
    argv = ["--lang", "en", "kiosk", "--role", "display", "--headless", "--size", "640x360",
            "--data-dir", str(data)]
    if request.param == "the example config":
        config = tmp_path / "pubpoker.toml"
        # The example as shipped, with the venue key step 2 pastes in and no sound. The
        # key is this test's own and sync stays on loopback: tests run side by side, and
        # kiosks sharing a key would link and merge each other's nights.
        text = EXAMPLE.read_text().replace("[venue]", f'[venue]\nkey = "{token_hex(32)}"', 1)
        config.write_text(text.replace("sound = true", "sound = false")
                          + '\n[network]\ninterface = "lo"\n')
        argv += ["--config", str(config), "--viewer-port", "0"]
    app = _kiosk(argv)
    try:
        yield app
    finally:
        app.close()


def test_a_display_with_or_without_a_config_shows_check_in_and_takes_a_walk_in(
        display: App) -> None:
    app = display
    app.loop.step(block=False)
    assert isinstance(app.loop.view(), CheckInView)
    lang, clock = app.loop.lang, app.station.state.clock

    _type(app, "n", enter=False)
    # s starts the clock, space pauses it, l changes the language: not while a name is typed.
    _type(app, "Lisa Svensli", enter=False)
    assert app.station.state.clock == clock and not clock.started
    assert app.loop.lang == lang
    _type(app, "")
    checked_in = sorted(p.name for p in app.station.state.players.values() if p.checked_in)
    assert checked_in == ["Ada", "Bo", "Lisa Svensli"]
    assert app.station.state.clock == clock and app.loop.lang == lang
    assert isinstance(app.loop.view(), CheckInView)
