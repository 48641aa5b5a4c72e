"""With no GPIO chip the kiosk starts anyway and says so, in its language (issue 39)."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from hardware.errors import NoGpio
from kiosk.bootstrap import _buttons_not_started
from kiosk.display.hooks import Hooks


def an_app() -> Any:
    return SimpleNamespace(hooks=Hooks())


def test_no_gpio_is_logged_and_stays_on_the_status_line(caplog: pytest.LogCaptureFixture
                                                         ) -> None:
    app = an_app()
    with caplog.at_level(logging.ERROR, logger="kiosk.bootstrap"):
        _buttons_not_started(app, NoGpio(), "nn")
    assert caplog.messages == [
        "buttons not started: Ingen GPIO: knappane er av, tastaturet verkar framleis"]
    (source,) = app.hooks.status_sources
    assert source("da") == ("Ingen GPIO: knapperne er slået fra, tastaturet virker stadig",)
    assert source("en") == ("No GPIO: buttons off, the keyboard still works",)


def test_another_failure_is_only_logged(caplog: pytest.LogCaptureFixture) -> None:
    app = an_app()
    with caplog.at_level(logging.ERROR, logger="kiosk.bootstrap"):
        _buttons_not_started(app, RuntimeError("lgpio: no module"), "nn")
    assert caplog.messages == ["buttons not started: lgpio: no module"]
    assert app.hooks.status_sources == []


@pytest.mark.parametrize(("lang", "said"), [
    ("nn", "GPIO-drivaren «lgpio» er ikkje installert: knappane er av, "
           "tastaturet verkar framleis"),
    ("en", "The GPIO driver 'lgpio' is not installed: buttons off, the keyboard still works"),
])
def test_a_pin_factory_that_is_not_installed_is_said_on_the_status_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, said: str) -> None:
    """Plain Debian 12: the unit names lgpio, which only Raspberry Pi OS ships.

    The kiosk starts with its buttons off and says why in its language, not
    as a traceback about a module.
    """
    from gpiozero import Device  # type: ignore[import-untyped]

    from kiosk.bootstrap import bootstrap
    from kiosk.config import parse_config
    from kiosk.fake_pins import ENV

    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "lgpio")
    monkeypatch.setitem(sys.modules, "lgpio", None)  # import lgpio fails, as on Debian
    monkeypatch.setattr(Device, "pin_factory", None)
    config = parse_config(f'[device]\nrole = "display"\nlanguage = "{lang}"\n'
                          f'data_dir = "{tmp_path / "data"}"\n'
                          '[venue]\nkey = "' + "ab" * 32 + '"\n[buttons]\npause = 17\n',
                          hostname="pi")
    # No phones' page: the config's port 8080 is any other kiosk's beside it on
    # another worker, and the page's retry line would end the status line.
    app = bootstrap(config, fake=True, overrides={"headless": True, "viewer_port": None,
                                                  "size": (320, 180), "max_wait_ms": 20,
                                                  "sound": False})
    try:
        assert app.loop.status_line()[0].endswith(" · " + said)
    finally:
        app.close()
