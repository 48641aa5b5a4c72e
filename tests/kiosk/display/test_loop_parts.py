"""The loop's small parts: chime decisions, the chimes themselves, the pixel shift."""

from __future__ import annotations

import itertools
import logging
from pathlib import Path

import pygame
import pytest

from kiosk import sounds
from kiosk.display.shift import SHIFT_PERIOD, amplitude_for, pixel_shift
from kiosk.display.sound import Chime, Chimes, chime_for
from rules import clock as clocks
from rules.commands import PauseClock
from rules.structure import preset
from tests.rules.tournament_kit import Night

STRUCTURE = preset("pf-pokerklub")  # levels of 30 minutes, a break after level 2


def _reading(night: Night, at: float) -> clocks.ClockReading:
    assert night.state.config is not None
    return clocks.read(night.state.config.structure, night.state.clock, at)


@pytest.fixture
def night() -> Night:
    return Night().started(20)


def test_a_new_level_chimes(night: Night) -> None:
    assert chime_for(_reading(night, 1799.0), _reading(night, 1801.0)) is Chime.LEVEL


def test_the_break_starting_chimes_and_its_end_has_its_own_chime(night: Night) -> None:
    assert chime_for(_reading(night, 3599.0), _reading(night, 3601.0)) is Chime.LEVEL
    assert chime_for(_reading(night, 4199.0), _reading(night, 4201.0)) is Chime.BREAK_END


def test_one_minute_left_warns_once(night: Night) -> None:
    assert chime_for(_reading(night, 1739.5), _reading(night, 1740.5)) is Chime.WARNING
    assert chime_for(_reading(night, 1740.5), _reading(night, 1741.5)) is None


def test_nothing_chimes_in_a_quiet_second_or_the_first_reading(night: Night) -> None:
    assert chime_for(_reading(night, 100.0), _reading(night, 101.0)) is None
    assert chime_for(None, _reading(night, 101.0)) is None


def test_a_paused_clock_does_not_warn(night: Night) -> None:
    night.do(PauseClock(), at=1700.0)
    assert chime_for(_reading(night, 1700.0), _reading(night, 1750.0)) is None


def test_the_committed_wavs_are_what_the_synth_makes(tmp_path: Path) -> None:
    for written in sounds.write_all(tmp_path):
        committed = sounds.path_of(written.stem)
        assert committed.read_bytes() == written.read_bytes(), written.name
        assert committed.stat().st_size < 100_000


def test_chimes_play_through_the_dummy_mixer_or_stay_silent() -> None:
    chimes = Chimes()
    try:
        played = chimes.play(Chime.LEVEL)
        assert played == chimes.available
        assert list(chimes.played) == [Chime.LEVEL]
    finally:
        chimes.close()


def test_chimes_can_be_turned_off() -> None:
    chimes = Chimes(enabled=False)
    assert chimes.play(Chime.WARNING) is False
    assert not pygame.mixer.get_init()


def test_a_mixer_that_cannot_start_is_logged_once_and_silent(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    def broken() -> None:
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: False)
    monkeypatch.setattr(pygame.mixer, "init", broken)
    chimes = Chimes()
    with caplog.at_level(logging.WARNING):
        assert chimes.play(Chime.LEVEL) is False
        assert chimes.play(Chime.WARNING) is False
    assert len([r for r in caplog.records if "sound is off" in r.getMessage()]) == 1


def test_the_shift_stays_small_and_moves_one_pixel_at_a_time() -> None:
    amplitude = amplitude_for(1080)
    offsets = [pixel_shift(step * SHIFT_PERIOD, amplitude) for step in range(200)]
    assert all(abs(x) <= amplitude and abs(y) <= amplitude for x, y in offsets)
    for (x0, y0), (x1, y1) in itertools.pairwise(offsets):
        assert abs(x1 - x0) + abs(y1 - y0) <= 1
    assert len(set(offsets)) == (2 * amplitude + 1) ** 2


def test_the_shift_is_a_pure_function_of_time() -> None:
    assert pixel_shift(12345.6, 4) == pixel_shift(12345.6, 4)
    assert pixel_shift(0.0, 4) == pixel_shift(SHIFT_PERIOD - 0.01, 4)


def test_digit_glyphs_are_kept_once_in_white_and_eight_bits() -> None:
    """Grey (paused) and yellow (last minute) are palette swaps, not more cached sets."""
    import dataclasses

    from kiosk.display import fonts
    from kiosk.display.screens import render_clock
    from kiosk.display.viewmodels import clock_view

    state = Night().started(20).state
    surface = pygame.Surface((1280, 720))
    fonts.glyph.cache_clear()
    view = clock_view(state, 100.0)
    render_clock(surface, view)
    render_clock(surface, dataclasses.replace(view, digits="00:42"))
    white = fonts.glyph.cache_info().currsize  # those digits, and the time to the break
    assert white <= len("0123456789:") + len(view.until_break_line)
    for variant in (dataclasses.replace(view, paused=True, paused_text="x"),
                    dataclasses.replace(view, digits="00:42", last_minute=True)):
        render_clock(surface, variant)
    assert fonts.glyph.cache_info().currsize == white
    assert fonts.glyph("0", 200, (255, 255, 255)).get_bitsize() == 8
