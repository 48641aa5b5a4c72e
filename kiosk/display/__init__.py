"""The wall screens: view models computed from state, and renderers that draw them.

View models (:mod:`kiosk.display.viewmodels`) are pure: no pygame, only the
strings a screen shows. Renderers (:mod:`kiosk.display.screens`) draw a view
model onto any pygame ``Surface`` from 1280x720 to 3840x2160.
"""
