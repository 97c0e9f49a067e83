"""Secrets never reach an output, a log or the store.

A secret (a token, a webhook URL with its key, a password) is registered when it is read
(:func:`register_secret`); from then on :func:`redact` masks it in any text, and
:func:`install_log_redaction` puts a filter on the HTTP client's loggers and ours (the HTTP
client logs each request's full URL). :class:`~commitdigest.errors.DeliveryError` redacts
its own message.
"""

from __future__ import annotations

import logging
import threading
from urllib.parse import parse_qsl, urlsplit

MASK = "***"
_MIN_SECRET = 4  # shorter values are not masked (they would mask ordinary text)
_SECRETS: set[str] = set()
_SECRETS_LOCK = threading.Lock()


def register_secret(value: str) -> None:
    """Mask ``value`` (and, for a URL, its path, query and their longer parts) from now on."""
    parts = {value}
    if value.startswith(("http://", "https://")):
        try:
            import httpx2  # its normalised form is what the HTTP client logs

            split = urlsplit(value)
            parts.add(str(httpx2.URL(value)))
        except (ValueError, httpx2.InvalidURL):
            split = None
        if split is not None:
            parts.update({split.path, split.query})
            parts.update(seg for seg in split.path.split("/") if len(seg) >= 12)
            parts.update(v for _, v in parse_qsl(split.query) if len(v) >= 8)
    with _SECRETS_LOCK:
        _SECRETS.update(p for p in parts if len(p) >= _MIN_SECRET and p != "/")


def redact(text: str) -> str:
    """``text`` with every registered secret replaced by ``***``."""
    with _SECRETS_LOCK:
        secrets = sorted(_SECRETS, key=len, reverse=True)
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, MASK)
    return text


class RedactingFilter(logging.Filter):
    """Masks registered secrets in a record's message (the HTTP client logs full URLs)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed record: leave it to logging's own error handling
            return True
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        return True


_FILTER = RedactingFilter()
_FILTERED_LOGGERS = (
    "httpx2",
    "httpcore2",
    "httpcore2.connection",
    "httpcore2.http11",
    "httpcore2.http2",
    "httpcore2.proxy",
    "commitdigest",
    "commitdigest.deliver",
)


def install_log_redaction() -> None:
    """Add the redacting filter to the HTTP client's loggers and ours (idempotent)."""
    for name in _FILTERED_LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
