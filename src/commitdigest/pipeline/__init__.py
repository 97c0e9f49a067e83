"""The pipeline: read a window's commits, analyse them (through the store's cache), render
and write the reports; the daily run, its catch-up and its schedule."""
