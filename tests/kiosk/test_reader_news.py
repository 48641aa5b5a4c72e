"""A card reader's news on the wall: its loss and its return, not its first start.

The reader worker reports every open as connected, the first one too; said as
"Kortlesaren er tilbake" it stood on the power-on screen (issue 19). Driven
through the real loop's input table (``loop.handle``), as the worker's queue is.
"""

from __future__ import annotations

from pathlib import Path

from hardware.inputs import ReaderStatus
from kiosk.bootstrap import Options, bootstrap


def test_a_reader_is_news_when_lost_and_back_not_when_it_first_opens(tmp_path: Path) -> None:
    with bootstrap(Options(data_dir=str(tmp_path), size=(800, 480)), fake=True) as app:
        loop = app.loop
        loop.handle(ReaderStatus("rdm6300", True, "connected", 0.0))
        loop.step(block=False)
        assert not loop.overlays.popups
        loop.handle(ReaderStatus("rdm6300", False, "unplugged", 1.0))
        assert [p.title for p in loop.overlays.popups] == ["Kortlesaren er kopla frå"]
        loop.handle(ReaderStatus("rdm6300", True, "connected", 2.0))
        assert [p.title for p in loop.overlays.popups] == ["Kortlesaren er tilbake"]
        # Another reader's first start is still not news.
        until = loop.overlays.popups[0].until
        loop.handle(ReaderStatus("keyboard", True, "connected", 3.0))
        assert [(p.title, p.until) for p in loop.overlays.popups] == [
            ("Kortlesaren er tilbake", until)]
