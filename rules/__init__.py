"""The pure rules core of pubpoker-kiosk.

Nothing in this package does I/O, reads a clock or draws random numbers:
time arrives as ``now`` (shared tournament seconds) and randomness as a
``random.Random`` passed in by the caller.
"""
