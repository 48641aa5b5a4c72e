"""Adapters that turn buttons and card readers into input messages on a queue."""
