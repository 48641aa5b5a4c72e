"""The players' page in a real browser: Debian's headless Chromium at phone size,
loading from a real ``pubpoker kiosk`` process, with the TD's CLI beside it.

The browser resolves no names and is pointed at the kiosk by IP, and every
request it made is checked to have gone to the kiosk: the page needs no
internet and no CDN. The screenshot for the README is written to
``images/screens/phone-viewer.png`` with ``PUBPOKER_SAVE_REF=1``.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.kiosk.store.helpers import ROOT
from tests.viewer.cdp import HEIGHT, WIDTH, Browser, have_chromium
from tests.viewer.realkiosk import free_port, kiosk, make_night, pubpoker, wait_http

pytestmark = [pytest.mark.slow, pytest.mark.browser,
              pytest.mark.skipif(not have_chromium(),
                                 reason="Debian's chromium is not installed (.ci/run installs it)")]

SHOT = ROOT / "images" / "screens" / "phone-viewer.png"


@pytest.fixture
def browser() -> Iterator[Browser]:
    page = Browser()
    try:
        yield page
    finally:
        page.close()


def test_the_phone_follows_the_night_live_from_the_kiosk_alone(tmp_path: Path,
                                                               browser: Browser) -> None:
    data = tmp_path / "data"
    make_night(data)
    # The night was left paused (make_night); the TD resumes it under the kiosk.
    port = free_port()
    with kiosk(data, port):
        pubpoker(data, "clock", "resume")
        base = f"http://127.0.0.1:{port}"
        night = json.loads(wait_http(base + "/night.json"))
        ada = next(p for p in night["seats"] if p["name"] == "Ada Lovelace")
        other = 3 - ada["table"]
        # Out at the table Ada moves to, so her move still balances the room (a bust
        # at her own table would make balancing keep her there: S2, one way only).
        out = next(p["name"] for p in night["seats"] if p["table"] == other)
        pubpoker(data, "move", "Ada", "--to", str(other))
        browser.go(base + "/")
        browser.wait_for("document.getElementById('level').innerText.length > 0")
        assert browser.text("level") == "Nivå 1"
        assert browser.text("blinds") == "Blindar 100 / 200"
        assert browser.text("players") == "8 / 8"
        # The phone counts down itself: a time under the level's 20:00, moving.
        browser.wait_for("!document.getElementById('paused').offsetParent")
        first = browser.text("digits")
        assert re.fullmatch(r"20:00|1\d:\d\d", first), first
        browser.wait_for(f"document.getElementById('digits').innerText !== {first!r}",
                         timeout=3)
        assert browser.text("stale") == "" or browser.js(
            "document.getElementById('stale').hidden")

        # A bust made with the CLI is on the phone within a second of its commit.
        started = time.monotonic()
        pubpoker(data, "bust", out)
        committed = time.monotonic()
        seen = browser.wait_for(
            f"document.getElementById('placed').innerText.includes({out!r})", timeout=5)
        print(f"\nbust → phone: {seen - committed:.3f} s after the CLI exited "
              f"({seen - started:.3f} s after it started)")
        assert seen - committed < 1.0
        assert browser.text("players") == "7 / 8"

        # Find my seat: a few letters give the table and seat, and the pending move.
        browser.set_value("search", "ada")
        found = browser.text("found")
        assert "Ada Lovelace" in found
        assert re.search(r"Bord [12], sete \d", found), found
        assert re.search(rf"Flytt til bord {other}, sete \d", found), found
        browser.set_value("search", out.split()[-1].lower())
        assert "Slått ut – 8. plass" in browser.text("found")

        # The venue's language by default; switched, no Nynorsk is left.
        browser.set_value("lang", "en", "change")
        assert browser.text("level") == "Level 1"
        assert browser.text("players-label").lower() == "players left"
        browser.set_value("lang", "nn", "change")
        browser.set_value("search", "ada")
        browser.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=HEIGHT,
                     deviceScaleFactor=1, mobile=True)
        if os.environ.get("PUBPOKER_SAVE_REF"):
            SHOT.parent.mkdir(parents=True, exist_ok=True)
            browser.screenshot(SHOT)
        browser.screenshot(tmp_path / "phone.png")
        assert (tmp_path / "phone.png").stat().st_size > 10_000

        # The page asked nothing of any host but the kiosk.
        outside = [u for u in browser.requests
                   if not re.match(rf"(http|ws)://127\.0\.0\.1:{port}/", u)]
        assert browser.requests and not outside, outside
        assert not [c for c in browser.console if "rror" in c], browser.console


def test_a_phone_that_loses_the_kiosk_shows_it_is_stale_and_catches_up(
        tmp_path: Path, browser: Browser) -> None:
    data = tmp_path / "data"
    make_night(data)
    port = free_port()
    with kiosk(data, port):
        browser.go(f"http://127.0.0.1:{port}/")
        browser.wait_for("document.getElementById('level').innerText.length > 0")
        assert browser.js("document.getElementById('stale').hidden")
    # The kiosk is gone (the Wi-Fi dropped, as far as the phone can tell).
    browser.wait_for("!document.getElementById('stale').hidden", timeout=5)
    assert browser.text("stale") == "Ikkje oppdatert – ventar på sambandet"
    assert browser.text("level") == "Nivå 1"  # the night as last known stays
    pubpoker(data, "bust", "Hans Rask")
    with kiosk(data, port):
        # Back: the page reconnects by itself and shows what it missed.
        browser.wait_for("document.getElementById('stale').hidden", timeout=10)
        browser.wait_for("document.getElementById('placed').innerText.includes('Hans Rask')",
                         timeout=5)


def _seconds(text: str) -> int:
    parts = [int(p) for p in text.split(":")]
    return sum(p * 60 ** i for i, p in enumerate(reversed(parts)))


def test_N4_a_phone_with_a_wrong_clock_opening_after_a_quiet_spell_shows_the_walls_time(
        tmp_path: Path, browser: Browser) -> None:
    """The page counts from the kiosk's shared time, not the build time nor the phone's clock."""
    data = tmp_path / "data"
    make_night(data)
    status = tmp_path / "status.json"
    port = free_port()
    # The phone's own clock is seven minutes fast: nothing on the page may follow it.
    browser.call("Page.addScriptToEvaluateOnNewDocument", source=(
        "(() => { const shift = 7 * 60 * 1000, real = Date.now;"
        " Date.now = () => real() + shift; })();"))
    with kiosk(data, port, env={"PUBPOKER_STATUS_FILE": str(status)}):
        pubpoker(data, "clock", "resume")
        time.sleep(8.0)  # a quiet spell: no event, so no new document is built
        browser.go(f"http://127.0.0.1:{port}/")
        browser.wait_for("/^[0-9:]+$/.test(document.getElementById('digits').innerText)")
        browser.wait_for("!document.getElementById('paused').offsetParent")
        phone = _seconds(browser.text("digits"))
        wall = json.loads(status.read_text())["clock"]["remaining"]
        print(f"\nafter 8 s quiet: wall {wall:.1f} s left, the phone shows {phone} s")
        # The page rounds up to whole seconds, and the status file is up to 0.2 s old.
        assert abs(phone - wall) <= 1.5
        assert phone <= 1200 - 6
