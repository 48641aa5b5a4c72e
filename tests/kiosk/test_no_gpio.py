"""With no GPIO chip the kiosk starts anyway and says so, in its language (issue 39)."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import pytest

from hardware.errors import NoGpio
from kiosk.bootstrap import _buttons_not_started


def an_app() -> Any:
    return SimpleNamespace(loop=SimpleNamespace(status_sources=[]))


def test_no_gpio_is_logged_and_stays_on_the_status_line(caplog: pytest.LogCaptureFixture
                                                         ) -> None:
    app = an_app()
    with caplog.at_level(logging.ERROR, logger="kiosk.bootstrap"):
        _buttons_not_started(app, NoGpio(), "nn")
    assert caplog.messages == [
        "buttons not started: Ingen GPIO: knappane er av, tastaturet verkar framleis"]
    (source,) = app.loop.status_sources
    assert source("da") == ("Ingen GPIO: knapperne er slået fra, tastaturet virker stadig",)
    assert source("en") == ("No GPIO: buttons off, the keyboard still works",)


def test_another_failure_is_only_logged(caplog: pytest.LogCaptureFixture) -> None:
    app = an_app()
    with caplog.at_level(logging.ERROR, logger="kiosk.bootstrap"):
        _buttons_not_started(app, RuntimeError("lgpio: no module"), "nn")
    assert caplog.messages == ["buttons not started: lgpio: no module"]
    assert app.loop.status_sources == []
