"""Card numbers: tell an RFID tag from a bank card.

A player card is an RFID tag's UID (an RDM6300 reads 10 hex digits, a PN532
4 or 7 bytes). A payment card's number (PAN) must never be stored, so any
text that carries one is refused before it reaches the database, a log line
or an error message. A PAN is 13 to 19 digits (spaces or dashes allowed)
with a card network's prefix and a valid Luhn check digit; magnetic-stripe
track data (``%B…^`` or ``;…=``) is refused on its shape alone.
"""

from __future__ import annotations

import re

__all__ = ["contains_pan", "luhn_ok", "normalise_uid"]

# Runs of digits that may be split by single spaces or dashes, as printed.
_DIGIT_RUN = re.compile(r"\d(?:[ -]?\d)+")
_TRACK1 = re.compile(r"%?B\d{12,19}\^")
_TRACK2 = re.compile(r";\d{12,19}=")
_UID = re.compile(r"[0-9A-Z]{4,32}")
# Network prefixes (IINs): Mir 2200-2204, Mastercard 2221-2720 and 51-55,
# Diners 30/36/38/39, JCB 35, Amex 34/37, Visa 4, Maestro/Dankort 50/56-59,
# Discover/UnionPay/Maestro 6. Erring wide costs a rare refused tag; erring
# narrow would store a bank card.
_NETWORK = re.compile(r"(?:220[0-4]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720"
                      r"|3[0456789]|4|5|6)")


def luhn_ok(digits: str) -> bool:
    """The Luhn (mod 10) check that every payment card number passes.

    >>> luhn_ok("4111111111111111"), luhn_ok("4111111111111112")
    (True, False)
    """
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def _is_pan(digits: str) -> bool:
    return 13 <= len(digits) <= 19 and bool(_NETWORK.match(digits)) and luhn_ok(digits)


def contains_pan(text: str) -> bool:
    """Does ``text`` carry a payment card number anywhere in it?

    >>> contains_pan("4111 1111 1111 1111"), contains_pan("5500-0000-0000-0004")
    (True, True)
    >>> contains_pan(";4111111111111111=25121010000000000000?")
    True
    >>> contains_pan("0A1B2C3D4E"), contains_pan("1234567890"), contains_pan("Kari Nordmann")
    (False, False, False)
    """
    if _TRACK1.search(text) or _TRACK2.search(text):
        return True
    for match in _DIGIT_RUN.finditer(text):
        # Try every stretch of whole groups: "4111 1111 1111 1111 123" hides a
        # PAN followed by a code, and a spaced run may hold two numbers.
        groups = re.split(r"[ -]", match.group())
        for first in range(len(groups)):
            digits = ""
            for group in groups[first:]:
                digits += group
                if len(digits) > 19:
                    break
                if _is_pan(digits):
                    return True
    return False


def normalise_uid(raw: str) -> str | None:
    """A tag UID in one spelling (upper case, no separators), or None if it is not one.

    >>> normalise_uid(" 0a:1b:2c:3d:4e "), normalise_uid("04-A2-3B-1C"), normalise_uid("x")
    ('0A1B2C3D4E', '04A23B1C', None)
    """
    uid = re.sub(r"[\s:\-]", "", raw).upper()
    return uid if _UID.fullmatch(uid) else None
