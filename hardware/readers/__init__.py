"""Card readers: one module per kind, a shared base, and the worker thread.

* :mod:`~hardware.readers.rdm6300` - 125 kHz EM4100 (14-byte ASCII frames)
* :mod:`~hardware.readers.pn532` - 13.56 MHz NFC over HSU
* :mod:`~hardware.readers.line` - one UID per line (USB readers in serial mode)
* :mod:`~hardware.readers.wedge` - keyboard-wedge readers on their own input device
* :mod:`~hardware.readers.worker` - runs a reader on a thread, reconnecting

A wedge reader not named in the config is a keyboard like any other: the
display reads it (kiosk/display/input.py).

Only the tag's UID is passed on. Bank card numbers are never stored: the
store refuses them.
"""

from hardware.readers.base import CardReader, ReaderError, SerialPort, StreamReader, open_port
from hardware.readers.line import LineParser, open_line_reader
from hardware.readers.pn532 import Pn532FrameParser, Pn532Reader, open_pn532
from hardware.readers.rdm6300 import Rdm6300Parser, open_rdm6300
from hardware.readers.wedge import open_wedge
from hardware.readers.worker import CardReaderWorker, Deduper

__all__ = [
    "CardReader",
    "CardReaderWorker",
    "Deduper",
    "LineParser",
    "Pn532FrameParser",
    "Pn532Reader",
    "Rdm6300Parser",
    "ReaderError",
    "SerialPort",
    "StreamReader",
    "open_line_reader",
    "open_pn532",
    "open_port",
    "open_rdm6300",
    "open_wedge",
]
