"""Issue 45, the waiting list (RULES.md F2) on the phones' page, in a real browser.

Debian's headless Chromium on a real ``pubpoker kiosk``, the TD's CLI beside
it: the page lists who waits, in order, under "Venteliste: 2"; "find my seat"
tells a waiting player their place on the list; a bust that lets the first in
moves the list up, and the one let in finds their seat.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.viewer.cdp import Browser, have_chromium
from tests.viewer.realkiosk import PLAYERS, free_port, kiosk, make_night, pubpoker

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.realproc,
              pytest.mark.skipif(not have_chromium(),
                                 reason="Debian's chromium is not installed (.ci/run installs it)")]


@pytest.fixture
def browser() -> Iterator[Browser]:
    page = Browser()
    try:
        yield page
    finally:
        page.close()


def test_F2_the_phone_shows_the_waiting_list_and_your_place_on_it(
        tmp_path: Path, browser: Browser) -> None:
    data = tmp_path / "data"
    # Two tables of five: ten players fill every seat, the next two wait.
    make_night(data, (*PLAYERS, "Ivar Aasen", "Jon Fosse"))
    for name in ("Kari Bye", "Ola Nordmann"):
        pubpoker(data, "checkin", "--new", name)
    port = free_port()
    with kiosk(data, port):
        browser.go(f"http://127.0.0.1:{port}/")
        browser.wait_for("!document.getElementById('waiting-box').hidden")
        assert browser.text("waiting-title") == "Venteliste: 2"
        assert browser.text("waiting").split("\n") == ["Kari Bye", "Ola Nordmann"]
        browser.set_value("search", "ola")
        assert "Venteliste: 2 – du er nr. 2" in browser.text("found")
        browser.set_value("lang", "en", "change")
        assert browser.text("waiting-title") == "Waiting list: 2"
        assert "Waiting list: 2 – you are number 2" in browser.text("found")
        if os.environ.get("PUBPOKER_SAVE_SHOTS"):
            browser.screenshot(Path("/tmp/h45b-phone.png"))

        # A seat comes free: Kari sits down, Ola is first now.
        pubpoker(data, "bust", "Bo Ek")
        browser.wait_for("document.getElementById('waiting-title').innerText"
                         " === 'Waiting list: 1'", timeout=5)
        assert browser.text("waiting") == "Ola Nordmann"
        assert "Waiting list: 1 – you are number 1" in browser.text("found")
        browser.set_value("search", "kari")
        assert "Table " in browser.text("found")
        # Nobody waits: the list goes.
        pubpoker(data, "waitlist", "remove", "Ola")
        browser.wait_for("document.getElementById('waiting-box').hidden", timeout=5)
        assert not [c for c in browser.console if "rror" in c], browser.console
