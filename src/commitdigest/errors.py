"""Every error commitdigest raises on purpose, and the exit code each one maps to.

::

    CommitdigestError                1  anything else we raise knowingly
    ├── UsageError                   2  bad option values: dates, zones, formats, languages
    │   ├── ConfigError              2  the settings file or an environment value is invalid
    │   └── ArchiveError             2  an MCP tool's bad argument (sent back as a tool error)
    ├── SourceError                  3  a repository cannot be read: not a git repo, unknown branch
    │   ├── GitHubAPIError           3  GitHub answered with an error status (after retries)
    │   ├── RateLimitError           3  GitHub's rate limit is spent and resets too late
    │   └── GitLogFormatError        3  git's log stream is not in the format we asked for
    ├── OutputError                  4  a report cannot be written: unwritable --out, bad JSON input
    ├── StoreError                   5  the SQLite store cannot be opened or migrated
    ├── BusyError                    6  another ``commitdigest run`` holds the lock
    ├── ChannelError                 7  a report did not reach a channel (the reports were written)
    │   ├── DeliveryFailed           7  the outcome: a delivery failed after its retries
    │   ├── DeliveryError            7  one attempt to send a message failed (secrets masked)
    │   └── DigestTooLarge           7  a channel's limit is smaller than the digest's head
    ├── LLMError                     8  the LLM endpoint refused or kept failing
    │   ├── LLMUnavailableError      8  it kept failing transiently (5xx, time-outs, 429)
    │   ├── LLMAuthError             8  401/403: the key is missing, wrong or lacks access
    │   ├── ContextLengthError       8  the prompt does not fit the model's context
    │   ├── LLMRequestError          8  refused for a reason retrying will not fix (bad model)
    │   ├── LLMEndpointError         8  every request would fail as configured (unreachable URL,
    │   │                               unknown model, a refused setting): the run stops
    │   └── LLMDegradedError         8  more than llm.max_fallback_share of a run's analyses
    │                                   fell back to the rules (the reports were written)
    └── UpgradeGate                  9  upgrade --fail-on: a breaking change reaches your code
                                        (affected) or exists (breaking); the report is written

Internal signals never reach the user: each stage catches its own before it returns, so
they are not part of the tree (``tests/test_errors_tree.py`` holds this list)::

    sources.gitlog_parse   _Incomplete                      the log stream needs a resync
    analysis.llm.*         JSONExtractionError, WrongLanguage, CallFailed,
                           PromptTooLarge                   a model answer to retry or adapt to
    site.build             _Skip                            a day page to leave as it is

The CLI prints ``error: <message>`` on one line and exits with the code; it never shows a
traceback for these (``-v`` adds one for debugging). Any other exception is a bug and
exits with 70; Ctrl-C exits with 130.
"""

from __future__ import annotations

from datetime import datetime

EXIT_OK = 0
EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130

__all__ = [
    "EXIT_CODES_HELP",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "ArchiveError",
    "BusyError",
    "ChannelError",
    "CommitdigestError",
    "ConfigError",
    "ContextLengthError",
    "DeliveryError",
    "DeliveryFailed",
    "DigestTooLarge",
    "GitHubAPIError",
    "GitLogFormatError",
    "LLMAuthError",
    "LLMDegradedError",
    "LLMEndpointError",
    "LLMError",
    "LLMRequestError",
    "LLMUnavailableError",
    "OutputError",
    "RateLimitError",
    "SourceError",
    "StoreError",
    "UsageError",
]


class CommitdigestError(Exception):
    """Base of every error commitdigest raises on purpose; ``str()`` is one line to show."""

    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class UsageError(CommitdigestError):
    """A bad option value: a date, zone, format, language, window or analyser name."""

    exit_code = 2


class ConfigError(UsageError):
    """The settings file (or an environment value) is invalid; the message names the key."""


class ArchiveError(UsageError):
    """A question the report archive cannot answer: a bad argument, or nothing by that name
    (the MCP server sends it back to the agent as a tool error)."""


class SourceError(CommitdigestError):
    """A repository cannot be read: not a git repository, an unknown branch, a refused host."""

    exit_code = 3


class GitHubAPIError(SourceError):
    """GitHub answered with an error status (after any waits and retries)."""

    def __init__(self, message: str, *, status: int, api_message: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.api_message = api_message


class RateLimitError(SourceError):
    """GitHub's rate limit is spent and resets too late to wait for."""

    def __init__(self, message: str, *, reset_at: datetime | None = None) -> None:
        super().__init__(message)
        self.reset_at = reset_at


class GitLogFormatError(SourceError):
    """git's ``log`` stream is not in the format we asked for (a truncated or foreign
    stream); the reader says which repository."""


class OutputError(CommitdigestError):
    """A report cannot be written: an unwritable ``--out``, an unreadable JSON input."""

    exit_code = 4


class StoreError(CommitdigestError):
    """The SQLite store cannot be opened or migrated."""

    exit_code = 5


class BusyError(CommitdigestError):
    """Another ``commitdigest run`` holds the lock."""

    exit_code = 6


class ChannelError(CommitdigestError):
    """A report did not reach a channel; the reports themselves were written."""

    exit_code = 7


class DeliveryFailed(ChannelError):
    """The outcome of a run or a ``deliver``: a delivery failed after its retries (each
    failed attempt was a :class:`DeliveryError`)."""


class DeliveryError(ChannelError):
    """One attempt to send a message failed; ``str()`` is safe to show (secrets masked).

    ``retryable`` says whether trying again can help (5xx, 429 with its ``retry_after``,
    time-outs, connection errors) or not (4xx, a missing secret).
    """

    def __init__(
        self, message: str, *, retryable: bool = False, retry_after: float | None = None
    ) -> None:
        from commitdigest.redaction import redact

        super().__init__(redact(message))
        self.retryable = retryable
        self.retry_after = retry_after


class DigestTooLarge(ChannelError):
    """Even a digest's title, counts and link exceed the channel's size limit."""


class LLMError(CommitdigestError):
    """Base of the errors a chat client raises on purpose."""

    exit_code = 8

    def __init__(self, message: str, status_code: int | None = None) -> None:
        super().__init__(message)
        self.status_code = status_code


class LLMUnavailableError(LLMError):
    """The endpoint kept failing transiently; ``reason`` is short and human-readable."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"LLM endpoint unavailable: {reason}")
        self.reason = reason


class LLMAuthError(LLMError):
    """401/403: the key is missing, wrong or lacks access. Never retried."""


class ContextLengthError(LLMError):
    """The prompt (plus ``max_tokens``) does not fit the model's context; shrink and retry."""


class LLMRequestError(LLMError):
    """The server refused the request for a reason retrying will not fix (bad model, 404…)."""


class LLMEndpointError(LLMError):
    """Every request would fail as configured: the URL cannot be reached, the model is
    unknown, the server refuses a setting, the quota is spent. The message names the URL,
    where it came from, the server's words and the setting to change; the run stops rather
    than fall back on every commit."""


class LLMDegradedError(LLMError):
    """More than ``llm.max_fallback_share`` of a run's analyses fell back to the rules; the
    reports were written (their coverage line says so) and the run is recorded degraded."""


class UpgradeGate(CommitdigestError):
    """``upgrade --fail-on``: the verdict meets the gate (a breaking change reaches the
    user's code, or any breaking change with ``--fail-on breaking``); the report is
    written. An exit code for CI, not a failure of the check."""

    exit_code = 9


EXIT_CODES_HELP = (
    "Exit codes: 0 success; 1 other known error; 2 bad usage (dates, zones, formats, "
    "languages, config); 3 a repository cannot be read; 4 a report cannot be written; "
    "5 the store cannot be opened; 6 another run holds the lock; 7 a delivery failed "
    "(the reports were written); 8 the LLM endpoint refused or kept failing, or too many "
    "analyses fell back to the rules; 9 upgrade --fail-on: a breaking change reaches your "
    "code (or exists); "
    "70 internal error (a bug: please report it); 130 interrupted."
)
