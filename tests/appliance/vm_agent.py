"""The VM test's guest agent: runs the host's commands, one JSON line each.

Copied into the test VM only (tests/appliance/vmroot.py), never into the
appliance. It reads requests ``{"id": N, "argv": [...], "timeout": S}`` from
a virtio serial port and answers ``{"id": N, "rc": R, "out": "...", "err":
"..."}`` on the same port, so the host reads the guest from outside without
a login, a network or a shell on the console. Standard library only: it
runs with Debian's python3, not the kiosk's venv.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time


def answer(request: dict[str, object]) -> dict[str, object]:
    argv = request.get("argv")
    if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
        return {"id": request.get("id"), "rc": -1, "out": "", "err": "bad request"}
    timeout = request.get("timeout", 60)
    stdin = request.get("stdin")
    try:
        done = subprocess.run(argv, capture_output=True, text=True, errors="replace",
                              timeout=float(timeout) if isinstance(timeout, int | float) else 60,
                              input=stdin if isinstance(stdin, str) else None,
                              check=False)
        return {"id": request.get("id"), "rc": done.returncode, "out": done.stdout,
                "err": done.stderr}
    except subprocess.TimeoutExpired as err:
        return {"id": request.get("id"), "rc": -2, "out": str(err.stdout or ""),
                "err": f"timed out after {timeout} s"}
    except OSError as err:
        return {"id": request.get("id"), "rc": -1, "out": "", "err": str(err)}


def main(port: str) -> None:
    fd = os.open(port, os.O_RDWR | os.O_NOCTTY)
    with os.fdopen(fd, "r+b", buffering=0) as channel:
        buffer = b""
        while True:
            chunk = channel.read(65536)
            if not chunk:
                # The host is not connected yet (or went away): a virtio port reads EOF.
                time.sleep(0.2)
                continue
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                try:
                    request = json.loads(line)
                except ValueError:
                    continue  # a line the host sent before a reconnect, cut short
                if not isinstance(request, dict):
                    continue
                reply = json.dumps(answer(request)).encode() + b"\n"
                view = memoryview(reply)
                while view:
                    view = view[channel.write(view) or 0:]


if __name__ == "__main__":
    main(sys.argv[1])
