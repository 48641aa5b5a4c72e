"""A PN532's side of an HSU wire, scripted: what a host's driver talks to in tests."""

from __future__ import annotations

import threading
import time
from typing import Protocol

from hardware.readers.pn532 import ACK, Ack, Nack, Pn532Frame, Pn532FrameParser, encode_frame


class Wire(Protocol):
    def read(self, timeout: float) -> bytes: ...

    def write(self, data: bytes) -> None: ...


NO_CARD = encode_frame(0x4B, b"\x00", tfi=0xD5)


def card(uid: str) -> bytes:
    """An InListPassiveTarget response with one ISO14443A target."""
    nfcid = bytes.fromhex(uid)
    data = b"\x01\x01\x00\x44\x00" + bytes([len(nfcid)]) + nfcid
    return encode_frame(0x4B, data, tfi=0xD5)


def corrupt(frame: bytes) -> bytes:
    """Flip a bit in the data: the DCS no longer matches."""
    return frame[:8] + bytes([frame[8] ^ 0x10]) + frame[9:]


class FakePn532(threading.Thread):
    """The chip's side of the wire: ACK and answer each command, resend on NACK.

    The wire is a pty on the host (tests/hardware/conftest.py) or a socket that
    is a VM's serial port (tests/appliance/devices_vm.py).

    ``replies`` holds, for each InListPassiveTarget in turn, the frames to
    send: the first at once, the next one for each NACK. Every frame goes out
    in two writes, so the host sees it split across reads.
    """

    def __init__(self, wire: Wire, replies: list[list[bytes]], *, silent: bool = False) -> None:
        super().__init__(name="fake-pn532")
        self.wire = wire
        self.replies = replies
        self.silent = silent
        self.received: list[Pn532Frame | Ack | Nack] = []
        self.raw = bytearray()
        self._pending: list[bytes] = []
        self._halt = threading.Event()

    def run(self) -> None:
        parser = Pn532FrameParser()
        while not self._halt.is_set():
            data = self.wire.read(0.01)
            self.raw += data
            for frame in parser.feed(data):
                self.received.append(frame)
                if not self.silent:
                    self._answer(frame)

    def stop(self) -> None:
        self._halt.set()
        self.join()

    def _answer(self, frame: Pn532Frame | Ack | Nack) -> None:
        if isinstance(frame, Nack):
            if self._pending:
                self._send(self._pending.pop(0))
            return
        if not isinstance(frame, Pn532Frame) or frame.tfi != 0xD4 or frame.command is None:
            return
        self._send(ACK)
        if frame.command == 0x4A:
            frames = self.replies.pop(0) if self.replies else [NO_CARD]
            self._pending = frames[1:]
            self._send(frames[0])
        elif frame.command == 0x99:  # an unknown command: the chip's error frame
            self._send(bytes.fromhex("0000ff01ff7f8100"))
        else:
            self._send(encode_frame(frame.command + 1, tfi=0xD5))

    def _send(self, data: bytes) -> None:
        half = len(data) // 2
        self.wire.write(data[:half])
        time.sleep(0.002)
        self.wire.write(data[half:])
