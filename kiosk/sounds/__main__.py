"""``python -m kiosk.sounds`` rewrites the chime WAVs."""

from kiosk.sounds import write_all

for path in write_all():
    print(path)
