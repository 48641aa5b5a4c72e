"""The table device's own screen: its table, seats, buttons' prompt and the clock.

:mod:`kiosk.table_screen` makes the view model, :mod:`.render` draws it on
the device's small panel, and :mod:`.live` feeds it from the running kiosk
(the controls' step, the pop-up just said, whether a peer gave the time).
"""
