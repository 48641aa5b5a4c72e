"""``pubpoker demo``: a whole simulated night on the kiosk screens."""
