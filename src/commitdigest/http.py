"""The one HTTP layer every remote of commitdigest goes through (GitHub, the chat senders and
the webhook, the LLM client and its rate limiter).

* :func:`async_client` builds every ``httpx2.AsyncClient``: our ``User-Agent``, a time-out,
  connection limits, redirects, and a ``transport`` hook through which tests plug in a
  ``httpx2.MockTransport`` or reach a fake server.
* :class:`RetryPolicy` says how long to wait before trying a failed request again:
  exponential backoff (with jitter unless turned off), never less than what the server asked
  for (:func:`parse_retry_after`), capped.
* :func:`describe_transport_error` words a connection failure in one line, with every
  registered secret masked (:mod:`commitdigest.redaction`): URLs of webhooks hold keys.

``httpx2`` itself is imported only when a client is built, so importing this module costs
nothing at start-up.
"""

from __future__ import annotations

import email.utils
import math
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from commitdigest import __version__
from commitdigest.redaction import redact

if TYPE_CHECKING:
    import httpx2

__all__ = [
    "USER_AGENT",
    "RetryPolicy",
    "async_client",
    "describe_transport_error",
    "parse_retry_after",
]

USER_AGENT = f"commitdigest/{__version__}"


def async_client(
    *,
    headers: Mapping[str, str] | None = None,
    timeout: float = 30.0,
    max_connections: int | None = None,
    follow_redirects: bool = True,
    transport: httpx2.AsyncBaseTransport | None = None,
) -> httpx2.AsyncClient:
    """A client for one remote: ``User-Agent: commitdigest/<version>`` unless ``headers`` set
    another, ``timeout`` seconds per request, at most ``max_connections`` open (and kept
    alive), ``transport`` for tests."""
    import httpx2

    limits = (
        httpx2.Limits(max_connections=max_connections, max_keepalive_connections=max_connections)
        if max_connections is not None
        else httpx2.Limits()
    )
    return httpx2.AsyncClient(
        headers={"User-Agent": USER_AGENT, **(headers or {})},
        timeout=httpx2.Timeout(timeout),
        limits=limits,
        follow_redirects=follow_redirects,
        transport=transport,
    )


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often a failed request is tried, and how long to wait in between.

    ``max_attempts`` counts the first try. After attempt ``n`` the wait is
    ``backoff_initial_s * 2 ** (n - 1)`` up to ``backoff_max_s`` (with ``jitter``, a random
    point in its upper half), or what the server asked for when that is longer (plus a little
    jitter, so a crowd told the same thing does not return as one), at most
    ``retry_after_max_s``.
    """

    max_attempts: int = 4
    backoff_initial_s: float = 1.0
    backoff_max_s: float = 30.0
    retry_after_max_s: float = 60.0
    jitter: bool = True

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")

    def backoff(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (1-based)."""
        base = min(self.backoff_max_s, self.backoff_initial_s * 2.0 ** (attempt - 1))
        if self.jitter:
            base = random.uniform(base / 2.0, base)
        if retry_after is None or retry_after <= base:
            return base
        extra = random.uniform(0.0, min(0.1 * retry_after, 1.0)) if self.jitter else 0.0
        return min(retry_after + extra, self.retry_after_max_s)

    def asks_too_much(self, retry_after: float | None) -> bool:
        """Whether the server asked for a longer wait than this policy will make."""
        return retry_after is not None and retry_after > self.retry_after_max_s


def describe_transport_error(exc: BaseException) -> str:
    """``ConnectError: [Errno 111] Connection refused`` — one line, secrets masked."""
    detail = " ".join(str(exc).split())
    name = type(exc).__name__
    return redact(f"{name}: {detail}" if detail else name)


def parse_retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Seconds asked for by ``retry-after-ms`` or ``Retry-After`` (seconds or an HTTP date);
    ``None`` when the headers ask nothing (or ask nonsense: negative, infinite, unparsable).

    ``headers`` is any mapping (``httpx2.Headers`` too); names are matched case-insensitively.
    """
    if headers is None:
        return None
    lowered = {k.lower(): v for k, v in headers.items()}
    ms = _seconds(lowered.get("retry-after-ms"))
    if ms is not None:
        return ms / 1000.0
    raw = lowered.get("retry-after")
    if raw is None:
        return None
    seconds = _seconds(raw)
    if seconds is not None:
        return seconds
    try:
        when = email.utils.parsedate_to_datetime(raw.strip())
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _seconds(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        value = float(text.strip())
    except ValueError:
        return None
    return value if value >= 0 and math.isfinite(value) else None
