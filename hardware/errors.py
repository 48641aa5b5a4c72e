"""Refusals from the hardware adapters, in the rules core's one error family.

A TD reads these when the kiosk starts with a bad wiring configuration, so
they are translated like every other refusal.
"""

from __future__ import annotations

from rules.errors import RulesError

__all__ = ["HardwareError", "NoGpio", "NoPinFactory", "PinInUse"]


class HardwareError(RulesError):
    """Base of every refusal from ``hardware/``."""

    messages = {
        "nn": "Feil i maskinvareoppsettet",
        "nb": "Feil i maskinvareoppsettet",
        "da": "Fejl i hardwareopsætningen",
        "en": "Hardware configuration error",
    }


class PinInUse(HardwareError, ValueError):
    """Two button functions were given the same GPIO pin."""

    messages = {
        "nn": "GPIO {pin} er brukt av både «{first}» og «{second}»; "
              "kvar knapp treng sin eigen pinne",
        "nb": "GPIO {pin} er brukt av både «{first}» og «{second}»; "
              "hver knapp trenger sin egen pinne",
        "da": "GPIO {pin} bruges af både «{first}» og «{second}»; "
              "hver knap skal have sit eget ben",
        "en": "GPIO {pin} is used by both '{first}' and '{second}'; "
              "each button needs its own pin",
    }


class NoGpio(HardwareError, OSError):
    """No GPIO chip (``/dev/gpiochip*``): a laptop, or a kernel without one.

    The kiosk starts without its buttons; the keyboard still drives it.
    """

    messages = {
        "nn": "Ingen GPIO: knappane er av, tastaturet verkar framleis",
        "nb": "Ingen GPIO: knappene er av, tastaturet virker fortsatt",
        "da": "Ingen GPIO: knapperne er slået fra, tastaturet virker stadig",
        "en": "No GPIO: buttons off, the keyboard still works",
    }


class NoPinFactory(HardwareError, ImportError):
    """The pin factory gpiozero was told to use is not installed.

    Plain Debian 12 has neither ``python3-lgpio`` (Raspberry Pi OS only) nor
    the libgpiod v2 bindings our ``gpiod`` factory needs, so the unit's
    factory cannot load there. The kiosk starts without its buttons; the
    keyboard still drives it.
    """

    messages = {
        "nn": "GPIO-drivaren «{name}» er ikkje installert: knappane er av, "
              "tastaturet verkar framleis",
        "nb": "GPIO-driveren «{name}» er ikke installert: knappene er av, "
              "tastaturet virker fortsatt",
        "da": "GPIO-driveren «{name}» er ikke installeret: knapperne er slået fra, "
              "tastaturet virker stadig",
        "en": "The GPIO driver '{name}' is not installed: buttons off, "
              "the keyboard still works",
    }
