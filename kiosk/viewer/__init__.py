"""The players' phones: a live, read-only page of the night, served on the LAN.

:mod:`.night` turns the folded state into the page's JSON (no card UIDs, no
keys, no device ids); :mod:`.feed` builds it on the main loop when the night
changes; :mod:`.server` serves the page, the JSON and a websocket that pushes
each new JSON, on its own thread; :mod:`.words` has the page's own words.
"""
