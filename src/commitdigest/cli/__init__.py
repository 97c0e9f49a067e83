"""The command line (typer + rich live here only)."""

from commitdigest.cli.app import app, main, script

__all__ = ["app", "main", "script"]
