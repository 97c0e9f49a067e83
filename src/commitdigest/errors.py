"""Errors commitdigest raises on purpose, and the exit code each one maps to.

::

    CommitdigestError            1  anything else we raise knowingly
    ├── UsageError               2  bad option values: dates, zones, formats, languages
    ├── SourceError              3  a repository cannot be read: not a git repo, unknown branch
    ├── OutputError              4  a report cannot be written: unwritable --out, bad JSON input
    ├── StoreError               5  the SQLite store cannot be opened or migrated
    ├── BusyError                6  another ``commitdigest run`` holds the lock
    └── DeliveryFailed           7  a delivery failed (the reports were written)

The CLI prints ``error: <message>`` on one line and exits with the code; it never shows a
traceback for these (``-v`` adds one for debugging). Any other exception is a bug and
exits with 70.
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_INTERNAL = 70


class CommitdigestError(Exception):
    """A known failure: one line for the user and an exit code (1 unless a subclass says)."""

    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class UsageError(CommitdigestError):
    """Bad usage: dates, zones, formats, languages, config (exit 2)."""

    exit_code = 2


class SourceError(CommitdigestError):
    """A repository cannot be read (exit 3)."""

    exit_code = 3


class OutputError(CommitdigestError):
    """A report cannot be written (exit 4)."""

    exit_code = 4


class StoreError(CommitdigestError):
    """The SQLite store cannot be opened or used (exit 5)."""

    exit_code = 5


class BusyError(CommitdigestError):
    """Another run holds the lock (exit 6)."""

    exit_code = 6


class DeliveryFailed(CommitdigestError):
    """A delivery failed; the reports were written (exit 7)."""

    exit_code = 7


EXIT_CODES_HELP = (
    "Exit codes: 0 success; 1 other known error; 2 bad usage (dates, zones, formats, "
    "languages, config); 3 a repository cannot be read; 4 a report cannot be written; "
    "5 the store cannot be opened; 6 another run holds the lock; 7 a delivery failed "
    "(the reports were written); 70 internal error (a bug: please report it)."
)
