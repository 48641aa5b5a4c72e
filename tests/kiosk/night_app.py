"""The night a test's kiosk was built with (``bootstrap(flow=...)``)."""

from __future__ import annotations

from kiosk.app import App
from kiosk.night import Night


def night_of(app: App) -> Night:
    """The app's night; the test built it with one."""
    assert isinstance(app.flow, Night), "the app was built without a night"
    return app.flow
