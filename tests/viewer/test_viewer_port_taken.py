"""The phones' page when its port is taken: said on the wall, tried again (issue 48)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from kiosk.bootstrap import Options, bootstrap
from kiosk.viewer.attach import RETRY_EVERY
from tests.kiosk.cli_run import pubpoker

SAID = {"nn": "Mobilsida er ikkje oppe på port {port}: porten er i bruk av eit anna program; "
              "stopp det eller vent litt; prøver igjen",
        "nb": "Mobilsiden er ikke oppe på port {port}: porten er i bruk av et annet program; "
              "stopp det eller vent litt; prøver igjen",
        "da": "Mobilsiden kører ikke på port {port}: porten bruges af et andet program; "
              "stop det eller vent lidt; prøver igen",
        "en": "The phones' page is not served on port {port}: the port is in use by another "
              "program; stop it or wait a little; trying again"}

DOCTOR = {"nn": "Mobilsida: ikkje oppe på port {port} sidan ",
          "nb": "Mobilsiden: ikke oppe på port {port} siden ",
          "da": "Mobilsiden: kører ikke på port {port} siden ",
          "en": "Phones' page: not served on port {port} since "}


@pytest.mark.parametrize("lang", ["nn", "nb", "da", "en"])
def test_a_taken_port_is_said_on_the_status_line_and_tried_again(
        tmp_path: Path, lang: str) -> None:
    taken = socket.socket()
    taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    taken.bind(("", 0))
    taken.listen()
    port = int(taken.getsockname()[1])
    app = bootstrap(Options(data_dir=str(tmp_path), size=(1280, 720), lang=lang,
                            viewer_port=port), fake=True)
    try:
        app.loop.step(block=False)
        line, warned = app.loop.status_line()
        assert warned and SAID[lang].format(port=port) in line, line
        assert app.viewer is None
        doctor = pubpoker(tmp_path, "doctor", lang=lang, code=1)
        assert DOCTOR[lang].format(port=port) in doctor.stdout, doctor.stdout
        taken.close()  # the other program lets go
        assert app.time is not None
        app.time.advance(RETRY_EVERY + 1)
        app.loop.step(block=False)
        line, warned = app.loop.status_line()
        assert str(port) not in line, line
        assert app.viewer is not None and app.viewer.port == port
        doctor = pubpoker(tmp_path, "doctor", lang=lang)
        assert str(port) not in doctor.stdout, doctor.stdout
    finally:
        taken.close()
        app.close()
