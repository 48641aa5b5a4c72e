"""Debian's headless Chromium driven over the DevTools protocol (a few calls, over websockets).

No browser driver package: ``--remote-debugging-port=0`` writes the port it
took to ``DevToolsActivePort`` in the profile, and the page's websocket
takes JSON commands. ``--host-resolver-rules`` resolves no name at all and
the page is loaded by IP, so nothing but the kiosk can answer it; every
request the page makes is recorded (:attr:`Browser.requests`).
"""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
WIDTH, HEIGHT = 390, 844


def have_chromium() -> bool:
    return Path(CHROMIUM).exists()


class Browser:
    def __init__(self) -> None:
        self.profile = tempfile.TemporaryDirectory(prefix="pp-chromium-")
        self.process = subprocess.Popen(
            [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu",
             "--remote-debugging-port=0", "--remote-allow-origins=*",
             f"--user-data-dir={self.profile.name}", f"--window-size={WIDTH},{HEIGHT}",
             "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--disable-extensions",
             "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", "--proxy-server=direct://",
             "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            # Its own group: close() ends the helpers it forks (renderer, crashpad)
            # too, which write to the profile until they exit.
            start_new_session=True)
        self._ids = itertools.count(1)
        self.requests: list[str] = []
        self.console: list[str] = []
        self.ws = self._attach()
        self.call("Network.enable")
        self.call("Runtime.enable")
        self.call("Page.enable")

    def _attach(self) -> ClientConnection:
        active = Path(self.profile.name) / "DevToolsActivePort"
        end = time.monotonic() + 30
        while not (active.exists() and active.read_text().count("\n") >= 1):
            if time.monotonic() > end or self.process.poll() is not None:
                raise RuntimeError("chromium did not start its DevTools endpoint")
            time.sleep(0.05)
        port = int(active.read_text().split()[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=5) as r:
            pages = [t for t in json.load(r) if t.get("type") == "page"]
        # Held open across calls and closed by close(): entered as its own context.
        return connect(pages[0]["webSocketDebuggerUrl"], max_size=None, open_timeout=10,
                       ping_interval=None).__enter__()

    def _event(self, message: dict[str, Any]) -> None:
        method = message.get("method")
        params = message.get("params", {})
        if method == "Network.requestWillBeSent":
            self.requests.append(params["request"]["url"])
        elif method == "Network.webSocketCreated":
            self.requests.append(params["url"])
        elif method == "Runtime.consoleAPICalled":
            self.console.append(" ".join(str(a.get("value")) for a in params.get("args", [])))
        elif method == "Runtime.exceptionThrown":
            self.console.append(json.dumps(params.get("exceptionDetails", {}))[:500])

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        ident = next(self._ids)
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv(timeout=30))
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return dict(message.get("result", {}))
            self._event(message)

    def go(self, url: str) -> None:
        self.call("Page.navigate", url=url)

    def js(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"])
        return result["result"].get("value")

    def set_value(self, element_id: str, value: str, event: str = "input") -> None:
        """Type into an input (or choose in a select) as a person would, with its event."""
        self.js(f"(() => {{ const e = document.getElementById({element_id!r}); "
                f"e.value = {value!r}; e.dispatchEvent(new Event({event!r})); }})()")

    def text(self, element_id: str) -> str:
        return str(self.js(f"(document.getElementById({element_id!r})||{{}}).innerText||''"))

    def wait_for(self, expression: str, timeout: float = 10.0, every: float = 0.02) -> float:
        """Poll ``expression`` in the page until true; returns when (monotonic)."""
        end = time.monotonic() + timeout
        guarded = (f"(() => {{ try {{ return !!({expression}); }} "
                   "catch (e) { return false; } })()")
        while True:
            if self.js(guarded):
                return time.monotonic()
            if time.monotonic() > end:
                raise AssertionError(f"never true in the page: {expression}")
            time.sleep(every)

    def screenshot(self, path: Path) -> None:
        shot = self.call("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(shot["data"]))

    def close(self) -> None:
        try:
            self.ws.close()
        finally:
            self._end_group()
            self.profile.cleanup()

    def _end_group(self) -> None:
        """Chromium and every helper it forked gone: only then is its profile still.

        The main process can exit while a helper still writes a file in the
        profile, and removing it then fails ("Directory not empty").
        """
        group = self.process.pid
        for sig, wait in ((signal.SIGTERM, 10.0), (signal.SIGKILL, 10.0)):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(group, sig)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=wait)
            end = time.monotonic() + wait
            while _group_alive(group) and time.monotonic() < end:
                time.sleep(0.02)
            if not _group_alive(group):
                return
        raise RuntimeError(f"chromium's process group {group} outlived SIGKILL")


def _group_alive(group: int) -> bool:
    """Any process left in ``group`` (zombies of the group's own children excepted:
    they are reaped by init once the main process is gone)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # After the comm: state, ppid, pgrp.
        if int(fields[2]) == group and fields[0] != "Z":
            return True
    return False
