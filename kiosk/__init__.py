"""The appliance shell: config, store, sync, display, CLI and the bootstrap."""
