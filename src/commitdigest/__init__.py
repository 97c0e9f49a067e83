"""commitdigest: daily reports of what changed upstream."""

__version__ = "0.1.0"
