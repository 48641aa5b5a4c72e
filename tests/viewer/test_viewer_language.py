"""The phones' QR code on the wall follows a language change (issue 48)."""

from __future__ import annotations

import socket
from pathlib import Path

import pygame

from kiosk.bootstrap import Options, bootstrap
from kiosk.display import qr
from kiosk.viewer.words import WORDS
from rules.i18n import LANGUAGES


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_qr_caption_follows_the_walls_language(tmp_path: Path) -> None:
    app = bootstrap(Options(data_dir=str(tmp_path), size=(1280, 720), lang="nn",
                            viewer_port=_free_port()), fake=True)
    try:
        app.loop.step(block=False)
        shown = qr.installed()
        assert shown is not None and shown.caption[0] == WORDS["nn"]["title"]
        for lang in LANGUAGES[1:]:  # l: the next language, as the TD presses it
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_l, mod=0,
                                                 unicode="l"))
            app.loop.step(block=False)
            assert app.loop.lang == lang
            shown = qr.installed()
            assert shown is not None and shown.caption[0] == WORDS[lang]["title"], lang
    finally:
        app.close()
